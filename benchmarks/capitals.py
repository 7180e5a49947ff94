"""Capitals (runtime/capitals.py): dev rows with their source written in capitals, and dev rows
that open with a label before a colon ("Note: …") with that label written in capitals ("NOTE: …"),
translated as the capitals are and read as runtime/capitals.py reads them (each word in small
letters or with a capital, as the model's vocabulary has it), against the same rows in ordinary
case; BLEU and chrF without case (sacreBLEU's lowercase), since what was in capitals is translated
into capitals.

    python -m benchmarks.capitals [--data ../shared/data] [--rows 300] [--show 2] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime.capitals import LABEL
from benchmarks.report import DIRECTIONS, command_line, data_option, dev_rows, finish, table

# The dev files read: the first --rows of each for whole sentences, every row with a label
DEV_FILES = ["tatoeba-dev", "dev", "chat-dev"]
LABEL_FILES = ["dev", "l10n-dev", "tatoeba-dev", "chat-dev", "news-dev"]


def label_in_capitals(text: str) -> str | None:
    """`text` with the label that opens it (capitals.LABEL) in capitals, when the label opens
    with a capital and is not in capitals already; else None."""
    label = LABEL.match(text)
    if label is None or not label.group("label")[:1].isupper() or label.group("label").isupper():
        return None
    return label.group("label").upper() + text[label.end("label") :]


def compared(translator, ordinary: list[str], capitals: list[str], source, target):
    """(label, outputs) of the rows in ordinary case, in capitals read as they are, and read as
    runtime/capitals.py reads them."""
    outputs = {"ordinary case": [result.text for result in translator.translate(ordinary, source, target)]}
    with mock.patch("attn.runtime.source_reading.read_cased", lambda sentence, *reading: sentence):
        outputs["capitals, read as they are"] = [
            result.text for result in translator.translate(capitals, source, target)
        ]
    outputs["capitals, read as the vocabulary cases words"] = [
        result.text for result in translator.translate(capitals, source, target)
    ]
    return outputs


def scored(direction: str, outputs: dict[str, list[str]], references: list[str]) -> list[list]:
    rows = []
    for label, written in outputs.items():
        bleu = sacrebleu.corpus_bleu(written, [references], lowercase=True)
        chrf = sacrebleu.corpus_chrf([text.lower() for text in written], [[r.lower() for r in references]])
        rows.append([direction, label, len(references), f"{bleu.score:.2f}", f"{chrf.score:.2f}"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--rows", type=int, default=300, help="rows of each dev file")
    parser.add_argument("--show", type=int, default=0, help="rows listed per direction")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    sentences, labels, shown = [], [], []
    for pair, source, target, swap in DIRECTIONS:
        direction = f"{source}→{target}"
        found = dev_rows(args.data, pair, DEV_FILES, swap, args.rows)
        ordinary = [row.source for row in found]
        capitals = [text.upper() for text in ordinary]
        references = [row.target for row in found]
        outputs = compared(translator, ordinary, capitals, source, target)
        sentences += scored(direction, outputs, references)
        labelled = [
            (row, label_in_capitals(row.source))
            for row in dev_rows(args.data, pair, LABEL_FILES, swap)
            if label_in_capitals(row.source)
        ]
        label_outputs = compared(
            translator,
            [row.source for row, _ in labelled],
            [text for _, text in labelled],
            source,
            target,
        )
        labels += scored(direction, label_outputs, [row.target for row, _ in labelled])
        for written, outputs_of in ((capitals, outputs), ([text for _, text in labelled], label_outputs)):
            pairs = zip(
                written,
                outputs_of["capitals, read as they are"],
                outputs_of["capitals, read as the vocabulary cases words"],
            )
            shown += [
                f"- {direction}: {text}<br>as they are: {before}<br>read: {after}" for text, before, after in pairs
            ][: args.show]
    header = ["direction", "source", "rows", "BLEU", "chrF"]
    lines = [
        command_line(),
        "",
        f"The first {args.rows} rows of each of {', '.join(DEV_FILES)} (where the pair has it), their source in capitals; "
        "the installed models' default search; BLEU and chrF without case.",
        "",
        table(header, sentences),
        "",
        f"Every row of {', '.join(LABEL_FILES)} (where the pair has it) whose source opens with a label of one to three "
        'words before a colon, the label in capitals ("Note: …" → "NOTE: …"); the same search and scores.',
        "",
        table(header, labels),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
