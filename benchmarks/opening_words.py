"""A sentence's first word that its translation copied as written, though the model's vocabulary
holds it whole in small letters (runtime/opening_words.py), searched again in small letters, against
the same models without that second search.

On rows of a dev file, each direction whose source language writes a capital within a sentence only
for a name, the installed models' default search as `attn translate` gives it: corpus BLEU and chrF
(sacreBLEU), the rows whose translation opens with its source's first word so copied, the sentences
searched again (each one more search: the rule's cost), the rows that differ, and the first changed
rows of each direction.

    python -m benchmarks.opening_words [--file news-dev] [--rows 600] [--show 2] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import attn.runtime as attn
from attn.runtime.opening_words import copied_opener
from attn.runtime.unlearned_names import CAPITALIZED_NAMES
from benchmarks.report import (
    DIRECTIONS,
    changes_shown,
    command_line,
    dev_file_arguments,
    dev_rows,
    finish,
    installed_model,
    searched_again,
    second_search_row,
    table,
)


def main() -> None:
    args = dev_file_arguments(__doc__.splitlines()[0], "changed translations listed per direction")
    translator = attn.load(notify=lambda note: None)
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        rows = dev_rows(args.data, pair, [args.file], swap, args.rows)
        if source not in CAPITALIZED_NAMES or not rows:
            continue
        model = installed_model(source, target)

        def pieces(word: str) -> int:
            return model.tokenizer.encode_source(" " + word, source).count

        sources, references = [row.source for row in rows], [row.target for row in rows]
        before, _ = searched_again(translator, sources, source, target, "openers_copied", rule=False)
        after, again = searched_again(translator, sources, source, target, "openers_copied", rule=True)
        for name, outputs in (("without", before), ("searched again", after)):
            copied = sum(copied_opener(s, output, pieces) is not None for s, output in zip(sources, outputs))
            cells = [f"{source}→{target}", name, len(rows), copied]
            table_rows.append(second_search_row(cells, outputs, before, after, again, references))
        shown += changes_shown(sources, before, after, f"{source}→{target}", args.show)
    header = ["direction", "first words", "rows", "rows opening with a copied word"]
    header += ["searched again", "changed", "BLEU", "chrF"]
    finish([command_line(), "", table(header, table_rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
