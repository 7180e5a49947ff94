"""What every benchmark script ends with: its Markdown report printed, and written to --out."""

from __future__ import annotations

import sys
from pathlib import Path


def command_line() -> str:
    """The report's first line: the command that produced it."""
    return f"Command: `python {' '.join(sys.argv)}`"


def finish(lines: list[str], out: Path | None) -> None:
    """Print the report's lines, and write them to `out` when given."""
    text = "\n".join(lines) + "\n"
    if out:
        out.write_text(text, encoding="utf-8")
    print(text)
