"""Text in UTF-16 or UTF-32, as Windows writes it (PowerShell 5's `>`, Notepad's "Unicode", Excel's
"Unicode Text"), told by the byte-order mark it opens with and read as UTF-8 text is; its NUL bytes
had been refused as binary data."""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Iterable, Iterator

# UTF-32's marks first: UTF-32-LE's opens with UTF-16-LE's
MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
LONGEST_MARK = max(len(mark) for mark, _ in MARKS)


def marked_encoding(head: bytes) -> str | None:
    """The encoding (without a mark of its own: the text keeps U+FEFF, which readers drop) named by
    the UTF-16 or UTF-32 byte-order mark `head` opens with; None for any other bytes."""
    return next((encoding for mark, encoding in MARKS if head.startswith(mark)), None)


def _may_open_a_mark(head: bytes) -> bool:
    """Whether `head`, shorter than the longest mark, may be the start of one."""
    return len(head) < LONGEST_MARK and any(mark.startswith(head[: len(mark)]) for mark, _ in MARKS)


def as_utf8(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The chunks of a stream as UTF-8: those of a text opening with a UTF-16 or UTF-32 mark
    transcoded as they come (bytes that do not decode read as U+FFFD), any other text's as they
    are. No chunk is empty; the first waits for more bytes only while they may still be a mark."""
    chunks = iter(chunks)
    head = b""
    for chunk in chunks:
        head += chunk
        if not _may_open_a_mark(head):
            break
    encoding = marked_encoding(head)
    if encoding is None:
        if head:
            yield head
        yield from (chunk for chunk in chunks if chunk)
        return
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    for chunk in itertools.chain([head], chunks):
        if text := decoder.decode(chunk):
            yield text.encode("utf-8")
    if text := decoder.decode(b"", final=True):
        yield text.encode("utf-8")
