"""Markdown (.md, parsed with markdown-it-py, CommonMark with tables and strikethrough): each
paragraph, heading, list item's paragraph, quoted paragraph and table cell is a text; an HTML block
(`<p align="center">…</p>`, `<details>`) is read as an HTML fragment is (runtime/documents/html.py),
where it stands at the start of its lines (not inside a list item or a quote: left as it is there);
code blocks and a YAML front matter are left as they are. Emphasis, strong, strikethrough and links are
inline markup placed on the translation by the alignment (runtime/markup.py); inline code and
footnote references come back as they were, after the words they followed (InlineReader.footnote); a task list
item's box and a footnote definition's label stay in front of their paragraph, and a definition is a
text of its own, on its own line, however many follow each other; an inline HTML element around words
(`<kbd>Ctrl</kbd>`) is placed as emphasis is; images, void and unpaired HTML tags go where their
neighbouring words went. An image's alt text and a link's or image's title are texts of their own, translated
apart (a screen reader reads them, a browser shows them). A paragraph comes back on one line (Markdown joins its lines when it renders them),
its block's markers (`#`, `-`, `>`, `|`) as they were; a link comes back inline
(`[text](url "title")`), a reference link included."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from ..alignment import WordAlignment
from ..markup import Aligned, Span, layout, nest, place
from . import decoded

SPECIAL = "\\`*_[]<"  # what a translation's text is escaped of, lest it read as markup
HARD_BREAK = "\\\n"  # a line break within a paragraph, as attn writes it
HTML_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)(?:\s[^<>]*)?/?>")
# HTML's void elements (no closing tag): each is a tag where its neighbouring words went
HTML_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
LABEL_SPECIAL = re.compile(
    r'[\\\[\]"|]'
)  # what a label's translation is escaped of: it may end an alt text, a title or a table cell
# GitHub's Markdown beyond CommonMark, which the parser reads as text: a task list item's box and a
# footnote definition's label lead their paragraph and stay in front of its translation (CommonMark
# reads definitions on consecutive lines as one paragraph: each is a text of its own, FOOTNOTE_LINE);
# a footnote reference is set aside from the text and written after the words it followed.
LEADING_MARKER = re.compile(r"\A(?:\[[ xX]\]|\[\^[^\]\s]+\]:)[ \t]+")
FOOTNOTE_LINE = re.compile(r"\[\^[^\]\s]+\]:[ \t]")
FOOTNOTE_REFERENCE = re.compile(r"\[\^[^\]\s]+\]")
# the end of a sentence (its punctuation and closing marks): a reference right after one annotates
# the sentence, and follows its translation's end
SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*")
REFERENCE_FOLLOWERS = ".,;:!?…\"'”’»)]}"  # what may follow a reference set aside (`design[^2], and`)


@dataclass(frozen=True)
class Markup:
    """A span's payload: the Markdown written before and after its words; `verbatim` is inline
    code, written back whole in place of its words. With `labels` (an image's alt text, a title),
    `before` and `after` are str.format templates that take their translations, in that order."""

    before: str
    after: str
    verbatim: str | None = None
    labels: tuple[str, ...] | None = None

    def filled(self, translated: dict[str, str]) -> tuple[str, str]:
        """`before` and `after` with the labels' translations (`translated`, by label) in place."""
        if self.labels is None:
            return self.before, self.after
        values = [LABEL_SPECIAL.sub(r"\\\g<0>", translated.get(label, label)) for label in self.labels]
        return self.before.format(*values), self.after.format(*values)


def braced(text: str) -> str:
    """`text` as a str.format template gives it back."""
    return text.replace("{", "{{").replace("}", "}}")


def autolink(href: str, source: str) -> str:
    """An autolink as the inline `source` writes it: `<href>`, or `<address>` for an e-mail
    address its link made `mailto:`."""
    address = href.removeprefix("mailto:")
    return f"<{address}>" if address != href and f"<{address}>" in source else f"<{href}>"


def destination(url: str) -> str:
    """A link's or image's URL (its escapes and entities read) as Markdown writes it: as it is, or
    in angle brackets when it holds a space, a backslash or an unpaired parenthesis (`<my file.md>`,
    `x\\)y`, `C:\\Users\\`, where the last backslash would escape the closing parenthesis)."""
    if url.startswith("<") or "\\" in url or any(c.isspace() for c in url) or url.count("(") != url.count(")"):
        return "<" + url.replace("\\", "\\\\").replace("<", "\\<").replace(">", "\\>") + ">"
    return url


def escaped(text: str) -> str:
    return "".join("\\" + c if c in SPECIAL else c for c in text)


class InlineReader:
    """An inline token's children as text and spans."""

    def __init__(self, children, source: str = ""):
        self.text = ""
        self.prefix = ""  # a LEADING_MARKER, written before the translation
        self.spans: list[Span] = []
        self.labels: list[str] = []  # the alt texts and titles of its images and links, in order
        self.open_spans: list[Span] = []  # Markdown's spans open
        self.open_tags: list[tuple[str, Span, Span | None]] = []  # inline HTML elements open: name, span, Markdown span
        self.footnotes: list[Span] = []  # the spans that write footnote references after their words
        open_spans, open_tags = self.open_spans, self.open_tags
        between: Span | None = None  # an image or inline HTML after a space, until the next token
        for token in children:
            kind, after, between = token.type, between, None
            if kind == "text":
                content = token.content
                if not self.text and not self.spans and (marker := LEADING_MARKER.match(content)):
                    self.prefix, content = marker.group(0), content[marker.end() :]
                if after is not None and content.startswith(" "):
                    # between words, it keeps a space after it wherever it goes ("das ![…](…) rote")
                    after.payload = dataclasses.replace(after.payload, before=after.payload.before + " ")
                self.add_text(content)
            elif kind == "softbreak":
                self.text += " "
            elif kind == "hardbreak":
                self.void(Markup(HARD_BREAK, ""), breaks=True)
                self.text += " "
            elif kind == "code_inline":
                start = len(self.text)
                # in backquotes, code is set aside from the search (runtime/set_aside.py)
                content = token.content.strip()
                self.text += f"`{content}`" if content and "`" not in content else token.content
                code = token.markup + token.content + token.markup
                self.spans.append(Span(start, len(self.text), Markup("", "", code), exact=True))
            elif kind == "html_inline" and self.html_element(token.content, open_tags, open_spans[-1:]):
                last = self.spans[-1]  # an empty element closed here is a void, spaced as one
                between = last if last.void and last.start == len(self.text) and self.text.endswith(" ") else None
            elif kind in ("image", "html_inline"):
                self.void(self.image(token) if kind == "image" else Markup(token.content, ""))
                between = self.spans[-1] if self.text.endswith(" ") or not self.text.strip() else None
            elif kind == "link_open" and token.markup == "autolink":  # `<https://x.org>`: given back as written
                span = Span(
                    len(self.text), len(self.text), Markup("", "", autolink(token.attrs["href"], source)), exact=True
                )
                self.spans.append(span)
                open_spans.append(span)
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
                    self.spans.pop()
                    self.text = self.text[: span.start]
                    self.footnote(f"[{label}]")
        for _, span, _ in open_tags:  # an element never closed: a tag where its neighbours went
            span.void = True
        self.glued_back()

    def html_element(self, tag: str, open_tags: list, within: list[Span]) -> bool:
        """Whether inline HTML `tag` opens or closes an element around words (`<kbd>Ctrl</kbd>`:
        a span, its words placed as emphasis's are), made part of one; not a void element, nor a
        closing tag without its opening one within the same Markdown span (`within`: the
        innermost one open, if any)."""
        markdown_span = within[0] if within else None
        found = HTML_TAG.fullmatch(tag)
        if found is None or found.group(2).lower() in HTML_VOID or tag.endswith("/>"):
            return False
        name = found.group(2).lower()
        if not found.group(1):
            span = Span(len(self.text), len(self.text), Markup(tag, ""))
            self.spans.append(span)
            open_tags.append((name, span, markdown_span))
            return True
        if not open_tags or open_tags[-1][0] != name or open_tags[-1][2] is not markdown_span:
            return False
        _, span, _ = open_tags.pop()
        span.end, span.payload = len(self.text), Markup(span.payload.before, tag)
        span.void = span.end == span.start  # an empty element: both tags together, where their neighbours went
        if span.void:
            span.payload = Markup(span.payload.before + tag, "")
        return True

    def add_text(self, content: str) -> None:
        """Text, its footnote references set aside (footnote)."""
        position = 0
        for reference in FOOTNOTE_REFERENCE.finditer(content):
            self.add_plain(content[position : reference.start()])
            self.footnote(reference.group(0))
            position = reference.end()
        self.add_plain(content[position:])

    def footnote(self, reference: str) -> None:
        """A footnote reference (`[^1]`), out of the text, which reads as it would without it (the
        model read "power.[^1]" as a word and left it untranslated): a span written after the
        words it followed, `after` them. A reference right after a sentence's end follows the
        end of that sentence's translation; one after a word follows that word's ("design[^2]
        and" → "Design[^2] und"); references in a row are one mark. One with no word just before it
        (opening its text, after an image) is text given back as it was, as before."""
        stripped = self.text.rstrip(" ")
        clear = all(span.start <= len(stripped) and span.end <= len(stripped) for span in self.spans)
        gap = self.text[len(stripped) :] if clear else ""  # "see [^1]": the space written before it
        position = len(self.text) - len(gap)
        last = self.footnotes[-1] if self.footnotes else None
        if (
            last is not None
            and last.end == position
            and not any(span.start >= position for span in self.spans if span is not last)
        ):  # "[^1][^2]", "[^1] [^2]"
            last.payload = Markup("", last.payload.after + gap + reference)
            self.text = self.text[:position]
            return
        glued = any(span.void and span.start == position for span in self.spans)  # `![a](b.png)[^1]`
        start = None if glued else self.attached(position, sentence=not gap)
        if start is None:  # no word to follow: in its sentence, given back as it was
            start = len(self.text)
            self.text += reference
            self.spans.append(Span(start, len(self.text), Markup("", "", reference), exact=True))
            return
        self.text = self.text[:position]
        span = Span(start, position, Markup("", gap + reference))
        # before the spans of the same words (`[link](url)[^1]`, `` `code`[^1] ``): it holds them
        same = next((i for i, other in enumerate(self.spans) if (other.start, other.end) == (start, position)), None)
        self.spans.insert(len(self.spans) if same is None else same, span)
        self.footnotes.append(span)

    def glued_back(self) -> None:
        """The footnote references glued to what follows them (`x[^1]y`, in a word or before
        markup) back in the text, given back as they were: set aside, they had joined the words on
        either side into one."""
        for span in sorted(self.footnotes, key=lambda found: -found.end):
            at, written = span.end, span.payload.after
            following = self.text[at : at + 1]
            if not following or following.isspace() or following in REFERENCE_FOLLOWERS:
                continue
            self.spans.remove(span)
            for other in self.spans:
                if other.start >= at:
                    other.start += len(written)
                if other.end > at or (other.end == at and other.start >= at + len(written)):
                    other.end += len(written)
            self.text = self.text[:at] + written + self.text[at:]
            reference = written.lstrip(" ")
            start = at + len(written) - len(reference)
            self.spans.append(Span(start, start + len(reference), Markup("", "", reference), exact=True))

    def attached(self, position: int, sentence: bool) -> int | None:
        """Where the words a footnote reference at `position` follows start: its sentence's start
        when it follows the sentence's end (`sentence`: glued to it), else its word's; widened or
        narrowed until the span crosses none (markup nests); None when no word is there."""
        before = self.text[:position]
        ending = re.search(SENTENCE_END.pattern + r"\Z", before)
        if sentence and ending and before[: ending.start()].strip():
            ends = list(re.finditer(SENTENCE_END.pattern + r"\s+", before[: ending.start()]))
            start = ends[-1].end() if ends else len(before) - len(before.lstrip())
        else:
            words = list(re.finditer(r"\S+", before))
            if not words:
                return None
            start = words[-1].start()
        still_open = {id(span) for span in self.open_spans} | {id(span) for _, span, _ in self.open_tags}
        for _ in range(len(self.spans) + 1):
            moved = False
            for span in self.spans:
                if span.void:
                    continue
                end = position + 1 if id(span) in still_open else span.end
                if span.start < start < end <= position:  # it opens before and closes within: taken in
                    start, moved = span.start, True
                elif start < span.start < position < end:  # it opens within and closes after: the span is in it
                    start, moved = span.start, True
            if not moved:
                break
        return start if any(c.isalnum() for c in self.text[start:position]) else None

    def add_plain(self, content: str) -> None:
        self.text += content[1:] if self.text.endswith(" ") and content.startswith(" ") else content

    def void(self, payload: Markup, breaks: bool = False) -> None:
        self.spans.append(Span(len(self.text), len(self.text), payload, void=True, breaks=breaks))

    def opening(self, token) -> Markup:
        if token.type == "link_open":
            target, labels = self.target(token.attrs, "href")
            return Markup("[", "](" + target + ")", labels=labels)
        return Markup(token.markup, token.markup)

    def image(self, token) -> Markup:
        alt, labels = braced(token.content), ()
        # the alt text as it reads: its source (token.content) may hold escapes and emphasis marks
        said = " ".join("".join(child.content or " " for child in token.children or []).split())
        if any(c.isalnum() for c in said):
            alt, labels = "{}", self.label(said)
        target, title = self.target(token.attrs, "src")
        return Markup("![" + alt + "](" + target + ")", "", labels=labels + title)

    def target(self, attributes: dict, key: str) -> tuple[str, tuple[str, ...]]:
        """A link's or image's target as a template (`url` or `url "{}"`), and its title when
        that is a label."""
        url, title = braced(destination(attributes.get(key, ""))), attributes.get("title")
        if title and any(c.isalnum() for c in title):
            return url + ' "{}"', self.label(title)
        return url + (' "' + braced(title.replace('"', '\\"')) + '"' if title else ""), ()

    def label(self, text: str) -> tuple[str]:
        self.labels.append(text)
        return (text,)


def shortcut(label: str, source: str) -> bool:
    """Whether the inline source writes `[label]` alone, as a footnote reference is written (not
    `[label](url)` nor `[label][ref]`)."""
    return re.search(re.escape(f"[{label}]") + r"(?![(\[])", source) is not None


def written_inline(text: str, spans: list[Span], translation: Aligned, labels: dict[str, str]) -> str:
    """The translation as Markdown, its markup placed, its labels' translations (`labels`) in it."""
    out, skipping = "", 0
    for kind, payload in layout(translation.text, place(text, nest(spans), translation)):
        if kind == "text":
            out += "" if skipping else escaped(payload)
        elif kind == "void":
            out += payload.filled(labels)[0]
        elif kind == "open" and payload.verbatim is not None:
            out += payload.verbatim
            skipping += 1
        elif kind == "open":
            out += payload.filled(labels)[0]
        elif payload.verbatim is not None:
            skipping -= 1
        else:
            out += payload.filled(labels)[1]
    # a hard line break the translation put last ends nothing: Markdown would show its backslash
    return out.removesuffix(HARD_BREAK).rstrip() if out.endswith(HARD_BREAK) else out


def worded(text: str) -> bool:
    """Whether a block's text has a word to translate (a letter or a digit)."""
    return any(c.isalnum() for c in text)


@dataclass(frozen=True)
class AsWritten:
    """The translation of a block without words (an image alone): its text as it is, each
    word linked to itself."""

    text: str

    @property
    def alignment(self) -> WordAlignment:
        words = self.text.split()
        return WordAlignment(words, words, np.eye(len(words)))


def front_matter(lines: list[str]) -> int:
    """The number of lines of a YAML front matter block (`---` … `---` from the first line), 0
    when there is none: static-site generators read it, and it is left as it is."""
    if lines and lines[0].strip() == "---":
        for number, line in enumerate(lines[1:], 1):
            if line.strip() in ("---", "..."):
                return number + 1
    return 0


def footnotes_apart(token, parser, env: dict) -> list[tuple[int, int, str, list]]:
    """An inline token as blocks: (first line, last line + 1, inline source, its tokens); the token
    whole, or, where footnote definitions follow each other or a paragraph on the next lines
    (which CommonMark reads as one paragraph: the second definition had been joined to the
    first's line, and was lost), each definition apart, its lines read again in the document's
    references (`env`)."""
    lines = token.content.split("\n")
    starts = [0] + [number for number, line in enumerate(lines) if number and FOOTNOTE_LINE.match(line)]
    if len(starts) == 1:
        return [(token.map[0], token.map[1], token.content, token.children or [])]
    found = []
    for start, end in zip(starts, [*starts[1:], len(lines)]):
        content = "\n".join(lines[start:end])
        inline = parser.parseInline(content, env)[0]
        found.append((token.map[0] + start, token.map[0] + end, content, inline.children or []))
    return found


class MarkdownDocument:
    def __init__(self, data: bytes):
        from markdown_it import MarkdownIt

        self.file = decoded(data)
        self.lines = self.file.text.split("\n")
        parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
        parser.normalizeLink = lambda url: url  # the URL as written, not percent-encoded ("{id}", "Köln")
        self.blocks = []  # (first line, last line + 1, the inline source, its reader)
        self.html_blocks = []  # (first line, last line + 1, the block read as an HTML fragment)
        body, env = front_matter(self.lines), {}
        for token in parser.parse("\n".join(self.lines), env):
            if token.type == "html_block" and token.map and token.map[0] >= body:
                first, last = token.map
                if "\n".join(self.lines[first:last]) == token.content.rstrip("\n"):  # not within a list or quote
                    from .html import HtmlDocument

                    fragment = HtmlDocument(token.content.rstrip("\n"))
                    if fragment.texts():
                        self.html_blocks.append((first, last, fragment))
            if token.type == "inline" and token.map and token.content.strip() and token.map[0] >= body:
                for first, last, content, children in footnotes_apart(token, parser, env):
                    reader = InlineReader(children, content)
                    if worded(reader.text) or reader.labels:  # an image alone has a label to translate
                        self.blocks.append((first, last, content, reader))

    def labels(self) -> list[str]:
        """The alt texts and titles of the blocks' images and links, each once."""
        return list(dict.fromkeys(label for _, _, _, reader in self.blocks for label in reader.labels))

    def texts(self) -> list[str]:
        """The texts of the blocks with words, then the labels', then the HTML blocks'."""
        blocks = [reader.text for _, _, _, reader in self.blocks if worded(reader.text)]
        return blocks + self.labels() + [text for _, _, fragment in self.html_blocks for text in fragment.texts()]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        lines = list(self.lines)
        cursor: dict[int, int] = {}  # line → where the next cell of a table row is looked for
        worded_blocks = sum(worded(reader.text) for _, _, _, reader in self.blocks)
        labels = {label: found.text for label, found in zip(self.labels(), translations[worded_blocks:])}
        translated = iter(translations[:worded_blocks])
        in_html = iter(translations[worded_blocks + len(labels) :])
        for first, last, fragment in self.html_blocks:
            lines[first:last] = [fragment.written([next(in_html) for _ in fragment.texts()])] + [None] * (
                last - first - 1
            )
        for first, last, content, reader in self.blocks:
            translation = next(translated) if worded(reader.text) else AsWritten(reader.text)
            new = reader.prefix + written_inline(reader.text, reader.spans, translation, labels)
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
