"""OpenDocument text and presentations (.odt, .odp, opened and saved with odfpy): every paragraph
and heading (`text:p`, `text:h`, in the body, tables, frames and notes) is a text, and so are the
title and subject (meta.xml). Its spans of a style (`text:span`), its links (`text:a`) and its
text with metadata (`text:meta`) are its inline markup, placed on the translation by the
alignment (runtime/markup.py); line breaks and tabs go where their neighbouring words went. A field
(a page count, a date, a reference: an element of the text namespace that holds only text) stays
in its sentence (a number as it is, anything else in backquotes, as code is) and is given back as
it was where the translation has it (runtime/documents/office.py's `Field`); anything else inside
it (a frame, a note, a bookmark) is kept as it is, at its aligned place, against the word it stood
against. Runs of spaces are one space, as ODF shows text; styles, lists and layout are kept, but
for the language of the styles' text and of the document, which becomes the translation's."""

from __future__ import annotations

import contextlib
import io
import re

from ..markup import Aligned, Span, layout, lines_apart, nest, place, unspaced_at_breaks
from ..parallel import STDOUT_TAKEN
from . import DocumentError, damaged, redeclared
from .html import MAX_NESTING  # spans in spans: deeper is refused, as in HTML
from .office import Field, OfficeDocument, check_zip, field_text, kept_in_place, kept_places

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
INLINE = {(TEXT, "span"), (TEXT, "a"), (TEXT, "meta")}  # a span, a link, text with metadata
LINE_BREAK, SPACES = (TEXT, "line-break"), (TEXT, "s")  # a run of spaces (text:s) parts words too
BREAKS = {LINE_BREAK, (TEXT, "tab"), SPACES}
WHITESPACE = re.compile(r"\s+")


class ParagraphReader:
    """One `text:p` or `text:h`: its text, and its spans, links, fields and kept elements as spans;
    `places`, where its kept elements stood (office.py's KeptPlaces)."""

    def __init__(self, paragraph):
        self.paragraph = paragraph
        self.text = ""
        self.spans: list[Span] = []
        self.closed: dict[int, int] = {}  # a span's id → how many spans were listed when it closed
        for child in list(paragraph.childNodes):
            self.visit(child, 1)
        self.text = self.text.rstrip(" ")
        for span in self.spans:
            span.start, span.end = min(span.start, len(self.text)), min(span.end, len(self.text))
        self.text = lines_apart(self.text, self.spans)  # "Opening hours<text:line-break/>Monday": two lines
        self.places = kept_places(self.text, self.spans, self.closed)

    def add(self, text: str) -> None:
        text = WHITESPACE.sub(" ", text)
        if text.startswith(" ") and self.text.endswith(" "):  # the kept elements just before stood between spaces
            between = [span for span in self.spans if span.void and not span.breaks and span.start == len(self.text)]
            if between:
                between[-1].spaced = True
        if not self.text or self.text.endswith(" "):
            text = text.lstrip(" ")
        self.text += text

    def visit(self, node, depth: int) -> None:
        if depth > MAX_NESTING:
            raise DocumentError(f"a paragraph nests spans deeper than {MAX_NESTING} levels")
        if node.nodeType == node.TEXT_NODE:
            self.add(node.data)
        elif node.qname in INLINE:
            span = Span(len(self.text), len(self.text), node)
            self.spans.append(span)
            for child in list(node.childNodes):
                self.visit(child, depth + 1)
            span.end = len(self.text)
            self.closed[id(span)] = len(self.spans)
        elif node.qname[0] == TEXT and node.childNodes and all(c.nodeType == c.TEXT_NODE for c in node.childNodes):
            self.field(node)
        else:  # a break, a tab, a run of spaces, a frame, a note: kept as it is
            line = node.qname == LINE_BREAK
            self.spans.append(
                Span(len(self.text), len(self.text), node, void=True, breaks=node.qname in BREAKS, line=line)
            )
            if node.qname in BREAKS:
                self.add(" ")

    def field(self, node) -> None:
        """A field, given back as it was, its result read as office.py's `field_text` says."""
        result = field_text("".join(child.data for child in node.childNodes))
        start = len(self.text)
        self.text += result
        self.spans.append(Span(start, len(self.text), Field((node,)), void=not result, exact=bool(result)))


def rewrite(reader: ParagraphReader, translation: Aligned) -> None:
    """The paragraph's content replaced by the translation's, markup placed."""
    from odf.element import Element

    paragraph = reader.paragraph
    for child in paragraph.childNodes:  # all at once: odfpy's removeChild refuses text nodes
        child.parentNode = child.previousSibling = child.nextSibling = None
    paragraph.childNodes = []
    containers = [paragraph]  # a container None: a field's words, given back as it was
    events = layout(translation.text, place(reader.text, nest(reader.spans), translation))
    parting = {id(span.payload) for span in reader.spans if span.breaks and span.payload.qname != SPACES}
    for kind, payload in kept_in_place(unspaced_at_breaks(events, parting), reader.places):
        if kind == "text":
            if containers[-1] is not None:
                containers[-1].addText(payload)
        elif kind in ("void", "open") and isinstance(payload, Field):
            for element in payload.elements:
                containers[-1].appendChild(element)
            if kind == "open":
                containers.append(None)
        elif kind == "void":
            containers[-1].appendChild(payload)
        elif kind == "open":
            element = Element(qname=payload.qname, qattributes=dict(payload.attributes), check_grammar=False)
            containers[-1].appendChild(element)
            containers.append(element)
        else:
            containers.pop()


def dublin_core(name: str) -> property:
    """The text of a MetaTexts' Dublin Core element `name` ("Title"), read and set."""
    return property(lambda meta: meta.text_of(name), lambda meta, value: meta.set_text(name, value))


class MetaTexts:
    """An OpenDocument's title and subject (meta.xml's `dc:title`, `dc:subject`), read and set as
    python-docx and python-pptx give their core properties' (OfficeDocument.properties)."""

    def __init__(self, document):
        self.document = document

    title, subject = dublin_core("Title"), dublin_core("Subject")

    def elements(self, name: str) -> list:
        """The document's Dublin Core elements `name` ("Title") of odfpy."""
        from odf import dc

        return self.document.getElementsByType(getattr(dc, name))

    def text_of(self, name: str) -> str:
        found = self.elements(name)
        return "".join(getattr(node, "data", "") for node in found[0].childNodes) if found else ""

    def set_text(self, name: str, value: str) -> None:
        [element] = self.elements(name)[:1]
        texts = [node for node in element.childNodes if hasattr(node, "data")]
        if not texts:
            element.addText(value)
        for index, node in enumerate(texts):  # odfpy cannot remove a text node: the first holds it all
            node.data = value if index == 0 else ""


class OpenDocument(OfficeDocument):
    def __init__(self, data: bytes):
        from odf import text
        from odf.opendocument import load

        check_zip(data, "an OpenDocument file")
        said = io.StringIO()  # odfpy prints a part whose XML does not parse to stdout, and reads on without it
        try:
            with STDOUT_TAKEN, contextlib.redirect_stdout(said):  # the server reads documents in threads
                self.document = load(io.BytesIO(data))
        except Exception as error:  # odfpy raises what its zip and XML readers raise
            raise damaged("OpenDocument file", error) from None
        if "FAILED TO PARSE" in said.getvalue():  # its content.xml, styles.xml or meta.xml: it had been written empty
            raise DocumentError("a damaged OpenDocument file (a part of it is not well-formed XML)")
        elements = self.document.getElementsByType(text.H) + self.document.getElementsByType(text.P)
        self.paragraphs = [reader for reader in map(ParagraphReader, elements) if reader.text.strip()]
        self.properties = MetaTexts(self.document)

    def rewrite(self, reader: ParagraphReader, translation: Aligned) -> None:
        rewrite(reader, translation)

    def declare(self, language: str) -> None:
        """The language of every style's text (`fo:language`, its region `fo:country` left out,
        `style:rfc-language-tag`) and the document's (meta.xml's `dc:language`) set to `language`."""
        from odf.dc import Language
        from odf.style import TextProperties

        for properties in self.document.getElementsByType(TextProperties):
            attributes = properties.attributes
            declared = attributes.get((FO, "language"))
            if declared is not None and redeclared(declared, language) != declared:
                attributes[(FO, "language")] = language
                attributes.pop((FO, "country"), None)  # the source language's region
            tag = attributes.get((STYLE, "rfc-language-tag"))
            if tag is not None:
                attributes[(STYLE, "rfc-language-tag")] = redeclared(tag, language)
        for declared in self.document.getElementsByType(Language):
            for child in declared.childNodes:
                child.data = redeclared(child.data, language)

    def save(self, stream) -> None:
        self.document.save(stream)
