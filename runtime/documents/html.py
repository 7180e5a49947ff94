"""`format: "html"`: an HTML fragment or page translated sentence by sentence, its inline markup
placed on the translation by the word alignment (runtime/markup.py).

The document is parsed with Beautiful Soup (Python's own html.parser under it). Block structure
(paragraphs, headings, list items, table cells, any element that is not inline) stays as it is;
within a block, each run of text and inline elements (`<b>`, `<a>`, `<em>`, `<span>`, `<br>`, an
unknown or XML element such as `<uicontrol>`, …) is one text: its whitespace collapsed, translated whole (sentence by sentence), and its inline
elements, attributes untouched, placed around the target words aligned to their source words.
Comments and void elements (`<br>`, `<img>`) go where their neighbouring words went.
`<script>`, `<style>`, `<pre>`, `<textarea>`, elements marked `translate="no"` and those marked
as another language than the page's (`<span lang="it">`) are left as they are; inline `<code>`, `<kbd>`, `<samp>` and `<var>` stay in their sentence, so that the
sentence reads whole, and come back as they were, around the target words aligned to them.
Character references come back as characters where they do not need escaping (`&nbsp;` as
U+00A0, `&amp;` as `&amp;`). A document type that declares entities (an internal subset) is kept
as written, and the references to its entities as they are: nothing is expanded.
"""

from __future__ import annotations

import asyncio
import codecs
import dataclasses
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.dammit import EntitySubstitution
from bs4.element import Doctype
from bs4.formatter import HTMLFormatter, XMLFormatter

from ..constants import primary_language
from ..markup import Aligned, Span, layout, lines_apart, nest, place
from . import REFERENCE_MARK, DocumentError, decoded, redeclared

# Elements left as they are, content included, wherever they are.
UNTRANSLATED = frozenset({"script", "style", "pre", "textarea", "noscript", "template"})
# Inline elements whose content is not translated: kept in their sentence, given back as they were.
VERBATIM = frozenset({"code", "kbd", "samp", "var"})
# Elements that make blocks (HTML's flow content that is not phrasing content, and a form's input
# field: the texts on either side, a label's and a button's, are read apart, and the field never
# moves into them); any other element, a custom or XML one (`<uicontrol>`) included, is inline, as
# a browser shows an unknown element.
BLOCKS = frozenset(
    {"address", "article", "aside", "audio", "blockquote", "body", "canvas", "caption", "col", "colgroup", "dd"}
    | {"details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2"}
    | {"h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe", "legend", "li", "link", "main"}
    | {"menu", "meta", "nav", "object", "ol", "optgroup", "option", "p", "section", "select", "summary", "table"}
    | {"tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul", "video"}
    | {"input"}
    | UNTRANSLATED
)
WHITESPACE = re.compile(r"\s+")
# Elements nested deeper are refused: real pages stay far below, and the walk over runs and the
# placement of spans go one call deeper per level.
MAX_NESTING = 100


class AttributesInOrder:
    """A formatter that writes each element's attributes in the order the page gave them
    (Beautiful Soup's sorts them)."""

    def attributes(self, tag: Tag):
        return list(tag.attrs.items())


class AsWritten(AttributesInOrder, HTMLFormatter):
    """How an HTML page is written back: `&`, `<` and `>` escaped in its text and nothing else (its
    letters as they are, not as named entities), void elements closed as the page closed them
    (`<br>`, or `<br/>` in a page written as XHTML, which an XML parser must read), attributes in
    their order."""

    def __init__(self, void_close: str | None):
        super().__init__(entity_substitution=EntitySubstitution.substitute_xml, void_element_close_prefix=void_close)


class XmlAsWritten(AttributesInOrder, XMLFormatter):
    """How an XHTML document read as XML (an e-book's chapter) is written back: Beautiful Soup's
    "minimal" XML formatter (`&`, `<` and `>` escaped), attributes in their order."""

    def __init__(self):
        super().__init__(entity_substitution=EntitySubstitution.substitute_xml)


HTML_OUT, XHTML_OUT, XML_OUT = AsWritten(None), AsWritten("/"), XmlAsWritten()


class EveryTag(frozenset):
    """Every tag name, as Beautiful Soup's `preserve_whitespace_tags`: outside those it turns a
    string of whitespace into one line break or space, and a page lost its indentation."""

    def __contains__(self, name: object) -> bool:
        return True


EVERY_TAG = EveryTag()


class EndTagAsWritten(Tag):
    """An element written back with an end tag only where the page wrote one: html.parser knows
    none of HTML's optional end tags (`<p>` before the next `<p>`, `<td>`, `<li>`) and closes such
    an element at its parent's end, where an end tag written back had added `</p></p>` before
    `</body>` and `</td></td>` before `</table>`. `end_implied` is set by EndTagsNoted."""

    end_implied = False

    def _format_tag(self, eventual_encoding, formatter, opening):  # Beautiful Soup's one place for a tag's text
        return "" if self.end_implied and not opening else super()._format_tag(eventual_encoding, formatter, opening)


class EndTagsNoted(BeautifulSoup):
    """Beautiful Soup (html.parser under it) noting which elements the page closed with an end tag;
    the others are EndTagAsWritten's `end_implied`."""

    def __init__(self, html: str):
        self.closed: set[int] = set()
        super().__init__(
            html, "html.parser", preserve_whitespace_tags=EVERY_TAG, element_classes={Tag: EndTagAsWritten}
        )
        for tag in self.find_all(True):
            tag.end_implied = id(tag) not in self.closed and not tag.can_be_empty_element

    def handle_endtag(self, name: str, nsprefix: str | None = None) -> None:
        """An end tag: it closes the innermost open element of its name (and any inside it)."""
        closing = next((tag for tag in reversed(self.tagStack[1:]) if (tag.name, tag.prefix) == (name, nsprefix)), None)
        super().handle_endtag(name, nsprefix)
        if closing is not None:
            self.closed.add(id(closing))


# A void element closed in the XML way: the page is written so
SELF_CLOSED = re.compile(r"<(?:br|hr|img|input|meta|link|col|area|base|wbr|source|track|embed|param)\b[^<>]*/>", re.I)


# A document type with an internal subset (`<!DOCTYPE html [ <!ENTITY …> ]>`, XHTML's and old
# HTML's way to declare entities): kept as written, never parsed (html.parser cuts it at its first
# `>`), and the references to the entities it declares kept as they are, never expanded.
INTERNAL_SUBSET = re.compile(r"\A(\s*(?:<\?xml[^>]*\?>\s*)?<!DOCTYPE[^\[>]*\[.*?\]\s*>)", re.S | re.I)
DECLARED_ENTITY = re.compile(r"<!ENTITY\s+([A-Za-z_][\w.-]*)")
ENTITY_MARK = "attn-entity "  # a declared entity's reference, as a comment while the document is translated


def kept_prolog(html: str) -> tuple[str, str]:
    """(the document type with its internal subset, or "", the rest of the document with each
    reference to an entity declared there as an ENTITY_MARK comment)."""
    found = INTERNAL_SUBSET.match(html)
    if not found:
        return "", html
    names = set(DECLARED_ENTITY.findall(found.group(1)))
    rest = html[found.end() :]
    if names:
        reference = re.compile(r"&(" + "|".join(map(re.escape, sorted(names))) + r");")
        rest = reference.sub(lambda match: f"<!--{ENTITY_MARK}{match.group(1)}-->", rest)
    return found.group(1), rest


def restored_references(html: str) -> str:
    return re.sub(r"<!--" + ENTITY_MARK + r"([A-Za-z_][\w.-]*)-->", r"&\1;", html)


class DoctypeAsRead(Doctype):
    """A document type written as it was read: Beautiful Soup writes a line break after one, which
    html.parser keeps from the page already (a blank line after each `<!DOCTYPE html>`)."""

    SUFFIX = ">"


class TooDeep(DocumentError):
    """An HTML document nested deeper than MAX_NESTING elements."""


@dataclass(frozen=True)
class Verbatim:
    """A span's payload: an element given back whole, as it was."""

    element: Tag


def is_reference(node: Tag) -> bool:
    """Whether `node` is a footnote's or a citation's mark (REFERENCE_MARK in superscript)."""
    return node.name == "sup" and REFERENCE_MARK.fullmatch(node.get_text().strip()) is not None


def is_inline(node) -> bool:
    """Text, a comment, or an inline element with only inline elements inside."""
    if not isinstance(node, Tag):
        return True
    return node.name not in BLOCKS and not node.find(BLOCKS)


def nesting(soup: BeautifulSoup) -> int:
    """How deep elements nest in `soup` (0: none), without recursion."""
    deepest, stack = 0, [(child, 1) for child in soup.find_all(True, recursive=False)]
    while stack:
        element, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_NESTING:  # deeper is refused however deep it goes
            stack += [(child, depth + 1) for child in element.find_all(True, recursive=False)]
    return deepest


def kept_as_is(tag: Tag) -> bool:
    """Whether `tag` and what it holds are given back as they were: a script, a style, …
    (UNTRANSLATED), `translate="no"`, or content marked as another language than the page's."""
    return tag.name in UNTRANSLATED or tag.get("translate") == "no" or in_another_language(tag)


def in_another_language(tag: Tag) -> bool:
    """Whether `tag`, an inline element, declares another language than the one around it (`<span
    lang="it">pasta al pomodoro</span>` in an English page, which had been translated and declared
    the target language); not where nothing around it declares one, which tells nothing, nor a
    block (`<main lang="de">` in a page whose theme says "en": what `--from de` translates)."""
    if tag.name in BLOCKS:  # a section of a page: its content, whichever language --from names
        return False
    own = declared_language(tag)
    around = next((found for parent in tag.parents if (found := declared_language(parent))), None)
    return own is not None and around is not None and own != around


def declared_language(tag) -> str | None:
    """The primary language `tag`'s `lang` or `xml:lang` names ("de" for "de-CH"), None without one."""
    value = next((tag.get(name) for name in LANGUAGE_ATTRIBUTES if isinstance(tag, Tag) and tag.get(name)), None)
    return primary_language(value) if value and value.strip() else None


# Attributes whose value a reader sees or hears (a tooltip, an image's description, a field's hint,
# a screen reader's label), translated as texts of their own; and a button input's label and a
# page's description for search engines and link previews.
TEXT_ATTRIBUTES = ("alt", "title", "placeholder", "aria-label")
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})
DESCRIPTIONS = frozenset({"description", "og:title", "og:description", "twitter:title", "twitter:description"})


def text_attributes(soup: BeautifulSoup) -> list[tuple[Tag, str]]:
    """(element, attribute name) of each attribute whose value is text for a reader (with a letter
    or digit), outside what is kept as it is (kept_as_is), in document order."""
    found = []
    for tag in soup.find_all(True):
        if tag.get("translate") == "no" or any(kept_as_is(parent) for parent in tag.parents if isinstance(parent, Tag)):
            continue  # a <textarea>'s or <pre>'s own hint is translated, what is inside it not
        names = [name for name in TEXT_ATTRIBUTES if name in tag.attrs]
        if tag.name == "input" and str(tag.get("type", "")).lower() in BUTTON_INPUTS and "name" not in tag.attrs:
            names.append("value")  # a button's label, unless the form sends it as data (name=…)
        if tag.name == "meta" and str(tag.get("name") or tag.get("property") or "").lower() in DESCRIPTIONS:
            names.append("content")
        found += [
            (tag, name) for name in names if isinstance(tag.get(name), str) and any(c.isalnum() for c in tag[name])
        ]
    return found


LANGUAGE_ATTRIBUTES = ("lang", "xml:lang")


def declare_language(soup: BeautifulSoup, language: str) -> None:
    """Every `lang` and `xml:lang` of the translated document, and its `<meta
    http-equiv="content-language">`, set to `language`; elements given back as they were (code,
    `translate="no"`, scripts) and what they hold keep theirs."""
    kept = {id(element) for element in soup.find_all(True) if kept_as_is(element) or element.name in VERBATIM}
    stack = [soup]  # the elements kept found first: declared anew, a page's language is no longer theirs
    while stack:
        for element in stack.pop().find_all(True, recursive=False):
            if id(element) in kept:
                continue
            for name in LANGUAGE_ATTRIBUTES:
                if name in element.attrs:
                    element[name] = redeclared(element[name], language)
            if element.name == "meta" and element.get("http-equiv", "").lower() == "content-language":
                element["content"] = language
            stack.append(element)


def runs(container: Tag) -> list[list]:
    """The runs of consecutive inline nodes under `container`, outside elements kept as they are;
    a row of links each a run of its own (items)."""
    found, run = [], []
    for child in list(container.children):
        if is_inline(child):
            run.append(child)
            continue
        if run:
            found += items(run)
            run = []
        if isinstance(child, Tag) and not kept_as_is(child):
            found += runs(child)
    return found + (items(run) if run else [])


ITEMS = frozenset({"a", "button"})  # the elements of a menu's row
SEPARATORS = "|•·/›»«‹–—-*"  # what a menu writes between its links


def items(run: list) -> list[list]:
    """`run` as it is, or each of its links as a run where it is a row of them (ITEMS) with
    nothing but separators (SEPARATORS, maybe in an element of their own: "<span>|</span>") and
    spaces around them ("<a>Home</a> | <a>Our products</a>": a menu, a breadcrumb;
    "<button>Save</button> <button>Cancel</button>"; "<a>Click here</a> <a>to download it</a>."
    is a sentence, its point no separator). Read as one text, each link's words had gone on
    another's ("<a href="/">|</a>", "Kontakte | Kontakt")."""
    links = [node for node in run if isinstance(node, Tag) and node.get_text().strip(SEPARATORS + " \t\n\u00a0")]
    item_ids = {id(node) for node in links}
    between = "".join(
        node.get_text() if isinstance(node, Tag) else str(node) for node in run if id(node) not in item_ids
    )
    if len(links) < 2 or any(node.name not in ITEMS for node in links) or between.strip(SEPARATORS + " \t\n\u00a0"):
        return [run]
    return [[node] for node in links]


class RunReader:
    """A run's plain text (whitespace collapsed to single spaces) and its inline markup as spans."""

    def __init__(self):
        self.text = ""
        self.spans: list[Span] = []

    def add_text(self, text: str) -> None:
        text = WHITESPACE.sub(" ", text)
        if text.startswith(" ") and (
            self.text.endswith(" ") or not self.text
        ):  # the void spans just before stood between spaces (or opened the run)
            for span in reversed(self.spans):
                if span.start < len(self.text):
                    break
                span.spaced = span.void
        if self.text.endswith(" ") or not self.text:
            text = text.lstrip(" ")
        self.text += text

    def visit(self, node) -> None:
        if isinstance(node, Tag):
            span = Span(len(self.text), len(self.text), node)
            self.spans.append(span)  # before its children: an element and its only child keep their order
            if is_reference(node):  # not read: given back whole after the word it followed
                span.void = True
                return
            if node.name in VERBATIM or kept_as_is(node):
                span.payload, span.exact = Verbatim(node), True
                text = node.get_text()
                # code in backquotes is set aside from the search (runtime/set_aside.py)
                coded = node.name in VERBATIM and text.strip() and "`" not in text
                self.add_text(f"`{text.strip()}`" if coded else text)
            elif not node.contents and node.can_be_empty_element:
                span.void = True
                if node.name == "br":  # a line break parts words, and sentences ("PDF.<br>Then")
                    span.breaks = span.line = True
                    self.add_text(" ")
            else:
                for child in list(node.children):
                    self.visit(child)
            span.end = len(self.text) if not span.void else span.start
        elif type(node) is NavigableString:
            self.add_text(str(node))
        else:  # a comment, CDATA, a processing instruction
            self.spans.append(Span(len(self.text), len(self.text), node, void=True))

    def finish(self) -> tuple[str, list[Span]]:
        """The text without a trailing space, and the spans cut to it; a line break (`<br>`) before
        a capital or a digit ends a line of its own (runtime/markup.py lines_apart)."""
        text = self.text.rstrip(" ")
        for span in self.spans:
            span.start, span.end = min(span.start, len(text)), min(span.end, len(text))
        return lines_apart(text, self.spans), self.spans


def rebuilt(soup: BeautifulSoup, events: list[tuple[str, object]]) -> list:
    """The nodes of a translated run, from runtime/markup.py's layout events."""
    top: list = []
    stack: list = [top]
    for index, (kind, payload) in enumerate(events):
        if kind == "text" and _glued_break(events[index + 1 : index + 2]):
            payload = payload.rstrip(" \n")  # read as a space, the break landed after one: "werden. <br>Versuchen"
        if kind == "text":
            if stack[-1] is not None:  # a line translated apart (RunReader.finish) ends at its <br>, not in a new line
                stack[-1].append(NavigableString(payload.replace("\n", " ")))
        elif kind == "void":
            stack[-1 if stack[-1] is not None else -2].append(_copy(payload))
        elif kind == "open" and isinstance(payload, Verbatim):
            (stack[-1] if stack[-1] is not None else top).append(_copy(payload.element))
            stack.append(None)  # the words aligned to it give way to the element as it was
        elif kind == "open":
            element = soup.new_tag(payload.name, attrs=dict(payload.attrs))
            stack[-1].append(element)
            stack.append(element)
        else:
            stack.pop()
    return top


def _glued_break(events: list[tuple[str, object]]) -> bool:
    """Whether `events` (one or none) is a `<br>` that the page wrote right after text, no space
    between ("opened.<br>Please")."""
    if not events or events[0][0] != "void" or not isinstance(events[0][1], Tag) or events[0][1].name != "br":
        return False
    before = events[0][1].previous_element  # the text before it, inside an element before it too
    return isinstance(before, NavigableString) and before[-1:].strip() != ""


def _copy(node):
    return node.__copy__() if isinstance(node, Tag) else type(node)(str(node))


class HtmlDocument:
    """An HTML document or fragment: `texts()` its runs' texts (with a letter or digit), and
    `written(translations)` the document with each run replaced by its translation, its markup
    placed (written as the page was written: AsWritten; XHTML read as XML, XmlAsWritten). `parser` is the parser
    ("xml" for XHTML, whose `<a/>` is an empty element, not an opening tag)."""

    def __init__(self, html: str, parser: str = "html.parser"):
        self.prolog, html = kept_prolog(html)
        if parser == "html.parser":
            self.soup = EndTagsNoted(html)
        else:
            self.soup = BeautifulSoup(html, parser, preserve_whitespace_tags=EVERY_TAG)
        if parser == "html.parser":  # the XML parser keeps no whitespace around the document type
            for node in self.soup.contents:
                if isinstance(node, Doctype):
                    node.replace_with(DoctypeAsRead(str(node)))
        if parser != "html.parser":
            self.formatter = XML_OUT
        else:
            self.formatter = XHTML_OUT if SELF_CLOSED.search(html) else HTML_OUT
        if nesting(self.soup) > MAX_NESTING:
            raise TooDeep(f"the HTML nests elements deeper than {MAX_NESTING} levels")
        self.runs: list[tuple[list, str, list[Span]]] = []
        for run in runs(self.soup):
            reader = RunReader()
            for node in run:
                reader.visit(node)
            text, spans = reader.finish()
            if any(c.isalnum() for c in text):
                self.runs.append((run, text, spans))
        self.attributes = text_attributes(self.soup)

    def texts(self) -> list[str]:
        """Each run's text, then each text attribute's value (TEXT_ATTRIBUTES, …), whitespace collapsed."""
        return [text for _, text, _ in self.runs] + [" ".join(tag[name].split()) for tag, name in self.attributes]

    def written(self, translations: list[Aligned], language: str | None = None) -> str:
        """The document with each run replaced by its translation, its markup placed, and each text
        attribute by its own (translations in the order of texts()); with `language`, a document
        that had a text to translate declares it (declare_language)."""
        for (tag, name), translation in zip(self.attributes, translations[len(self.runs) :]):
            tag[name] = translation.text  # before the runs are rebuilt: their elements copy the attributes
        replaced: dict[int, list] = {}  # id of a run's first node → the run's new nodes
        for (run, text, spans), translation in zip(self.runs, translations):
            nodes = rebuilt(self.soup, layout(translation.text, place(text, nest(spans), translation)))
            first, last = str(run[0]), str(run[-1])
            leading = first[: len(first) - len(first.lstrip())] if type(run[0]) is NavigableString else ""
            trailing = last[len(last.rstrip()) :] if type(run[-1]) is NavigableString else ""
            replaced[id(run[0])] = (
                [NavigableString(leading)] * bool(leading) + nodes + [NavigableString(trailing)] * bool(trailing)
            )
        for container in {id(run[0].parent): run[0].parent for run, _, _ in self.runs}.values():
            # each container's children rebuilt at once: node by node, Beautiful Soup takes quadratic time
            children, skip = [], 0
            runs_here = {id(run[0]): len(run) for run, _, _ in self.runs if run[0].parent is container}
            for child in container.contents:
                if skip:
                    skip -= 1
                elif id(child) in runs_here:
                    children += replaced[id(child)]
                    skip = runs_here[id(child)] - 1
                else:
                    children.append(child)
            container.clear()
            container.extend(children)
        if language and (self.runs or self.attributes):
            declare_language(self.soup, language)
        written = self.soup.decode(formatter=self.formatter)
        return self.prolog + restored_references(written) if self.prolog else written


async def translate_html(
    html: str, translate: Callable[[list[str]], Awaitable[list[Aligned]]], language: str | None = None
) -> str:
    """`html` with the text of each run translated by `translate` (one call for all: each run's
    text → a translation with its word alignment) and its inline markup placed on it, declaring
    `language` where it declared one (HtmlDocument.written). Parsing and placing run off the
    event loop."""
    document = await asyncio.to_thread(HtmlDocument, html)
    texts = document.texts()
    if not texts:
        return html
    translations = await translate(texts)
    return await asyncio.to_thread(document.written, translations, language)


def translated_fragments(
    fragments: list[str],
    translate: Callable[[list[str], list[int]], list[Aligned]],
    language: str | None | Callable[[], str | None] = None,
) -> list[str]:
    """Each HTML fragment (or page) with its texts translated, all of them in one call of
    `translate` (the texts, and the index of the fragment each is of), and its inline markup
    placed (HtmlDocument.written) in `language` (a callable: asked once the texts are translated,
    for a caller that learns the target from them); one without a text comes back as it was. A
    fragment nested too deep is TooDeep."""
    documents = [HtmlDocument(fragment) for fragment in fragments]
    texts = [document.texts() for document in documents]
    owners = [owner for owner, own in enumerate(texts) for _ in own]
    found = iter(translate([text for own in texts for text in own], owners) if owners else [])
    language = language() if callable(language) else language
    return [
        document.written([next(found) for _ in own], language) if own else fragment
        for fragment, document, own in zip(fragments, documents, texts)
    ]


def fragments_languages(texts: list[str], owners: list[int], language_of: Callable[[list[str]], Any]) -> dict[int, Any]:
    """The language each fragment is read in, by fragment (the `owners` of translated_fragments'
    texts): `language_of` all of its texts, as a document is read in one language."""
    return {
        owner: language_of([text for text, own in zip(texts, owners) if own == owner])
        for owner in dict.fromkeys(owners)
    }


def translated_by_language(
    texts: list[str],
    owners: list[int],
    read: dict[int, Any],
    translate: Callable[[Any, list[str], list[int]], list],
) -> list:
    """translated_fragments' texts translated in one call of `translate` (the language, its texts
    and their owners) for each language the fragments are `read` in (fragments_languages); in
    the texts' order."""
    found: list = [None] * len(texts)
    for language in dict.fromkeys(read.values()):
        mine = [i for i, own in enumerate(owners) if read[own] == language]
        for i, translation in zip(mine, translate(language, [texts[i] for i in mine], [owners[i] for i in mine])):
            found[i] = translation
    return found


# An XML declaration's encoding other than UTF-8, rewritten: a page is written in UTF-8.
XML_ENCODING = re.compile(r"""\A(\s*<\?xml[^>]*?encoding\s*=\s*["'])(?!utf-?8["'])[^"']*""", re.I)


def declared_encoding(data: bytes) -> str | None:
    """The encoding an HTML page declares (its meta charset or XML declaration), as browsers read
    it: windows-1252 where it says Latin-1 or ASCII (the WHATWG Encoding Standard)."""
    from bs4.dammit import EncodingDetector

    label = EncodingDetector.find_declared_encoding(data, is_html=True)
    try:
        return "cp1252" if label and codecs.lookup(label).name in ("iso8859-1", "ascii") else label
    except LookupError:
        return label


class HtmlFile:
    """An .html file: its bytes (UTF-8, a byte-order mark kept; or the encoding the page declares,
    or UTF-16 or UTF-32 by their mark, written back as UTF-8 and declared so) as an HtmlDocument."""

    def __init__(self, data: bytes):
        declared = declared_encoding(data)
        self.file = dataclasses.replace(decoded(data, declared), encoding="utf-8")
        self.document = HtmlDocument(XML_ENCODING.sub(r"\1UTF-8", self.file.text))  # a meta charset: Beautiful Soup's
        head = self.document.soup.head
        if declared is None and self.file.read_as and head is not None:  # a legacy page, now UTF-8: said so
            head.insert(0, self.document.soup.new_tag("meta", charset="utf-8"))

    def texts(self) -> list[str]:
        return self.document.texts()

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        return self.file.encoded(self.document.written(translations, language))
