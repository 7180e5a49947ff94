"""`--align`: the best translation, then its word alignment as a Rich table."""

from __future__ import annotations

from rich.console import Console

from attn.runtime.texts import Translation

from ..align_table import render_alignment
from .text import one_line


class TableFormat:
    keeps_blank_lines = False

    def __init__(self, n_best: int):
        self.console = Console(highlight=False)

    def write(self, source: str, translations: list[Translation]) -> None:
        best = translations[0]
        self.console.print(one_line(best.text), markup=False)
        render_alignment(best.alignment, self.console, title=f"score {best.score:.3f}")
