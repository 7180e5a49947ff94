"""A training run killed with SIGKILL and resumed ends where an uninterrupted run ends; export
to a folder that cannot be written is a one-line error."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from rich.console import Console

from attn.export.config import ConfigError, load_config
from attn.export.training.train import Trainer

from .conftest import REVERSE_CONFIG, reverse_config
from .forked_cli import run_attn

pytestmark = pytest.mark.system

ATTN = [sys.executable, "-m", "attn.cli"]


STEPS = 40  # the short runs' budget


def short_config(tmp_path: Path) -> Path:
    text = REVERSE_CONFIG.read_text()
    data = REVERSE_CONFIG.parent.parent / "tests" / "fixtures" / "reverse"
    text = text.replace('"../tests/fixtures/reverse/', f'"{data}/')
    for key, value in {
        "max_steps": STEPS,
        "checkpoint_every": 10,
        "eval_every": 1000,
        "dropout": 0.1,
        "time_budget_minutes": 1e6,
    }.items():  # a budget in steps, never in minutes
        text = "\n".join(f"{key} = {value}" if line.startswith(f"{key} =") else line for line in text.splitlines())
    path = tmp_path / "short.toml"
    path.write_text(text + "\n")
    return path


def final_weights(workdir: Path) -> dict:
    return torch.load(workdir / "last.pt", weights_only=True)["model"]


def test_sigkill_then_resume_matches_an_uninterrupted_run(tmp_path):
    config = short_config(tmp_path)
    run_attn(["train", str(config), "--workdir", str(tmp_path / "straight")], check=True, timeout=600)
    killed = tmp_path / "killed"
    process = subprocess.Popen(
        [*ATTN, "train", str(config), "--workdir", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300
    while not (killed / "last.pt").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # into the steps after the first checkpoint
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    step_at_kill = torch.load(killed / "last.pt", weights_only=True)["state"]["step"]
    assert step_at_kill < STEPS
    run_attn(["train", str(config), "--workdir", str(killed)], check=True, timeout=600)
    straight, resumed = final_weights(tmp_path / "straight"), final_weights(killed)
    assert all(torch.equal(straight[name], resumed[name]) for name in straight)


def test_export_to_an_unwritable_place_is_one_line(tmp_path, reverse_run):
    trainer, _ = reverse_run
    config = short_config(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run_attn(
        ["export", str(config), "--workdir", str(trainer.workdir), "--out", str(blocker / "model")], timeout=600
    )
    assert result.returncode in (1, 2)
    err = result.stderr.decode().strip().splitlines()
    assert len(err) >= 1 and err[-1].startswith("attn: error:") and "Traceback" not in result.stderr.decode()


def test_data_parallel_training_with_torchrun_on_two_cpu_processes(tmp_path):
    """torchrun with two processes (gloo): both take their own batches, the main one writes the
    checkpoint at the step budget, and the run resumes in one process."""
    config = short_config(tmp_path)
    workdir = tmp_path / "ddp"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            "2",
            "-m",
            "attn.cli",
            "train",
            str(config),
            "--workdir",
            str(workdir),
            "--device",
            "cpu",
        ],
        capture_output=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    saved = torch.load(workdir / "last.pt", weights_only=True)
    assert saved["state"]["step"] == STEPS and saved["state"]["batch"] % 2 == 0
    longer = load_config(config, [f"train.max_steps={STEPS + 10}"])
    Trainer(longer, workdir, Console(quiet=True)).train()  # in this process: one, without torchrun
    assert torch.load(workdir / "last.pt", weights_only=True)["state"]["step"] == STEPS + 10


@pytest.mark.parametrize("content", [b"my notes", b"\x80\x04\x95 not a pickle of ours"])
def test_a_foreign_last_pt_is_a_clear_error(tmp_path, content):
    """A user's file named last.pt was an internal IndexError, a pickled payload relayed torch's
    advice to load it unsafely (a ConfigError: `attn train` says it in one line, exit 2)."""
    (tmp_path / "last.pt").write_bytes(content)
    with pytest.raises(ConfigError, match="not a training checkpoint") as refused:
        Trainer(reverse_config(steps=2), tmp_path, Console(quiet=True))
    assert "weights_only" not in str(refused.value) and (tmp_path / "last.pt").read_bytes() == content


@pytest.mark.parametrize("writer", ["tokenizer", "checkpoint"])
def test_a_full_disk_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch, writer):
    """A write that fails part-way (ENOSPC) left `tokenizer.json.tmp` in the work folder (a full
    tmpfs): the old file stays whole and no temporary file remains."""
    import errno

    from attn.export.training import train

    target = tmp_path / ("tokenizer.json" if writer == "tokenizer" else "best.pt")
    target.write_bytes(b"the old file")

    def fill_then_fail(path, *args, **kwargs):
        Path(path).write_bytes(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    if writer == "tokenizer":
        monkeypatch.setattr(Path, "write_text", fill_then_fail)
        write = lambda: train._atomic_write(target, "{}")  # noqa: E731
    else:
        monkeypatch.setattr(train.torch, "save", lambda obj, path: fill_then_fail(path))
        write = lambda: train._atomic_save({"step": 1}, target)  # noqa: E731
    with pytest.raises(OSError):
        write()
    assert target.read_bytes() == b"the old file" and sorted(p.name for p in tmp_path.iterdir()) == [target.name]
