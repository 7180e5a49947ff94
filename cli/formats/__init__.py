"""Output formats for `translate` and `align`: one module each behind one interface.

A format is built with the number of hypotheses to show (`n_best`) and has one method,
`write(source, translations)`, which writes what one input produces to stdout; the line formats
(text, pharaoh) also write `--paragraphs`' blank lines (`keeps_blank_lines`), so that their lines
line up with the input's, the record formats (jsonl, table) do not. Every format
carries the same fields (text, score, n-best, word alignment) in its own shape; plain text is the
default, for pipes.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from attn.runtime.translation import Translation

# name → (module, class); a format's module is imported when it is chosen (the table's pulls in
# Rich, which plain text does not need at cold start)
FORMAT_CLASSES = {
    "text": ("text", "TextFormat"),
    "jsonl": ("jsonl", "JsonlFormat"),
    "pharaoh": ("pharaoh", "PharaohFormat"),
    "table": ("table", "TableFormat"),
}
FORMATS = tuple(FORMAT_CLASSES)


class OutputFormat(Protocol):
    keeps_blank_lines: bool

    def write(self, source: str, translations: list[Translation]) -> None: ...


def make_format(name: str, n_best: int) -> OutputFormat:
    module, cls = FORMAT_CLASSES[name]
    return getattr(importlib.import_module(f"{__package__}.{module}"), cls)(n_best)
