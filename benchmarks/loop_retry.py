"""Translations that ran to the length limit in a loop, searched again with no 4-gram of pieces
repeated (runtime/second_searches.py ran_to_the_limit), against the same models without that
second search.

On rows of a dev file, each direction, the installed models' default search as `attn translate`
gives it: corpus BLEU and chrF (sacreBLEU), the sentences searched again (those whose translation
ran to the limit repeating a 4-gram; each one more search: the rule's cost), the rows that
differ, sentence chrF of the changed rows without and with the rule, and the first changed rows
of each direction.

    python -m benchmarks.loop_retry [--file news-dev] [--rows 3000] [--show 2] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

from sacrebleu.metrics import CHRF

import attn.runtime as attn
from benchmarks.report import (
    DIRECTIONS,
    changes_shown,
    command_line,
    dev_file_arguments,
    dev_rows,
    finish,
    searched_again,
    second_search_row,
    table,
)


def changed_chrf(before: list[str], after: list[str], references: list[str]) -> tuple[str, str]:
    """Mean sentence chrF of the rows the rule changed, without it and with it ("" where none)."""
    changed = [i for i, (b, a) in enumerate(zip(before, after)) if b != a]
    if not changed:
        return "", ""
    chrf = CHRF()
    return tuple(
        f"{sum(chrf.sentence_score(outputs[i], [references[i]]).score for i in changed) / len(changed):.1f}"
        for outputs in (before, after)
    )


def main() -> None:
    args = dev_file_arguments(__doc__.splitlines()[0], "changed translations listed per direction")
    translator = attn.load(notify=lambda note: None)
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        rows = dev_rows(args.data, pair, [args.file], swap, args.rows)
        if not rows:
            continue
        sources, references = [row.source for row in rows], [row.target for row in rows]
        before, _ = searched_again(translator, sources, source, target, "ran_to_the_limit", rule=False)
        after, again = searched_again(translator, sources, source, target, "ran_to_the_limit", rule=True)
        chrf_before, chrf_after = changed_chrf(before, after, references)
        for name, outputs, changed in (("without", before, chrf_before), ("searched again", after, chrf_after)):
            cells = [f"{source}→{target}", name, len(rows)]
            table_rows.append([*second_search_row(cells, outputs, before, after, again, references), changed])
        shown += changes_shown(sources, before, after, f"{source}→{target}", args.show)
    header = ["direction", "second search", "rows", "searched again", "changed", "BLEU", "chrF"]
    header += ["changed rows' chrF"]
    finish([command_line(), "", table(header, table_rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
