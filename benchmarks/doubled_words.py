"""A word a translation doubles where its source does not, written once (runtime/stutter.py): on the
first rows of a dev file, each direction, the installed models' translations with the rule and
without it (runtime/texts.py's undoubled replaced by one that leaves a translation as it is), same
run: rows changed, translations doubling a word of four letters or more, BLEU and chrF of all the
rows and of those changed.

    python -m benchmarks.doubled_words [--file news-dev] [--rows 600] [--show 3] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime.stutter import doubles
from benchmarks.report import DIRECTIONS, changes_shown, command_line, dev_file_arguments, dev_rows, finish, table


def scores(outputs: list[str], references: list[str]) -> list[str]:
    if not outputs:
        return ["", ""]
    bleu, chrf = sacrebleu.corpus_bleu(outputs, [references]), sacrebleu.corpus_chrf(outputs, [references])
    return [f"{bleu.score:.2f}", f"{chrf.score:.2f}"]


def main() -> None:
    args = dev_file_arguments(__doc__.splitlines()[0], "rows listed per direction that the rule changed")
    translator = attn.load(notify=lambda note: None)
    rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        found = dev_rows(args.data, pair, [args.file], swap, args.rows)
        sources, references = [row.source for row in found], [row.target for row in found]
        once = [result.text for result in translator.translate(sources, source, target)]
        with mock.patch("attn.runtime.texts.undoubled", lambda alignment: alignment):
            written = [result.text for result in translator.translate(sources, source, target)]
        changed = [i for i, (a, b) in enumerate(zip(written, once)) if a != b]
        for label, outputs in (("without the rule", written), ("with it", once)):
            doubling = sum(
                bool(doubles(output.split())) and not doubles(text.split()) for text, output in zip(sources, outputs)
            )
            rows.append(
                [
                    f"{source}→{target}",
                    label,
                    len(found),
                    len(changed),
                    doubling,
                    *scores(outputs, references),
                    *scores([outputs[i] for i in changed], [references[i] for i in changed]),
                ]
            )
        shown += changes_shown(sources, written, once, f"{source}→{target}", args.show)
    header = [
        "direction",
        "translated",
        "rows",
        "changed",
        "a word doubled",
        "BLEU",
        "chrF",
        "BLEU, changed",
        "chrF, changed",
    ]
    finish([command_line(), "", f"The first rows of {args.file}.", "", table(header, rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
