"""Standard input as batches of lines: batched when input is waiting, streamed when it is not.

Lines split on b"\\n" only (a "\\r" or U+2028 inside a line stays inside it; a final "\\r", a
Windows line end, goes), so N lines in always gives N results out; a UTF-8 byte-order mark
before the first line goes; a line whose bytes are not UTF-8 is read as Windows-1252 (Latin-1's
superset, what a legacy English, German or French file is written in: "£20" had become "�20").
Memory stays
bounded whatever comes in: a line longer than `max_line_chars` characters keeps its first
`max_line_chars` (a note on stderr names the line) and the rest of it is read and dropped, so an
endless line holds a few hundred kilobytes, not the whole stream.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from attn.runtime.binary_data import binary_kind, compression
from attn.runtime.byte_order import as_utf8
from attn.runtime.constants import BOM
from attn.runtime.errors import UsageError
from attn.runtime.legacy_bytes import utf8_or_windows_1252
from attn.runtime.sessions import warn_on_stderr

DEFAULT_MAX_LINE_CHARS = 100_000
UTF8_MAX_BYTES = 4  # bytes of one character, at most
READ_SIZE = 1 << 16


def _data_waiting(fd: int) -> bool:
    try:
        ready, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(ready)


class LineSplitter:
    """Splits chunks of bytes into lines of at most `max_bytes` bytes each; what a line has
    beyond that is dropped as it arrives. Each chunk is scanned once (linear time)."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.partial = bytearray()
        self.cut = False

    def feed(self, chunk: bytes) -> list[tuple[bytes, bool]]:
        """The lines completed by `chunk`, each with whether it was cut."""
        lines, start = [], 0
        while True:
            newline = chunk.find(b"\n", start)
            end = len(chunk) if newline < 0 else newline
            room = self.max_bytes - len(self.partial)
            if end - start > room:
                self.partial += chunk[start : start + room]
                self.cut = True
            else:
                self.partial += chunk[start:end]
            if newline < 0:
                return lines
            lines.append(self._take())
            start = newline + 1

    def close(self) -> list[tuple[bytes, bool]]:
        """The last line, when the input did not end with a newline."""
        return [self._take()] if self.partial or self.cut else []

    def _take(self) -> tuple[bytes, bool]:
        line, cut = bytes(self.partial), self.cut
        self.partial, self.cut = bytearray(), False
        if cut:  # cut within a character: its first bytes would read as bytes that are not UTF-8
            line = line[: len(line) - unfinished_character(line)]
        return line, cut


def unfinished_character(data: bytes) -> int:
    """How many bytes at the end of `data` begin a UTF-8 character that they do not finish."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    decoder.decode(data[-3:])  # a character takes at most 4 bytes: 3 of them leave it unfinished
    return len(decoder.getstate()[0])


# The opening bytes of compressed and archive formats people hand in by mistake.
PAST = {"translate": "translated", "summarize": "summarized"}


def refuse_binary(head: bytes, name: str, command: str) -> None:
    """A UsageError for input that is not text: a compressed file or archive by its opening bytes,
    or anything with NUL bytes (an executable, an image). `command`: "translate" or "summarize"."""
    what = binary_kind(head)
    if what is None:
        return
    hint = f" (decompress it first, e.g. zcat FILE | attn {command})" if compression(head) else ""
    raise UsageError(f"{name} holds {what}, not text: nothing {PAST[command]}{hint}")


def utf8_chunks(fd: int) -> Iterator[bytes]:
    """The bytes of `fd` as they arrive, in UTF-8: UTF-16 and UTF-32 (from Windows) transcoded by
    their byte-order mark (runtime/byte_order.py)."""
    return as_utf8(iter(lambda: os.read(fd, READ_SIZE), b""))


def read_line_batches(
    fd: int,
    max_batch: int,
    max_line_chars: int = DEFAULT_MAX_LINE_CHARS,
    notify: Callable[[str], None] = warn_on_stderr,
    name: str = "standard input",
    command: str = "translate",
) -> Iterator[list[str]]:
    """Yield lists of at most `max_batch` lines; a partial batch is yielded as soon as no more
    input is waiting, so an interactive or slow producer gets each answer right away. UTF-16 and
    UTF-32 are read by their byte-order mark (runtime/byte_order.py); input whose first bytes are
    not text (refuse_binary) is refused; a line with bytes that are not UTF-8 gets
    a note naming it and the first such byte."""
    splitter = LineSplitter(UTF8_MAX_BYTES * max_line_chars)
    pending: list[str] = []
    number, noted = 0, False  # noted: a line that is not UTF-8 was named

    def add(lines: list[tuple[bytes, bool]]) -> None:
        nonlocal number, noted
        for line, cut in lines:
            number += 1
            text = decode_line(line)
            if not noted and not line.isascii():
                noted = note_not_utf8(line, number, name, notify)
            if number == 1:
                text = text.removeprefix(BOM)  # a file saved "with BOM" (Windows Notepad, Excel's CSV)
            if cut or len(text) > max_line_chars:
                notify(
                    f"line {number} is longer than {max_line_chars} characters (--max-line-chars): "
                    f"only its first {max_line_chars} are used"
                )
                text = text[:max_line_chars]
            pending.append(text)

    chunks = utf8_chunks(fd)
    while True:
        if len(pending) >= max_batch or (pending and not _data_waiting(fd)):
            yield pending[:max_batch]
            del pending[:max_batch]
            continue
        chunk = next(chunks, b"")
        if not chunk:
            break
        if number == 0 and not splitter.partial:
            refuse_binary(chunk, name, command)
        add(splitter.feed(chunk))
    add(splitter.close())
    while pending:
        yield pending[:max_batch]
        del pending[:max_batch]


def note_not_utf8(line: bytes, number: int, name: str, notify: Callable[[str], None]) -> bool:
    """A note for a line whose bytes are not all UTF-8 (a Latin-1 or Windows-1252 file), which
    decode_line reads as Windows-1252; whether it is one. A caller names the first such line of an
    input: a Latin-1 file has many."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as error:
        notify(
            f"{name}, line {number}: byte {error.start + 1} is not UTF-8 ({line[error.start : error.start + 1]!r}): "
            f"read as Windows-1252 (Latin-1), as is any other such line; the output is UTF-8"
        )
        return True
    return False


def decode_line(line: bytes) -> str:
    """A line's bytes as text: a final \\r dropped; bytes that are not UTF-8 read as Windows-1252
    (runtime/legacy_bytes.py)."""
    return utf8_or_windows_1252(line.removesuffix(b"\r"))


def file_line_batches(
    files: list[Path],
    lines_per_call: int,
    max_line_chars: int,
    notify: Callable[[str], None] = warn_on_stderr,
    command: str = "translate",
) -> Iterator[list[str]]:
    """read_line_batches over each file in turn ('-': standard input), for `command`; a file that
    cannot be opened is a UsageError naming it, before any of its lines."""
    for file in files:
        if str(file) == "-":
            yield from read_line_batches(sys.stdin.fileno(), lines_per_call, max_line_chars, notify, command=command)
            continue
        try:
            handle = file.open("rb")
        except OSError as error:
            raise UsageError(f"--input {file}: {error.strerror}") from None
        with handle:
            yield from read_line_batches(handle.fileno(), lines_per_call, max_line_chars, notify, str(file), command)
