"""Paragraphs of Office Open XML, read and rewritten for runtime/documents' Word and PowerPoint
formats: a WordprocessingML `w:p` or a DrawingML `a:p`. Its runs' formatting (`w:rPr`, `a:rPr`:
bold, italic, a font, a colour, a DrawingML hyperlink) and Word's hyperlinks are its inline markup,
placed on the translation by the alignment (runtime/markup.py); adjacent runs of the same
formatting are one span; a tracked insertion, a smart tag or custom XML holding runs is a span too. Line breaks and tabs go where their neighbouring words went; a run
holding anything else (a picture, a field, a footnote reference) and the paragraph's other
elements (bookmarks, a field, DrawingML's end-of-paragraph properties) are kept as they are, at
their aligned place. Paragraph properties stay first."""

from __future__ import annotations

import copy
import io
import zipfile
from dataclasses import dataclass

from lxml import etree

from ..markup import Aligned, Span, layout, nest, place
from . import DocumentError, redeclared

# Elements of a paragraph that hold runs of its text: each is a span, written back around the words
# aligned to its own (a hyperlink, a tracked insertion, a smart tag, custom XML).
WRAPPERS = ("hyperlink", "ins", "smartTag", "customXml")
# What a run may hold and still be text: anything else makes it a run kept as it is.
TEXT_PARTS = ("rPr", "t", "tab", "br", "cr", "lastRenderedPageBreak", "softHyphen", "noBreakHyphen")
PROPERTIES = ("title", "subject")  # the core properties a reader sees, translated
# A Word run's language (`w:lang w:val`; its w:eastAsia and w:bidi name the languages of other scripts)
WORD_LANGUAGE = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}val"


@dataclass(frozen=True)
class Formatting:
    """A span's payload: the run properties (`w:rPr`, `a:rPr`) of the runs it covers."""

    properties: object


@dataclass(frozen=True)
class Kept:
    """A void span's payload: an element kept as it is (a run of a picture, a bookmark, a
    DrawingML break); `run` whether it came from inside a run (a Word break or tab, written back
    in a run of its own with `properties`)."""

    element: object
    run: bool = False
    properties: object = None


def local(element) -> str:
    """An element's name without its namespace."""
    return element.tag.rsplit("}", 1)[-1]


def named(paragraph, name: str) -> str:
    """`name` in the paragraph's own namespace ("r" → "{…/wordprocessingml/…}r")."""
    return paragraph.tag.rsplit("}", 1)[0] + "}" + name


class ParagraphReader:
    """One paragraph: its text, and its formatting, hyperlinks and kept elements as spans."""

    def __init__(self, paragraph):
        self.paragraph = paragraph
        self.text = ""
        self.spans: list[Span] = []
        self.last_format: tuple[bytes, Span] | None = None  # (the run properties' XML, its span) to extend
        for child in list(paragraph):
            if local(child) == "pPr":
                continue
            if local(child) in WRAPPERS:
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
        if local(run) != "r" or any(local(part) not in TEXT_PARTS for part in run):
            self.void(Kept(run), breaks=local(run) == "br")
            if local(run) == "br":  # DrawingML's line break, between runs: it parts words and sentences
                self.add(" ", None, None)
            return
        properties = run.find(named(run, "rPr"))
        key = (
            None if properties is None or len(properties) == 0 and not properties.attrib else etree.tostring(properties)
        )
        for part in run:
            name = local(part)
            if name == "t":
                self.add(part.text or "", key, properties)
            elif name in ("tab", "br", "cr"):
                self.void(Kept(part, True, properties), breaks=True)
                self.add(" ", key, properties)
            elif name == "noBreakHyphen":  # "Wi‑Fi": a hyphen, written back as a plain one
                self.add("-", key, properties)

    def add(self, text: str, key: bytes | None, properties) -> None:
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

    def void(self, payload: Kept, breaks: bool = False) -> None:
        self.spans.append(Span(len(self.text), len(self.text), payload, void=True, breaks=breaks))
        self.last_format = None


def rewrite(reader: ParagraphReader, translation: Aligned) -> None:
    """The paragraph's runs and hyperlinks replaced by the translation's, markup placed."""
    paragraph = reader.paragraph
    for child in list(paragraph):
        if local(child) != "pPr":
            paragraph.remove(child)
    containers, formats = [paragraph], []
    word = paragraph.tag.endswith("}p") and "wordprocessingml" in paragraph.tag

    def run_of(properties):
        run = etree.SubElement(containers[-1], named(paragraph, "r"))
        if properties is not None:
            run.append(copy.deepcopy(properties))
        return run

    # the space after a kept element that opens the paragraph (Word's footnote mark and the note's
    # text; a picture), which the translation, stripped, lacks
    opening = reader.text[: len(reader.text) - len(reader.text.lstrip(" "))]
    written = kept_first = False  # any text yet; a kept element before it
    for kind, payload in layout(translation.text, place(reader.text, nest(reader.spans), translation)):
        kept_first = kept_first or (kind == "void" and not written)
        if kind == "text":
            if not written and kept_first and opening:
                payload = opening + payload.lstrip(" ")
            written = True
            text = etree.SubElement(run_of(formats[-1] if formats else None), named(paragraph, "t"))
            if word:  # Word drops a run's leading and trailing spaces without it
                text.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            text.text = payload
        elif kind == "void" and payload.run:
            run_of(payload.properties).append(payload.element)
        elif kind == "void":
            containers[-1].append(payload.element)
        elif kind == "open" and isinstance(payload, Formatting):
            formats.append(payload.properties)
        elif kind == "open":
            link = etree.SubElement(containers[-1], payload.tag, dict(payload.attrib))
            containers.append(link)
        elif isinstance(payload, Formatting):
            formats.pop()
        else:
            containers.pop()
    for end in [child for child in paragraph if local(child) == "endParaRPr"]:
        paragraph.append(end)  # DrawingML's end-of-paragraph properties come last, wherever their words went


def declare_language(element, language: str) -> None:
    """Every language `element` and what it holds declare (Word's `w:lang w:val`, DrawingML's
    `lang` of run properties) set to `language`."""
    for part in element.iter(etree.Element):
        if local(part) == "lang" and part.get(WORD_LANGUAGE) is not None:
            part.set(WORD_LANGUAGE, redeclared(part.get(WORD_LANGUAGE), language))
        elif part.get("lang") is not None:
            part.set("lang", redeclared(part.get("lang"), language))


class OfficeDocument:
    """A document of paragraphs (`paragraphs`: readers with a `text`), each rewritten with its
    translation by `rewrite(reader, translation)`, that `save(stream)` writes; `declare(language)`
    makes what the translated document declares its language to be `language`. Its `properties`
    (the package's core properties) have a title and a subject, which a reader sees (a file
    manager, a PDF made of it): each is a text too, after the paragraphs."""

    paragraphs: list
    properties: object = None  # a format whose core properties python-docx or python-pptx reads

    def save(self, stream) -> None:
        raise NotImplementedError

    def labels(self) -> list[str]:
        """The core properties translated (PROPERTIES) that hold a word."""
        if self.properties is None:
            return []
        return [name for name in PROPERTIES if any(c.isalnum() for c in getattr(self.properties, name) or "")]

    def rewrite(self, reader, translation: Aligned) -> None:
        rewrite(reader, translation)

    def declare(self, language: str) -> None:
        for reader in self.paragraphs:
            declare_language(reader.paragraph, language)
        if self.properties is not None and self.properties.language:  # the package's own (docProps/core.xml)
            self.properties.language = redeclared(self.properties.language, language)

    def texts(self) -> list[str]:
        return [reader.text for reader in self.paragraphs] + [getattr(self.properties, name) for name in self.labels()]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        for name, translation in zip(self.labels(), translations[len(self.paragraphs) :]):
            setattr(self.properties, name, translation.text)
        for reader, translation in zip(self.paragraphs, translations):
            self.rewrite(reader, translation)
        if language and (self.paragraphs or self.labels()):
            self.declare(language)
        out = io.BytesIO()
        self.save(out)
        return out.getvalue()


ENCRYPTED = 0x1  # a zip member's flag bit: encrypted with a password


def check_zip(data: bytes, what: str, limit: int = 200 * 1024 * 1024) -> None:
    """Refuse what is not a zip, a zip with a password (its library said "RuntimeError"), or one
    that unpacks to more than `limit` bytes (a zip bomb), before a library opens it."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except zipfile.BadZipFile:
        raise DocumentError(f"not {what} (not a zip archive)") from None
    if any(member.flag_bits & ENCRYPTED for member in members):
        raise DocumentError(f"{what} protected by a password: save it without one to translate it")
    unpacked = sum(member.file_size for member in members)
    if unpacked > limit:
        raise DocumentError(f"the file unpacks to {unpacked:,} bytes, over {limit:,}")
