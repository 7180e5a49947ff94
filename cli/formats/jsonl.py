"""JSON lines: one object per input (schema: cli/translation.schema.json)."""

from __future__ import annotations

import json
import sys

from attn.runtime.records import input_record
from attn.runtime.translation import Translation


class JsonlFormat:
    keeps_blank_lines = False

    """source, source words, the best output's fields (its text under `text_key`: "translation",
    or "summary" for `attn summarize`), and the n-best list with the same fields."""

    def __init__(self, n_best: int, text_key: str = "translation"):
        self.n_best, self.text_key = n_best, text_key

    def write(self, source: str, translations: list[Translation], **extra) -> None:
        """One input's record; `extra` fields after the schema's (a summary's "sentences")."""
        record = {**input_record(source, translations, self.text_key), **extra}
        sys.stdout.write(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")
