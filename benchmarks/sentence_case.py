"""A translation opened with a capital where its source, a sentence ending with its point, question
or exclamation mark, opens with one (runtime/capitals.py opened_as_source; "Zimmer 204 ist frei." had
come out "room 204 is free."), on and off: on the first --rows rows of every dev file, each
direction, the installed models' default search: the rows the rule changed, how many of their
references open with a capital, and BLEU and chrF with the rule and without it.

    python -m benchmarks.sentence_case [--rows 300] [--files NAME ...] [--data ../shared/data] [--show 3] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from benchmarks.report import (
    DEV_FILES,
    DIRECTIONS,
    command_line,
    data_option,
    dev_rows,
    finish,
    table,
    with_and_without,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300, help="the first rows of each file")
    parser.add_argument("--files", nargs="+", default=DEV_FILES)
    parser.add_argument("--show", type=int, default=3, help="changed rows listed per direction")
    parser.add_argument("--out", type=Path, default=None)
    data_option(parser)
    args = parser.parse_args()
    translator, lines, shown = attn.load(notify=lambda note: None), [], []
    for pair, source, target, swap in DIRECTIONS:
        for name in args.files:
            rows = dev_rows(args.data, pair, [name], swap, args.rows)
            if not rows:
                continue
            texts, references = [row.source for row in rows], [row.target for row in rows]
            cased, uncased = with_and_without(
                translator, texts, source, target, mock.patch("attn.runtime.texts.a_sentence", lambda words: False)
            )
            changed = [i for i, (off, on) in enumerate(zip(uncased, cased)) if off != on]
            capital = sum(references[i][:1].isupper() for i in changed)
            scores = [
                f"{metric(outputs, [references]).score:.2f}"
                for metric in (sacrebleu.corpus_bleu, sacrebleu.corpus_chrf)
                for outputs in (uncased, cased)
            ]
            lines.append([f"{source}→{target}", name, len(rows), len(changed), capital, *scores])
            shown += [
                f"- {source}→{target} {name}: {texts[i]}<br>without: {uncased[i]}<br>with: {cased[i]}<br>reference: {references[i]}"
                for i in changed[: args.show]
            ]
    header = [
        "direction",
        "file",
        "rows",
        "changed",
        "reference opens with a capital",
        "BLEU without",
        "BLEU with",
        "chrF without",
        "chrF with",
    ]
    finish([command_line(), "", table(header, lines), "", *shown], args.out)


if __name__ == "__main__":
    main()
