"""Training is reproducible: same seed → same weights; stop + resume → the uninterrupted result."""

import pytest
import dataclasses

import torch
from rich.console import Console

from attn.export.train import Trainer, inverse_sqrt_schedule

from .conftest import reverse_config

pytestmark = pytest.mark.system


def config_with(steps: int, checkpoint_every: int = 10**9):
    config = reverse_config(steps=steps, dropout=0.1)
    train = dataclasses.replace(config.train, checkpoint_every=checkpoint_every, batch_tokens=400)
    return dataclasses.replace(config, train=train)


def weights(trainer: Trainer) -> dict:
    return {k: v.clone() for k, v in trainer.model.state_dict().items()}


def assert_same_weights(a: dict, b: dict):
    assert a.keys() == b.keys()
    for name in a:
        assert torch.equal(a[name], b[name]), name


def test_same_seed_gives_the_same_model(tmp_path):
    first = Trainer(config_with(30), tmp_path / "a", Console(quiet=True))
    first.train()
    second = Trainer(config_with(30), tmp_path / "b", Console(quiet=True))
    second.train()
    assert_same_weights(weights(first), weights(second))


def test_resume_reaches_the_uninterrupted_result(tmp_path):
    straight = Trainer(config_with(40), tmp_path / "straight", Console(quiet=True))
    straight.train()
    stopped = Trainer(config_with(20), tmp_path / "resumed", Console(quiet=True))
    stopped.train()
    resumed = Trainer(config_with(40), tmp_path / "resumed", Console(quiet=True))
    assert resumed.state["step"] == 20
    resumed.train()
    assert_same_weights(weights(straight), weights(resumed))


def test_checkpoints_load_with_weights_only(tmp_path):
    trainer = Trainer(config_with(10, checkpoint_every=5), tmp_path, Console(quiet=True))
    trainer.train()
    for name in ("last.pt", "best.pt"):
        assert "model" in torch.load(tmp_path / name, weights_only=True)


def test_schedule_warms_up_then_decays():
    schedule = inverse_sqrt_schedule(100)
    assert schedule(0) < schedule(50) < schedule(99) == 1.0
    assert schedule(399) == 0.5


def test_kept_checkpoints_average(tmp_path):
    from attn.export.train import average_checkpoints

    config = config_with(30, checkpoint_every=10)
    config = dataclasses.replace(config, train=dataclasses.replace(config.train, keep_checkpoints=2))
    trainer = Trainer(config, tmp_path, Console(quiet=True))
    trainer.train()
    kept = sorted((tmp_path / "checkpoints").glob("step-*.pt"))
    assert [p.name for p in kept] == ["step-0000020.pt", "step-0000030.pt"]
    average, steps = average_checkpoints(tmp_path, 2)
    assert steps == [20, 30]
    first, last = (torch.load(p, weights_only=True)["model"] for p in kept)
    name = "embedding.weight"
    assert torch.allclose(average[name], (first[name] + last[name]) / 2)
