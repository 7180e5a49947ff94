"""Inline markup carried across a translation by its word alignment, for every format.

A format reads a paragraph as plain text and sets its inline markup aside as spans over character
ranges (bold, a link, a run of Word formatting; a void element such as a line break is a span of
no characters). The text is translated whole, sentence by sentence, so markup never cuts a
sentence apart and never changes its words; each span is then placed on the target words aligned
to its source words (`both_ways`: each target word's strongest source word, and each source
word's strongest target word, from runtime/alignment.py's word weights):

1. A span covers the target words linked to the source words it overlaps, from the first to the
   last (one contiguous range). When none is linked to them, it covers the one target word whose
   link lies nearest to them: a span is never dropped.
2. Spans stay nested as in the source: a span is placed inside its parent's range, and siblings
   never overlap; a sibling whose words another took keeps the largest free run of its range, or,
   when none is left, wraps nothing at the place of its first word (text given back as it was,
   with none of its linked words free, wraps nothing at rule 3's place: it replaces no word). A
   span of no word (a formatted space beside a line break) wraps nothing at rule 3's place.
3. A void span goes before the target word linked to the first source word after it (at the end
   when there is none), inside its parent; a line break at the very end of a span follows it. One
   written against the word before it and not the next (a footnote's mark: "expected[1] in")
   goes right after the last target word linked to that word; where it was written against the
   punctuation that ends a clause or sentence ("1887.[1]", "1887[2],"), after (or before) that
   punctuation of the translation's clause ("wurde 1887 gebaut.[1]").
4. A span that ends on a letter or digit in the source (`<b>Save</b>,`) ends on one in the
   target too, its last word's trailing punctuation left outside; likewise at its start.
5. A span whose text the translation has as it is (a name, a number, code) goes on that text
   (the occurrence nearest the aligned words), whatever the alignment says; such spans choose
   before the others, and two in one word (`<kbd>Ctrl</kbd>+<kbd>S</kbd>`) each find their own.
   A span within a word (`H<sub>2</sub>O`) goes on the same characters of that word where the
   translation has the word as it is.

The format then rebuilds its markup from `layout`'s events: text, opening and closing spans.
"""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass, field
from typing import Protocol

from .words import WHITESPACE_WORD


@dataclass(eq=False)
class Span:
    """Markup over characters [start, end) of a text (start == end: a void element); `payload`
    is the format's own (a tag, a run's formatting) and passes through untouched; `exact`: its
    text is not to be translated (code: the format gives the element back as it was); `children`
    are the spans nested inside it, in order; `spaced`: a void span that stood between two words
    with a space on each side (`word <!-- --> word`), given a space on each side where it lands;
    `breaks`: a void span that parts words (a line break, a tab: the format put a space after it);
    `line`: one that is a line break (lines_apart)."""

    start: int
    end: int
    payload: object
    void: bool = False
    exact: bool = False
    children: list[Span] = field(default_factory=list)
    spaced: bool = False
    breaks: bool = False
    line: bool = False


class Aligned(Protocol):
    """What placement reads of a translation: its text and its word alignment's hard links."""

    text: str

    @property
    def alignment(self): ...


def nest(spans: list[Span]) -> list[Span]:
    """Spans as a forest: each span becomes a child of the smallest span that contains it
    (spans must not cross, as well-formed markup's do not). Returns the top-level spans, in order.
    At one start, a span holds the spans that end within it (the longest first, as before); a void
    span goes after them, inside the innermost (a break at a Word run's start and the run's
    formatting), but one listed before an element that opens at its place, which every format
    lists as its markup opens, stays before it (`<img> <a>Open</a>` had put the image inside the
    link)."""
    roots: list[Span] = []
    stack: list[Span] = []
    order = opening_order(spans)
    for span in order:
        span.children = []
        while stack and not (
            stack[-1].start <= span.start
            and span.end <= stack[-1].end
            and not stack[-1].void
            and not stack[-1].exact
            and not (span.breaks and span.start == stack[-1].end > stack[-1].start)
        ):  # nothing nests in a void span, nor in text given back as it was (an empty <span> beside
            # <code>); a break at a span's end follows it (`<i>tired.</i><br>` and
            # `<i>tired.<br></i>` read alike: the break stays out of the words the <i> takes)
            stack.pop()
        (stack[-1].children if stack else roots).append(span)
        stack.append(span)
    return roots


def opening_order(spans: list[Span]) -> list[Span]:
    """`spans` in the order `nest` takes them: by start; at one start the spans that are not void,
    the longest first (then as listed), each void span that is no break before the first of them
    listed after it, the others after them all."""
    starts: dict[int, list[tuple[int, Span]]] = {}
    for index, span in enumerate(spans):
        starts.setdefault(span.start, []).append((index, span))
    ordered = []
    for start in sorted(starts):
        found = starts[start]
        voids = [(index, span) for index, span in found if span.void]
        for index, span in sorted(
            (item for item in found if not item[1].void), key=lambda item: (-item[1].end, item[0])
        ):
            ordered += [void for listed, void in voids if listed < index and not void.breaks and void not in ordered]
            ordered.append(span)
        ordered += [void for _, void in voids if void not in ordered]
    return ordered


def place(source: str, roots: list[Span], translation: Aligned) -> list[Span]:
    """The spans of `source` (a forest, as `nest` makes it) placed on `translation.text`: new
    Spans with the same payloads and nesting, over the target's characters. The words are the
    alignment's own, found in order in each text; should they not be found (never expected), the
    spans are placed by relative position."""
    alignment = translation.alignment
    source_words = offsets(source, alignment.source_words)
    target_words = offsets(translation.text, alignment.target_words)
    if source_words is None or target_words is None:
        source_words, target_words, links = word_offsets(source), word_offsets(translation.text), {}
    else:
        links = both_ways(alignment)
    placer = _Placer(source, translation.text, source_words, target_words, links)
    return placer.children(roots, 0, len(target_words))


def offsets(text: str, words: list[str]) -> list[tuple[int, int]] | None:
    """(start, end) of each of `words` in `text`, found in order; None when one is missing."""
    found, position = [], 0
    for word in words:
        start = text.find(word, position)
        if start < 0:
            return None
        position = start + len(word)
        found.append((start, position))
    return found


def word_offsets(text: str) -> list[tuple[int, int]]:
    return [match.span() for match in WHITESPACE_WORD.finditer(text)]


def both_ways(alignment) -> dict[int, set[int]]:
    """Target word → the source words it is linked to: its own strongest source word (the hard
    link), and each source word whose strongest target word it is. The second way finds the
    word that a near tie took from the first ("Speichern" between "Save" 0.42 and "to" 0.43)."""
    links: dict[int, set[int]] = {}
    for row, column, part in alignment.parts:
        if part.weights.size == 0:
            continue
        for t, s in enumerate(part.weights.argmax(axis=1)):
            links.setdefault(row + t, set()).add(column + int(s))
        for s, t in enumerate(part.weights.argmax(axis=0)):
            links.setdefault(row + int(t), set()).add(column + s)
    return links


@dataclass
class _Placer:
    source: str
    target: str
    source_words: list[tuple[int, int]]  # (start, end) of each source word
    target_words: list[tuple[int, int]]
    links: dict[int, set[int]]  # target word → its source words (both_ways)

    def __post_init__(self):
        self.linked_to: dict[int, set[int]] = {}  # source word → the target words linked to it
        for target, sources in self.links.items():
            for source in sources:
                self.linked_to.setdefault(source, set()).add(target)
        self.word_ends = [end for _, end in self.source_words]

    def children(self, spans: list[Span], first: int, last: int) -> list[Span]:
        """`spans` (siblings) placed within target words [first, last), none overlapping."""
        taken: set[int] = set()
        occupied: list[tuple[int, int]] = []  # the characters of the siblings placed so far
        placed: dict[int, Span] = {}
        words = {id(span): self.covered(span) for span in spans}
        # the spans whose text the translation has choose first (rule 5), then those with the most
        # linked words; the rest take what is left
        for span in sorted(
            (s for s in spans if not s.void),
            key=lambda s: (not self.copies(s, first, last, []), -len(self.linked(words[id(s)], first, last))),
        ):
            low, high = self.range(span, words[id(span)], first, last, taken)
            copies = self.copies(span, first, last, occupied)
            start, end = self.characters(span, low, high)
            if copies:  # the same text in the translation: the copy nearest the aligned words
                low, high, start, end = min(copies, key=lambda c: (max(c[0] - high + 1, low - c[1] + 1, 0), c[0]))
            elif span.exact and not self.free_links(words[id(span)], first, last, taken):
                # text given back as it was, with no word of its own: it goes in, replacing none,
                # a word of its own between spaces
                at = self.character(self.void_position(span, first, last))
                placed[id(span)] = Span(at, at, span.payload, exact=True, spaced=True)
                continue
            taken.update(range(low, high))
            occupied.append((start, end))
            inner = self.children(span.children, low, high)
            placed[id(span)] = Span(start, end, span.payload, False, span.exact, inner)
        for span in spans:
            if span.void:
                at = self.glued_at(span, first, last)
                at = self.character(self.void_position(span, first, last)) if at is None else at
                placed[id(span)] = Span(at, at, span.payload, True, spaced=span.spaced)
        return [placed[id(span)] for span in spans]

    def copies(
        self, span: Span, first: int, last: int, occupied: list[tuple[int, int]]
    ) -> list[tuple[int, int, int, int]]:
        """Target words [low, high) and characters [start, end) of each place within words
        [first, last) where the translation has the span's source text, as whole words, and no
        sibling placed before (`occupied`: their characters) has a character of it: two spans
        in one word (`<kbd>Ctrl</kbd>+<kbd>S</kbd>`) each find their own. A span within a word
        (`H<sub>2</sub>O`) is found so in the copies of that word ("H2O" given back as it was),
        on the same characters of it (had covered the whole word); where the word is not found,
        the span's own text is (`<ph>Salesforce</ph>users` → "Salesforce-Benutzer")."""
        length = span.end - span.start
        # the word the span is part of first, then the span's own text (one text when they are one)
        for sought_start, sought_end in dict.fromkeys((self.enclosing_word(span), (span.start, span.end))):
            shift = span.start - sought_start  # where the span's characters begin in the text sought
            sought = self.source[sought_start:sought_end]
            starts = [(low, high, start + shift) for low, high, start in self.occurrences(sought, first, last)]
            found = [(low, high, start, start + length) for low, high, start in starts if free(start, length, occupied)]
            if found:
                return found
        return []

    def enclosing_word(self, span: Span) -> tuple[int, int]:
        """Source characters [start, end): `span`'s, widened at an edge where the span's text and
        the character beside it are letters or digits (`H<sub>2</sub>O`: "H2O"; not `word<b>
        bold</b>`)."""
        start, end = span.start, span.end
        if start < end and self.source[start].isalnum():
            while start > 0 and self.source[start - 1].isalnum():
                start -= 1
        if start < end and self.source[end - 1].isalnum():
            while end < len(self.source) and self.source[end].isalnum():
                end += 1
        return start, end

    def occurrences(self, text: str, first: int, last: int) -> list[tuple[int, int, int]]:
        """Target words [low, high) and the first character of each place within words
        [first, last) where the translation has `text` as whole words."""
        found: list[tuple[int, int, int]] = []
        if not text.strip() or first >= last:
            return found
        position, stop = self.target_words[first][0], self.target_words[last - 1][1]
        while (start := self.target.find(text, position, stop)) >= 0:
            end = start + len(text)
            words = [t for t in range(first, last) if self.target_words[t][0] < end and self.target_words[t][1] > start]
            whole = not (text[0].isalnum() and start > 0 and self.target[start - 1].isalnum()) and not (
                text[-1].isalnum() and end < len(self.target) and self.target[end].isalnum()
            )  # "S" is not found in "Sie"
            if words and whole:
                found.append((words[0], words[-1] + 1, start))
            position = start + 1
        return found

    def covered(self, span: Span) -> list[int]:
        """The source words that `span` overlaps."""
        first = bisect.bisect_right(self.word_ends, span.start)
        last = first
        while last < len(self.source_words) and self.source_words[last][0] < span.end:
            last += 1
        return list(range(first, last)) if span.end > span.start else []

    def free_links(self, source: list[int], first: int, last: int, taken: set[int]) -> list[int]:
        """The target words within [first, last) linked to `source` that no sibling took."""
        return [t for t in self.linked(source, first, last) if t not in taken]

    def linked(self, source: list[int], first: int, last: int) -> list[int]:
        targets = set().union(*(self.linked_to.get(s, ()) for s in source))
        return sorted(t for t in targets if first <= t < last)

    def range(self, span: Span, source: list[int], first: int, last: int, taken: set[int]) -> tuple[int, int]:
        """Target words [low, high) for a span of `source` words (rules 1 and 2)."""
        free = [t for t in range(first, last) if t not in taken]
        if not free or not source:  # no room left, or a span of no word (no characters, a space)
            at = self.void_position(span, first, last)
            return at, at
        targets = self.free_links(source, first, last, taken)
        if not targets:
            if source and self.links:
                nearest = min(free, key=lambda t: (self.distance(t, source), t))
            else:  # nothing linked at all: by relative position
                share = (span.start / max(len(self.source), 1)) if self.source else 0.0
                nearest = min(free, key=lambda t: abs(t - share * (last - first) - first))
            return nearest, nearest + 1
        low, high = min(targets), max(targets) + 1
        runs, run = [], []
        for t in range(low, high):  # the free runs of the hull; the one holding most linked words wins
            if t in taken:
                runs, run = runs + [run] if run else runs, []
            else:
                run.append(t)
        runs += [run] if run else []
        best = max(runs, key=lambda r: (sum(t in targets for t in r), -r[0]))
        return best[0], best[-1] + 1

    def distance(self, target: int, source: list[int]) -> int:
        """How far the source words linked to `target` lie from `source`'s."""
        return min((abs(linked - s) for linked in self.links.get(target, ()) for s in source), default=10**9)

    def void_position(self, span: Span, first: int, last: int) -> int:
        """The target word before which a void span (or one with no room left) goes (rule 3)."""
        following = [i for i, (start, _) in enumerate(self.source_words) if start >= span.start]
        if following and self.links:
            after = [t for t in range(first, last) if min(self.links.get(t, {-1})) >= following[0]]
            if after:
                return min(after)
        return last

    def glued_at(self, span: Span, first: int, last: int) -> int | None:
        """Where a void span written against the word before it and not the next ("expected[1]
        in", "expected[1].": a footnote's mark) goes: against the last target word linked to that
        word, before its punctuation where the source's came after the span ("erwartet[1].", but
        "müde.<img>", "entfernt,¹ weil"; by rule 3 it had gone before the next word's, "besser
        als[1] im ersten Quartal erwartet", or into the next sentence); None for another span."""
        if not span.void or span.breaks:
            return None
        word = bisect.bisect_left(self.word_ends, span.start)  # the word it ends, or ends within
        if word == len(self.source_words):
            return None
        word_start, word_end = self.source_words[word]
        rest = self.source[span.start : word_end]  # the word's closing punctuation after it
        if not word_start < span.start or any(character.isalnum() for character in rest):
            return None
        linked = self.linked([word], first, last)
        if not linked:
            return None
        beside = rest[:1] or self.source[word_start : span.start][-1:]  # the punctuation it is written against
        target = (
            self.clause_end(max(linked), last, beside) if beside and beside in SENTENCE_PUNCTUATION else max(linked)
        )
        start, end = self.target_words[target]
        return start + len(self.target[start:end].rstrip(SENTENCE_PUNCTUATION)) if rest else end

    def clause_end(self, word: int, last: int, mark: str) -> int:
        """The target word that ends the clause or sentence of target word `word` (before `last`),
        where it ends with `mark` (the punctuation a footnote's mark was written against: "1887.[1]"
        put into German had kept it on "1887" and not the verb after it, "1887[1] gebaut."); `word`
        where the first target word from it that ends with punctuation ends with other."""
        for target in range(word, last):
            start, end = self.target_words[target]
            ending = self.target[start:end].rstrip(CLOSING)
            if ending and ending[-1] in SENTENCE_PUNCTUATION:
                return target if ending[-1] == mark else word
        return word

    def character(self, word: int) -> int:
        """The character offset of target word `word`'s start (the text's end past the last)."""
        return self.target_words[word][0] if word < len(self.target_words) else len(self.target)

    def characters(self, span: Span, low: int, high: int) -> tuple[int, int]:
        """Character range of target words [low, high), less the punctuation the source span
        leaves out of its first and last words (rule 4)."""
        if low >= high:
            at = self.character(low)
            return at, at
        start, end = self.target_words[low][0], self.target_words[high - 1][1]
        return edged_as(self.source[span.start : span.end], self.target, start, end)


def free(start: int, length: int, occupied: list[tuple[int, int]]) -> bool:
    """Whether characters [start, start + length) overlap none of the `occupied` ranges."""
    return not any(start < other_end and other_start < start + length for other_start, other_end in occupied)


SENTENCE_PUNCTUATION = ".,;:!?…"  # what a word's end may hold after its letters, outside its marks
CLOSING = "\"'”’»)]"  # what may close a clause after its punctuation ('said "yes."')


def edged_as(inside: str, target: str, start: int, end: int) -> tuple[int, int]:
    """Target characters [start, end) less the punctuation at an edge where the source's text
    `inside` has a letter or digit (rule 4: `<b>Save</b>,` ends on a letter in the target too);
    not a currency's sign, which is the amount's (`<span>$19.99</span>` is `<span>19,99 $</span>`)."""
    if inside.strip() and inside.rstrip()[-1].isalnum():
        while end > start + 1 and left_at_edge(target[end - 1]):
            end -= 1
    if inside.strip() and inside.lstrip()[0].isalnum():
        while start < end - 1 and left_at_edge(target[start]):
            start += 1
    return start, end


def left_at_edge(character: str) -> bool:
    """Whether rule 4 leaves `character` out at a span's edge: neither a letter or digit nor a
    currency's sign."""
    return not character.isalnum() and unicodedata.category(character) != "Sc"


def lines_apart(text: str, spans: list[Span]) -> str:
    """`text` with the space a line break left (a span that is a `line`, read as a space after it)
    made a line break where a capital or a digit follows: "Opening hours<br>Monday to Friday" (a
    heading, an address) is two lines, translated apart (runtime/text_layout.py); before a small letter
    the break wraps a sentence, read whole. The same length: the spans stay where they are."""
    for span in spans:
        if span.line and span.start > 0:
            space = span.start if text[span.start : span.start + 1] == " " else span.start - 1
            following = text[space + 1 : space + 2]
            if text[space] == " " and (following.isupper() or following.isdigit()):
                text = text[:space] + "\n" + text[space + 1 :]
    return text


def unspaced_at_breaks(events: list[tuple[str, object]], breaks: set[int]) -> list[tuple[str, object]]:
    """Layout events (layout) with no space against a break (a void event whose payload's id is
    in `breaks`), and a line translated apart (lines_apart: "\n") ending at its break, not on a line
    of its own: the break parts the words itself (Word had "werden. <w:br/>Versuchen", "Name:
    <w:tab/>John")."""

    def at_break(index: int) -> bool:
        return 0 <= index < len(events) and events[index][0] == "void" and id(events[index][1]) in breaks

    kept = []
    for index, (kind, payload) in enumerate(events):
        if kind == "text":
            payload = payload.rstrip(" \n") if at_break(index + 1) else payload
            payload = (payload.lstrip(" \n") if at_break(index - 1) else payload).replace("\n", " ")
            if not payload:
                continue
        kept.append((kind, payload))
    return kept


def layout(text: str, roots: list[Span]) -> list[tuple[str, object]]:
    """`text` with its spans as a sequence of events: ("text", str), ("open", payload),
    ("close", payload), ("void", payload), well nested, every span once (a span reaching past its
    parent is cut at the parent's end)."""
    events: list[tuple[str, object]] = []
    position = 0

    def text_to(offset: int) -> None:
        nonlocal position
        if offset > position:
            events.append(("text", text[position:offset]))
            position = offset

    def emit(spans: list[Span], end: int) -> None:
        for span in sorted(spans, key=lambda s: (s.start, not s.void, s.end)):
            text_to(min(span.start, end))
            alone = span.spaced and span.start == span.end  # between two words, as it stood
            if (
                alone
                and not span.void
                and text[position - 1 : position].strip()
                and not text[position : position + 1].strip()
            ):
                events.append(("text", " "))  # after a word, before a space or the end: not glued to it
            if span.void:
                events.append(("void", span.payload))
            else:
                events.append(("open", span.payload))
                emit(span.children, min(span.end, end))
                events.append(("close", span.payload))
            if alone and text[position - 1 : position] in ("", " ") and text[position : position + 1].strip():
                events.append(("text", " "))  # before a word: not glued to it
        text_to(end)

    emit(roots, len(text))
    return events
