"""Names the models never learned, set aside where a translation lost them
(runtime/unlearned_names.py), against the same models without that second search.

On rows of a dev file, each direction whose model lists its training sources' words (source_words.txt)
and whose source language writes names alone with a capital, the installed models' default search as
`attn translate` gives it: corpus BLEU and chrF (sacreBLEU), the names the rule finds that the
reference holds as written and how many of them the translation keeps, the sentences searched
again (each one more search: the rule's cost), the rows that differ. Then
the same on sentences a helper wrote without seeing the rule (benchmarks/unlearned_names/: 40 with
names a model of everyday and software text never met, each listed; 10 with capitalized words to
translate, "the Uzbeks", "Munich", listed as none): the listed names kept, and the sentences
without names whose translation the rule changed.

    python -m benchmarks.unlearned_names [--file news-dev] [--rows 600] [--show 2] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

from pathlib import Path

import attn.runtime as attn
from attn.runtime.unlearned_names import names_kept, unlearned_names
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

HELD_OUT = Path(__file__).parent / "unlearned_names"


def held_out(translator, source: str, target: str) -> list:
    """A row of the held-out sentences of `source` into `target`: sentences with names, names
    kept without and with the rule, sentences without names and how many of them it changed."""
    lines = [line.split("\t") for line in (HELD_OUT / f"{source}.tsv").read_text(encoding="utf-8").splitlines()]
    sentences, names = (
        [sentence for sentence, _ in lines],
        [listed.split(" | ") if listed else [] for _, listed in lines],
    )
    before, _ = searched_again(translator, sentences, source, target, "names_lost", rule=False)
    after, _ = searched_again(translator, sentences, source, target, "names_lost", rule=True)
    kept = [sum(names_kept(found, output) for found, output in zip(names, outputs)) for outputs in (before, after)]
    without = [b != a for found, b, a in zip(names, before, after) if not found]
    return [
        f"{source}→{target}",
        sum(map(bool, names)),
        sum(map(len, names)),
        f"{kept[0]} → {kept[1]}",
        len(without),
        sum(without),
    ]


def main() -> None:
    args = dev_file_arguments(__doc__.splitlines()[0], "changed translations listed per direction")
    translator = attn.load(notify=lambda note: None)
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        known = installed_model(source, target).known_words
        rows = dev_rows(args.data, pair, [args.file], swap, args.rows)
        if known is None or not rows or not unlearned_names("A Zz.", source, frozenset()):
            continue  # no word list, no such file, or a language whose capitals mark more than names
        sources, references = [row.source for row in rows], [row.target for row in rows]
        names = [
            [
                name
                for start, end in unlearned_names(s, source, known)
                if (name := s[start:end]) and names_kept([name], r)
            ]
            for s, r in zip(sources, references)
        ]
        before, _ = searched_again(translator, sources, source, target, "names_lost", rule=False)
        after, again = searched_again(translator, sources, source, target, "names_lost", rule=True)
        for name, outputs in (("without", before), ("set aside where lost", after)):
            kept = sum(names_kept(found, output) for found, output in zip(names, outputs))
            cells = [f"{source}→{target}", name, len(rows), sum(map(len, names)), kept]
            table_rows.append(second_search_row(cells, outputs, before, after, again, references))
        shown += changes_shown(sources, before, after, f"{source}→{target}", args.show)
    header = ["direction", "names", "rows", "names the reference keeps", "kept", "searched again", "changed"]
    header += ["BLEU", "chrF"]
    written = [held_out(translator, source, target) for source, target in (("en", "de"), ("en", "fr"), ("fr", "en"))]
    written_header = ["direction", "sentences with names", "names", "kept", "sentences without", "changed"]
    lines = [
        command_line(),
        "",
        table(header, table_rows),
        "",
        *shown,
        "",
        "Sentences written for this (benchmarks/unlearned_names/):",
        "",
    ]
    finish([*lines, table(written_header, written)], args.out)


if __name__ == "__main__":
    main()
