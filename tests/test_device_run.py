"""A training run packed for a GPU machine, trained, and brought back (export/training/device_run.py):
the CPU dry run of what a device call does, in steps."""

from __future__ import annotations

import json

import pytest
import torch
from rich.console import Console

from attn.export.config import load_config
from attn.export.training import device_run
from attn.export.training.train import HELD_OUT_FILE, Trainer, chosen_weights
from attn.runtime.tsv import read_tsv

from .conftest import REVERSE_TRANSFORMER_CONFIG

QUIET_CONSOLE = Console(stderr=True, quiet=True)


@pytest.mark.integration
def test_a_packed_run_trains_comes_back_and_starts_the_next(transformer_run, tmp_path):
    _, folder = transformer_run
    config = load_config(
        REVERSE_TRANSFORMER_CONFIG,
        [
            "train.max_steps=12",
            "train.checkpoint_every=4",
            "train.eval_every=6",
            "train.keep_checkpoints=3",
            "data.hold_out={ reverse = 5 }",
        ],
    )
    size = device_run.pack(config, folder, tmp_path / "pack")
    train_rows = tmp_path / "pack" / device_run.TRAIN_ROWS
    assert 0 < size < device_run.TREE_LIMIT
    packed = json.loads((tmp_path / "pack" / device_run.RUN_CONFIG).read_text())
    assert packed["data"]["train"] == "data/train.tsv.xz" and packed["train"]["init_from"] == ""
    summary = device_run.train(tmp_path / "pack", 1e6, tmp_path / "out", tmp_path / "device", device="cpu", average=3)
    assert summary["steps"] == 12
    assert all(path.stat().st_size < 16 << 20 for path in (tmp_path / "out").iterdir())
    device_run.unpack(tmp_path / "out", tmp_path / "pack", tmp_path / "back")
    held = read_tsv(tmp_path / "back" / HELD_OUT_FILE)  # held out of training, for `attn eval` here
    assert len(held) >= 5 and not {row.source for row in held} & {row.source for row in read_tsv(train_rows)}
    weights, _ = chosen_weights(tmp_path / "back")
    averaged, _ = chosen_weights(tmp_path / "device" / "run", 3)
    assert set(weights) == set(averaged)
    for name, value in averaged.items():  # fp16 on the way: within its rounding
        torch.testing.assert_close(weights[name], value.half().float(), rtol=0, atol=0)
    # the next run starts from what came back
    following = load_config(REVERSE_TRANSFORMER_CONFIG, ["train.max_steps=1", f'train.init_from="{tmp_path / "back"}"'])
    trainer = Trainer(following, tmp_path / "next", QUIET_CONSOLE)
    own = trainer.model.state_dict()
    assert all(torch.equal(own[name].cpu(), weights[name]) for name in own)
    # the same pack trained deeper (its new layer starting as the identity), brought back as what it is
    deeper = ["model.encoder_layers=3", "train.max_steps=4"]
    device_run.train(tmp_path / "pack", 1e6, tmp_path / "out3", tmp_path / "device3", "cpu", 3, deeper)
    device_run.unpack(tmp_path / "out3", tmp_path / "pack", tmp_path / "back3")
    assert json.loads((tmp_path / "back3" / "config.json").read_text())["model"]["encoder_layers"] == 3
    assert "encoder_layers.2.attention.out.weight" in chosen_weights(tmp_path / "back3")[0]


@pytest.mark.unit
def test_weights_come_back_in_pieces_under_the_file_limit(monkeypatch):
    monkeypatch.setattr(device_run, "PIECE_LIMIT", 100)
    weights = {f"w{i}": torch.zeros(10, dtype=torch.float16) for i in range(12)}  # 20 bytes each
    groups = device_run.pieces(weights)
    assert [len(group) for group in groups] == [5, 5, 2]
    assert {name for group in groups for name in group} == set(weights)
