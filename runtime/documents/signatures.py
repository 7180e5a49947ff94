"""What a file's bytes hold, by their signature, when its name says another format: a Word file
saved as .html had been "not UTF-8 text (byte 14)", a password-protected or old binary Office file
named .docx "not a zip archive", an empty .docx the same; a zip of one office format named as
another is told by its parts."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from . import FORMATS, ZIPPED, format_of

ZIP = b"PK\x03\x04"
# Microsoft's compound file: the old binary formats (.doc, .ppt, .xls), and what Office writes
# for a document protected by a password, whatever its name
COMPOUND_FILE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
PDF = b"%PDF-"
# The zip archives of office formats, known by a part only they have, or by their `mimetype`
ZIP_PARTS = {"word/document.xml": ".docx", "ppt/presentation.xml": ".pptx", "xl/workbook.xml": ".xlsx"}
MIME_TYPES = {
    "application/vnd.oasis.opendocument.text": ".odt",
    "application/vnd.oasis.opendocument.presentation": ".odp",
    "application/vnd.oasis.opendocument.spreadsheet": ".ods",
    "application/vnd.oasis.opendocument.graphics": ".odg",
    "application/epub+zip": ".epub",
}
MIME_BYTES = 100


def zip_format(archive: zipfile.ZipFile) -> str | None:
    """The suffix of the office format a zip archive is, or None when it is none of those known.
    Of its `mimetype` only the first MIME_BYTES are unpacked (a member of 300 MB had been read
    whole), and one that cannot be (a password) names no format."""
    names = set(archive.namelist())
    if "mimetype" in names:
        try:
            with archive.open("mimetype") as member:
                found = MIME_TYPES.get(member.read(MIME_BYTES).decode("ascii", "replace").strip())
        except (RuntimeError, NotImplementedError, zipfile.BadZipFile, OSError):  # encrypted, or compressed oddly
            found = None
        if found is not None:
            return found
    return next((suffix for part, suffix in ZIP_PARTS.items() if part in names), None)


def held_instead(data: bytes, name: str | Path) -> str | None:
    """What is wrong with the file `name` whose bytes are `data`, told by their signature: empty
    where its format is a zip archive, or another kind of file (a zip archive named as text, a
    compound or PDF file); None when the signature does not contradict the name."""
    suffix = format_of(name)
    if not data and suffix in ZIPPED:
        return "the file is empty"
    if data.startswith(COMPOUND_FILE):
        return (
            "it is an Office file protected by a password, or one in the old binary format (.doc, .ppt, .xls): "
            f"save it as {suffix if suffix in ZIPPED else '.docx'} without a password"
        )
    if data.startswith(PDF):
        return f"it is a PDF file, a format attn does not read ({', '.join(FORMATS)})"
    if data.startswith(ZIP):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                held = zip_format(archive)
        except zipfile.BadZipFile:
            held = None
        if suffix in ZIPPED and (held is None or FORMATS.get(held) == FORMATS[suffix]):
            return None  # (an .odp named .odt is read as what it is)
        if held in FORMATS:  # a Word file named .odt had been "not an OpenDocument file (KeyError)"
            return f"it holds a {held} file; name it {Path(name).stem}{held}"
        if held is not None:
            return f"it holds a {held} file, a format attn does not read ({', '.join(FORMATS)})"
        return f"it is a zip archive, not a {Path(name).suffix.lower()} file"
    return None
