"""Translations that drop a negation of their source or lose or repeat a number: a dropped negation
counted as a fault in the choice among the beam's translations beside the numbers'
(runtime/number_choice.py, runtime/negations.py), a sentence whose chosen translation has a
fault searched again with a wider beam (WIDER_BEAM), one that still drops a negation searched
once more by a search made to write one (runtime/required_search.py), and one that still loses a
number by a search made to write it, each step on and off.

On the rows of every dev file (--files) whose source writes a negation or a number (or on every
row: --every-row), each direction, the installed models' default search as `attn translate` gives
it, in five ways: before (numbers' faults alone, one search), with negations counted, with the
wider search too, with the search made to write a negation, and with the one made to write a lost
number: the rows whose
translation writes fewer negations than the source (negations_lost), those whose translation loses
or repeats a number (number_faults), the rows changed from before, BLEU and chrF against the
references, and the seconds each took (same run, one after the other). With --blind FILE, every
row the last step alters (the fourth way against the fifth), for a judge who is not told which is
which: its source, its reference and the two translations as A and B in a seeded random order
(FILE; the key: FILE.key).

    python -m benchmarks.negations [--files NAME ...] [--rows N] [--every-row] [--pairs en-de en-fr] [--data ../shared/data] [--show 3] [--out FILE] [--blind FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime.negations import negations, negations_lost
from attn.runtime.number_choice import number_faults
from attn.runtime.second_searches import SecondSearches
from attn.runtime.verbatim import NUMBER
from benchmarks.report import (
    DEV_FILES,
    DIRECTIONS,
    changes_shown,
    command_line,
    data_option,
    dev_rows,
    finish,
    table,
)

NEGATIONS_UNCOUNTED = "attn.runtime.number_choice.negations_lost"  # patched to count no such fault


def no_wider_search():
    return mock.patch.object(SecondSearches, "faulty", lambda *a: [])


def no_negation_search():
    return mock.patch.object(SecondSearches, "negations_dropped", lambda *a: {})


def no_number_search():
    return mock.patch.object(SecondSearches, "numbers_dropped", lambda *a: {})


# Each way: its name, and what switches the later steps off
WAYS = [
    (
        "before",
        lambda: (
            mock.patch(NEGATIONS_UNCOUNTED, lambda *a: 0),
            no_wider_search(),
            no_negation_search(),
            no_number_search(),
        ),
    ),
    ("negations counted", lambda: (no_wider_search(), no_negation_search(), no_number_search())),
    ("and a wider search", lambda: (no_negation_search(), no_number_search())),
    ("and a search made to write a negation", lambda: (no_number_search(),)),
    ("and one made to write a lost number", lambda: ()),
]


def blind_pairs(changed: list[tuple[str, str, str, str, str]], path: Path) -> None:
    """Write `changed` (direction, source, reference, without, with) to `path` as A/B pairs in a
    seeded random order, and which is which to `path`.key."""
    order = random.Random(0)
    items, key = [], []
    for number, (direction, source, reference, without, with_) in enumerate(changed, 1):
        first_with = order.random() < 0.5
        a, b = (with_, without) if first_with else (without, with_)
        items.append(f"## {number} ({direction})\nSource: {source}\nReference: {reference}\nA: {a}\nB: {b}\n")
        key.append(f"{number}: A={'with' if first_with else 'without'}")
    path.write_text("\n".join(items), encoding="utf-8")
    Path(f"{path}.key").write_text("\n".join(key) + "\n", encoding="utf-8")


def translated(translator, texts: list[str], source: str, target: str, patches) -> tuple[list[str], float]:
    """The translations of `texts` with `patches` in force, and the seconds they took."""
    with contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        start = time.perf_counter()
        outputs = [result.text for result in translator.translate(texts, source, target)]
        return outputs, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--show", type=int, default=0, help="changed translations listed per direction")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--blind", type=Path, default=None, help="write the changed rows as blind A/B pairs here")
    parser.add_argument("--files", nargs="+", default=DEV_FILES, help="the dev files of each pair (NAME.tsv.gz)")
    parser.add_argument("--rows", type=int, default=None, help="the first rows of each file")
    parser.add_argument(
        "--every-row", action="store_true", help="every row, not only those with a negation or a number"
    )
    parser.add_argument("--pairs", nargs="+", default=None, help="the pairs' folders (en-de, en-fr), both ways each")
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows, shown, judged, changed_rows = [], [], set(), []
    for pair, source, target, swap in DIRECTIONS:
        if args.pairs and pair not in args.pairs:
            continue
        found = [
            row
            for row in dev_rows(args.data, pair, args.files, swap, args.rows)
            if args.every_row or negations(row.source, source) or NUMBER.search(row.source)
        ]
        texts, references = [row.source for row in found], [row.target for row in found]
        translator.translate(texts[:8], source, target)  # the models loaded before any is timed
        outputs = {name: translated(translator, texts, source, target, patches()) for name, patches in WAYS}
        before, final = outputs[WAYS[0][0]][0], outputs[WAYS[-1][0]][0]
        last_step_before = outputs[WAYS[-2][0]][0]
        for name, (found, seconds) in outputs.items():
            rows.append(
                [
                    f"{source}→{target}",
                    name,
                    len(texts),
                    sum(negations_lost(s, source, t, target) > 0 for s, t in zip(texts, found)),
                    sum(number_faults(s, t) > 0 for s, t in zip(texts, found)),
                    sum(a != b for a, b in zip(before, found)),
                    f"{sacrebleu.corpus_bleu(found, [references]).score:.2f}",
                    f"{sacrebleu.corpus_chrf(found, [references]).score:.2f}",
                    f"{seconds:.0f}",
                ]
            )
        shown += changes_shown(texts, before, final, f"{source}→{target}", args.show)
        for text, reference, without, with_ in zip(texts, references, last_step_before, final):
            if without != with_ and text not in judged:  # a row the dev files repeat, judged once
                judged.add(text)
                changed_rows.append((f"{source}→{target}", text, reference, without, with_))
    header = [
        "direction",
        "way",
        "rows",
        "a negation dropped",
        "a number lost or repeated",
        "changed",
        "BLEU",
        "chrF",
        "seconds",
    ]
    finish([command_line(), "", table(header, rows), "", *shown], args.out)
    if args.blind:
        blind_pairs(changed_rows, args.blind)


if __name__ == "__main__":
    main()
