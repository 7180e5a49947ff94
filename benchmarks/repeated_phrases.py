"""Words and phrases a translation repeats that its source does not.

On the first rows of a dev file, each direction, how many of the installed models' translations hold a word twice in a row
("jedoch jedoch") or a two-word phrase twice ("in 41 States in 41 States"), the source holding
neither, with each blocking of repeated n-grams of pieces asked for (0: none), same run.

    python -m benchmarks.repeated_phrases [--file news-dev] [--rows 600] [--ngrams 0,4] [--show 3] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import re
from collections import Counter

import attn.runtime as attn
from benchmarks.report import DIRECTIONS, command_line, dev_file_arguments, dev_rows, finish, table

WORD = re.compile(r"\w+")


def doubled_words(text: str) -> set[str]:
    """The words `text` writes twice in a row (digits aside: "10 10" is a score)."""
    words = WORD.findall(text.lower())
    return {a for a, b in zip(words, words[1:]) if a == b and not a.isdigit()}


def repeated_phrases(text: str) -> set[tuple[str, str]]:
    """The two-word phrases `text` holds more than once, but for those of two short words
    ("de la", "in the")."""
    words = WORD.findall(text.lower())
    counts = Counter(zip(words, words[1:]))
    return {phrase for phrase, count in counts.items() if count > 1 and max(map(len, phrase)) > 3}


def repeats_of_its_own(source: str, translation: str) -> tuple[bool, bool]:
    """(the translation doubles a word the source does not double, the translation repeats a phrase
    the source does not repeat)."""
    return (
        bool(doubled_words(translation) - doubled_words(source)),
        bool(repeated_phrases(translation) - repeated_phrases(source)),
    )


def main() -> None:
    args = dev_file_arguments(
        __doc__.splitlines()[0],
        "translations listed per direction that repeat",
        ("--ngrams", "0,4", "no_repeat_ngram values, comma-separated (0: none)"),
    )
    translator = attn.load(notify=lambda note: None)
    ngrams = [int(value) for value in args.ngrams.split(",")]
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        sources = [row.source for row in dev_rows(args.data, pair, [args.file], swap, args.rows)]
        for n in ngrams:
            outputs = [r.text for r in translator.translate(sources, source, target, no_repeat_ngram=n)]
            flags = [repeats_of_its_own(s, t) for s, t in zip(sources, outputs)]
            words, phrases = (sum(flag[i] for flag in flags) for i in (0, 1))
            table_rows.append([f"{source}→{target}", n, len(sources), words, phrases])
            repeating = [t for t, flag in zip(outputs, flags) if any(flag)]
            shown += [f"- {source}→{target}, n = {n}: {t}" for t in repeating[: args.show]]
    header = ["direction", "no_repeat_ngram", "rows", "a word doubled", "a phrase repeated"]
    finish([command_line(), "", table(header, table_rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
