"""Output formats for `translate`: one class each behind one interface.

`format(source, translations)` returns the text written for one input, newline-terminated.
Plain text is the default (one line per input, for pipes).
"""

from __future__ import annotations

import json

from attn.runtime.translator import Translation

FORMATS = ("text", "jsonl")


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


class TextFormat:
    """The best translation; with n-best > 1, Marian's `index ||| text ||| score` lines."""

    def __init__(self, n_best: int):
        self.n_best = n_best
        self.index = 0

    def format(self, source: str, translations: list[Translation]) -> str:
        if self.n_best == 1:
            out = _one_line(translations[0].text) + "\n"
        else:
            out = "".join(f"{self.index} ||| {_one_line(t.text)} ||| {t.score:.4f}\n" for t in translations)
        self.index += 1
        return out


class JsonlFormat:
    """One JSON object per input: source, translation, score and the n-best list."""

    def __init__(self, n_best: int):
        self.n_best = n_best

    def format(self, source: str, translations: list[Translation]) -> str:
        best = translations[0]
        record = {
            "source": source,
            "translation": best.text,
            "score": round(best.score, 6),
            "n_best": [{"text": t.text, "score": round(t.score, 6)} for t in translations],
        }
        return json.dumps(record, ensure_ascii=False) + "\n"


def make_format(name: str, n_best: int):
    return {"text": TextFormat, "jsonl": JsonlFormat}[name](n_best)
