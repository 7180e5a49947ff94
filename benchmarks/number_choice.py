"""Translations that lose or repeat a source number, with the choice among the beam's hypotheses
(runtime/number_choice.py) at each score margin (0: the best scored, as before the choice).

On rows of a dev file, each direction, the installed models' 5-best lists (default search), put
back in score order; then, for each margin, the translation numbers_kept_first gives: corpus BLEU
and chrF (sacreBLEU), the rows whose translation loses or repeats a number, the rows it changes.

    python -m benchmarks.number_choice [--file news-dev] [--rows 600] [--skip 0] [--margins 0,0.05,0.1,0.2,0.5] [--show 2] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import sacrebleu

import attn.runtime as attn
from attn.runtime.number_choice import number_faults, numbers_kept_first
from attn.runtime.verbatim import NUMBER
from benchmarks.report import DIRECTIONS, command_line, dev_rows, finish, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--file", default="news-dev", help="the dev file of each pair (NAME.tsv.gz)")
    parser.add_argument("--rows", type=int, default=600, help="its rows up to this one")
    parser.add_argument("--skip", type=int, default=0, help="its first rows left out")
    parser.add_argument("--margins", default="0,0.05,0.1,0.2,0.5", help="score margins, comma-separated")
    parser.add_argument(
        "--show", type=int, default=0, help="changed translations listed per direction (largest margin)"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    margins = [float(value) for value in args.margins.split(",")]
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        rows = dev_rows(args.data, pair, [args.file], swap, args.rows)[args.skip :]
        if not rows:  # a pair without that file (chat-dev is German's)
            continue
        sources, references = [row.source for row in rows], [row.target for row in rows]
        ranked = [
            sorted(result.n_best, key=lambda translation: -translation.score)
            for result in translator.translate(sources, source, target, n_best=5)
        ]
        best = [found[0].text for found in ranked]
        for margin in margins:
            outputs = [next(numbers_kept_first(s, iter(found), margin)).text for s, found in zip(sources, ranked)]
            bleu = sacrebleu.corpus_bleu(outputs, [references]).score
            chrf = sacrebleu.corpus_chrf(outputs, [references]).score
            faults = sum(number_faults(s, output) > 0 for s, output in zip(sources, outputs))
            changed = [(s, b, o) for s, b, o in zip(sources, best, outputs) if o != b]
            with_numbers = sum(bool(NUMBER.search(s)) for s in sources)
            table_rows.append(
                [
                    f"{source}→{target}",
                    margin,
                    len(rows),
                    with_numbers,
                    faults,
                    len(changed),
                    f"{bleu:.2f}",
                    f"{chrf:.2f}",
                ]
            )
        shown += [f"- {source}→{target}: {s}<br>best: {b}<br>chosen: {o}" for s, b, o in changed[: args.show]]
    header = ["direction", "margin", "rows", "with a number", "a number lost or repeated", "changed", "BLEU", "chrF"]
    finish([command_line(), "", table(header, table_rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
