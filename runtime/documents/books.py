"""E-books (.epub): each XHTML document the book's package lists (EbookLib reads the package) is
translated as HTML is (runtime/documents/html.py), read as XML from the archive as it is; the book
is written back as the same archive, entry by entry, with only those documents replaced: heads
and styles, metadata, table of contents, images and reading order stay as they were."""

from __future__ import annotations

import io
import posixpath
import zipfile
from urllib.parse import unquote

from ..markup import Aligned
from . import DocumentError
from .html import HtmlDocument
from .office import check_zip

CONTAINER = "META-INF/container.xml"


def package_folder(archive: zipfile.ZipFile) -> str:
    """The folder of the package document (META-INF/container.xml's rootfile), "" at the root."""
    from lxml import etree

    try:
        container = etree.fromstring(archive.read(CONTAINER), etree.XMLParser(resolve_entities=False, no_network=True))
    except (KeyError, etree.XMLSyntaxError) as error:
        raise DocumentError(f"not an EPUB book ({type(error).__name__} in {CONTAINER})") from None
    rootfile = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile")
    if rootfile is None or not rootfile.get("full-path"):
        raise DocumentError(f"not an EPUB book ({CONTAINER} names no package)")
    return posixpath.dirname(rootfile.get("full-path"))


class EpubDocument:
    def __init__(self, data: bytes):
        import ebooklib
        from ebooklib import epub

        check_zip(data, "an EPUB book")
        self.data = data
        try:
            # the NCX read too: without it EbookLib cannot read some books' table of contents
            book = epub.read_epub(io.BytesIO(data), options={"ignore_ncx": False})
        except Exception as error:  # EbookLib raises what its zip and XML readers raise
            raise DocumentError(f"not an EPUB book ({type(error).__name__})") from None
        self.chapters: list[tuple[str, HtmlDocument]] = []
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            folder = package_folder(archive)
            for item in book.get_items_of_type(ebooklib.ITEM_DOCUMENT):
                if isinstance(item, epub.EpubNav):  # the table of contents: its labels stay
                    continue
                name = posixpath.normpath(posixpath.join(folder, unquote(item.get_name())))
                try:
                    text = archive.read(name).decode("utf-8")
                except KeyError:
                    raise DocumentError(f"not an EPUB book (its package lists {name}, which it lacks)") from None
                except UnicodeDecodeError:
                    raise DocumentError(f"{name}: not UTF-8 text") from None
                self.chapters.append((name, HtmlDocument(text, parser="xml")))

    def texts(self) -> list[str]:
        return [text for _, document in self.chapters for text in document.texts()]

    def written(self, translations: list[Aligned]) -> bytes:
        replaced, start = {}, 0
        for name, document in self.chapters:
            count = len(document.runs)
            if count:
                replaced[name] = document.written(translations[start : start + count]).encode("utf-8")
            start += count
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(self.data)) as source, zipfile.ZipFile(out, "w") as book:
            for entry in source.infolist():  # in order, each compressed as it was: `mimetype` first, stored
                book.writestr(entry, replaced.get(entry.filename) or source.read(entry))
        return out.getvalue()
