"""A training run carried to a GPU machine and back, in what one call of the device tool takes
(the working tree and its carried folders: 64 MiB; files back: 16 MiB each, 8 at most).

    python -m attn.export.training.device_run aside                  # shipped model folders out of the tree (63 MB)
    python -m attn.export.training.device_run pack configs/en-de-general.toml --start work/en-de-general1 \\
        --out work/device [--set train.learning_rate=0.0004 …]
    # the base install's dependencies the GPU machine lacks (2026-11-28: sentencex, py3langid,
    # platformdirs), as wheels in .whl (ignored: .git/info/exclude):
    python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \\
        --platform manylinux_2_17_x86_64 -d .whl sentencex==1.0.32 py3langid==0.4.0 platformdirs==4.14.8
    # one call of the device tool, carry ["work/device", ".whl"]:
    #   python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site && \\
    #   python3 -m pip install -q --no-deps --no-build-isolation -e . && \\
    #   python3 -m attn.export.training.device_run train work/device --minutes 8 --out $OUT
    # Two packs travel in one call (--out work/device/A, work/device/B; the rows are xz-compressed),
    # trained side by side on the one GPU (`train … &` each, then `wait`): two small models kept an
    # H100 19 % busy. One pack also trains twice side by side, the second deeper (`train … --set
    # model.encoder_layers=10 --workdir /tmp/deeper --out $OUT/deeper`: its new layers start as the
    # identity), to measure what depth buys for the same minutes.
    python -m attn.export.training.device_run unpack FILES_AT --pack work/device --into work/en-de-gpu1
    python -m attn.export.training.device_run restore                # the model folders back

`pack` writes the run's exact rows (the config's train files less its hold-out, sampled with its
seed; its dev rows with the held-out ones), the starting weights in fp16 (a run folder's mean of
its last `--average` checkpoints or best.pt, or an exported folder's), the tokenizer and the
config, and checks that the tree with the pack fits. `train` runs the config there for
`--minutes` (bf16 on the GPU) and writes the mean of the last kept checkpoints in fp16, in
pieces under 16 MiB, with the run's summary. `unpack` makes of those a run folder (best.pt,
tokenizer.json, config.json, summary.json, and held-out.tsv.gz where the config holds rows out):
`attn export --no-train` exports it, and `[train] init_from` starts the next run from it, on the
GPU or on a CPU.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import torch

from attn.export.config import Config, apply_override, config_from_dict, load_config, model_settings
from attn.export.training.exported_weights import exported_weights, is_exported_folder
from attn.export.training.train import (
    HELD_OUT_FILE,
    Trainer,
    average_checkpoints,
    chosen_weights,
    corpus_rows,
    write_rows,
)
from attn.runtime.constants import TOKENIZER

TREE_LIMIT = 64 << 20  # bytes: the working tree and its carried folders, one call
PIECE_LIMIT = 15 << 20  # bytes: one file brought back (the tool's limit is 16 MiB)
ASIDE = Path("work/models-aside")  # where `aside` keeps the shipped model folders
RUN_CONFIG, START, WEIGHTS = "run-config.json", "start.pt", "weights-{}.pt"
TRAINED_WITH = "trained_with"  # the key of summary.json brought back that holds the run's [model] and [vocab]
# The packed rows: xz finds the rows a sample repeats (a third smaller than gzip), dev rows are few.
TRAIN_ROWS, DEV_ROWS = "data/train.tsv.xz", "data/dev.tsv.gz"


def pack(config: Config, start: Path, out: Path, average: int = 5) -> int:
    """Write the pack for `config` starting from `start` into `out`; its size in bytes."""
    if out.exists():
        shutil.rmtree(out)
    (out / "data").mkdir(parents=True)
    rows, dev_rows, held = corpus_rows(config)
    write_rows(out / TRAIN_ROWS, rows)
    write_rows(out / DEV_ROWS, dev_rows)
    if held:  # for `attn eval` here, as a CPU run's folder holds them
        write_rows(out / HELD_OUT_FILE, held)
    if is_exported_folder(start):
        weights, step = exported_weights(start), 0
    else:
        weights, steps = chosen_weights(start, average if (start / "checkpoints").is_dir() else 0)
        step = steps[-1]
    torch.save({"model": {name: value.half() for name, value in weights.items()}, "step": step}, out / START)
    shutil.copy(start / TOKENIZER, out / TOKENIZER)
    packed = dataclasses.replace(
        config,
        data=dataclasses.replace(
            config.data, train=TRAIN_ROWS, dev=DEV_ROWS, sample={}, hold_out={}, swap_columns=False
        ),
        train=dataclasses.replace(config.train, init_from="", init_average=0),
    )
    (out / RUN_CONFIG).write_text(
        json.dumps({**packed.to_dict(), "model": model_settings(packed)}, indent=2), encoding="utf-8"
    )
    return sum(path.stat().st_size for path in out.rglob("*") if path.is_file())


def tree_size(root: Path) -> int:
    """Bytes of what a device call sends: tracked and untracked files git does not ignore."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    return sum((root / name.decode()).stat().st_size for name in listed if name and (root / name.decode()).is_file())


def train(
    pack_folder: Path,
    minutes: float,
    out: Path,
    workdir: Path,
    device: str = "",
    average: int = 5,
    overrides: Sequence[str] = (),
) -> dict:
    """Run the packed config, after `overrides` (`section.key=value`, as `attn train --set`: a
    deeper model from the same pack, whose new layers start as the identity), from the packed
    weights for `minutes`; write the mean of the last `average` kept checkpoints in fp16 pieces
    and summary.json (with the [model] and [vocab] trained) into `out`; the run's summary."""
    raw = json.loads((pack_folder / RUN_CONFIG).read_text(encoding="utf-8"))
    for override in overrides:
        apply_override(raw, override)
    config = config_from_dict(raw, source=str(pack_folder / RUN_CONFIG))
    start = workdir / "start"
    start.mkdir(parents=True, exist_ok=True)
    packed = torch.load(pack_folder / START, weights_only=True)
    torch.save(
        {"model": {name: value.float() for name, value in packed["model"].items()}, "step": packed["step"]},
        start / "best.pt",
    )
    shutil.copy(pack_folder / TOKENIZER, start / TOKENIZER)
    config = dataclasses.replace(
        config,
        data=dataclasses.replace(
            config.data, train=str(pack_folder / config.data.train), dev=str(pack_folder / config.data.dev)
        ),
        train=dataclasses.replace(
            config.train,
            init_from=str(start),
            time_budget_minutes=minutes,
            keep_checkpoints=max(config.train.keep_checkpoints, average),
            device=device,
        ),
    )
    run = workdir / "run"
    summary = Trainer(config, run).train()
    weights, steps = average_checkpoints(run, average)
    out.mkdir(parents=True, exist_ok=True)
    for index, piece in enumerate(pieces({name: value.half() for name, value in weights.items()})):
        torch.save(piece, out / WEIGHTS.format(index))
    trained_with = {"model": model_settings(config), "vocab": raw["vocab"]}
    (out / "summary.json").write_text(
        json.dumps({**summary, "averaged_steps": steps, TRAINED_WITH: trained_with}, indent=2), encoding="utf-8"
    )
    return summary


def pieces(weights: dict[str, torch.Tensor]) -> list[dict[str, torch.Tensor]]:
    """The tensors in groups of at most PIECE_LIMIT bytes (a larger tensor alone)."""
    groups, size = [{}], 0
    for name, value in weights.items():
        nbytes = value.numel() * value.element_size()
        if groups[-1] and size + nbytes > PIECE_LIMIT:
            groups.append({})
            size = 0
        groups[-1][name] = value
        size += nbytes
    return groups


def unpack(files: Path, pack_folder: Path, into: Path) -> None:
    """The run folder of what `train` brought back: best.pt (fp32), the pack's tokenizer, the
    [model] and [vocab] it was trained with (config.json), and the summary."""
    weights: dict[str, torch.Tensor] = {}
    for path in sorted(files.glob(WEIGHTS.format("*"))):
        weights.update(torch.load(path, weights_only=True))
    if not weights:
        raise FileNotFoundError(f"{files}: no {WEIGHTS.format('N')} files")
    summary = json.loads((files / "summary.json").read_text(encoding="utf-8"))
    raw = json.loads((pack_folder / RUN_CONFIG).read_text(encoding="utf-8"))
    trained_with = summary.pop(TRAINED_WITH, None) or {key: raw[key] for key in ("model", "vocab")}  # before --set
    into.mkdir(parents=True, exist_ok=True)
    torch.save(
        {"model": {name: value.float() for name, value in weights.items()}, "step": summary["steps"]}, into / "best.pt"
    )
    shutil.copy(pack_folder / TOKENIZER, into / TOKENIZER)
    if (pack_folder / HELD_OUT_FILE).exists():
        shutil.copy(pack_folder / HELD_OUT_FILE, into / HELD_OUT_FILE)
    (into / "config.json").write_text(json.dumps(trained_with, indent=2), encoding="utf-8")
    (into / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")


def move_models(root: Path, back: bool) -> list[str]:
    """The shipped model folders out of the tree into ASIDE (or back): the names moved."""
    models, aside = root / "models", root / ASIDE
    source, goal = (aside, models) if back else (models, aside)
    moved = []
    for folder in (
        sorted(p for p in source.iterdir() if p.is_dir() and not p.name.startswith("__")) if source.is_dir() else []
    ):
        if (goal / folder.name).exists():
            raise FileExistsError(f"{goal / folder.name} exists: move it yourself")
        goal.mkdir(parents=True, exist_ok=True)
        shutil.move(str(folder), goal / folder.name)
        moved.append(folder.name)
    return moved


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    packing = verbs.add_parser("pack")
    packing.add_argument("config", type=Path)
    packing.add_argument("--start", type=Path, required=True, help="a run folder or an exported model folder")
    packing.add_argument("--out", type=Path, default=Path("work/device"))
    packing.add_argument("--average", type=int, default=5)
    packing.add_argument("--set", dest="overrides", action="append", default=[])
    training = verbs.add_parser("train")
    training.add_argument("pack", type=Path)
    training.add_argument("--minutes", type=float, required=True)
    training.add_argument("--out", type=Path, required=True)
    training.add_argument("--workdir", type=Path, default=Path("/tmp/attn-device-run"))
    training.add_argument("--device", default="", help="'' (a GPU when PyTorch sees one), cuda or cpu")
    training.add_argument("--average", type=int, default=5)
    training.add_argument(
        "--set", dest="overrides", action="append", default=[], help="section.key=value over the packed config"
    )
    unpacking = verbs.add_parser("unpack")
    unpacking.add_argument("files", type=Path)
    unpacking.add_argument("--pack", type=Path, default=Path("work/device"))
    unpacking.add_argument("--into", type=Path, required=True)
    verbs.add_parser("aside")
    verbs.add_parser("restore")
    args = parser.parse_args(argv)
    root = Path.cwd()
    if args.verb == "pack":
        size = pack(load_config(args.config, args.overrides), args.start, args.out, args.average)
        tree = tree_size(root)
        print(
            f"packed {size / 2**20:.1f} MiB into {args.out}; the tree without it {tree / 2**20:.1f} MiB, "
            f"{(size + tree) / 2**20:.1f} of {TREE_LIMIT >> 20} MiB (packs and wheels beside it in one call count too)"
        )
        if size + tree > TREE_LIMIT:
            raise SystemExit(
                "too large for one call: `python -m attn.export.training.device_run aside` moves the "
                "shipped model folders out of the tree"
            )
    elif args.verb == "train":
        summary = train(args.pack, args.minutes, args.out, args.workdir, args.device, args.average, args.overrides)
        print(json.dumps({key: summary[key] for key in ("steps", "train_minutes", "best_dev_bleu")}))
    elif args.verb == "unpack":
        unpack(args.files, args.pack, args.into)
        print(f"wrote {args.into}: `attn export CONFIG --workdir {args.into} --no-train` or `[train] init_from`")
    else:
        moved = move_models(root, back=args.verb == "restore")
        print(f"{'restored' if args.verb == 'restore' else 'moved aside'}: {', '.join(moved) or 'nothing'}")


if __name__ == "__main__":
    main()
