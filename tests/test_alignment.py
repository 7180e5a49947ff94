"""The piece → word merge rule on hand-made attention matrices."""

import numpy as np
import pytest

from attn.runtime.alignment import merge_to_words

pytestmark = pytest.mark.unit


def test_source_pieces_sum_and_target_pieces_average():
    # source words: "un|believ|able" (pieces 0-2), "day" (3), EOS (4)
    # target words: "un|glaub|lich" (pieces 0-2), "Tag" (3); one EOS row at the end
    attention = np.array(
        [
            [0.5, 0.2, 0.1, 0.1, 0.1],
            [0.1, 0.6, 0.1, 0.2, 0.0],
            [0.0, 0.1, 0.6, 0.1, 0.2],
            [0.0, 0.0, 0.1, 0.9, 0.0],
            [0.0, 0.0, 0.0, 0.0, 1.0],
        ]
    )
    alignment = merge_to_words(
        attention, [0, 0, 0, 1, -1], [0, 0, 0, 1], ["unbelievable", "day"], ["unglaublich", "Tag"]
    )
    first = np.array([0.8 + 0.8 + 0.7, 0.1 + 0.2 + 0.1]) / 3
    np.testing.assert_allclose(alignment.weights[0], first / first.sum(), rtol=1e-6)
    np.testing.assert_allclose(alignment.weights[1], [0.1, 0.9], rtol=1e-6)
    assert alignment.pharaoh() == "0-0 1-1"


def test_rows_sum_to_one_without_the_eos_column():
    rng = np.random.default_rng(0)
    attention = rng.dirichlet(np.ones(6), size=4)
    alignment = merge_to_words(attention, [0, 1, 1, 2, 3, -1], [0, 1, 1, 2], list("abcd"), list("xyz"))
    np.testing.assert_allclose(alignment.weights.sum(axis=1), 1.0, rtol=1e-6)


def test_crossing_links_give_a_reversed_diagonal():
    attention = np.eye(4)[::-1][:, :]  # target i looks at source 3 - i
    attention = np.hstack([attention, np.zeros((4, 1))])
    alignment = merge_to_words(attention, [0, 1, 2, 3, -1], [0, 1, 2, 3], list("abcd"), list("wxyz"))
    assert alignment.hard_links() == [(3, 0), (2, 1), (1, 2), (0, 3)]


@pytest.mark.parametrize("source_words, target_words", [([], ["x"]), (["a"], [])])
def test_empty_sides_give_empty_alignments(source_words, target_words):
    alignment = merge_to_words(np.zeros((1, 1)), [-1], [], source_words, target_words)
    assert alignment.weights.shape == (len(target_words), len(source_words))
    assert alignment.pharaoh() == ""


def test_a_words_punctuation_pieces_give_it_no_link():
    # source words: "bought" (0), "yesterday." (pieces 1, 2 "."), EOS (3)
    # target words: "gestern" (0), "gekauft." (pieces 1, 2 "."); its "." attends to the source's "."
    attention = np.array(
        [
            [0.1, 0.8, 0.1, 0.0],
            [0.7, 0.1, 0.2, 0.0],
            [0.0, 0.1, 0.9, 0.0],
        ]
    )
    words = ([0, 1, 1, -1], [0, 1, 1], ["bought", "yesterday."], ["gestern", "gekauft."])
    marked = merge_to_words(attention, *words, [False, False, True, False], [False, False, True])
    assert marked.pharaoh() == "1-0 0-1"
    np.testing.assert_allclose(marked.weights[1], [0.875, 0.125], rtol=1e-6)  # 0.7 : 0.1, no "." on either side
    assert merge_to_words(attention, *words).pharaoh() == "1-0 1-1"  # the "." had won it


def test_a_word_of_punctuation_alone_keeps_its_link():
    attention = np.array([[0.9, 0.1, 0.0], [0.2, 0.8, 0.0]])
    alignment = merge_to_words(
        attention, [0, 1, -1], [0, 1], ["Hi", "!"], ["Salut", "!"], [False, True, False], [False, True]
    )
    assert alignment.pharaoh() == "0-0 1-1"
