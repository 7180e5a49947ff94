"""Learning curves of the attention variants on the reverse task: exact match on the test rows
every 200 steps, for the recipes and step caps of tests/test_variants.py and
tests/test_copy_coverage.py (docs/studies/REVERSE-TASK-CURVES.md).

    python -m benchmarks.variant_curves dot-bahdanau:300/0.005:2400 general-luong:300/0.003/3:1400

Each argument is SCORE-STYLE:BATCH_TOKENS/LEARNING_RATE[/SEED]:LAST_STEP on the example config
(configs/reverse.toml, seed 1 unless given); `copy-coverage` as SCORE-STYLE is test_copy_coverage.py's
model. One line per argument: its seconds and `step:exact match` pairs. Training
in 200-step pieces ends exactly where one run of that many steps ends.
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
from tests.conftest import REVERSE_DATA, reverse_config  # the tests' reverse task and their recipes
from tests.test_copy_coverage import COPY_MODEL
from tests.test_variants import exact_match

PIECE = 200


def curve(variant: str, recipe: str, last: int) -> str:
    tokens, rate, *seed = recipe.split("/")
    train = {"batch_tokens": int(tokens), "learning_rate": float(rate), "seed": int(seed[0]) if seed else 1}
    model = COPY_MODEL if variant == "copy-coverage" else dict(zip(("score", "style"), variant.rsplit("-", 1)))
    config = reverse_config(steps=PIECE, train_overrides=train, **model)
    rows = read_tsv(REVERSE_DATA / "test.tsv")
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(config, Path(folder), Console(quiet=True))
        began, marks = time.monotonic(), []
        for steps in range(PIECE, last + 1, PIECE):
            trainer.config = dataclasses.replace(config, train=dataclasses.replace(config.train, max_steps=steps))
            trainer.train()
            marks.append(f"{steps}:{exact_match(trainer, rows):.3f}")
        return f"{time.monotonic() - began:.0f}s {' '.join(marks)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="SCORE-STYLE:BATCH_TOKENS/LEARNING_RATE[/SEED]:LAST_STEP")
    for spec in parser.parse_args().runs:
        variant, recipe, last = spec.split(":")
        print(spec, curve(variant, recipe, int(last)), flush=True)


if __name__ == "__main__":
    main()
