"""E-books (.epub, read and written with EbookLib): each XHTML document of the book is translated
as HTML is (runtime/documents/html.py), read as XML; the package's metadata, table of contents,
styles, images and reading order are kept as they were."""

from __future__ import annotations

import io

from ..markup import Aligned
from . import DocumentError
from .html import HtmlDocument
from .office import check_zip


class EpubDocument:
    def __init__(self, data: bytes):
        import ebooklib
        from ebooklib import epub

        check_zip(data, "an EPUB book")
        try:
            # the NCX read too: without it EbookLib cannot write the table of contents back
            self.book = epub.read_epub(io.BytesIO(data), options={"ignore_ncx": False})
        except Exception as error:  # EbookLib raises what its zip and XML readers raise
            raise DocumentError(f"not an EPUB book ({type(error).__name__})") from None
        self.chapters = []
        for item in self.book.get_items_of_type(ebooklib.ITEM_DOCUMENT):
            if isinstance(item, epub.EpubNav):  # EbookLib writes the table of contents anew from the package
                continue
            try:
                self.chapters.append((item, HtmlDocument(item.get_content().decode("utf-8"), parser="xml")))
            except UnicodeDecodeError:
                raise DocumentError(f"{item.get_name()}: not UTF-8 text") from None

    def texts(self) -> list[str]:
        return [text for _, document in self.chapters for text in document.texts()]

    def written(self, translations: list[Aligned]) -> bytes:
        from ebooklib import epub

        start = 0
        for item, document in self.chapters:
            count = len(document.runs)
            if count:
                item.set_content(document.written(translations[start : start + count]).encode("utf-8"))
            start += count
        out = io.BytesIO()
        epub.write_epub(out, self.book)
        return out.getvalue()
