"""A word a translation doubles, written once (runtime/stutter.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.stutter import undoubled

pytestmark = pytest.mark.unit


def written_once(translation: str, source: str = "a b") -> WordAlignment:
    words, source_words = translation.split(), source.split()
    weights = np.eye(len(words), len(source_words), dtype=np.float32) + 0.5
    return undoubled(WordAlignment(source_words, words, weights / weights.sum(axis=1, keepdims=True)))


@pytest.mark.parametrize(
    "translation, expected",
    [
        ("3,2 Millionen Euro Euro Euro.", "3,2 Millionen Euro."),  # the last one's point kept
        ("Still still here", "Still here"),  # the first one's capital kept
        ("does not mean mean that", "does not mean that"),
        # as written: a short word German, French and English double rightly, a number, punctuation between
        ("die die Zeitung liest, nous nous sommes", "die die Zeitung liest, nous nous sommes"),
        ("10 10 Punkte", "10 10 Punkte"),
        ("Euro, Euro.", "Euro, Euro."),
    ],
)
def test_a_word_written_twice_in_a_row_is_written_once(translation, expected):
    assert " ".join(written_once(translation).target_words) == expected


def test_nothing_changes_where_the_source_doubles_a_word_and_the_rows_still_sum_to_one():
    assert written_once("sehr sehr gut", "very very good").target_words == ["sehr", "sehr", "gut"]
    assert written_once("Oh nein nein!", "Oh no no!").target_words == ["Oh", "nein", "nein!"]  # a short word's
    alignment = written_once("mean mean that")
    assert alignment.weights.shape == (2, 2)
    np.testing.assert_allclose(alignment.weights.sum(axis=1), 1, rtol=1e-6)
