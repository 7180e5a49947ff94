"""Paragraphs of Office Open XML, read and rewritten for runtime/documents' Word and PowerPoint
formats: a WordprocessingML `w:p` or a DrawingML `a:p`. Its runs' formatting (`w:rPr`, `a:rPr`:
bold, italic, a font, a colour, a DrawingML hyperlink) and Word's hyperlinks are its inline markup,
placed on the translation by the alignment (runtime/markup.py); adjacent runs of the same
formatting are one span; a tracked insertion, a smart tag, custom XML, an inline content control
(`w:sdt`) or a link's field holding runs is a span too, written back with its properties first.
A field (Word's `w:fldSimple`, or its runs from a `w:fldChar` `begin` to its `end`; DrawingML's
`a:fld`) stays in its sentence: its result (a page number, a date, a merge field) is read as it is
where it is a number, otherwise in backquotes, as code is, which the translator sets aside as a
placeholder the model copies; the field is given back as it was where the translation has it. A
field whose result is a link's words (HYPERLINK) has them translated, between its own runs. Line
breaks and tabs go where their neighbouring words went; a run holding anything else (a picture, a
footnote reference) and the paragraph's other elements (bookmarks, DrawingML's end-of-paragraph
properties) are kept as they are, at their aligned place, against the word they stood against, and
outside a span they stood outside of. Paragraph properties stay first."""

from __future__ import annotations

import copy
import io
import re
import zipfile
from dataclasses import dataclass

from lxml import etree

from ..markup import Aligned, Span, layout, lines_apart, nest, place, unspaced_at_breaks
from . import REFERENCE_MARK, DocumentError, redeclared

# Elements of a paragraph that hold runs of its text: each is a span, written back around the words
# aligned to its own (a hyperlink, a tracked insertion, a smart tag, custom XML, a content control).
WRAPPERS = ("hyperlink", "ins", "smartTag", "customXml", "sdt")
# A wrapper's children that are no text, written back first, as they were (a content control's
# properties, a field's data)
WRAPPER_PROPERTIES = ("smartTagPr", "customXmlPr", "sdtPr", "sdtEndPr", "fldData")
# Word fields whose result is words a reader reads, translated as the paragraph's other words are: a
# link's. Word computes any other field's result (a page number, a page count, a date, a merge
# field, a cross-reference), which is given back as it was.
WORDED_FIELDS = ("HYPERLINK",)
# What a run may hold and still be text: anything else makes it a run kept as it is.
TEXT_PARTS = ("rPr", "t", "tab", "br", "cr", "lastRenderedPageBreak", "softHyphen", "noBreakHyphen")
PROPERTIES = ("title", "subject")  # the core properties a reader sees, translated
# A field's result read as it is, not in backquotes: a number (a page, a page count), which the models copy,
# and read better as one: "This report has 4 pages" → "… hat 4 Seiten", but "has `4` pages" → "verfügt über `4`"
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# A Word run's language (`w:lang w:val`; its w:eastAsia and w:bidi name the languages of other scripts)
WORD_LANGUAGE = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}val"


@dataclass(frozen=True)
class Formatting:
    """A span's payload: the run properties (`w:rPr`, `a:rPr`) of the runs it covers."""

    properties: object


@dataclass(frozen=True)
class Wrapper:
    """A span's payload: an element that holds runs (a hyperlink, a content control), written back
    around the runs of the words aligned to its own: `properties`, its children that are no text,
    first; the runs in its child named `content` where it has one (a content control's
    `w:sdtContent`)."""

    element: object
    properties: tuple = ()
    content: str | None = None


@dataclass(frozen=True)
class Field:
    """A payload: `elements` given back as they were, together, and in their sentence: a field (a
    `w:fldSimple`, the runs of a `w:fldChar` field from its `begin` to its `end`, an `a:fld`, an
    OpenDocument field), a content control bound to data. The span of its result (`field_text`)
    is exact (runtime/markup.py: placed where the translation has it, its words there
    giving way to the elements); a field without a result is a void span."""

    elements: tuple


@dataclass(frozen=True)
class Bracket:
    """A span's payload: a field whose result is translated (a link's words): the runs from its
    `begin` to its `separate` (`opening`) go before the runs of the words aligned to its result,
    and its `end` run (`closing`) after them."""

    opening: tuple
    closing: tuple


@dataclass(frozen=True)
class Kept:
    """A void span's payload: an element kept as it is (a run of a picture, a bookmark, a
    DrawingML break); `run` whether it came from inside a run (a Word break or tab, written back
    in a run of its own with `properties`)."""

    element: object
    run: bool = False
    properties: object = None


def is_reference(run) -> bool:
    """Whether `run` is a footnote's or a citation's mark: raised (Word's `w:vertAlign` superscript,
    DrawingML's positive `baseline`) and nothing but REFERENCE_MARK. Read as text, a Word file's
    "times.¹" had come back "heruntergeladen.¹.1.", and "50,000 times²." "50.000 Mal²": it is kept
    as it is, against the word it stood against, as a footnote reference's run is."""
    properties = run.find(named(run, "rPr"))
    if properties is None:
        return False
    raised = properties.find(named(run, "vertAlign"))
    superscript = raised is not None and any(value == "superscript" for value in raised.attrib.values())
    baseline = properties.get("baseline", "0")
    if not superscript and not (baseline.lstrip("-").isdigit() and int(baseline) > 0):
        return False
    text = "".join(part.text or "" for part in run if local(part) == "t")
    return REFERENCE_MARK.fullmatch(text.strip()) is not None


def local(element) -> str:
    """An element's name without its namespace."""
    return element.tag.rsplit("}", 1)[-1]


def named(paragraph, name: str) -> str:
    """`name` in the paragraph's own namespace ("r" → "{…/wordprocessingml/…}r")."""
    return paragraph.tag.rsplit("}", 1)[0] + "}" + name


class ParagraphReader:
    """One paragraph: its text, and its formatting, hyperlinks, fields and kept elements as spans;
    `places`, where its kept elements stood (KeptPlaces)."""

    def __init__(self, paragraph):
        self.paragraph = paragraph
        self.text = ""
        self.spans: list[Span] = []
        self.last_format: tuple[bytes, Span] | None = None  # (the run properties' XML, its span) to extend
        self.closed: dict[int, int] = {}  # a wrapper span's id → how many spans were listed when it closed
        self.children([child for child in paragraph if local(child) != "pPr"])
        self.text = lines_apart(self.text, self.spans)  # "Opening hours<w:br/>Monday to Friday": two lines
        self.places = kept_places(self.text, self.spans, self.closed)

    def children(self, nodes: list) -> None:
        """`nodes`, siblings, read in order; the runs of a `w:fldChar` field, from its `begin` to
        its `end`, as one field."""
        index = 0
        while index < len(nodes):
            end = field_end(nodes, index)
            if end is None:
                self.child(nodes[index])
            else:
                self.complex_field(nodes[index : end + 1])
            index = index + 1 if end is None else end + 1

    def child(self, node) -> None:
        """A child of the paragraph or of a wrapper: a wrapper, a field, a run or a kept element."""
        name = local(node)
        properties = tuple(part for part in node if local(part) in WRAPPER_PROPERTIES)
        if name == "sdt":
            content = node.find(named(node, "sdtContent"))
            if content is None or any(local(part) == "dataBinding" for p in properties for part in p):
                self.field((node,), result_of(node))  # a control bound to data: its words are the data's
            else:
                self.wrapped(Wrapper(node, properties, "sdtContent"), list(content))
        elif name in WRAPPERS or (name == "fldSimple" and worded(node.get(named(node, "instr")) or "")):
            self.wrapped(Wrapper(node, properties), [part for part in node if part not in properties])
        elif name in ("fldSimple", "fld"):  # a field (DrawingML's: a slide number, a date)
            self.field((node,), result_of(node))
        else:
            self.run(node)

    def wrapped(self, payload, nodes: list) -> None:
        """A span of `payload` over the text of `nodes`."""
        span = Span(len(self.text), len(self.text), payload)
        self.spans.append(span)
        self.last_format = None
        self.children(nodes)
        span.end = len(self.text)
        self.closed[id(span)] = len(self.spans)
        self.last_format = None

    def complex_field(self, nodes: list) -> None:
        """The nodes of one `w:fldChar` field, from the run of its `begin` to that of its `end`."""
        read = read_field(nodes)
        if read is None:  # text outside the field in one of its runs: each read as it is
            for node in nodes:
                self.child(node)
            return
        instruction, result, separate = read
        marks = nodes[: separate + 1] + nodes[-1:]  # its runs before its result, and its end's
        if (
            worded(instruction)
            and separate < len(nodes) - 1
            and all(local(node) == "r" and node.find(named(node, "t")) is None for node in marks)
        ):
            self.wrapped(Bracket(tuple(nodes[: separate + 1]), (nodes[-1],)), nodes[separate + 1 : -1])
        else:
            self.field(tuple(nodes), result)

    def field(self, elements: tuple, result: str) -> None:
        """Elements given back as they were, read as `field_text` says; after another field's
        backquotes, after a space (written between them)."""
        self.last_format = None
        if not field_text(result):
            self.void(Field(elements))
            return
        if self.text.endswith("`") and field_text(result).startswith("`"):
            self.text += (
                " "  # two fields against each other ("`3/4/2024``10:30 AM`"): no code the translator sets aside
            )
        start = len(self.text)
        self.text += field_text(result)
        self.spans.append(Span(start, len(self.text), Field(elements), exact=True))

    def run(self, run) -> None:
        if local(run) != "r" or any(local(part) not in TEXT_PARTS for part in run) or is_reference(run):
            self.void(Kept(run), breaks=local(run) == "br", line=local(run) == "br")
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
                self.void(Kept(part, True, properties), breaks=True, line=name != "tab")
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

    def void(self, payload: Kept, breaks: bool = False, line: bool = False) -> None:
        self.spans.append(Span(len(self.text), len(self.text), payload, void=True, breaks=breaks, line=line))
        self.last_format = None


def field_chars(node) -> list[str]:
    """The types of the `w:fldChar`s in `node`, in order ("begin", "separate", "end")."""
    return [part.get(named(part, "fldCharType")) for part in node.iter(etree.Element) if local(part) == "fldChar"]


def field_end(nodes: list, index: int) -> int | None:
    """The index in `nodes` of the run that ends the field which the run at `index` begins; None
    when that run begins none, or its end is not among `nodes` (a table of contents' field ends in
    another paragraph: its runs are read one by one)."""
    if local(nodes[index]) != "r" or field_chars(nodes[index])[:1] != ["begin"]:
        return None
    depth = 0
    for at in range(index, len(nodes)):
        for kind in field_chars(nodes[at]):
            depth += 1 if kind == "begin" else -1 if kind == "end" else 0
            if depth == 0:
                return at
    return None


def read_field(nodes: list) -> tuple[str, str, int] | None:
    """A `w:fldChar` field's instruction, its result (the text after its `separate`, that of the
    fields nested in it too) and the index of the node of its `separate` (the last node's without
    one); None where its nodes hold text outside it or it does not end."""
    phases: list[str] = []  # of each field open, outermost first: "instruction" or "result"
    instruction, result, separate = "", "", len(nodes) - 1
    for at, node in enumerate(nodes):
        for part in node.iter(etree.Element):
            name = local(part)
            if name == "fldChar":
                kind = part.get(named(part, "fldCharType"))
                if kind == "begin":
                    phases.append("instruction")
                elif kind == "separate" and phases:
                    phases[-1] = "result"
                    separate = at if len(phases) == 1 else separate
                elif kind == "end" and phases:
                    phases.pop()
            elif name == "instrText" and phases == ["instruction"]:
                instruction += part.text or ""
            elif piece(part):
                if not phases:
                    return None
                if all(phase == "result" for phase in phases):
                    result += piece(part)
    return None if phases else (instruction, result, separate)


def piece(part) -> str:
    """What a run's part adds to its text (a tab, a break: a space)."""
    name = local(part)
    if name == "t":
        return part.text or ""
    return " " if name in ("tab", "br", "cr") else "-" if name == "noBreakHyphen" else ""


def result_of(element) -> str:
    """The text the runs in `element` show (a field's result, a content control's words)."""
    return "".join(piece(part) for part in element.iter(etree.Element))


def field_text(result: str) -> str:
    """A field's result as its sentence reads it: in backquotes, as code is, which the translator
    sets aside (runtime/set_aside.py) as a placeholder the model copies ("Dear `«FirstName»`,");
    a number as it is (NUMBER); its spaces one."""
    result = " ".join(result.split())
    return result if not result or "`" in result or NUMBER.fullmatch(result) else f"`{result}`"


def worded(instruction: str) -> bool:
    """Whether a field of `instruction` ("HYPERLINK \"https://…\"") has words for its result."""
    return (instruction.split() or [""])[0].upper() in WORDED_FIELDS


@dataclass(frozen=True)
class KeptPlaces:
    """Where a paragraph's source wrote its spans, to keep its kept elements (void spans) there:
    `listed`, by each span's payload's id, its index among the spans as the source lists them
    (each where it opens), its start and end, and how many were listed where it closed; `glued`,
    the kept elements written against the word before them, a space after ("removed<note>
    because")."""

    listed: dict[int, tuple[int, int, int, int]]
    glued: set[int]


def kept_places(text: str, spans: list[Span], closed: dict[int, int]) -> KeptPlaces:
    """The places of `spans` (listed as the source has them; `closed`: how many were listed where
    a span, by its id, closed; one missing, right after it). The last kept element of those
    between two spaces ("Page <field> of") is marked `spaced`, to come back between two words
    (runtime/markup.py)."""
    places, between = KeptPlaces({}, set()), {}
    for index, span in enumerate(spans):
        places.listed[id(span.payload)] = (index, span.start, span.end, closed.get(id(span), index + 1))
        if not span.void or span.breaks or not span.start:
            continue
        before, after = text[span.start - 1], text[span.start : span.start + 1]
        if before == " " and after == " ":
            between[span.start] = span
        elif before.strip() and after == " ":
            places.glued.add(id(span.payload))
    for span in between.values():
        span.spaced = True
    return places


def kept_in_place(events: list[tuple[str, object]], places: KeptPlaces) -> list[tuple[str, object]]:
    """`layout`'s events with the kept elements where the source wrote them (runtime/markup.py
    nests a void span in a span at its place, and places it by the alignment): one that came
    before a span at its place (after one) goes out of it, before its opening (after its
    closing), wherever the alignment put it inside (a table of contents' field's `begin` never
    lands inside its first entry's link); one written against the word before it that landed
    after a space, before a word, goes before that space (a note's mark: "entfernt, ¹weil" →
    "entfernt,¹ weil")."""
    listed = places.listed
    closes = {id(payload): index for index, (kind, payload) in enumerate(events) if kind == "close"}
    keys, stack = [], []  # the open spans: (the index of its opening, its payload's id)
    for index, (kind, payload) in enumerate(events):
        key = (index, 0, index)
        if kind == "open":
            stack.append((index, id(payload)))
        elif kind == "close":
            stack.pop()
        elif kind == "void" and id(payload) in listed:
            at, start = listed[id(payload)][:2]
            enclosing = [(opened, span, *listed[span]) for opened, span in stack if span in listed]
            first = [opened for opened, _, other, begins, _, _ in enclosing if other > at and begins == start]
            last = [closes[span] for _, span, _, _, ends, ended in enclosing if ended <= at and ends == start]
            key = (min(first), -1, index) if first else (max(last), 1, index) if last else key
        keys.append(key)
    out: list[tuple[str, object]] = []
    pending = ""  # the space moved, written before what follows
    for _, (kind, payload) in sorted(zip(keys, events), key=lambda pair: pair[0]):
        if kind == "void" and id(payload) in places.glued and not pending and out and out[-1][0] == "text":
            before = out[-1][1]
            if before.endswith(" "):
                out[-1:] = [("text", before[:-1])] if before[:-1] else []
                pending = " "
        elif pending and kind == "text":
            payload, pending = pending + payload, ""
        elif pending and kind != "void":
            out.append(("text", pending))
            pending = ""
        out.append((kind, payload))
    return out


def rewrite(reader: ParagraphReader, translation: Aligned) -> None:
    """The paragraph's runs, hyperlinks and fields replaced by the translation's, markup placed."""
    paragraph = reader.paragraph
    for child in list(paragraph):
        if local(child) != "pPr":
            paragraph.remove(child)
    containers, formats = [paragraph], []  # a container None: a field's words, given back as they were
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
    events = layout(translation.text, place(reader.text, nest(reader.spans), translation))
    events = unspaced_at_breaks(events, {id(span.payload) for span in reader.spans if span.breaks})
    for kind, payload in kept_in_place(events, reader.places):
        kept_first = kept_first or (kind == "void" and not written)
        if kind == "text" and containers[-1] is None:
            continue
        if kind == "text":
            if not written and kept_first and opening:
                payload = opening + payload.lstrip(" ")
            written = True
            text = etree.SubElement(run_of(formats[-1] if formats else None), named(paragraph, "t"))
            if word:  # Word drops a run's leading and trailing spaces without it
                text.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            text.text = payload
        elif kind == "void" and isinstance(payload, Field):
            containers[-1].extend(payload.elements)
        elif kind == "void" and payload.run:
            run_of(payload.properties).append(payload.element)
        elif kind == "void":
            containers[-1].append(payload.element)
        elif kind == "open" and isinstance(payload, Formatting):
            formats.append(payload.properties)
        elif kind == "open" and isinstance(payload, Field):
            containers[-1].extend(payload.elements)
            containers.append(None)
        elif kind == "open" and isinstance(payload, Bracket):
            containers[-1].extend(payload.opening)
            containers.append(containers[-1])
        elif kind == "open":
            element = payload.element
            wrapper = etree.SubElement(containers[-1], element.tag, dict(element.attrib))
            wrapper.extend(copy.deepcopy(part) for part in payload.properties)
            if payload.content:
                wrapper = etree.SubElement(wrapper, named(paragraph, payload.content))
            containers.append(wrapper)
        elif isinstance(payload, Formatting):
            formats.pop()
        else:
            containers.pop()
            if isinstance(payload, Bracket):
                containers[-1].extend(payload.closing)
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
    that unpacks to more than `limit` bytes (a zip bomb), before a library opens it (a zip of
    another format: runtime/documents/signatures.py)."""
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
