"""Inline markup placed by the word alignment (runtime/markup.py), rule by rule, on hand-made
alignments; the same on the shipped model's HTML is in tests/test_html_markup.py."""

from dataclasses import dataclass

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.markup import Span, layout, nest, place

pytestmark = pytest.mark.unit


@dataclass
class Aligned:
    text: str
    alignment: WordAlignment


def aligned(source: str, target: str, links: list[tuple[int, int]]) -> Aligned:
    """A translation whose target word t attends only to source word s for each (s, t)."""
    weights = np.full((len(target.split()), len(source.split())), 0.01, np.float32)
    for s, t in links:
        weights[t, s] = 1.0
    return Aligned(target, WordAlignment(source.split(), target.split(), weights / weights.sum(1, keepdims=True)))


def marked(translation: Aligned, source: str, spans: list[Span]) -> str:
    """The translation with each span written as <name>…</name> (<name/> when void)."""
    out = ""
    for kind, payload in layout(translation.text, place(source, nest(spans), translation)):
        out += {"text": "{}", "open": "<{}>", "close": "</{}>", "void": "<{}/>"}[kind].format(payload)
    return out


SOURCE = "the red car is old"
TARGET = "das Auto rot ist alt"  # red ↔ rot and car ↔ Auto swap places


def span(source: str, words: str, name: str, **kind) -> Span:
    start = source.index(words)
    return Span(start, start + len(words), name, **kind)


def test_a_span_covers_the_target_words_aligned_to_its_words():
    translation = aligned(SOURCE, TARGET, [(0, 0), (2, 1), (1, 2), (3, 3), (4, 4)])
    assert marked(translation, SOURCE, [span(SOURCE, "red", "b")]) == "das Auto <b>rot</b> ist alt"
    assert marked(translation, SOURCE, [span(SOURCE, "red car", "b")]) == "das <b>Auto rot</b> ist alt"


def test_a_span_keeps_a_price_s_sign_where_the_target_writes_it_after_the_amount():
    """`Price: <span>$19.99</span> per month` had become `Kurs: <span>19,99</span> $ pro Monat`:
    rule 4 left the sign out with the punctuation; it leaves out punctuation only."""
    source, target = "Price: $19.99 per month", "Kurs: 19,99 $ pro Monat"
    translation = aligned(source, target, [(0, 0), (1, 1), (1, 2), (2, 3), (3, 4)])
    assert marked(translation, source, [span(source, "$19.99", "span")]) == "Kurs: <span>19,99 $</span> pro Monat"
    source, target = "Click Save, then Close", "Klicken Sie auf Speichern, dann Schließen"
    translation = aligned(source, target, [(0, 0), (0, 1), (0, 2), (1, 3), (2, 4), (3, 5)])
    assert marked(translation, source, [span(source, "Save", "b")]) == (
        "Klicken Sie auf <b>Speichern</b>, dann Schließen"
    )


def test_nesting_is_kept_and_siblings_never_overlap():
    translation = aligned(SOURCE, TARGET, [(0, 0), (2, 1), (1, 2), (3, 3), (4, 4)])
    spans = [span(SOURCE, "the red car", "a"), span(SOURCE, "red", "b"), span(SOURCE, "car", "i")]
    assert marked(translation, SOURCE, spans) == "<a>das <i>Auto</i> <b>rot</b></a> ist alt"
    # two siblings that want the same word: the one with more linked words keeps it
    crossing = aligned("a b c", "x y", [(0, 0), (1, 0), (2, 1)])
    out = marked(crossing, "a b c", [Span(0, 3, "b"), Span(4, 5, "i")])
    assert out == "<b>x</b> <i>y</i>"


def test_a_span_whose_words_nothing_is_linked_to_is_kept_on_the_nearest_word():
    # every target row points at source word 0 or 2; "b" (word 1) has no row of its own, but its
    # strongest target word (the column's argmax) is found both ways: a tie goes to the first
    translation = aligned("a b c", "x y z", [(0, 0), (0, 1), (2, 2)])
    out = marked(translation, "a b c", [Span(2, 3, "b")])
    assert out.count("<b>") == 1 and out.count("</b>") == 1


def test_void_spans_go_before_the_word_aligned_to_their_next_word():
    translation = aligned(SOURCE, TARGET, [(0, 0), (2, 1), (1, 2), (3, 3), (4, 4)])
    before_is = Span(SOURCE.index("is"), SOURCE.index("is"), "br", void=True)
    at_end = Span(len(SOURCE), len(SOURCE), "img", void=True)
    assert marked(translation, SOURCE, [before_is, at_end]) == "das Auto rot <br/>ist alt<img/>"


def test_a_void_span_written_against_its_word_follows_that_words_translation():
    """A footnote's mark ("expected[1] in") had gone before the word of the one after it: "besser
    als[1] im ersten Quartal erwartet"."""
    source, target = "better than expected in the quarter", "besser als im Quartal erwartet"
    translation = aligned(source, target, [(0, 0), (1, 1), (3, 2), (5, 3), (2, 4)])
    mark = Span(source.index(" in"), source.index(" in"), "ref", void=True)
    assert marked(translation, source, [mark]) == "besser als im Quartal erwartet<ref/>"
    spaced = Span(source.index("in"), source.index("in"), "img", void=True)  # before a word: rule 3
    assert marked(translation, source, [spaced]) == "besser als <img/>im Quartal erwartet"
    # before the sentence's point: before the translation's, not into the next sentence
    source, target = "better than expected. Costs rose.", "besser als erwartet. Kosten stiegen."
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
    mark = Span(source.index("."), source.index("."), "img", void=True)
    assert marked(translation, source, [mark]) == "besser als erwartet<img/>. Kosten stiegen."


def test_a_footnotes_mark_against_a_clauses_punctuation_goes_to_the_translations_clause_end():
    """ "It was built in 1887.<sup>1</sup>" had come out "Es wurde 1887<sup>1</sup> gebaut." (the
    mark against "1887", whose German verb comes after it); against a comma, before the
    translation's comma; where the clause ends with other punctuation, on the word as before."""
    source, target = "It was built in 1887. It is old.", "Es wurde 1887 gebaut. Es ist alt."
    translation = aligned(source, target, [(0, 0), (1, 1), (4, 2), (2, 3), (5, 4), (6, 5), (7, 6)])
    after_point = Span(source.index(" It is"), source.index(" It is"), "ref", void=True)
    assert marked(translation, source, [after_point]) == "Es wurde 1887 gebaut.<ref/> Es ist alt."
    source, target = "built in 1887, and old", "1887 gebaut, und alt"
    translation = aligned(source, target, [(2, 0), (0, 1), (3, 2), (4, 3)])
    before_comma = Span(source.index(","), source.index(","), "ref", void=True)
    assert marked(translation, source, [before_comma]) == "1887 gebaut<ref/>, und alt"
    other = aligned(source, "1887 gebaut; und alt", [(2, 0), (0, 1), (3, 2), (4, 3)])
    assert marked(other, source, [before_comma]) == "1887<ref/> gebaut; und alt"


def test_punctuation_left_out_of_a_span_is_left_out_in_the_target():
    source, target = "Click Save, then close.", "Klicken Speichern, dann schließen."
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2), (3, 3)])
    assert marked(translation, source, [span(source, "Save", "b")]) == "Klicken <b>Speichern</b>, dann schließen."
    assert marked(translation, source, [span(source, "Save,", "b")]) == "Klicken <b>Speichern,</b> dann schließen."


def test_text_not_to_translate_is_placed_where_the_translation_copied_it():
    source, target = "run ls -l now", "jetzt ls -l ausführen"
    translation = aligned(source, target, [(3, 0), (0, 1), (2, 2), (1, 3)])  # a misleading alignment
    out = marked(translation, source, [span(source, "ls -l", "code", exact=True)])
    assert out == "jetzt <code>ls -l</code> ausführen"


def test_every_span_comes_back_once_whatever_the_alignment():
    rng = np.random.default_rng(0)
    source = "one two three four five six seven"
    target = "eins zwei drei vier fünf"
    for _ in range(200):
        weights = rng.random((5, 7)).astype(np.float32)
        translation = Aligned(target, WordAlignment(source.split(), target.split(), weights / weights.sum(1)[:, None]))
        spans = [
            Span(0, 13, "a"),
            Span(4, 7, "b"),
            Span(8, 13, "c"),
            Span(14, 14, "br", void=True),
            Span(19, 27, "d"),
            Span(0, 0, "empty"),
        ]
        events = layout(target, place(source, nest(spans), translation))
        assert sorted(p for kind, p in events if kind in ("open", "void")) == sorted(s.payload for s in spans)
        assert "".join(p for kind, p in events if kind == "text") == target
        stack = []
        for kind, payload in events:  # well nested, and b, c inside a
            if kind == "open":
                assert payload not in ("b", "c") or stack == ["a"]
                stack.append(payload)
            elif kind == "close":
                assert stack.pop() == payload
        assert not stack


def test_text_not_to_translate_is_found_as_whole_words_only():
    source, target = "press S now", "drücken Sie S jetzt"
    translation = aligned(source, target, [(0, 0), (0, 1), (1, 2), (2, 3)])
    assert marked(translation, source, [span(source, "S", "kbd", exact=True)]) == "drücken Sie <kbd>S</kbd> jetzt"


def test_two_spans_in_one_word_each_find_their_own_text():
    """`<kbd>Ctrl</kbd>+<kbd>S</kbd>`: the first took the word "Ctrl+S", the second found no free
    word and went over "Verwenden", which the element given back as it was replaced."""
    source, target = "Use Ctrl+S to save.", "Verwenden Sie Ctrl+S, um zu speichern."
    translation = aligned(source, target, [(0, 0), (0, 1), (1, 2), (2, 3), (2, 4), (3, 5)])
    spans = [span(source, "Ctrl", "kbd", exact=True), Span(9, 10, "kbd", exact=True)]
    assert marked(translation, source, spans) == "Verwenden Sie <kbd>Ctrl</kbd>+<kbd>S</kbd>, um zu speichern."


def test_a_span_within_a_word_the_translation_copied_keeps_its_characters():
    """`H<sub>2</sub>O` (a chemical formula, a Word run's subscript): the word given back as it
    was keeps the span on its "2"; it had covered the whole word ("<sub>H2O</sub>"). Two in one
    word each keep their own; a word the translation changed is covered whole, as before."""
    source, target = "water is H2SO4 not H2O", "Wasser ist H2SO4 nicht H2O"
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
    subscripts = [Span(10, 11, "sub"), Span(13, 14, "sub"), Span(20, 21, "sub")]
    assert marked(translation, source, subscripts) == "Wasser ist H<sub>2</sub>SO<sub>4</sub> nicht H<sub>2</sub>O"
    source, target = "I am unhappy", "ich bin unglücklich"
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2)])
    assert marked(translation, source, [span(source, "un", "b")]) == "ich bin <b>unglücklich</b>"
    source, target = "Salesforceusers can log in", "Salesforce-Benutzer können sich anmelden"  # markup glued to a word
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 3), (3, 3)])
    assert (
        marked(translation, source, [Span(0, 10, "ph", exact=True)])
        == "<ph>Salesforce</ph>-Benutzer können sich anmelden"
    )
    source, target = "Anna Schmidt came", "Anna Schmidt kam"  # a span of a space is part of no word
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2)])
    assert marked(translation, source, [Span(4, 5, "b")]) == "Anna <b></b>Schmidt kam"


def test_text_given_back_as_it_was_without_a_word_of_its_own_replaces_none():
    """Both keys are linked to "Taste" and neither is in the translation: the first takes the
    word; the second, given back as it was, went over the nearest free word and replaced it."""
    source, target = "press F5 or F6 now", "jetzt Taste drücken"
    translation = aligned(source, target, [(4, 0), (1, 1), (0, 2)])
    translation.alignment.weights[1, 3] = 0.9  # F6's strongest target word is "Taste" too
    spans = [span(source, "F5", "kbd", exact=True), span(source, "F6", "kbd", exact=True)]
    # rule 3's place, a word of its own: no target word is linked only to words after F6 ("jetzt"
    # is also "or"'s), so at the end, after a space
    assert marked(translation, source, spans) == "jetzt <kbd>Taste</kbd> drücken <kbd></kbd>"
    early = aligned(source, "Taste jetzt drücken", [(1, 0), (4, 1), (0, 2)])
    early.alignment.weights[0, 3] = 0.9
    assert marked(early, source, spans) == "<kbd>Taste</kbd> <kbd></kbd> jetzt drücken"  # before a word


def test_a_span_whose_text_the_translation_has_chooses_before_one_placed_by_links():
    """`<em>Do not</em> delete the <span>/etc/hosts</span> file`: the em's linked words spread over
    the whole German sentence ("Löschen … nicht") and took the path, which then went elsewhere."""
    source, target = "Do not delete the /etc/hosts file.", "Löschen Sie die Datei /etc/hosts nicht."
    translation = aligned(source, target, [(2, 0), (0, 1), (3, 2), (5, 3), (4, 4), (1, 5)])
    spans = [span(source, "Do not", "em"), span(source, "/etc/hosts", "span")]
    out = marked(translation, source, spans)
    assert "<span>/etc/hosts</span>" in out and out.count("<em>") == 1


def test_a_void_span_at_a_spans_end_stays_out_of_it():
    """`<i>I am tired.</i><br>Let us go`: the break was nested in the <i>, and written inside it,
    before the space, wherever the next sentence went."""
    source, target = "I am tired. Let us go", "Ich bin müde. Gehen wir"
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2), (5, 3), (4, 4)])
    spans = [span(source, "I am tired.", "i"), Span(11, 11, "br", void=True, breaks=True)]
    assert marked(translation, source, spans) == "<i>Ich bin müde.</i> <br/>Gehen wir"
    # an image at a link's end is the link's: it stays in it
    linked = [span(source, "I am tired.", "a"), Span(11, 11, "img", void=True)]
    assert marked(translation, source, linked) == "<a>Ich bin müde.<img/></a> Gehen wir"


def test_a_void_span_before_an_element_at_its_place_stays_before_it():
    """`<img> <a>Open</a>` had come back as `<a><img> Öffnen</a>`: the image inside the link. One
    listed after the element opened is inside it (`<a><img> Open</a>`)."""
    translation = aligned("Open", "Öffnen", [(0, 0)])
    assert marked(translation, "Open", [Span(0, 0, "img", void=True), Span(0, 4, "a")]) == "<img/><a>Öffnen</a>"
    assert marked(translation, "Open", [Span(0, 4, "a"), Span(0, 0, "img", void=True)]) == "<a><img/>Öffnen</a>"


def test_a_span_of_no_word_takes_none():
    """A Word run's formatting over the space beside a line break (`<i>tired.<br/></i>Let`) put
    the next sentence's first word in italics, the nearest word to a span of no word."""
    source, target = "I am tired. Let us go", "Ich bin müde. Gehen wir"
    translation = aligned(source, target, [(0, 0), (1, 1), (2, 2), (5, 3), (4, 4)])
    spans = [span(source, "I am tired.", "i"), Span(11, 11, "br", void=True, breaks=True), Span(11, 12, "u")]
    assert marked(translation, source, spans) == "<i>Ich bin müde.</i> <u><br/></u>Gehen wir"
