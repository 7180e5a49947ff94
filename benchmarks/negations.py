"""Translations that drop a negation of their source, with a dropped negation counted as a fault in
the choice among the beam's translations (runtime/number_choice.py, runtime/negations.py) and
without it.

On the rows of every dev file whose source writes a negation, each direction, the installed models' default
search as `attn translate` gives it: the rows whose translation writes fewer negations than the
source (negations_lost), the rows the fault changes, and BLEU and chrF against the references.
With --blind FILE, every changed row for a judge who is not told which is which: its source, its
reference and the two translations as A and B in a seeded random order (FILE; the key: FILE.key).

    python -m benchmarks.negations [--data ../shared/data] [--show 3] [--out FILE] [--blind FILE]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime.negations import negations, negations_lost
from benchmarks.report import (
    DEV_FILES,
    DIRECTIONS,
    changes_shown,
    command_line,
    data_option,
    dev_texts,
    finish,
    table,
    with_and_without,
)

WITHOUT = "attn.runtime.number_choice.negations_lost"  # patched to count no fault


def dropped(sources: list[str], translations: list[str], source: str, target: str) -> int:
    """The translations that write fewer negations than their source."""
    return sum(negations_lost(s, source, t, target) > 0 for s, t in zip(sources, translations))


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--show", type=int, default=0, help="changed translations listed per direction")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--blind", type=Path, default=None, help="write the changed rows as blind A/B pairs here")
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows, shown, pairs, judged = [], [], [], set()
    for pair, source, target, swap in DIRECTIONS:
        texts, references = dev_texts(args.data, pair, DEV_FILES, swap, lambda text: negations(text, source) > 0)
        ruled, unruled = with_and_without(translator, texts, source, target, mock.patch(WITHOUT, lambda *a: 0))
        changed = sum(a != b for a, b in zip(ruled, unruled))
        for name, outputs in (("without", unruled), ("with", ruled)):
            bleu = sacrebleu.corpus_bleu(outputs, [references]).score
            chrf = sacrebleu.corpus_chrf(outputs, [references]).score
            faults = dropped(texts, outputs, source, target)
            rows.append([f"{source}→{target}", name, len(texts), faults, changed, f"{bleu:.2f}", f"{chrf:.2f}"])
        shown += changes_shown(texts, unruled, ruled, f"{source}→{target}", args.show)
        for text, reference, without, with_ in zip(texts, references, unruled, ruled):
            if without != with_ and text not in judged:  # a row the dev files repeat, judged once
                judged.add(text)
                pairs.append((f"{source}→{target}", text, reference, without, with_))
    header = ["direction", "negation fault", "rows", "a negation dropped", "changed", "BLEU", "chrF"]
    finish([command_line(), "", table(header, rows), "", *shown], args.out)
    if args.blind:
        blind_pairs(pairs, args.blind)


if __name__ == "__main__":
    main()
