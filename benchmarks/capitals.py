"""Sentences in capitals (runtime/capitals.py): dev rows with their source written in capitals,
translated as the capitals are and read as runtime/capitals.py reads them (each word in small
letters or with a capital, as the model's vocabulary has it), against the same rows in ordinary case;
BLEU and chrF without case (sacreBLEU's lowercase), since the capitals' translation is written in
capitals.

    python -m benchmarks.capitals [--data ../shared/data] [--rows 300] [--show 2] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from benchmarks.report import DIRECTIONS, command_line, dev_rows, finish, table

# The dev files read, the first --rows of each
DEV_FILES = ["tatoeba-dev", "dev", "chat-dev"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--rows", type=int, default=300, help="rows of each dev file")
    parser.add_argument("--show", type=int, default=0, help="rows listed per direction")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        found = dev_rows(args.data, pair, DEV_FILES, swap, args.rows)
        ordinary = [row.source for row in found]
        capitals = [text.upper() for text in ordinary]
        references = [[row.target for row in found]]
        outputs = {"ordinary case": [result.text for result in translator.translate(ordinary, source, target)]}
        with mock.patch("attn.runtime.texts.in_capitals", lambda sentence: False):
            outputs["capitals, read as they are"] = [
                result.text for result in translator.translate(capitals, source, target)
            ]
        outputs["capitals, read as the vocabulary cases words"] = [
            result.text for result in translator.translate(capitals, source, target)
        ]
        for label, written in outputs.items():
            bleu = sacrebleu.corpus_bleu(written, references, lowercase=True)
            chrf = sacrebleu.corpus_chrf([text.lower() for text in written], [[r.lower() for r in references[0]]])
            rows.append([f"{source}→{target}", label, len(found), f"{bleu.score:.2f}", f"{chrf.score:.2f}"])
        pairs = zip(
            capitals, outputs["capitals, read as they are"], outputs["capitals, read as the vocabulary cases words"]
        )
        shown += [
            f"- {source}→{target}: {text}<br>as they are: {before}<br>read: {after}" for text, before, after in pairs
        ][: args.show]
    lines = [
        command_line(),
        "",
        f"The first {args.rows} rows of each of {', '.join(DEV_FILES)} (where the pair has it), their source in capitals; "
        "the installed models' default search; BLEU and chrF without case.",
        "",
        table(["direction", "source", "rows", "BLEU", "chrF"], rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
