"""`attn models`: the installed models with task, languages and size."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from attn.runtime.constants import LEXICON
from attn.runtime.registry import installed_models, installed_root


def models_command() -> None:
    """List the installed models."""
    models = installed_models()
    console = Console()
    if not models:
        console.print(f"no models installed in {installed_root()}")
        return
    table = Table("name", "task", "from", "to", "size", "parameters", "architecture")
    for model in models:
        m, arch = model.manifest, model.manifest.architecture
        table.add_row(model.name, m.task, m.source_lang, m.target_lang, f"{model.size_bytes / 1e6:.1f} MB",
                      f"{arch.get('parameters', 0) / 1e6:.1f} M", describe(arch, LEXICON in m.files))
    console.print(table)


def describe(arch: dict, shortlist: bool) -> str:
    """One line for a manifest's architecture: "transformer 6+2 layers, width 512, 8 heads" or
    "rnn gru bahdanau/additive", then its precision and options."""
    if arch.get("architecture", "rnn") == "transformer":
        text = (f"transformer {arch.get('encoder_layers')}+{arch.get('decoder_layers')} layers, "
                f"width {arch.get('embedding_size')}, {arch.get('heads')} heads")
    else:
        text = f"rnn {arch.get('cell')} {arch.get('style')}/{arch.get('score')}"
    options = [option for option in ("copy", "coverage") if arch.get(option)] + (["shortlist"] if shortlist else [])
    return f"{text}, {arch.get('precision', 'fp32')}" + "".join(f" +{option}" for option in options)
