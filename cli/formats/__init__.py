"""Output formats for `translate` and `align`: one module each behind one interface.

A format is built with the number of hypotheses to show (`n_best`) and has one method,
`write(source, translations)`, which writes what one input produces to stdout. Every format
carries the same fields (text, score, n-best, word alignment) in its own shape; plain text is the
default, for pipes.
"""

from __future__ import annotations

from typing import Protocol

from attn.runtime.translator import Translation

from .jsonl import JsonlFormat
from .pharaoh import PharaohFormat
from .table import TableFormat
from .text import TextFormat

FORMATS = ("text", "jsonl", "pharaoh", "table")


class OutputFormat(Protocol):
    def write(self, source: str, translations: list[Translation]) -> None: ...


def make_format(name: str, n_best: int) -> OutputFormat:
    return {"text": TextFormat, "jsonl": JsonlFormat, "pharaoh": PharaohFormat, "table": TableFormat}[name](n_best)
