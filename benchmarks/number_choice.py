"""Translations that lose or repeat a source number, with the choice among the beam's hypotheses
(runtime/number_choice.py) at each score margin (0: the best scored, as before the choice).

On rows of a dev file, each direction, the installed models' default search, as `attn translate`
gives it (a row of several sentences chosen sentence by sentence), the choice's margin set to each
value in turn: corpus BLEU and chrF (sacreBLEU), the rows whose translation loses or repeats a
number, the rows that differ from margin 0.

    python -m benchmarks.number_choice [--file news-dev] [--rows 600] [--margins 0,0.05,0.1,0.2,0.5] [--show 2] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime.number_choice import number_faults
from attn.runtime.verbatim import NUMBER
from benchmarks.report import DIRECTIONS, command_line, dev_file_arguments, dev_rows, finish, table


def translated(translator, sources: list[str], source: str, target: str, margin: float) -> list[str]:
    """The translations with the choice's margin set to `margin` (the search's too, which keeps
    for one output the hypotheses within it: runtime/number_choice.py SCORE_MARGIN)."""
    with mock.patch("attn.runtime.number_choice.SCORE_MARGIN", margin):
        return [result.text for result in translator.translate(sources, source, target)]


def main() -> None:
    args = dev_file_arguments(
        __doc__.splitlines()[0],
        "changed translations listed per direction (largest margin)",
        ("--margins", "0,0.05,0.1,0.2,0.5", "score margins, comma-separated"),
    )
    translator = attn.load(notify=lambda note: None)
    margins = [float(value) for value in args.margins.split(",")]
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        rows = dev_rows(args.data, pair, [args.file], swap, args.rows)
        if not rows:  # a pair without that file (chat-dev is German's)
            continue
        sources, references = [row.source for row in rows], [row.target for row in rows]
        with_numbers = sum(bool(NUMBER.search(s)) for s in sources)
        best = translated(translator, sources, source, target, 0.0)
        for margin in margins:
            outputs = best if margin == 0 else translated(translator, sources, source, target, margin)
            bleu = sacrebleu.corpus_bleu(outputs, [references]).score
            chrf = sacrebleu.corpus_chrf(outputs, [references]).score
            faults = sum(number_faults(s, output) > 0 for s, output in zip(sources, outputs))
            changed = [(s, b, o) for s, b, o in zip(sources, best, outputs) if o != b]
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
