"""The note on inputs in another language than the one assumed (runtime/misread.py): its false
alarms on English inputs and the German and French inputs it catches, into each model that reads
English (en→de, what `attn translate` uses without --from or --to; en→fr, as a model given by name
with -m and no --from would be).

    python -m benchmarks.misread_inputs [--data ../shared/data] [--lines 600] [--detection-only] [--short-documents] [--out FILE]

English: `--lines` rows of each dev file of the direction (seeded sample); German and French: a
third as many of the dev files' other column. Each is translated at the default search; "copied"
counts the inputs whose translation holds COPIED_SHARE of their words (the identifier reads only
those), then the inputs the identifier reads as another language at each probability. On English
inputs those are false alarms; on the others, catches.

A second table reads every row of those dev files as `attn translate -t fr` (or `-t de`)
does, among English, German and French (runtime/router.py, misread.text_language): how many the
likeliest language of the whole row would have sent to another language's model, how many are
read as another language from their words in small letters alone at OVERRULING_PROBABILITY, and
how many as the router reads them (on German and French rows, those routed to their own model). `--detection-only` gives that table alone (no model runs).

`--short-documents` (alone, no model runs): documents of one or two rows of the dev files (600
rows of each, seeded) with two to nine words in small letters, read as a document given without
--from is (runtime/misread.py document_language, English assumed): how many are read in their own
language.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import attn.runtime as attn
from attn.runtime.language_id import OVERRULING_PROBABILITY, detect_language
from attn.runtime.misread import (
    COPIED_SHARE,
    copied,
    document_language,
    language_read,
    reading,
    small_words,
    text_language,
)
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, data_option, finish, table

PROBABILITIES = (0.5, 0.8, 0.9, 0.99)
TARGETS = ("de", "fr")  # en→de and en→fr
ENGLISH = {  # the English dev files of each direction
    "de": ["tatoeba-dev", "chat-dev", "news-dev", "l10n-dev", "dev"],
    "fr": ["tatoeba-dev", "news-dev", "l10n-dev", "dev"],
}
OTHERS = {"de": ["tatoeba-dev", "chat-dev", "news-dev", "dev"], "fr": ["tatoeba-dev", "news-dev", "dev"]}
PAIR = {"de": "en-de", "fr": "en-fr"}


def sample(path: Path, column: int, count: int) -> list[str]:
    """`count` texts of a column of a corpus, drawn with a fixed seed."""
    texts = [row.target if column else row.source for row in read_tsv(path)]
    return random.Random(len(texts)).sample(texts, min(count, len(texts)))


def measured(translator, texts: list[str], target: str) -> list:
    """[inputs, copied, flagged at each of PROBABILITIES] of English `texts` translated into `target`."""
    outputs = [result.text for result in translator.translate(texts, "en", target)]
    copies = [text for text, output in zip(texts, outputs) if copied(text, output, "en")]
    read = [reading(text, {"en", "de", "fr"}) for text in copies]
    return [len(texts), len(copies)] + [
        sum(language != "en" and probability >= least for language, probability in read) for least in PROBABILITIES
    ]


def read_otherwise(texts: list[str]) -> list:
    """[rows, likeliest not English, read as another language than English from the words in small
    letters alone (language_read), and as the router reads them (text_language)] of `texts`."""
    languages = {"en", "de", "fr"}
    return [
        len(texts),
        sum(detect_language(text, languages)[0] != "en" for text in texts),
        sum(language_read(text, "en", languages) != "en" for text in texts),
        sum(text_language(text, "en", languages)[0] != "en" for text in texts),
    ]


def short_documents(data: Path) -> list[list]:
    """[language, documents, read as their own] of the short documents (module docstring)."""
    found: dict[str, list[str]] = {"en": [], "de": [], "fr": []}
    for pair, other in (("en-de", "de"), ("en-fr", "fr")):
        for name in ["chat-dev", "tatoeba-dev", "news-dev", "dev", "l10n-dev"]:
            path = data / pair / f"{name}.tsv.gz"
            if not path.is_file():
                continue
            rows = read_tsv(path)
            draw = random.Random(len(rows))
            draw.shuffle(rows)
            for start in range(0, min(len(rows), 600), 2):
                size = draw.choice([1, 2])
                for language, column in (("en", 0), (other, 1)):
                    text = " ".join(row.target if column else row.source for row in rows[start : start + size])
                    if 2 <= len(small_words(text)) < 10:
                        found[language].append(text)
    return [
        [language, len(texts), sum(document_language([text], {"en", "de", "fr"}, "en") == language for text in texts)]
        for language, texts in found.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--lines", type=int, default=600, help="English rows per dev file")
    parser.add_argument("--detection-only", action="store_true", help="the second table alone")
    parser.add_argument("--short-documents", action="store_true", help="short documents read as one language")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.short_documents:
        header = ["language", "documents", "read as their own"]
        finish([command_line(), "", table(header, short_documents(args.data))], args.out)
        return
    files = sorted({(PAIR[target], name, 0) for target in TARGETS for name in ENGLISH[target]})
    files += [(PAIR[language], name, 1) for language in TARGETS for name in OTHERS[language]]
    detected = []
    for pair, name, column in files:
        texts = [row.target if column else row.source for row in read_tsv(args.data / pair / f"{name}.tsv.gz")]
        detected.append([f"{pair}/{name}", pair.split("-")[column], *read_otherwise(texts)])
    detection = [
        "Every row of the dev files read as `-t fr` reads it, among English, German and French (English rows: "
        "misread; German and French rows: read as their own).",
        "",
        table(
            [
                "dev file",
                "rows in",
                "rows",
                "likeliest not English",
                f"read as another from the words in small letters at p ≥ {OVERRULING_PROBABILITY}",
                "read as another by text_language (the whole text too, where they agree)",
            ],
            detected,
        ),
    ]
    if args.detection_only:
        finish([command_line(), "", *detection], args.out)
        return
    translator = attn.load(notify=lambda note: None)
    rows = []
    for target in TARGETS:
        inputs = [
            ("en", name, sample(args.data / PAIR[target] / f"{name}.tsv.gz", 0, args.lines)) for name in ENGLISH[target]
        ]
        inputs += [
            (language, name, sample(args.data / PAIR[language] / f"{name}.tsv.gz", 1, args.lines // 3))
            for language in TARGETS
            for name in OTHERS[language]
        ]
        for language, name, texts in inputs:
            rows.append([f"en→{target}", f"{language} ({name})", *measured(translator, texts, target)])
    lines = [
        command_line(),
        "",
        f"Inputs translated by the model that reads English; copied: {COPIED_SHARE:.0%} of their words or more in "
        "the translation; then read as another language at each probability (English rows: false alarms).",
        "",
        table(["model", "inputs (dev file)", "inputs", "copied", *(f"flagged, p ≥ {p}" for p in PROBABILITIES)], rows),
        "",
        *detection,
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
