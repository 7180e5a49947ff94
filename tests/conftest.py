"""Shared fixtures: the synthetic reverse task, trained and exported once per session."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# `pytest --hypothesis-profile=fuzz tests/test_hardening.py` runs the property tests for minutes.
settings.register_profile("default", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.register_profile("fuzz", max_examples=15000, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile("default")

ROOT = Path(__file__).resolve().parent.parent
REVERSE_CONFIG = ROOT / "configs" / "reverse.toml"
REVERSE_DATA = ROOT / "tests" / "fixtures" / "reverse"


def reverse_config(steps: int | None = None, train_overrides: dict | None = None, **model_overrides):
    """The example reverse config (its step count unless `steps`), evaluating only at the end."""
    from attn.export.config import load_config

    config = load_config(REVERSE_CONFIG)
    # budgets in steps only: the config's wall-clock budget is lifted, so a loaded machine trains
    # as far as an idle one, only slower
    train = dataclasses.replace(config.train, max_steps=steps or config.train.max_steps, time_budget_minutes=1e6,
                                eval_every=10**9, checkpoint_every=10**9, **(train_overrides or {}))
    model = dataclasses.replace(config.model, **model_overrides)
    return dataclasses.replace(config, train=train, model=model)


TIERS = ("unit", "integration", "system")


def pytest_collection_modifyitems(items):
    """Every test belongs to exactly one tier (README: how to run each)."""
    untiered = [item.nodeid for item in items if sum(item.get_closest_marker(t) is not None for t in TIERS) != 1]
    if untiered:
        raise pytest.UsageError(f"tests without exactly one tier marker ({', '.join(TIERS)}): {untiered[:5]}")


@pytest.fixture(scope="session")
def reverse_run(tmp_path_factory):
    """A trained reverse-task Trainer and the folder it exported to."""
    from attn.export.onnx_export import export_model
    from attn.export.train import Trainer

    from rich.console import Console

    workdir = tmp_path_factory.mktemp("reverse-run")
    trainer = Trainer(reverse_config(), workdir, Console(stderr=True, quiet=True))
    summary = trainer.train()
    folder = workdir / "model"
    export_model(trainer.model, trainer.config, workdir / "tokenizer.json", folder, summary)
    return trainer, folder


@pytest.fixture(scope="session")
def reverse_model(reverse_run) -> Path:
    return reverse_run[1]


@pytest.fixture(scope="session")
def reverse_test_rows():
    from attn.runtime.tsv import read_tsv

    return read_tsv(REVERSE_DATA / "test.tsv")


@pytest.fixture(scope="session")
def reverse_shortlist_model(reverse_run, tmp_path_factory) -> Path:
    """The reverse model exported again with a small learned target-vocabulary shortlist."""
    from attn.export.lexicon import learn_shortlist
    from attn.export.onnx_export import export_model

    trainer, _ = reverse_run
    shortlist = learn_shortlist(trainer.corpus.train, trainer.corpus.tokenizer.vocab_size, frequent=10,
                                per_source=5, iterations=5)
    folder = tmp_path_factory.mktemp("reverse-shortlist") / "model"
    export_model(trainer.model, trainer.config, trainer.workdir / "tokenizer.json", folder, {}, shortlist)
    return folder
