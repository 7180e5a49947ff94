"""`translation ||| s-t s-t …`: each target word's strongest source word, 0-based (Marian's
format); with n-best > 1, `index ||| text ||| score ||| links`."""

from __future__ import annotations

import sys

from attn.runtime.translation import Translation

from .text import one_line


class PharaohFormat:
    keeps_blank_lines = True

    def __init__(self, n_best: int):
        self.n_best, self.index = n_best, 0

    def write(self, source: str, translations: list[Translation]) -> None:
        if self.n_best == 1:
            best = translations[0]
            sys.stdout.write(f"{one_line(best.text)} ||| {best.alignment.pharaoh()}\n")
        else:
            sys.stdout.write(
                "".join(
                    f"{self.index} ||| {one_line(t.text)} ||| {t.score:.4f} ||| {t.alignment.pharaoh()}\n"
                    for t in translations
                )
            )
        self.index += 1
