"""Quotations read without their marks and put back on the translation (runtime/quotes.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.quotes import quoted, unquoted


def quotations_of(sentence: str) -> tuple[str, list]:
    """(the sentence as read, [(each quotation's text, typographic, [its inner quotations' texts])])."""
    found = unquoted(sentence)
    text = found.text
    return text, [
        (
            text[span.start : span.end],
            span.payload.typographic,
            [text[inner.start : inner.end] for inner in span.children],
        )
        for span in found.spans
    ]


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, read, quotations",
    [
        ('"Heute gibt es Regen", sagt er.', "Heute gibt es Regen, sagt er.", [("Heute gibt es Regen", False, [])]),
        ("« Nous sommes prêts », a-t-il dit.", "Nous sommes prêts, a-t-il dit.", [("Nous sommes prêts", True, [])]),
        ("Il a dit : « Oui. »", "Il a dit : Oui.", [("Oui.", True, [])]),
        ("He said “hello”.", "He said hello.", [("hello", True, [])]),
        (
            "Er sagte: „Wir sind »sehr« müde“.",
            "Er sagte: Wir sind sehr müde.",
            [("Wir sind sehr müde", True, ["sehr"])],
        ),
        ('the so-called "smart" meter', "the so-called smart meter", [("smart", False, [])]),
        # a quotation that goes on past the sentence: up to its end, or from its start
        ('"I am tired.', "I am tired.", [("I am tired.", False, [])]),
        ('going home," he said.', "going home, he said.", [("going home,", False, [])]),
        # a quotation inside another, in single marks or the other double ones; an apostrophe is none
        (
            "“He told me, ‘Stay calm,’” she said.",
            "He told me, Stay calm, she said.",
            [("He told me, Stay calm,", True, ["Stay calm,"])],
        ),
        ("The students’ books", "The students’ books", []),
        # found by a review: apostrophes that look like single marks, a single mark left open inside
        (
            "He said “the ‘80s and the boys’ toys” yesterday.",
            "He said the ‘80s and the boys’ toys yesterday.",
            [("the ‘80s and the boys’ toys", True, [])],
        ),
        (
            "„Wir nennen es ‚Heimat“, sagte er.",
            "Wir nennen es ‚Heimat, sagte er.",
            [("Wir nennen es ‚Heimat", True, [])],
        ),
        (
            "„Er sagte ‚Hab’ keine Angst‘“, erzählte sie.",
            "Er sagte Hab’ keine Angst, erzählte sie.",
            [("Er sagte Hab’ keine Angst", True, ["Hab’ keine Angst"])],
        ),
        ("„‚Faust‘“ ist ein Drama.", "Faust ist ein Drama.", [("Faust", True, ["Faust"])]),
        # no quotation mark: an inch, a mark inside a word, a mark alone
        ('a 15" screen', 'a 15" screen', []),
        ('x " y', 'x " y', []),
    ],
)
def test_quotations_are_read_apart_from_their_words(sentence, read, quotations):
    """'"Heute noch gibt es…' had come out '"Heute there are…': a word glued to a mark was copied."""
    assert quotations_of(sentence) == (read, quotations)


@pytest.mark.unit
def test_a_mark_inside_code_is_no_quotation_mark():
    sentence = 'Run `echo "hi"` now.'
    code = sentence.index("`"), sentence.rindex("`") + 1
    assert unquoted(sentence, [code]).text == sentence


def diagonal(source: str, target: str) -> WordAlignment:
    """An alignment linking the i-th target word to the i-th source word."""
    source_words, target_words = source.split(), target.split()
    return WordAlignment(source_words, target_words, np.eye(len(target_words), len(source_words), dtype=np.float32))


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, translation, target, written",
    [
        ('"Heute regnet es", sagt er.', "Today it rains, he says.", "en", '"Today it rains", he says.'),
        ("“It rains today,” he says.", "Es regnet heute, sagt er.", "de", "„Es regnet heute“, sagt er."),
        ("„Es regnet heute“, sagt er.", "It rains today, he says.", "en", '"It rains today", he says.'),
        ("“It rains today.”", "Il pleut aujourd'hui.", "fr", "«\u00a0Il pleut aujourd'hui.\u00a0»"),
        ('the "smart" meter', "der intelligente Zähler", "de", 'der "intelligente" Zähler'),
        # a quotation that goes on past the sentence: no mark where it goes on
        ('"I am tired.', "Ich bin müde.", "de", '"Ich bin müde.'),
        # a quotation inside another in the target's inner marks, the commas after them all
        (
            "“He told me, ‘Stay calm,’” she said.",
            "Er sagte mir, Bleib ruhig, sagte sie.",
            "de",
            "„Er sagte mir, ‚Bleib ruhig‘“, sagte sie.",
        ),
        (
            "« Il dit “Reste calme” », a-t-elle dit.",
            "He says Stay calm, she said.",
            "en",
            "\"He says 'Stay calm'\", she said.",
        ),
        ('going home," he said.', "nach Hause, sagte er.", "de", 'nach Hause", sagte er.'),
        # a quotation that is a question of its own closes after the translation's question mark
        ("„Wer ist da?“, fragte er.", "Who's there? he asked.", "en", '"Who\'s there?" he asked.'),
        ("„Das ist toll!“, rief sie.", "That's great!, she called.", "en", '"That\'s great!", she called.'),
        # the outer marks around a quotation that holds nothing else; the outer ones again a level further in
        ("„‚Faust‘“ ist ein Drama.", "Faust is a drama.", "en", "\"'Faust'\" is a drama."),
        ("“A ‘b “c” b’ a” x", "A b c b a x", "de", "„A ‚b „c“ b‘ a“ x"),
    ],
)
def test_quotation_marks_go_on_the_words_aligned_to_theirs(sentence, translation, target, written):
    """Straight marks stay straight, typographic ones are the target language's (straight in
    English); a comma after a closing mark in German and French."""
    quotations = unquoted(sentence)
    alignment = quoted(diagonal(quotations.text, translation), quotations, "xx", target)
    assert " ".join(alignment.target_words) == written
    assert len(alignment.target_words) == len(translation.split())


@pytest.mark.unit
def test_a_quotation_of_two_questions_closes_after_the_second():
    """It had closed after the first: '"Will you come with?" When do we go?, he asked.'."""
    quotations = unquoted("„Kommst du mit? Wann fahren wir?“, fragte er.")
    target = "Come you with? When go we? he asked.".split()
    strongest = [0, 1, 2, 3, 4, 5, 5, 6]  # "he" attends to "wir?" most
    weights = np.full((len(target), 8), 0.01, np.float32)
    weights[np.arange(len(target)), strongest] = 1.0
    alignment = quoted(WordAlignment(quotations.text.split(), target, weights), quotations, "de", "en")
    assert " ".join(alignment.target_words) == '"Come you with? When go we?" he asked.'


@pytest.mark.unit
@pytest.mark.parametrize(
    "save, marked",
    [(0.40, 'Klicken Sie auf "Speichern", um'), (0.1, "Klicken Sie auf Speichern, um")],
)
def test_a_word_quoted_alone_is_held_by_a_near_tie_not_by_a_weak_link(save, marked):
    """The word "Speichern" attended to "Save" (0.40) and to "to" (0.41) nearly alike; "to" won, and the
    quotation had been dropped as if the model had left "Save" out. A weak link alone is no hold."""
    quotations = unquoted('Click "Save" to keep.')
    weights = np.zeros((5, 4), np.float32)
    weights[[0, 1, 2], 0] = 1.0  # Klicken Sie auf ← Click
    weights[3, 1], weights[3, 2] = save, 0.41  # Speichern, ← Save / to
    weights[4, 3] = 1.0  # um ← keep.
    alignment = WordAlignment(quotations.text.split(), "Klicken Sie auf Speichern, um".split(), weights)
    assert " ".join(quoted(alignment, quotations, "en", "de").target_words) == marked


@pytest.mark.unit
def test_a_word_that_holds_a_quotation_holds_no_second_one_by_a_near_tie():
    """The word "Strg-Taste" attended most to "Ctrl" and nearly as much to "Shift": two quotations
    on one word had come out as the word with three marks after it."""
    quotations = unquoted('Use "Ctrl" "Shift" now.')
    weights = np.zeros((3, 4), np.float32)
    weights[0, 0] = 1.0  # Drücken ← Use
    weights[1, 1], weights[1, 2] = 0.45, 0.40  # Strg-Taste ← Ctrl / Shift
    weights[2, 3] = 1.0  # jetzt. ← now.
    alignment = WordAlignment(quotations.text.split(), ["Drücken", "Strg-Taste", "jetzt."], weights)
    assert " ".join(quoted(alignment, quotations, "en", "de").target_words) == 'Drücken "Strg-Taste" jetzt.'


@pytest.mark.unit
def test_the_marks_stay_off_a_part_of_a_long_sentence():
    """A part of a sentence translated in parts has other source words: left as it is."""
    quotations = unquoted('"One two three", four.')
    part = diagonal("One two", "Eins zwei")
    assert quoted(part, quotations, "en", "de") is part


@pytest.mark.system
@pytest.mark.parametrize(
    "quoting, source, target",
    [
        ('"Heute noch gibt es in Quebec viele Raucher", bedauert der Sprecher.', "de", "en"),
        ("« Nous sommes prêts », a-t-il dit.", "fr", "en"),
        ('"Research shows that regular exercise protects against cancer," he said.', "en", "de"),
        ("She called it “a disaster”.", "en", "fr"),
    ],
)
def test_the_shipped_models_read_a_quotation_as_its_words_alone(quoting, source, target):
    """The model reads a quoted sentence as the same sentence without its marks (the same
    pieces: the same words out, French marks spaced apart), and the translation holds the marks."""
    import attn.runtime as api

    quotations = unquoted(quoting)
    translation = api.translate(quoting, source=source, target=target)
    without = api.translate(quotations.text, source=source, target=target)
    marks = '"“”„«»'
    assert "".join(c for c in translation if c not in marks and not c.isspace()) == "".join(without.split())
    assert sum(c in marks for c in translation) == sum(c in marks for c in quoting)
