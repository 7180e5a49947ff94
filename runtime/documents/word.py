"""Word documents (.docx, opened and saved with python-docx): every paragraph of the body, its
tables, headers and footers is a text, read and rewritten as runtime/documents/office.py says
(run formatting and hyperlinks placed by the alignment; styles and numbering kept, but for the
proofing language of the paragraphs and styles, which becomes the translation's)."""

from __future__ import annotations

import io
import zipfile

from . import DocumentError
from .office import OfficeDocument, ParagraphReader, check_zip, declare_language

# The bytes a .docx may unpack to: a zip bomb is refused before it is opened.
MAX_UNPACKED = 200 * 1024 * 1024


class WordDocument(OfficeDocument):
    def __init__(self, data: bytes):
        import docx
        from docx.opc.exceptions import PackageNotFoundError

        check_zip(data, "a Word document", MAX_UNPACKED)
        try:
            self.document = docx.Document(io.BytesIO(data))
        except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as error:
            raise DocumentError(f"not a Word document ({type(error).__name__})") from None
        except Exception as error:  # lxml's XMLSyntaxError and the like: a damaged part
            raise DocumentError(f"a damaged Word document ({type(error).__name__})") from None
        self.paragraphs = [reader for reader in map(ParagraphReader, self.elements()) if reader.text.strip()]

    def elements(self) -> list:
        """Every `w:p` of the body (tables included), the headers and the footers, in order."""
        parts = [self.document.element.body]
        for section in self.document.sections:
            for part in (section.header, section.footer, section.first_page_header, section.first_page_footer):
                if not part.is_linked_to_previous:
                    parts.append(part._element)
        return [p for part in parts for p in part.iter(part.tag.split("}")[0] + "}p")]

    def declare(self, language: str) -> None:
        """The paragraphs' languages and the styles' (the document's default among them)."""
        super().declare(language)
        declare_language(self.document.styles.element, language)

    def save(self, stream) -> None:
        self.document.save(stream)
