"""Word documents (.docx, opened and saved with python-docx): every paragraph of the body, its
tables, headers and footers is a text. A paragraph's runs of formatting (bold, italic, a font, a
colour: a run's `w:rPr`) and its hyperlinks are its inline markup, placed on the translation by the
alignment (runtime/markup.py); adjacent runs of the same formatting are one span. Line breaks and
tabs go where their neighbouring words went; a run holding anything else (a picture, a field, a
footnote reference) and the paragraph's other elements (bookmarks, comments' marks) are kept as
they are, at their aligned place. Paragraph properties (style, numbering) are kept."""

from __future__ import annotations

import copy
import io
import zipfile
from dataclasses import dataclass

from ..markup import Aligned, Span, layout, nest, place
from . import DocumentError

# What a run may hold and still be text: anything else makes it a run kept as it is.
TEXT_PARTS = ("rPr", "t", "tab", "br", "cr", "lastRenderedPageBreak", "softHyphen", "noBreakHyphen")
# The bytes a .docx may unpack to: a zip bomb is refused before it is opened.
MAX_UNPACKED = 200 * 1024 * 1024


@dataclass(frozen=True)
class Formatting:
    """A span's payload: the `w:rPr` of the runs it covers."""

    properties: object


@dataclass(frozen=True)
class Kept:
    """A void span's payload: an element kept as it is (a run of a picture, a bookmark); `in_run`
    is the formatting of the run a break or tab came from (it is written in a run of its own)."""

    element: object
    in_run: object = None


def _name(element) -> str:
    return element.tag.rsplit("}", 1)[-1]


class ParagraphReader:
    """One `w:p`: its text, and its formatting, hyperlinks and kept elements as spans."""

    def __init__(self, paragraph):
        self.paragraph = paragraph
        self.text = ""
        self.spans: list[Span] = []
        self.last_format: tuple[str, Span] | None = None  # (the rPr's XML, its span) to extend
        for child in list(paragraph):
            if _name(child) == "pPr":
                continue
            if _name(child) == "hyperlink":
                link = Span(len(self.text), len(self.text), child)
                self.spans.append(link)
                self.last_format = None
                for run in list(child):
                    self.run(run)
                link.end = len(self.text)
                self.last_format = None
            else:
                self.run(child)

    def run(self, run) -> None:
        if _name(run) != "r" or any(_name(part) not in TEXT_PARTS for part in run):
            self.void(Kept(run))
            return
        properties = run.find(run.tag.replace("}r", "}rPr"))
        key = None if properties is None or len(properties) == 0 else properties.xml
        for part in run:
            name = _name(part)
            if name == "t":
                self.add(part.text or "", key, properties)
            elif name in ("tab", "br", "cr"):
                self.void(Kept(part, properties))
                self.add(" ", key, properties)

    def add(self, text: str, key: str | None, properties) -> None:
        start = len(self.text)
        self.text += text
        if key is None:
            self.last_format = None
        elif self.last_format and self.last_format[0] == key and self.last_format[1].end == start:
            self.last_format[1].end = len(self.text)
        else:
            span = Span(start, len(self.text), Formatting(properties))
            self.spans.append(span)
            self.last_format = (key, span)

    def void(self, payload: Kept) -> None:
        self.spans.append(Span(len(self.text), len(self.text), payload, void=True))
        self.last_format = None


class WordDocument:
    def __init__(self, data: bytes):
        import docx
        from docx.opc.exceptions import PackageNotFoundError

        check_archive(data)
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

    def texts(self) -> list[str]:
        return [reader.text for reader in self.paragraphs]

    def written(self, translations: list[Aligned]) -> bytes:
        for reader, translation in zip(self.paragraphs, translations):
            rewrite(reader, translation)
        out = io.BytesIO()
        self.document.save(out)
        return out.getvalue()


def rewrite(reader: ParagraphReader, translation: Aligned) -> None:
    """The paragraph's runs and hyperlinks replaced by the translation's, markup placed."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    paragraph = reader.paragraph
    for child in list(paragraph):
        if _name(child) != "pPr":
            paragraph.remove(child)
    containers, formats = [paragraph], []

    def run_of(properties):
        run = OxmlElement("w:r")
        if properties is not None:
            run.append(copy.deepcopy(properties))
        containers[-1].append(run)
        return run

    events = layout(translation.text, place(reader.text, nest(reader.spans), translation))
    for kind, payload in events:
        if kind == "text":
            text = run_of(formats[-1] if formats else None)
            part = OxmlElement("w:t")
            part.set(qn("xml:space"), "preserve")
            part.text = payload
            text.append(part)
        elif kind == "void" and _name(payload.element) in ("tab", "br", "cr"):
            run_of(payload.in_run).append(payload.element)
        elif kind == "void":
            containers[-1].append(payload.element)
        elif kind == "open" and isinstance(payload, Formatting):
            formats.append(payload.properties)
        elif kind == "open":
            link = OxmlElement("w:hyperlink")
            for key, value in payload.attrib.items():
                link.set(key, value)
            containers[-1].append(link)
            containers.append(link)
        elif isinstance(payload, Formatting):
            formats.pop()
        else:
            containers.pop()


def check_archive(data: bytes) -> None:
    """Refuse what is not a zip, or unpacks to more than MAX_UNPACKED bytes (a zip bomb)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise DocumentError("not a Word document (not a zip archive)") from None
    if unpacked > MAX_UNPACKED:
        raise DocumentError(f"the document unpacks to {unpacked:,} bytes, over {MAX_UNPACKED:,}")
