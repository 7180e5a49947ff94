"""The trained run a benchmark reads: its config (with the `--set` overrides the run was trained
with) and work folder, and the weights `attn export` would take from it."""

from __future__ import annotations

import argparse
from pathlib import Path

from attn.export.config import Config, load_config
from attn.export.models import EncoderDecoder
from attn.export.training.train import trained_model


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", type=Path)
    parser.add_argument("workdir", type=Path)
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="a config override the run was trained with (as `attn train --set`), repeatable",
    )
    parser.add_argument("--average", type=int, default=0, help="the mean of the last N kept checkpoints, not best.pt")


def run_model(args: argparse.Namespace) -> tuple[Config, EncoderDecoder, list[int]]:
    """The run's config, its model in eval mode and the step(s) of its weights."""
    config = load_config(args.config, args.overrides)
    model, steps = trained_model(config, args.workdir, args.average)
    return config, model, steps
