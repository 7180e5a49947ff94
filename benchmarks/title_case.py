"""English in Title Case ("Summary of Results", a heading, a menu, a table cell) translated as it is,
or in sentence case ("Summary of results"), on the rows of dev files whose source is Title Case.

    python -m benchmarks.title_case --data ../shared/data/en-de/l10n-dev.tsv.gz [--data …] --to de \\
        [--out docs/studies/TITLE-CASE.md]

A source is Title Case when it has at least two words of four letters or more, all of them
capitalized, and is not all capitals; sentence case keeps its first word, words in capitals
(acronyms) and words with a capital or digit inside ("iPhone", "MP3"), and lowercases the rest.
Scored against the references, per file: chrF and BLEU.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import sacrebleu

import attn.runtime as attn
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table

WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def is_title_case(text: str) -> bool:
    words = WORD.findall(text)
    long = [word for word in words if len(word) >= 4]
    return len(long) >= 2 and all(word[0].isupper() for word in long) and not text.isupper()


def sentence_case(text: str) -> str:
    words = text.split(" ")

    def lowered(word: str) -> str:
        core = word.strip("\"'()[]“”‘’:,.!?")
        if not core or core.isupper() or re.search(r"\d|.[A-Z]", core):
            return word
        return word.lower()

    return " ".join([words[0], *map(lowered, words[1:])])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", action="append", required=True)
    parser.add_argument("--to", required=True)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows_out = []
    for data in args.data:
        rows = [row for row in read_tsv(data) if is_title_case(row.source)]
        sources, references = [row.source for row in rows], [[row.target for row in rows]]
        as_is = [result.text for result in translator.translate(sources, "en", args.to)]
        cased = [result.text for result in translator.translate([sentence_case(s) for s in sources], "en", args.to)]
        for name, outputs in (("as it is", as_is), ("sentence case", cased)):
            rows_out.append(
                [
                    Path(data).name,
                    len(rows),
                    name,
                    f"{sacrebleu.corpus_chrf(outputs, references).score:.2f}",
                    f"{sacrebleu.corpus_bleu(outputs, references).score:.2f}",
                ]
            )
    lines = [
        command_line(),
        "",
        f"English → {args.to}, the installed model's default search; the rows whose source is Title Case.",
        "",
        table(["file", "rows", "source", "chrF", "BLEU"], rows_out),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
