"""`-o/--output FILE`: standard output redirected into a file that appears whole or not at all
(written under a temporary name beside it, renamed when the command succeeds; on any failure the
partial file goes and an existing FILE is left as it was)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from attn.runtime.errors import UsageError


@contextlib.contextmanager
def output_file(path: Path | None) -> Iterator[None]:
    """Within the block, sys.stdout writes to `path` (nothing changes when it is None or '-')."""
    if path is None or str(path) == "-":
        yield
        return
    if path.is_dir():
        raise UsageError(f"--output {path} is a folder; name a file")
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        handle = partial.open("w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"--output {path}: cannot write there ({error.strerror})") from None
    saved = sys.stdout
    sys.stdout = handle
    try:
        yield
        handle.close()
        os.replace(partial, path)
    finally:
        sys.stdout = saved
        handle.close()
        partial.unlink(missing_ok=True)
