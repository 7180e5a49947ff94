"""`attn models`: the installed models with task, languages, whether a command without --model
picks each direction ("yes", else "with -m NAME"), size, where each came from and its licence: a
table for a person, tab-separated columns when piped (never cut to a width), or JSON (`--format
json`). Its subcommands install, list and remove public models (cli/models_install.py)."""

from __future__ import annotations

import sys

import typer

from attn.cli.app import guarded
from attn.cli.listing import ListFormatOption, check_list_format, print_json, print_rows
from attn.cli.models_install import available_command, install_command, remove_command
from attn.runtime.constants import LEXICON
from attn.runtime.manifest import LICENCE, PRECISIONS
from attn.runtime.registry import InstalledModel, installed_models, model_roots, pair_owners, pickable, shipped_root
from attn.runtime.sessions import warn_on_stderr

COLUMNS = ("name", "task", "from", "to", "picked", "size", "parameters", "architecture", "source", "licence")
SHIPPED_LICENCE = "models/README.md"  # the shipped models' data and licences are listed there

models_app = typer.Typer(
    help="List the installed models; install, list and remove public ones (install, available, remove).",
    invoke_without_command=True,
    no_args_is_help=False,
)


@models_app.callback()
def models_group(context: typer.Context, output_format: ListFormatOption = "table") -> None:
    """List the installed models (the subcommands install, list and remove public ones)."""
    if context.invoked_subcommand is None:
        guarded(list_models)(output_format)


def list_models(output_format: str) -> None:
    check_list_format(output_format)
    # a damaged folder had been left out without a word
    models = installed_models(unreadable=lambda folder, why: warn_on_stderr(f"left out of the list: {why}"))
    picked = picked_directions(models)
    if output_format == "json":
        print_json([model_record(model, picked) for model in models])
        return
    if not models:
        print(f"no models installed in {' or '.join(map(str, model_roots()))}", file=sys.stderr)
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
            *origin(model),
        ]
        for model in models
        for source, target in model.manifest.pairs
    ]
    print_rows(COLUMNS, rows)


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
        "source": origin(model)[0],
        "licence": origin(model)[1],
    }


def origin(model: InstalledModel) -> tuple[str, str]:
    """(where the model came from, its licence): "shipped" with attn, the name `attn models
    install` took, or "folder" (placed by hand); the licence its manifest records, if any."""
    training = model.manifest.training
    if model.folder.parent == shipped_root():
        return "shipped", str(training.get(LICENCE) or SHIPPED_LICENCE)
    return str(training.get("installed_from") or "folder"), str(training.get(LICENCE) or "unknown")


def picked_directions(models: list[InstalledModel]) -> set[tuple[str, tuple[str, str]]]:
    """(model name, (source, target)) for each direction a command without --model takes that
    model for: per task, registry.pair_owners (as `--from source --to target` resolves)."""
    picked = set()
    for task in {model.manifest.task for model in models}:
        of_task = [model for model in pickable(models) if model.manifest.task == task]
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
    return f"{text}, {arch.get('precision', PRECISIONS[0])}" + "".join(f" +{option}" for option in options)


models_app.command("install")(guarded(install_command))
models_app.command("available")(guarded(available_command))
models_app.command("remove")(guarded(remove_command))
