"""Plain text: the best translation per line; with n-best > 1, Marian's `index ||| text ||| score`."""

from __future__ import annotations

import sys

from attn.runtime.translation import Translation


def one_line(text: str) -> str:
    return " ".join(line for line in text.splitlines() if line.strip())


class TextFormat:
    keeps_blank_lines = True

    def __init__(self, n_best: int):
        self.n_best, self.index = n_best, 0

    def write(self, source: str, translations: list[Translation]) -> None:
        if self.n_best == 1:  # a text of several lines (an argument) keeps them; a line read is one line
            best = translations[0].text
            out = (best.rstrip("\n") if "\n" in source.strip() else one_line(best)) + "\n"
        else:
            out = "".join(f"{self.index} ||| {one_line(t.text)} ||| {t.score:.4f}\n" for t in translations)
        self.index += 1
        sys.stdout.write(out)
