"""A file written whole or not at all: written under a temporary name beside it, then renamed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def replace_whole(path: Path, write: Callable[[Path], None], temporary: Path | None = None) -> None:
    """`write(temporary)`, then the temporary file (`temporary`, or `path` with ".tmp" after its
    name) renamed to `path`: `path` whole or as it was, and a failed write (a full disk) leaves no
    temporary file behind."""
    temporary = temporary or path.with_suffix(path.suffix + ".tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
