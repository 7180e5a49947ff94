"""Standard input as batches of lines: batched when input is waiting, streamed when it is not.

Lines split on b"\\n" only (a "\\r" or U+2028 inside a line stays inside it), so N lines in
always gives N results out; bytes that are not UTF-8 are replaced with U+FFFD.
"""

from __future__ import annotations

import os
import select
from collections.abc import Iterator


def _data_waiting(fd: int) -> bool:
    try:
        ready, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(ready)


def read_line_batches(fd: int, max_batch: int) -> Iterator[list[str]]:
    """Yield lists of at most `max_batch` lines; a partial batch is yielded as soon as no more
    input is waiting, so an interactive or slow producer gets each answer right away."""
    buffer, pending = b"", []
    while True:
        while b"\n" in buffer and len(pending) < max_batch:
            line, buffer = buffer.split(b"\n", 1)
            pending.append(_decode(line))
        if len(pending) >= max_batch or (pending and not _data_waiting(fd)):
            yield pending
            pending = []
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        buffer += chunk
    if buffer:
        pending.append(_decode(buffer))
    if pending:
        yield pending


def _decode(line: bytes) -> str:
    return line.removesuffix(b"\r").decode("utf-8", errors="replace")
