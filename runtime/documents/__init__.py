"""Documents in and out, by format. A document gives the texts to translate (a paragraph, a
subtitle cue, a line: each translated whole, sentence by sentence, its inline markup set aside as
spans and placed on the translation by the alignment, runtime/markup.py) and writes itself back
with their translations, everything else in the file as it was.

Each format is read with a well-kept library (the `documents` extra: Beautiful Soup, srt,
webvtt-py, python-docx, python-pptx, EbookLib, polib, odfpy, markdown-it-py; e-mail with the
standard library), imported when a file of that format is first read.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..binary_data import binary_kind
from ..byte_order import marked_encoding
from ..constants import BOM, primary_language
from ..errors import UsageError, first_line
from ..legacy_bytes import utf8_or_windows_1252
from ..markup import Aligned

# file suffix → the module of runtime/documents that reads it, and its class
FORMATS = {
    ".txt": ("text", "TextDocument"),
    ".html": ("html", "HtmlFile"),
    ".htm": ("html", "HtmlFile"),
    ".srt": ("subtitles", "SrtDocument"),
    ".vtt": ("subtitles", "VttDocument"),
    ".docx": ("word", "WordDocument"),
    ".pptx": ("slides", "SlidesDocument"),
    ".epub": ("books", "EpubDocument"),
    ".po": ("catalogs", "PoDocument"),
    ".pot": ("catalogs", "PoDocument"),
    ".odt": ("opendocument", "OpenDocument"),
    ".odp": ("opendocument", "OpenDocument"),
    ".md": ("markdown", "MarkdownDocument"),
    ".eml": ("messages", "MessageDocument"),
}


ZIPPED = frozenset({".docx", ".pptx", ".epub", ".odt", ".odp"})  # the formats above that are zip archives


class Document(Protocol):
    def texts(self) -> list[str]:
        """The texts to translate, in document order."""

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        """The file again, each text replaced by its translation (one per text, in order); with
        `language` (the translations' language code), what the file declares its translated
        content's language to be (HTML's `lang`, an e-book's `dc:language`, a Word run's proofing
        language) declares that language instead."""


# Language tags that name no language: content so marked (code, text not to be proofread: Word's
# "x-none") keeps its mark in a translation.
NO_LANGUAGE = frozenset({"zxx", "x-none", "none", ""})

# A footnote's or a citation's mark, as a document writes it in superscript ("expected<sup>1</sup>",
# Wikipedia's "<sup><a>[12]</a></sup>", "<sup>*</sup>", a Word run of "1" raised): read as a word's
# part, "expected1" had lost the word; it is kept as it is, against the word it stood against
REFERENCE_MARK = re.compile(r"\[?(?:\d{1,3}|[a-z]|[*†‡§]{1,3}|note \d{1,3})\]?")


def redeclared(tag: str, language: str) -> str:
    """A translated content's language declaration (`tag`, as the file had it), as the
    translation's: `language`, or `tag` where it names no language."""
    return tag if tag.strip().lower() in NO_LANGUAGE else language


class DocumentError(UsageError):
    """A file that cannot be read as its format says: one line naming what is wrong."""


def damaged(what: str, error: Exception) -> DocumentError:
    """The refusal of a file that a format's library (python-docx, EbookLib, …) could not read as
    `what` ("a Word document"): the part it lacks, or that a part is not well-formed XML, in words
    ("(KeyError)" and "(XMLSyntaxError)" had been all it said); where the library tripped over
    parts it did not expect (an AttributeError or the like, whose words are its code's), that its
    parts are not its format's."""
    missing = re.search(r"(?:no item named|no member) '/?([^']+)'", str(error))
    if isinstance(error, KeyError) and missing:
        return DocumentError(f"a damaged {what} (it has no {missing.group(1)})")
    if type(error).__name__ == "XMLSyntaxError":
        return DocumentError(f"a damaged {what} (a part is not well-formed XML: {first_line(error)})")
    if isinstance(error, (AttributeError, TypeError, IndexError, LookupError)):
        return DocumentError(f"a damaged {what} (its parts are not the ones its format holds)")
    return DocumentError(f"a damaged {what} ({first_line(error)})")


# suffixes of one format: a file of the first is read, and written, as one of the second (a
# catalog template is a catalog whose messages are all untranslated)
ALIASES = {".htm": ".html", ".pot": ".po"}


def format_of(name: str | Path) -> str | None:
    """The document format of a file name, by its suffix (".docx"; ".html" for ".htm", ".po" for
    ".pot"), or None when no format reads it."""
    suffix = Path(str(name)).suffix.lower()
    return ALIASES.get(suffix, suffix) if suffix in FORMATS else None


def read_document(name: str | Path, data: bytes, fuzzy: bool = False) -> Document:
    """The document of a file's bytes, read as its suffix says; DocumentError when it cannot be.
    `fuzzy`: a gettext catalog's fuzzy messages are translated too (left alone otherwise)."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"read_document takes the file's bytes (Path.read_bytes()), not {type(data).__name__}")
    suffix = format_of(name)
    if suffix is None:
        raise DocumentError(f"{name}: not a document format attn reads ({', '.join(FORMATS)})")
    module, kind = FORMATS[suffix]
    try:
        reader = getattr(importlib.import_module(f"{__package__}.{module}"), kind)
    except ModuleNotFoundError as error:
        raise UsageError(
            f"{suffix} files need the Python package {error.name!r}: pip install 'attn[documents]'"
        ) from None
    from .signatures import held_instead  # (it reads FORMATS, defined here)

    if (instead := held_instead(bytes(data), name)) is not None:
        raise DocumentError(f"{name}: {instead}")
    try:
        return CheckedDocument(reader(data, fuzzy) if suffix == ".po" else reader(data))
    except DocumentError as error:
        raise DocumentError(f"{name}: {error}") from None


class CheckedDocument:
    """A format's document as read_document gives it: its texts read once, and `written` given
    one translation per text, each with the word alignment its markup is placed by (what
    Translator.translate returns), or a ValueError or TypeError saying so (a short list had left
    a subtitle file half translated, unsaid). Anything else is the format's own (a catalog's
    `language`)."""

    def __init__(self, document: Document):
        self.document = document
        self.found = document.texts()

    def texts(self) -> list[str]:
        return list(self.found)

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        translations = list(translations)
        if len(translations) != len(self.found):
            raise ValueError(
                f"written() takes one translation per text: {len(self.found)} texts, {len(translations)} translations"
            )
        for translation in translations:
            if isinstance(translation, str):  # (asking for an alignment would compute it)
                raise TypeError(
                    "written() takes the translations Translator.translate returns, each with the word alignment "
                    "that places the markup, not str"
                )
        return self.document.written(translations, language)

    def target(self, target: str | None, name: str | Path) -> str | None:
        """The language the document (the file `name`) is translated into: a gettext catalog's
        (its Language header), which `target` may repeat but not contradict (French messages in
        a German catalog); `target` for a catalog whose header leaves it empty, or for another
        document."""
        language = getattr(self.document, "language", None)  # a catalog's
        if language is None or target is None or primary_language(target) == language:
            return language or target
        raise UsageError(f"{name} is a catalog of {language} (its Language header), not of {target}")

    def __getattr__(self, name: str):
        if name == "document":  # not set yet (a copy being made): no attribute of its own
            raise AttributeError(name)
        return getattr(self.document, name)


@dataclass(frozen=True)
class TextFile:
    """A text file's text, without its byte-order mark and with "\n" line ends, and how to write
    text back as the file was: its mark ("" or BOM), its line end ("\r\n" for Windows) and its
    encoding (UTF-8, or UTF-16 or UTF-32 told by their mark). `read_as`: the encoding it was read in
    when it was not UTF-8 (one it declared, or Windows-1252 where it declared none), for its format
    to declare UTF-8 instead (it is written in UTF-8); None otherwise."""

    text: str
    mark: str
    ending: str
    read_as: str | None = None
    encoding: str = "utf-8"

    def encoded(self, text: str) -> bytes:
        return (self.mark + text.replace("\n", self.ending)).encode(self.encoding)


def decoded(data: bytes, declared: str | None = None) -> TextFile:
    """A text file's bytes as a TextFile: read in UTF-16 or UTF-32 where a byte-order mark says so
    (runtime/byte_order.py), else as UTF-8, or, where they are not UTF-8, in the encoding the file
    declares (`declared`: an HTML page's charset, a catalog's), or where it declares none as
    Windows-1252 (runtime/legacy_bytes.py); DocumentError when the declared one does not read them."""
    encoding = marked_encoding(data)
    if encoding is None:
        if what := binary_kind(data[:READ_FOR_BINARY]):  # UTF-16 without its mark is UTF-8 full of NULs
            raise DocumentError(f"not text: it holds {what}")
        encoding = "utf-8"
        text, read_as = _utf8_or_declared(data, declared)
    else:
        read_as = None
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as error:
            raise DocumentError(f"not {encoding} text, as its byte-order mark says (byte {error.start})") from None
    mark = BOM if text.startswith(BOM) else ""
    ending = "\r\n" if "\r\n" in text else "\n"  # a Windows file comes back with Windows line ends
    return TextFile(text.removeprefix(mark).replace("\r\n", "\n"), mark, ending, read_as, encoding)


# The bytes a file that is not UTF-8 and declares nothing is looked at for binary data
READ_FOR_BINARY = 1 << 16


def _utf8_or_declared(data: bytes, declared: str | None) -> tuple[str, str | None]:
    """The text of bytes without a UTF-16 or UTF-32 mark, and the encoding it was read in where
    it was not UTF-8 (the declared one, or Windows-1252 where it declares none; None for UTF-8)."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        if declared is None:  # as the command line reads a line
            return utf8_or_windows_1252(data), "windows-1252"
        if declared.lower().replace("_", "-") in ("utf-8", "utf8"):
            raise DocumentError(f"not UTF-8 text (byte {error.start}), which it declares") from None
        try:
            return data.decode(declared), declared
        except LookupError:
            raise DocumentError(
                f"not UTF-8 text (byte {error.start}), and {declared!r}, which it declares, is unknown"
            ) from None
        except UnicodeDecodeError as error:
            raise DocumentError(f"not {declared} text, as it declares, nor UTF-8 (byte {error.start})") from None
