"""runtime/condense.py's arithmetic: parts cut at sentence ends within the limit, and the salient
sentences chosen to fit it, in document order."""

import numpy as np
import pytest

from attn.runtime.condense import chosen_sentences, sentence_parts

pytestmark = pytest.mark.unit


def test_sentences_are_grouped_into_parts_within_the_limit():
    assert sentence_parts([3, 4, 2, 6, 1], limit=7) == [[0, 1], [2], [3, 4]]
    assert sentence_parts([9, 2], limit=7) == [[0], [1]]  # a longer sentence alone
    assert sentence_parts([], limit=7) == []


def test_the_most_salient_sentences_that_fit_are_chosen_in_document_order():
    salience = np.array([0.5, 3.0, 1.0, 2.0, 0.1])
    lengths = [2, 4, 3, 5, 1]
    assert chosen_sentences(salience, lengths, limit=10, lead=0) == [1, 3, 4]  # 2 and 0 no longer fit
    assert chosen_sentences(salience, lengths, limit=10, lead=1) == [0, 1, 2, 4]
    assert chosen_sentences(salience, lengths, limit=3, lead=0) == [2]
    assert chosen_sentences(np.array([1.0, 1.0]), [1, 1], limit=1, lead=0) == [0]  # a tie: the earlier
