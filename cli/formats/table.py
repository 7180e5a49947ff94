"""`--align`: the best translation, then its word alignment as a Rich table; with `--n-best N`,
each of the N hypotheses so, numbered."""

from __future__ import annotations

from rich.console import Console

from attn.runtime.translation import Translation

from ..align_table import render_alignment
from .text import one_line


class TableFormat:
    keeps_blank_lines = False

    def __init__(self, n_best: int):
        self.console = Console(highlight=False)
        self.n_best = n_best

    def write(self, source: str, translations: list[Translation]) -> None:
        for rank, hypothesis in enumerate(translations[: self.n_best], 1):
            numbered = f"{rank}. " if self.n_best > 1 else ""
            # on one line, as every format writes a translation (Rich had wrapped it at 80 columns into a file)
            self.console.print(numbered + one_line(hypothesis.text), markup=False, soft_wrap=True)
            render_alignment(hypothesis.alignment, self.console, title=f"score {hypothesis.score:.3f}")
