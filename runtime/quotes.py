"""Quotation marks read apart from the words they quote, and put back on the translation.

A word glued to an opening mark reads as pieces the models seldom saw at a word's start, and they
copied it rather than translate it ('"Heute noch gibt es…' → '"Heute there are…', '"Si plus
personne ne fumait…' → '"Si more no one smoke…'); a closing mark was often lost. So the model
reads a sentence without its quotation marks (`unquoted`), and each quotation is then put
back around the target words aligned to the words it held (`quoted`), as inline markup is
(runtime/markup.py `place`: nested as in the source, ending on a letter where the source's does),
a quotation of one word around the one target word that attended to it most; a quotation whose
words the model left out is not put around other words. A sentence too long to be read at once
keeps its marks as written (its parts are translated apart). Measured on the dev rows holding
quotation marks: docs/studies/QUOTES.md.

Straight marks ("…") stay straight; typographic ones are written as the target language writes
them: „…“ in German, « … » in French (a no-break space inside), and straight in English, as its
text is written more often than not; a quotation inside another in typographic marks (single,
‘…’ ‚…‘ ‹…›, or double) in the target's inner marks, '…' in English, ‚…‘ in German, “…” in
French, and one inside that in its outer marks again. A mark is one
when it stands at a word's edge, and an opening mark pairs with the next closing one; a lone
opening mark (a quotation that goes on past the sentence) quotes up to the sentence's end, a lone
closing one from its start. Single marks are quotation marks only in pairs (’ is an apostrophe
too: "the students’ books"), the straight one never (it is one more often than not: "don't"), and
a mark right after a digit that closes nothing is none (an inch: 'a 15" screen').
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from .alignment import WordAlignment
from .constants import SHIPPED_DIRECTIONS
from .markup import Span, edged_as, layout, nest, offsets, place
from .words import join_words, word_spans

# The directions whose models read quotations apart (docs/studies/QUOTES.md)
READ = SHIPPED_DIRECTIONS
STRAIGHT = '"'
# A target word holds a quoted word it did not attend to most when its link to it is at least this
# share of its strongest: chosen on the dev rows with quotations (docs/studies/QUOTES.md)
NEAR_STRONGEST = 0.6
# An opening mark → the marks that close it (German opens with „ and closes with “, or quotes »…«)
CLOSED_BY = {STRAIGHT: STRAIGHT, "“": "”“" + STRAIGHT, "„": "“”" + STRAIGHT, "«": "»", "»": "«"}  # a keyboard's " too
# The single marks a quotation inside another opens with ("He told me, ‘Stay calm,’"), and what
# closes them; only in pairs: "’" is an apostrophe too ("the students’ books")
CLOSED_BY |= {"‘": "’", "‚": "‘", "‹": "›", "›": "‹"}  # German's ‚…‘ (its ’ an elision: "Hab’ keine")
SINGLE = frozenset("‘’‚‹›")
POSSESSIVE = re.compile(r" [^\W\d_]*[a-zà-ÿ]")  # a word in small letters after "s’": "boys’ toys"
CLOSING = frozenset("”“«»’‘›‹" + STRAIGHT)
# Each target language's typographic marks, opening and closing; English text is written with
# straight ones more often than not (so are the references of the dev sets)
TYPOGRAPHIC = {"en": (STRAIGHT, STRAIGHT), "de": ("„", "“"), "fr": ("«\u00a0", "\u00a0»")}
INNER = {"en": ("'", "'"), "de": ("‚", "‘"), "fr": ("“", "”")}  # a quotation's inside another's
# What may stand right before an opening mark, besides a space (another opening one: "“‘"), and
# right after a closing one (another closing one: "’”")
BEFORE_OPENING = "([{/-–—" + "".join(CLOSED_BY)
AFTER_CLOSING = ".,;:!?…)]}/-–—" + "".join(CLOSING)
SENTENCE_MARKS = "?!"  # what ends a quotation that is a sentence of its own
COMPOUND = re.compile(r"-\w")  # a hyphen and a word right after a closing mark
COMMA_OUTSIDE = frozenset({"de", "fr"})  # languages that write a quotation's comma after its mark


@dataclass(frozen=True)
class Marks:
    """A quotation's marks: typographic or straight, whether the sentence opens it and closes it (a
    quotation that goes on past the sentence does one of them), and whether they are single."""

    typographic: bool
    opened: bool = True
    closed: bool = True
    single: bool = False


@dataclass(frozen=True)
class Quotations:
    """A sentence without its quotation marks (`text`), and its quotations as spans over `text`'s
    characters (runtime/markup.py `nest`'s forest), each with its Marks as payload."""

    text: str
    spans: list[Span]


@dataclass(frozen=True)
class _Mark:
    start: int  # the mark's first character in the sentence, and past its last (the spaces a
    end: int  # French mark holds inside, "« " and " »", are its own)
    character: str
    opens: bool
    closes: bool


def unquoted(sentence: str, kept: list[tuple[int, int]] = ()) -> Quotations:
    """`sentence` without its quotation marks, and its quotations; a mark within the character
    ranges `kept` (code, URLs: runtime/set_aside.py) is no quotation mark."""
    marks = [mark for mark in _marks(sentence) if not any(start <= mark.start < end for start, end in kept)]
    pairs: list[tuple[_Mark | None, _Mark | None]] = []
    open_marks: list[_Mark] = []
    for mark in marks:
        # a single mark left open inside ("‚Heimat“", an apostrophe "‘90s") does not keep the
        # quotation around it from closing: it is no mark
        while (
            mark.closes
            and len(open_marks) > 1
            and open_marks[-1].character in SINGLE
            and mark.character not in CLOSED_BY[open_marks[-1].character]
            and mark.character in CLOSED_BY[open_marks[-2].character]
        ):
            open_marks.pop()
        if mark.closes and open_marks and mark.character in CLOSED_BY[open_marks[-1].character]:
            pairs.append((open_marks.pop(), mark))
        elif mark.opens:
            open_marks.append(mark)
        elif (
            mark.closes
            and not open_marks
            and not sentence[: mark.start][-1:].isdigit()
            and mark.character not in SINGLE
        ):
            pairs.append((None, mark))
    pairs += [(mark, None) for mark in open_marks if mark.character not in SINGLE]
    # a quotation that is part of a compound stays as it is: '»Wise2«-Präfix' read without its
    # marks had become one word, "Wise2-Präfix"
    pairs = [pair for pair in pairs if not (pair[1] and COMPOUND.match(sentence, pair[1].end))]
    pairs.sort(key=lambda pair: pair[0].start if pair[0] else -1)  # the outer first where two hold the same words
    removed = sorted((mark.start, mark.end) for pair in pairs for mark in pair if mark is not None)
    if not removed:
        return Quotations(sentence, [])
    text, position, new_offset = "", 0, {}
    for start, end in removed + [(len(sentence), len(sentence))]:
        text += sentence[position:start]
        new_offset[start] = new_offset[end] = len(text)
        position = end
    text, shift = _spaced(text)
    spans = [
        Span(
            shift(new_offset[opening.end]) if opening else 0,
            shift(new_offset[closing.start]) if closing else len(text),
            Marks(
                (opening or closing).character != STRAIGHT,
                opening is not None,
                closing is not None,
                (opening or closing).character in SINGLE,
            ),
        )
        for opening, closing in pairs
    ]
    return Quotations(text, nest([span for span in spans if span.end > span.start]))


def _marks(sentence: str) -> list[_Mark]:
    """The quotation marks of `sentence` that stand at a word's edge, in order: a single one only
    where no digit follows an opening one ("‘90s") and no "s" and a word in small letters stand
    around a closing one ("the boys’ toys"): those are apostrophes."""
    marks = []
    for index, character in enumerate(sentence):
        if character not in CLOSED_BY and character not in CLOSING:
            continue
        start, end = index, index + 1
        if character == "«" and sentence[end : end + 1].isspace():  # French writes a space inside its marks
            end += len(sentence[end:]) - len(sentence[end:].lstrip())
        if character == "»" and sentence[start - 1 : start].isspace():
            start -= len(sentence[:start]) - len(sentence[:start].rstrip())
        before = sentence[start - 1] if start else " "
        after = sentence[end] if end < len(sentence) else " "
        if end > index + 1 and not (before.isspace() or before in BEFORE_OPENING):  # "a « b": no French mark
            start, end, before, after = index, index + 1, sentence[index - 1] if index else " ", sentence[index + 1]
        if start < index and not (after.isspace() or after in AFTER_CLOSING):
            start, end, before = index, index + 1, sentence[index - 1]
        opens = character in CLOSED_BY and (before.isspace() or before in BEFORE_OPENING) and not after.isspace()
        closes = character in CLOSING and not before.isspace() and (after.isspace() or after in AFTER_CLOSING)
        if character in SINGLE:
            opens = opens and not after.isdigit()  # "the ‘90s"
            closes = closes and not (before == "s" and POSSESSIVE.match(sentence, end))  # "the boys’ toys"
        if opens or closes:
            marks.append(_Mark(start, end, character, opens, closes))
    return marks


def _spaced(text: str):
    """`text` with its runs of spaces made one and no space at its edges (a mark taken out of
    '« Oui » , dit-il' leaves two), and the function from an offset in `text` to one in it."""
    kept = [
        index
        for index, character in enumerate(text)
        if not character.isspace() or (0 < index < len(text) - 1 and not text[index - 1].isspace())
    ]
    while kept and text[kept[-1]].isspace():
        kept.pop()
    while kept and text[kept[0]].isspace():
        kept.pop(0)
    new = {old: new for new, old in enumerate(kept)}

    def shift(offset: int) -> int:
        while offset < len(text) and offset not in new:
            offset += 1
        return new[offset] if offset in new else len(kept)

    return "".join(text[index] for index in kept), shift


@dataclass(frozen=True)
class _Placed:
    text: str
    alignment: WordAlignment


def quoted(alignment: WordAlignment, quotations: Quotations, source: str, target: str) -> WordAlignment:
    """`alignment`, of a translation of `quotations.text` from `source` into `target`, with the
    quotations' marks put on its target words (module docstring): a quotation of one word goes on
    the target word that attended to it most of those placement gives it ("dann Abbrechen" for
    "Cancel" had been quoted whole), and one whose words no target word is linked to (the model
    left them out; a word quoted alone may be linked by a near tie) is written without marks, not
    put around another word. As it is when its source words are not those of `quotations.text` or
    it has no target words."""
    if not quotations.spans or not alignment.target_words:
        return alignment
    source_text = quotations.text
    source_words = [source_text[start:end] for start, end in word_spans(source_text, source)]
    if source_words != list(alignment.source_words):
        return alignment
    words = list(alignment.target_words)
    text = join_words(words, target)
    target_offsets = offsets(text, words)
    linked = {source_word for source_word, _ in alignment.hard_links()}  # what some target word attended to most
    source_offsets = offsets(source_text, source_words)
    held = {  # each quotation's marks → (the source words it holds, its text)
        id(span.payload): (
            [i for i, (start, end) in enumerate(source_offsets) if start < span.end and end > span.start],
            source_text[span.start : span.end],
        )
        for span in _each(quotations.spans)
    }
    # A word quoted alone that no target word attended to most is held by the target word that
    # attended to it most where that word gave it nearly its strongest link (NEAR_STRONGEST):
    # "Speichern" attended to "Save" and to "to" alike, the tie went to "to", and "Save" had lost
    # its marks; a word the model left out is linked to some word only weakly. Not a word that holds
    # another quotation already ("Strg-Taste" for "Ctrl" "Shift" "Esc" had come out '"Strg-Taste"""').
    quoted_words = {word for own, _ in held.values() for word in own}
    holding = {t for t, strongest in enumerate(alignment.weights.argmax(axis=1)) if strongest in quoted_words}
    held_alone = {}
    for own, _ in held.values():
        if len(own) == 1 and own[0] not in linked:
            best = int(np.argmax(alignment.weights[:, own[0]]))
            if (
                best not in holding
                and alignment.weights[best, own[0]] >= NEAR_STRONGEST * alignment.weights[best].max()
            ):
                held_alone[own[0]] = best
                holding.add(best)
    linked |= held_alone.keys()
    placed = place(source_text, quotations.spans, _Placed(text, alignment))
    for span in _each(placed):
        own, quoted_text = held[id(span.payload)]
        inside = [t for t, (start, end) in enumerate(target_offsets) if start < span.end and end > span.start]
        if len(own) == 1 and own[0] in held_alone:
            best = held_alone[own[0]]
        elif len(own) == 1 and len(inside) > 1:
            best = max(inside, key=lambda t: float(alignment.weights[t, own[0]]))
        else:
            span.end = _closed_at(quoted_text, words, target_offsets, inside, span.end)
            continue
        span.start, span.end = edged_as(quoted_text, text, *target_offsets[best])
    events = layout(text, placed)
    ends = [end for _, end in target_offsets]
    depth = _depths(quotations.spans)  # a quotation's marks → how many quotations it is inside
    inserted: dict[int, list[tuple[int, str, bool]]] = {}  # word → (offset in it, mark, closes), in order
    position = 0
    for kind, payload in events:
        if kind == "text":
            position += len(payload)
            continue
        if not any(word in linked for word in held[id(payload)][0]):
            continue
        closes = kind == "close"
        word = next((i for i, end in enumerate(ends) if position < end or closes and position == end), len(words) - 1)
        start = ends[word] - len(words[word])
        inner = (payload.single or payload.typographic) and depth[id(payload)] % 2 == 1
        opening, closing = INNER[target] if inner else TYPOGRAPHIC[target] if payload.typographic else (STRAIGHT,) * 2
        if not closes and payload.opened:
            inserted.setdefault(word, []).append((max(position - start, 0), opening, False))
        if closes and payload.closed:
            inserted.setdefault(word, []).append((position - start, closing, True))
    for word, marks in inserted.items():
        words[word] = _marked(words[word], marks, target)
    return replace(alignment, target_words=words)


def _closed_at(quoted: str, words: list[str], target_offsets: list, inside: list[int], end: int) -> int:
    """Where a quotation that ends a sentence of its own ("Wer ist da?") closes in the translation:
    right after the same mark at the end of the last of its target words (`inside`) that has it,
    a comma after it aside (the mark had gone after the next word: '"Who's there? he" asked.'); at
    `end` otherwise."""
    mark = quoted.rstrip()[-1:]
    if mark not in SENTENCE_MARKS:
        return end
    for t in reversed(inside):  # the last: "„Kommst du mit? Wann fahren wir?“" holds two
        ended = words[t].rstrip(",;:")  # "toll!“," written "great!,"
        if ended.endswith(mark):
            return target_offsets[t][0] + len(ended)
    return end


def _depths(spans: list[Span], depth: int = 0) -> dict[int, int]:
    """id of each quotation's Marks → how many quotations it stands inside."""
    found = {}
    for span in spans:
        found[id(span.payload)] = depth
        found |= _depths(span.children, depth + 1)
    return found


def _each(spans: list[Span]):
    """Every span of a forest, parents before their children."""
    for span in spans:
        yield span
        yield from _each(span.children)


def _marked(word: str, marks: list[tuple[int, str, bool]], target: str) -> str:
    """`word` with each (offset, mark, whether it closes) inserted, in order at one offset; the
    closing marks after a comma go before it where the target language writes them so ('50%",',
    "ruhig‘“,")."""
    pieces, position = [], 0
    for offset, mark, closes in marks:
        before = word[position:offset]
        position = offset
        if closes and target in COMMA_OUTSIDE and "".join(pieces + [before]).endswith(","):
            written = "".join(pieces + [before])
            pieces = [written[:-1], mark, ","]
        else:
            pieces += [before, mark]
    return "".join(pieces) + word[position:]
