"""Markdown (.md, parsed with markdown-it-py, CommonMark with tables and strikethrough): each
paragraph, heading, list item's paragraph, quoted paragraph and table cell is a text; code blocks,
HTML blocks and a YAML front matter are left as they are. Emphasis, strong, strikethrough and links are
inline markup placed on the translation by the alignment (runtime/markup.py); inline code and
footnote references stay in their sentence and come back as they were; a task list item's box and a
footnote definition's label stay in front of their paragraph; images and inline HTML go where their neighbouring
words went. A paragraph comes back on one line (Markdown joins its lines when it renders them),
its block's markers (`#`, `-`, `>`, `|`) as they were; a link comes back inline
(`[text](url "title")`), a reference link included."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..markup import Aligned, Span, layout, nest, place
from . import decoded

SPECIAL = "\\`*_[]<"  # what a translation's text is escaped of, lest it read as markup
# GitHub's Markdown beyond CommonMark, which the parser reads as text: a task list item's box and a
# footnote definition's label lead their paragraph and stay in front of its translation; a
# footnote reference stays in its sentence and comes back as it was, as inline code does.
LEADING_MARKER = re.compile(r"\A(?:\[[ xX]\]|\[\^[^\]\s]+\]:)[ \t]+")
FOOTNOTE_REFERENCE = re.compile(r"\[\^[^\]\s]+\]")


@dataclass(frozen=True)
class Markup:
    """A span's payload: the Markdown written before and after its words; `verbatim` is inline
    code, written back whole in place of its words."""

    before: str
    after: str
    verbatim: str | None = None


def escaped(text: str) -> str:
    return "".join("\\" + c if c in SPECIAL else c for c in text)


class InlineReader:
    """An inline token's children as text and spans."""

    def __init__(self, children, source: str = ""):
        self.text = ""
        self.prefix = ""  # a LEADING_MARKER, written before the translation
        self.spans: list[Span] = []
        open_spans: list[Span] = []
        for token in children:
            kind = token.type
            if kind == "text":
                content = token.content
                if not self.text and not self.spans and (marker := LEADING_MARKER.match(content)):
                    self.prefix, content = marker.group(0), content[marker.end() :]
                self.add_text(content)
            elif kind == "softbreak":
                self.text += " "
            elif kind == "hardbreak":
                self.void(Markup("\\\n", ""), breaks=True)
                self.text += " "
            elif kind == "code_inline":
                start = len(self.text)
                self.text += token.content
                code = token.markup + token.content + token.markup
                self.spans.append(Span(start, len(self.text), Markup("", "", code), exact=True))
            elif kind in ("image", "html_inline"):
                # an image between words keeps a space after it wherever it goes ("das ![…](…) rote")
                spaced = " " if self.text.endswith(" ") else ""
                self.void(Markup((self.image(token) if kind == "image" else token.content) + spaced, ""))
            elif kind.endswith("_open"):
                span = Span(len(self.text), len(self.text), self.opening(token))
                self.spans.append(span)
                open_spans.append(span)
            elif kind.endswith("_close") and open_spans:
                span = open_spans.pop()
                span.end = len(self.text)
                label = self.text[span.start : span.end]
                if (
                    kind == "link_close"
                    and label.startswith("^")
                    and span is self.spans[-1]
                    and shortcut(label, source)
                ):
                    # a footnote reference whose definition CommonMark read as a link's (`[^1]: URL`)
                    span.payload, span.exact = Markup("", "", f"[{label}]"), True

    def add_text(self, content: str) -> None:
        """Text, its footnote references as spans given back as they were."""
        position = 0
        for reference in FOOTNOTE_REFERENCE.finditer(content):
            self.add_plain(content[position : reference.start()])
            start = len(self.text)
            self.text += reference.group(0)
            self.spans.append(Span(start, len(self.text), Markup("", "", reference.group(0)), exact=True))
            position = reference.end()
        self.add_plain(content[position:])

    def add_plain(self, content: str) -> None:
        self.text += content[1:] if self.text.endswith(" ") and content.startswith(" ") else content

    def void(self, payload: Markup, breaks: bool = False) -> None:
        self.spans.append(Span(len(self.text), len(self.text), payload, void=True, breaks=breaks))

    @staticmethod
    def opening(token) -> Markup:
        if token.type == "link_open":
            return Markup("[", f"]({destination(token.attrs, 'href')})")
        return Markup(token.markup, token.markup)

    @staticmethod
    def image(token) -> str:
        return f"![{token.content}]({destination(token.attrs, 'src')})"


def shortcut(label: str, source: str) -> bool:
    """Whether the inline source writes `[label]` alone, as a footnote reference is written (not
    `[label](url)` nor `[label][ref]`)."""
    return re.search(re.escape(f"[{label}]") + r"(?![(\[])", source) is not None


def destination(attributes: dict, key: str) -> str:
    """A link's or image's target as Markdown writes it: `url` or `url "title"`."""
    title = attributes.get("title")
    return attributes.get(key, "") + (' "' + title.replace('"', '\\"') + '"' if title else "")


def written_inline(text: str, spans: list[Span], translation: Aligned) -> str:
    """The translation as Markdown, its markup placed."""
    out, skipping = "", 0
    for kind, payload in layout(translation.text, place(text, nest(spans), translation)):
        if kind == "text":
            out += "" if skipping else escaped(payload)
        elif kind == "void":
            out += payload.before
        elif kind == "open" and payload.verbatim is not None:
            out += payload.verbatim
            skipping += 1
        elif kind == "open":
            out += payload.before
        elif payload.verbatim is not None:
            skipping -= 1
        else:
            out += payload.after
    return out


def front_matter(lines: list[str]) -> int:
    """The number of lines of a YAML front matter block (`---` … `---` from the first line), 0
    when there is none: static-site generators read it, and it is left as it is."""
    if lines and lines[0].strip() == "---":
        for number, line in enumerate(lines[1:], 1):
            if line.strip() in ("---", "..."):
                return number + 1
    return 0


class MarkdownDocument:
    def __init__(self, data: bytes):
        from markdown_it import MarkdownIt

        self.file = decoded(data)
        self.lines = self.file.text.split("\n")
        parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
        self.blocks = []  # (first line, last line + 1, the inline source, its reader)
        body = front_matter(self.lines)
        for token in parser.parse("\n".join(self.lines)):
            if token.type == "inline" and token.map and token.content.strip() and token.map[0] >= body:
                reader = InlineReader(token.children or [], token.content)
                if any(c.isalnum() for c in reader.text):
                    self.blocks.append((token.map[0], token.map[1], token.content, reader))

    def texts(self) -> list[str]:
        return [reader.text for _, _, _, reader in self.blocks]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        lines = list(self.lines)
        cursor: dict[int, int] = {}  # line → where the next cell of a table row is looked for
        for (first, last, content, reader), translation in zip(self.blocks, translations):
            new = reader.prefix + written_inline(reader.text, reader.spans, translation)
            parts = content.split("\n")
            for offset, part in enumerate(parts):
                number = first + offset
                line = lines[number]
                at = line.find(part, cursor.get(number, 0)) if part else -1
                if at < 0 or number >= last:
                    continue
                replacement = new if offset == 0 else ""
                lines[number] = line[:at] + replacement + line[at + len(part) :]
                cursor[number] = at + len(replacement)
            for number in range(first + 1, first + len(parts)):  # a paragraph's other lines, emptied
                if number < last and not lines[number].strip(" >\t"):
                    lines[number] = None
        return self.file.encoded("\n".join(line for line in lines if line is not None))
