"""A translation as JSON: one object per input, as `attn translate -f jsonl` writes it and `attn
serve`'s native endpoints answer (schema: cli/translation.schema.json)."""

from __future__ import annotations

from .coverage import received_attention, uncovered_runs
from .translation import Translation
from .verbatim import added_numbers, lost_numbers


def translation_record(translation: Translation) -> dict:
    """A line translated in parts has `alignment` null and its blocks in `alignment_parts`."""
    alignment = translation.alignment
    parts = alignment.parts
    record = {
        "text": translation.text,
        "score": round(translation.score, 6),
        "words": alignment.target_words,
        "alignment": _matrix(parts[0][2].weights) if len(parts) == 1 else None,
        "pharaoh": alignment.pharaoh(),
    }
    if len(parts) > 1:
        record["alignment_parts"] = [
            {"row": row, "column": column, "weights": _matrix(part.weights)} for row, column, part in parts
        ]
    return record


def _matrix(weights) -> list[list[float]]:
    return [[round(float(w), 4) for w in row] for row in weights]


def input_record(source: str, translations: list[Translation], text_key: str = "translation") -> dict:
    """One input's object of the schema: the source, its words, the best output's fields, the
    attention each source word received and the runs that received almost none (runtime/coverage.py),
    a translation's lost and added numbers (runtime/verbatim.py), and the n-best list (also the body of `attn serve`'s native endpoints)."""
    best = translation_record(translations[0])
    alignment = translations[0].alignment
    record = {
        "source": source,
        "source_words": alignment.source_words,
        text_key: best.pop("text"),
        **best,
        "coverage": [round(float(mass), 4) for mass in received_attention(alignment)],
        "uncovered": uncovered_runs(alignment),
        "n_best": [translation_record(t) for t in translations],
    }
    if text_key == "translation":  # a summary leaves numbers out by design
        record["lost_numbers"] = lost_numbers(source, record[text_key])
        record["added_numbers"] = added_numbers(source, record[text_key])
    return record
