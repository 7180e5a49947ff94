"""Text whose bytes are not all UTF-8, read as a legacy English, German or French file is written:
the bytes UTF-8 cannot read as Windows-1252 (Latin-1's superset; one it leaves undefined as
Latin-1), the rest as UTF-8 (a UTF-8 line with one stray byte had been read all as Windows-1252:
"GrÃ¼ÃŸe"). The command line reads its lines so, and a document that declares no encoding is
read so (browsers read an undeclared legacy page as Windows-1252 too); "£20" had become "�20"."""

from __future__ import annotations

import codecs
import re

# The bytes Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D), as surrogateescape keeps them
LEGACY_UNDEFINED = re.compile("[\udc80-\udcff]")
LEGACY_BYTES = "attn-windows-1252"  # the codecs error handler: data.decode("utf-8", errors=LEGACY_BYTES)


def utf8_or_windows_1252(data: bytes) -> str:
    """`data` read as UTF-8, the bytes that are not UTF-8 as Windows-1252 (module docstring)."""
    return data.decode("utf-8", errors=LEGACY_BYTES)


def _legacy_bytes(error: UnicodeDecodeError) -> tuple[str, int]:
    """The bytes UTF-8 could not read, as Windows-1252."""
    found = error.object[error.start : error.end]
    text = found.decode("cp1252", "surrogateescape")
    return LEGACY_UNDEFINED.sub(lambda undefined: chr(ord(undefined.group()) - 0xDC00), text), error.end


codecs.register_error(LEGACY_BYTES, _legacy_bytes)
