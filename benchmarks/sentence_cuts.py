"""Where runtime/sentences.py cuts a text into sentences, with and without its rule against cuts
inside a sentence (`within_sentence`: after an abbreviation or a title of the language, a German day before its
month): on the test files of each pair, in each language, the
share of the joins between two rows that end a sentence it cuts at (recall), and the rows it cuts
inside, per 1,000 (an upper bound of its false cuts: a few rows hold two sentences).

    python -m benchmarks.sentence_cuts [--without-ordinals] [--data ../shared/data] [--out FILE]

`--without-ordinals` leaves out the rule's German ordinals after an article or a possessive
(runtime/sentences.py GERMAN_DETERMINERS), to compare with.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import attn.runtime.sentences as sentences
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, data_option, finish, table

# (pair folder, file, its source's language, its target's)
FILES = [
    ("en-de", "test", "en", "de"),
    ("en-de", "l10n-test", "en", "de"),
    ("en-de", "tatoeba-test", "en", "de"),
    ("en-fr", "test", "en", "fr"),
    ("en-fr", "tatoeba-test", "en", "fr"),
]
ENDS = (".", "!", "?")


def measured(texts: list[str], language: str) -> tuple[int, int, int, int]:
    """(joins cut at, joins, rows cut inside, rows) of `texts`."""
    whole = [text for text in texts if text.strip() and len(sentences.split_sentences(text, language)) == 1]
    ended = [text for text in whole if text.rstrip().endswith(ENDS)]
    pairs = list(zip(ended[::2], ended[1::2]))
    cut = sum(len(sentences.split_sentences(f"{first} {second}", language)) == 2 for first, second in pairs)
    inside = sum(len(sentences.split_sentences(text, language)) > 1 for text in texts if text.strip())
    return cut, len(pairs), inside, sum(1 for text in texts if text.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--without-ordinals", action="store_true", help="no German ordinal keeps a sentence whole")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.without_ordinals:
        sentences.GERMAN_DETERMINERS = frozenset()
    rows = []
    for pair, name, source, target in FILES:
        path = args.data / pair / f"{name}.tsv.gz"
        if not path.is_file():
            continue
        found = read_tsv(path)
        for language, texts in ((source, [row.source for row in found]), (target, [row.target for row in found])):
            with mock.patch.object(sentences, "within_sentence", lambda text, position, language: False):
                before = measured(texts, language)
            after = measured(texts, language)
            row = [f"{pair}/{name}", language]
            for cut, joins, inside, total in (before, after):
                row += [f"{100 * cut / max(joins, 1):.1f}% of {joins}", f"{1000 * inside / max(total, 1):.1f}"]
            rows.append(row)
    header = [
        "file",
        "language",
        "recall, without the rule",
        "cuts inside rows ‰, without",
        "recall, with",
        "cuts inside ‰, with",
    ]
    lines = [command_line(), "", table(header, rows)]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
