"""The `--check` notes on lost and added numbers (runtime/verbatim.py `lost_numbers`,
`added_numbers`) on the news dev sets: how many outputs of the installed models each flags, and
how many references (which hold every number the source needs and no other, unless they reword,
drop or add one: the note's false alarms are at most those).

    python -m benchmarks.number_check [--data ../shared/data] [--show 5] [--out FILE]

The rows of `news-dev` (en→de, en→fr, de→en) whose source holds a number of two digits or more,
translated at the default search; with `--show N`, the first N flagged outputs of each direction.
"""

from __future__ import annotations

import attn.runtime as attn
from attn.runtime.tsv import read_tsv
from attn.runtime.verbatim import NUMBER, added_numbers, digits_of, lost_numbers
from benchmarks.report import command_line, dev_set_arguments, finish, table

DIRECTIONS = [("en-de", "en", "de", False), ("en-fr", "en", "fr", False), ("en-de", "de", "en", True)]


def main() -> None:
    args = dev_set_arguments(__doc__.splitlines()[0], "flagged outputs listed per direction")
    translator = attn.load(notify=lambda note: None)
    rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        found = [
            row
            for row in read_tsv(args.data / pair / "news-dev.tsv.gz", swap_columns=swap)
            if any(len(digits_of(match.group())) >= 2 for match in NUMBER.finditer(row.source))
        ]
        outputs = [result.text for result in translator.translate([row.source for row in found], source, target)]
        counts = [f"{source}→{target}", len(found)]
        for check in (lost_numbers, added_numbers):
            flagged = [(row, output) for row, output in zip(found, outputs) if check(row.source, output)]
            counts += [len(flagged), sum(bool(check(row.source, row.target)) for row in found)]
            shown += [
                f"- {source}→{target}, {check.__name__.split('_')[0]} {', '.join(check(row.source, output))}: "
                f"{row.source}<br>output: {output}"
                for row, output in flagged[: args.show]
            ]
        rows.append(counts)
    lines = [
        command_line(),
        "",
        "Rows of news-dev whose source holds a number of two digits or more; the installed models' default search.",
        "",
        table(["direction", "rows", "outputs losing one", "references", "outputs adding one", "references"], rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
