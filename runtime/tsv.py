"""The corpora's TSV format: source, target[, origin[, group]], optionally gzipped (.gz) or
xz-compressed (.xz: what a device pack carries, a third smaller where rows repeat)."""

from __future__ import annotations

import gzip
import io
import lzma
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

from .byte_order import LONGEST_MARK, marked_encoding
from .constants import BOM
from .errors import UsageError

Item = TypeVar("Item")

# How the corpora write a document's paragraph break inside its one line; read as a space, as
# `attn summarize` folds a document's line breaks.
PARAGRAPH_MARK = " ¶ "
# The compressions a corpus may come in, by the suffix after ".tsv", and how its name may end.
OPENERS = {".gz": gzip.open, ".xz": lzma.open}
TSV_SUFFIXES = (".tsv", *(".tsv" + suffix for suffix in OPENERS))
# A longer line is refused (its bytes are never all read: /dev/zero as a corpus); the
# longest line of ../shared/data is a Python PEP of 113,593 characters.
MAX_LINE_BYTES = 1 << 22
COLUMNS = 4  # source, target, origin, group


@dataclass(frozen=True)
class Row:
    source: str
    target: str
    origin: str

    def swapped(self) -> Row:
        """The pair the other way round: the target as the source."""
        return Row(self.target, self.source, self.origin)


def read_tsv(path: str | Path, swap_columns: bool = False) -> list[Row]:
    """Rows of a (gzipped or xz-compressed) TSV, split on "\n" only (a "\r\n" ending is one too); blank lines
    are skipped. `swap_columns` reads the second column as the source and the first as the
    target: the reverse direction of a file (de→en from an en-de file). Paragraph marks
    (PARAGRAPH_MARK) become spaces. A line with one column or more than COLUMNS,
    bytes that are not UTF-8 or a damaged compressed stream is a UsageError naming the file and line."""
    opener = OPENERS.get(Path(path).suffix, open)
    rows = []
    number = 0
    try:
        with opener(path, "rb") as handle:
            lines = _in_utf8(handle, path)
            for number, raw in enumerate(iter(lambda: lines.readline(MAX_LINE_BYTES + 1), b""), 1):
                if len(raw) > MAX_LINE_BYTES:
                    raise UsageError(
                        f"{path}:{number}: a line longer than {MAX_LINE_BYTES:,} bytes; not a corpus of "
                        f"source<TAB>target lines"
                    )
                line = raw.decode("utf-8").removesuffix("\n").removesuffix("\r").replace(PARAGRAPH_MARK, " ")
                if number == 1:
                    line = line.removeprefix(BOM)  # a byte-order mark (Excel, Notepad) glued to the first word
                if not line.strip():
                    continue
                columns = line.split("\t")
                if not 2 <= len(columns) <= COLUMNS:  # more: a tab in a text, and every column after it shifted
                    found = "one column" if len(columns) < 2 else f"{len(columns)} columns (a tab inside a text?)"
                    raise UsageError(
                        f"{path}:{number}: expected source<TAB>target[<TAB>origin[<TAB>group]], found {found}"
                    )
                source, target = (columns[1], columns[0]) if swap_columns else (columns[0], columns[1])
                rows.append(Row(source, target, columns[2] if len(columns) > 2 else ""))
    except UnicodeDecodeError as error:  # decoded line by line: the line and the byte in it are exact
        raise UsageError(f"{path}:{number}: not UTF-8 ({error.reason} at byte {error.start + 1} of the line)") from None
    except (EOFError, gzip.BadGzipFile, zlib.error, lzma.LZMAError) as error:
        raise UsageError(f"{path}: damaged or truncated compressed file after line {number} ({error})") from None
    return rows


def _in_utf8(handle: BinaryIO, path: str | Path) -> BinaryIO:
    """`handle`, or, for a file in UTF-16 or UTF-32 (Excel's "Unicode Text", Notepad's "Unicode":
    runtime/byte_order.py), its text read whole and encoded in UTF-8."""
    encoding = marked_encoding(handle.peek(LONGEST_MARK)[:LONGEST_MARK])
    if encoding is None:
        return handle
    try:
        return io.BytesIO(handle.read().decode(encoding).encode("utf-8"))
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not {encoding} text, as its byte-order mark says (byte {error.start + 1})") from None


def spread(items: list[Item], count: int) -> list[Item]:
    """At most `count` items, every n-th one: a sample that covers the whole file (all origins)."""
    return items[:: max(1, len(items) // max(1, count))][:count]
