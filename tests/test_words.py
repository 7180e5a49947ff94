"""Words as alignments count them (runtime/words.py): whitespace, and French elision."""

import pytest

from attn.runtime.words import elided_head, join_words, word_spans

pytestmark = pytest.mark.unit


def words(text, language):
    return [text[start:end] for start, end in word_spans(text, language)]


def test_french_elision_splits_off_the_elided_word():
    text = "L'homme qu'il voit jusqu'à l’école, d'accord ? Aujourd'hui"
    assert words(text, "fr") == [
        "L'",
        "homme",
        "qu'",
        "il",
        "voit",
        "jusqu'",
        "à",
        "l’",
        "école,",
        "d'",
        "accord",
        "?",
        "Aujourd'hui",
    ]


@pytest.mark.parametrize("language", ["en", "de", ""])
def test_other_languages_split_on_whitespace_only(language):
    text = "Das Datenbankverwaltungssystem   don't l'homme"
    assert words(text, language) == text.split()


@pytest.mark.parametrize(
    "word, head", [("l'homme", 2), ("qu'il", 3), ("l'", 0), ("d'1", 0), ("aujourd'hui", 0), ("jusqu’à", 6)]
)
def test_an_elided_head_needs_a_letter_after_it(word, head):
    assert elided_head(word, "fr") == head and elided_head(word, "de") == 0


@pytest.mark.parametrize(
    "text", ["L'homme n'a pas pu ouvrir l'école.", "Il dit qu'il vient jusqu'à la gare", "d'accord, l'autre"]
)
def test_french_words_join_back_to_the_text(text):
    assert join_words(words(text, "fr"), "fr") == text
    assert join_words(text.split(), "en") == text
