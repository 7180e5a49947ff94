"""`attn models`: the installed models with task, languages, whether a command without --model
picks each direction ("yes", else "with -m NAME"), and size: a table for a person, tab-separated
columns when piped (never cut to a width), or JSON (`--format json`)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from attn.runtime.constants import LEXICON
from attn.runtime.registry import InstalledModel, installed_models, installed_root, pair_owners

MODEL_LIST_FORMATS = ("table", "json")
COLUMNS = ("name", "task", "from", "to", "picked", "size", "parameters", "architecture")


def models_command(
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help=f"Output: {', '.join(MODEL_LIST_FORMATS)} (a table on a terminal, tab-separated columns when piped).",
        ),
    ] = "table",
) -> None:
    """List the installed models."""
    if output_format not in MODEL_LIST_FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(MODEL_LIST_FORMATS)}", param_hint="--format")
    models = installed_models()
    picked = picked_directions(models)
    if output_format == "json":
        sys.stdout.write(json.dumps([model_record(model, picked) for model in models], indent=2) + "\n")
        return
    if not models:
        print(f"no models installed in {installed_root()}", file=sys.stderr)
        return
    rows = [
        [
            model.name,
            model.manifest.task,
            source,
            target,  # a row per direction
            "yes" if (model.name, (source, target)) in picked else f"with -m {model.name}",
            f"{model.size_bytes / 1e6:.1f} MB",
            f"{model.manifest.architecture.get('parameters', 0) / 1e6:.1f} M",
            describe(model.manifest.architecture, LEXICON in model.manifest.files),
        ]
        for model in models
        for source, target in model.manifest.pairs
    ]
    if not sys.stdout.isatty():
        sys.stdout.write("".join("\t".join(row) + "\n" for row in [list(COLUMNS), *rows]))
        return
    table = Table(*COLUMNS)
    table.columns[0].no_wrap = True  # a name is what -m takes: never cut or folded, whatever the width
    table.columns[0].overflow = "ignore"
    for row in rows:
        table.add_row(*row)
    Console().print(table)


def model_record(model: InstalledModel, picked: set[tuple[str, tuple[str, str]]]) -> dict:
    """One installed model as JSON: what the table shows, in numbers, plus its folder."""
    manifest = model.manifest
    return {
        "name": model.name,
        "task": manifest.task,
        "source_lang": manifest.source_lang,
        "target_lang": manifest.target_lang,
        "directions": [list(pair) for pair in manifest.pairs],
        "picked_for": [list(pair) for pair in manifest.pairs if (model.name, pair) in picked],
        "folder": str(model.folder),
        "size_bytes": model.size_bytes,
        "architecture": manifest.architecture,
        "shortlist": LEXICON in manifest.files,
        "description": describe(manifest.architecture, LEXICON in manifest.files),
    }


def picked_directions(models: list[InstalledModel]) -> set[tuple[str, tuple[str, str]]]:
    """(model name, (source, target)) for each direction a command without --model takes that
    model for: per task, registry.pair_owners (as `--from source --to target` resolves)."""
    picked = set()
    for task in {model.manifest.task for model in models}:
        of_task = [model for model in models if model.manifest.task == task]
        picked |= {(of_task[owner].name, pair) for pair, owner in pair_owners([m.manifest for m in of_task]).items()}
    return picked


def describe(arch: dict, shortlist: bool) -> str:
    """One line for a manifest's architecture: "transformer 6+2 layers, width 512, 8 heads" or
    "rnn gru bahdanau/additive", then its precision and options."""
    if arch.get("architecture", "rnn") == "transformer":
        text = (
            f"transformer {arch.get('encoder_layers')}+{arch.get('decoder_layers')} layers, "
            f"width {arch.get('embedding_size')}, {arch.get('heads')} heads"
        )
    else:
        text = f"rnn {arch.get('cell')} {arch.get('style')}/{arch.get('score')}"
    options = [option for option in ("copy", "coverage") if arch.get(option)] + (["shortlist"] if shortlist else [])
    return f"{text}, {arch.get('precision', 'fp32')}" + "".join(f" +{option}" for option in options)
