"""How well attention tells dropped content (runtime/coverage.py), measured where the loss is known.

    python -m benchmarks.coverage_check --from en --to de --data ../shared/data/en-de/news-dev.tsv.gz \\
        --data ../shared/data/en-de/tatoeba-dev.tsv.gz --data ../shared/data/en-de/dev.tsv.gz --rows 150 [--sweep]

For `--rows` rows of each file (every n-th, targets of 6 words or more), the model is forced
(teacher forcing, `attn align`) to write three targets: the reference whole, the reference with its
last third cut, and with its middle third cut. A flag on the whole reference is a false alarm; on a
cut one, a catch. Then the model's own translations of the same rows: the share flagged, and
sentence chrF of flagged against unflagged ones. `--sweep` tries other thresholds and run lengths.
"""

from __future__ import annotations

import argparse

import numpy as np
import sacrebleu

from attn.runtime import coverage
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.registry import resolve_model
from attn.runtime.tsv import read_tsv, spread

CUTS = ("whole", "end cut", "middle cut")


def cut_targets(target: str) -> dict[str, str]:
    """The reference whole, without its last third, and without its middle third (words)."""
    words = target.split()
    cut = max(2, len(words) // 3)
    third = len(words) // 3
    return {
        "whole": target,
        "end cut": " ".join(words[:-cut]),
        "middle cut": " ".join(words[:third] + words[third + cut :]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", required=True)
    parser.add_argument("--to", dest="target", required=True)
    parser.add_argument("--model", default=None, help="a model folder (default: the installed model of the pair)")
    parser.add_argument("--data", action="append", required=True)
    parser.add_argument("--rows", type=int, default=150)
    parser.add_argument("--swap-columns", action="store_true")
    parser.add_argument("--sweep", action="store_true")
    args = parser.parse_args()
    model = LoadedModel(
        resolve_model(args.model, "translate", args.source, args.target),
        threads=1,
        source_lang=args.source,
        target_lang=args.target,
    )
    forced: list[tuple[str, str, np.ndarray, list[str]]] = []  # (file, cut, masses, source words)
    rows = []
    for path in args.data:
        chosen = [row for row in spread(read_tsv(path, args.swap_columns), args.rows) if len(row.target.split()) >= 6]
        rows += chosen
        for row in chosen:
            for cut, target in cut_targets(row.target).items():
                alignment = model.force(row.source, target).alignment
                forced.append(
                    (path.rsplit("/", 1)[-1], cut, coverage.received_attention(alignment), alignment.source_words)
                )
    print(f"{args.source}→{args.target}, {len(rows)} rows of {', '.join(p.rsplit('/', 1)[-1] for p in args.data)}")
    print("| file | false alarms (whole reference) | caught: end cut | caught: middle cut |\n|---|---|---|---|")
    rule = (coverage.LOW_MASS, coverage.MIN_RUN, coverage.MIN_CHARS)
    for name in [*dict.fromkeys(f for f, *_ in forced), "all"]:
        shares = [
            np.mean([bool(coverage.low_runs(m, w, *rule)) for f, c, m, w in forced if c == cut and name in (f, "all")])
            for cut in CUTS
        ]
        print(f"| {name} | " + " | ".join(f"{share:.1%}" for share in shares) + " |")
    outputs = model.translate([row.source for row in rows], model.default_options())
    flags = np.array([bool(coverage.uncovered_runs(found[0].alignment)) for found in outputs])
    chrf = np.array([sacrebleu.sentence_chrf(found[0].text, [row.target]).score for found, row in zip(outputs, rows)])
    print(
        f"\nthe model's own translations: {flags.mean():.1%} flagged; sentence chrF flagged "
        f"{chrf[flags].mean() if flags.any() else float('nan'):.1f}, unflagged {chrf[~flags].mean():.1f}"
    )
    if args.sweep:
        print("\n| below | run | letters | false alarms | caught: end | caught: middle |\n|---|---|---|---|---|---|")
        for chars in (1, 3, 4):
            for run in (1, 2, 3):
                for low in (0.1, 0.15, 0.2, 0.3):
                    shares = [
                        np.mean([bool(coverage.low_runs(m, w, low, run, chars)) for _, c, m, w in forced if c == cut])
                        for cut in CUTS
                    ]
                    print(f"| {low} | {run} | {chars} | " + " | ".join(f"{s:.1%}" for s in shares) + " |")


if __name__ == "__main__":
    main()
