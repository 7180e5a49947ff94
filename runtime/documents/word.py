"""Word documents (.docx, opened and saved with python-docx): every paragraph of the body, its
tables, headers, footers, footnotes and endnotes is a text, and so are its title and subject,
read and rewritten as runtime/documents/office.py says (run formatting, hyperlinks and inline
content controls placed by the alignment; fields, simple or complex, kept in their sentence and
given back as they were; styles and numbering kept, but for the proofing language of the
paragraphs and styles, which becomes the translation's)."""

from __future__ import annotations

import io

from . import damaged
from .office import OfficeDocument, ParagraphReader, check_zip, declare_language

# The bytes a .docx may unpack to: a zip bomb is refused before it is opened.
MAX_UNPACKED = 200 * 1024 * 1024


def notes_read_as_xml() -> None:
    """python-docx keeps the footnotes and endnotes parts as bytes: read as XML parts, their
    paragraphs can be rewritten, and are saved with the document."""
    from docx.opc.constants import CONTENT_TYPE
    from docx.opc.part import PartFactory, XmlPart

    for content_type in (CONTENT_TYPE.WML_FOOTNOTES, CONTENT_TYPE.WML_ENDNOTES):
        PartFactory.part_type_for.setdefault(content_type, XmlPart)


class WordDocument(OfficeDocument):
    def __init__(self, data: bytes):
        import docx

        check_zip(data, "a Word document", MAX_UNPACKED)
        notes_read_as_xml()
        try:
            self.document = docx.Document(io.BytesIO(data))
        except Exception as error:  # what its zip, XML and package readers raise
            raise damaged("Word document", error) from None
        self.paragraphs = [reader for reader in map(ParagraphReader, self.elements()) if reader.text.strip()]
        self.properties = self.document.core_properties

    def elements(self) -> list:
        """Every `w:p` of the body (tables included), the headers, the footers, the footnotes
        and the endnotes, in order."""
        from docx.opc.constants import RELATIONSHIP_TYPE

        parts = [self.document.element.body]
        for section in self.document.sections:
            for part in (section.header, section.footer, section.first_page_header, section.first_page_footer):
                if not part.is_linked_to_previous:
                    parts.append(part._element)
        for relationship in self.document.part.rels.values():
            if relationship.reltype in (RELATIONSHIP_TYPE.FOOTNOTES, RELATIONSHIP_TYPE.ENDNOTES):
                parts.append(relationship.target_part.element)
        return [p for part in parts for p in part.iter(part.tag.split("}")[0] + "}p")]

    def declare(self, language: str) -> None:
        """The paragraphs' languages and the styles' (the document's default among them)."""
        super().declare(language)
        declare_language(self.document.styles.element, language)

    def save(self, stream) -> None:
        self.document.save(stream)
