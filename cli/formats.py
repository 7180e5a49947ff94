"""Output formats for `translate` and `align`: one class each behind one interface.

`write(source, translations)` writes what one input produces. Every format carries the same
fields (text, score, n-best, word alignment) in its own shape; plain text is the default.
"""

from __future__ import annotations

import json
import sys

from rich.console import Console

from attn.runtime.translator import Translation

from .align_table import render_alignment

FORMATS = ("text", "jsonl", "pharaoh", "table")


def one_line(text: str) -> str:
    return " ".join(text.splitlines())


class TextFormat:
    """The best translation; with n-best > 1, Marian's `index ||| text ||| score` lines."""

    def __init__(self, n_best: int):
        self.n_best, self.index = n_best, 0

    def write(self, source: str, translations: list[Translation]) -> None:
        if self.n_best == 1:
            out = one_line(translations[0].text) + "\n"
        else:
            out = "".join(f"{self.index} ||| {one_line(t.text)} ||| {t.score:.4f}\n" for t in translations)
        self.index += 1
        sys.stdout.write(out)


class PharaohFormat:
    """`translation ||| s-t s-t …`: each target word's strongest source word, 0-based (Marian)."""

    def __init__(self, n_best: int):
        self.text = TextFormat(n_best)

    def write(self, source: str, translations: list[Translation]) -> None:
        best = translations[: self.text.n_best]
        if self.text.n_best == 1:
            sys.stdout.write(f"{one_line(best[0].text)} ||| {best[0].alignment.pharaoh()}\n")
        else:
            sys.stdout.write("".join(f"{self.text.index} ||| {one_line(t.text)} ||| {t.score:.4f} ||| "
                                     f"{t.alignment.pharaoh()}\n" for t in best))
            self.text.index += 1


def translation_record(translation: Translation) -> dict:
    alignment = translation.alignment
    return {
        "text": translation.text,
        "score": round(translation.score, 6),
        "words": alignment.target_words,
        "alignment": [[round(float(w), 4) for w in row] for row in alignment.weights],
        "pharaoh": alignment.pharaoh(),
    }


class JsonlFormat:
    """One JSON object per input: source, source words, the best translation's fields, n-best."""

    def __init__(self, n_best: int):
        self.n_best = n_best

    def write(self, source: str, translations: list[Translation]) -> None:
        best = translations[0]
        record = {"source": source, "source_words": best.alignment.source_words,
                  "translation": best.text, **{k: v for k, v in translation_record(best).items() if k != "text"},
                  "n_best": [translation_record(t) for t in translations]}
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")


class TableFormat:
    """The best translation, then its alignment as a Rich table (`--align`)."""

    def __init__(self, n_best: int):
        self.console = Console(highlight=False)

    def write(self, source: str, translations: list[Translation]) -> None:
        best = translations[0]
        self.console.print(one_line(best.text), markup=False)
        render_alignment(best.alignment, self.console, title=f"score {best.score:.3f}")


def make_format(name: str, n_best: int):
    return {"text": TextFormat, "jsonl": JsonlFormat, "pharaoh": PharaohFormat, "table": TableFormat}[name](n_best)
