"""Learning curves of the attention variants on the reverse task: exact match on the test rows
every 200 steps (or `--every`), for the recipes and step caps of tests/test_variants.py and
tests/test_copy_coverage.py (docs/studies/REVERSE-TASK-CURVES.md).

    python -m benchmarks.variant_curves dot-bahdanau:300/0.005:2400 general-luong:300/0.003/3/400:1400

Each argument is SCORE-STYLE:BATCH_TOKENS/LEARNING_RATE[/SEED[/WARMUP_STEPS]]:LAST_STEP on the
example config (configs/reverse.toml, its seed and warm-up unless given); as SCORE-STYLE,
`copy-coverage` is test_copy_coverage.py's model and `transformer` configs/reverse-transformer.toml.
One line per argument: its seconds and `step:exact match` pairs. Training in pieces ends exactly
where one run of that many steps ends.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from rich.console import Console

from attn.export.training.train import Trainer
from attn.runtime.tsv import read_tsv
from tests.conftest import (  # the tests' reverse task and their recipes
    REVERSE_DATA,
    REVERSE_TRANSFORMER_CONFIG,
    reverse_config,
)
from tests.test_copy_coverage import COPY_MODEL
from tests.test_variants import exact_match


def curve(variant: str, recipe: str, last: int, piece: int) -> str:
    tokens, rate, *rest = recipe.split("/")
    train = {"batch_tokens": int(tokens), "learning_rate": float(rate)}
    train.update({name: int(value) for name, value in zip(("seed", "warmup_steps"), rest)})
    if variant == "transformer":
        config = reverse_config(steps=piece, train_overrides=train, config_file=REVERSE_TRANSFORMER_CONFIG)
    else:
        model = COPY_MODEL if variant == "copy-coverage" else dict(zip(("score", "style"), variant.rsplit("-", 1)))
        config = reverse_config(steps=piece, train_overrides=train, **model)
    rows = read_tsv(REVERSE_DATA / "test.tsv")
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(config, Path(folder), Console(quiet=True))
        began, marks = time.monotonic(), []
        for steps in range(piece, last + 1, piece):
            trainer.config = dataclasses.replace(config, train=dataclasses.replace(config.train, max_steps=steps))
            trainer.train()
            marks.append(f"{steps}:{exact_match(trainer, rows):.3f}")
        return f"{time.monotonic() - began:.0f}s {' '.join(marks)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "runs", nargs="+", help="SCORE-STYLE:BATCH_TOKENS/LEARNING_RATE[/SEED[/WARMUP_STEPS]]:LAST_STEP"
    )
    parser.add_argument("--every", type=int, default=200, help="steps between measurements")
    options = parser.parse_args()
    for spec in options.runs:
        variant, recipe, last = spec.split(":")
        print(spec, curve(variant, recipe, int(last), options.every), flush=True)


if __name__ == "__main__":
    main()
