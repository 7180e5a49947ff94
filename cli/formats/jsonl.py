"""JSON lines: one object per input (schema: cli/translation.schema.json)."""

from __future__ import annotations

import json
import sys

from attn.runtime.translator import Translation


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
    """source, source words, the best translation's fields, and the n-best list with the same fields."""

    def __init__(self, n_best: int):
        self.n_best = n_best

    def write(self, source: str, translations: list[Translation]) -> None:
        best = translation_record(translations[0])
        record = {"source": source, "source_words": translations[0].alignment.source_words,
                  "translation": best.pop("text"), **best,
                  "n_best": [translation_record(t) for t in translations]}
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
