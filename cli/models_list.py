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
    table = Table("name", "task", "from", "to", "size", "parameters", "cell / attention")
    for model in models:
        m, arch = model.manifest, model.manifest.architecture
        table.add_row(model.name, m.task, m.source_lang, m.target_lang, f"{model.size_bytes / 1e6:.1f} MB",
                      f"{arch.get('parameters', 0) / 1e6:.1f} M",
                      f"{arch.get('cell')} {arch.get('style')}/{arch.get('score')}"
                      + "".join(f" +{option}" for option in ("copy", "coverage") if arch.get(option))
                      + (" +shortlist" if LEXICON in m.files else ""))
    console.print(table)
