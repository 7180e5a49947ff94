"""Search options on a toy decoder whose next-token distribution is fixed: each option must move
the output the way it claims."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn.runtime.constants import EOS
from attn.runtime.search import BestOfFullStep, SearchOptions, beam_search, greedy_search, repeated_ngram_ends

pytestmark = pytest.mark.unit

VOCAB = 8
SOURCE = 3


LIKES_TO_GO = {EOS: 0.1, 4: 0.6, 5: 0.2, 6: 0.1}
LIKES_TO_STOP = {EOS: 0.5, 4: 0.3, 5: 0.15, 6: 0.05}


class ToyState(BestOfFullStep):
    """Every row, every step: the same next-token distribution; uniform attention."""

    def __init__(self, rows: int, table: dict):
        self.rows, self.table = rows, table
        self.vocabulary = np.arange(VOCAB)

    def step(self, previous):
        probs = np.full((self.rows, VOCAB), 1e-9)
        for token, p in self.table.items():
            probs[:, token] = p
        return np.log(probs), np.full((self.rows, SOURCE), 1.0 / SOURCE)

    def select(self, rows):
        self.rows = len(rows)


def decode(options: SearchOptions, sentences: int = 1, max_length: int = 12, table=LIKES_TO_GO):
    search = beam_search if options.beam > 1 else greedy_search
    lengths = np.full(sentences, SOURCE)
    return search(ToyState(sentences, table), np.full(sentences, max_length), lengths, options)


def test_length_penalty_moves_lengths():
    short = decode(SearchOptions(beam=4, length_penalty=0.0))[0][0]
    long = decode(SearchOptions(beam=4, length_penalty=1.5))[0][0]
    assert len(short.tokens) == 0  # raw log-probability prefers ending at once
    assert len(long.tokens) > 3


def test_min_and_max_length():
    assert len(decode(SearchOptions(beam=1), table=LIKES_TO_STOP)[0][0].tokens) == 0
    assert len(decode(SearchOptions(beam=1, min_length=5), table=LIKES_TO_STOP)[0][0].tokens) == 5
    assert len(decode(SearchOptions(beam=3, min_length=7, length_penalty=0.0), table=LIKES_TO_STOP)[0][0].tokens) == 7
    assert len(decode(SearchOptions(beam=1), max_length=9)[0][0].tokens) == 9


@pytest.mark.parametrize("beam", [1, 4])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_no_repeat_ngram_blocks_repeats(beam, n):
    length = 3 if n == 1 else 8  # with n = 1 only three likely tokens exist
    [[best]] = decode(
        SearchOptions(beam=beam, min_length=length, no_repeat_ngram=n, length_penalty=0.0), table=LIKES_TO_STOP
    )
    tokens = best.tokens
    ngrams = [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    assert len(tokens) == length
    assert len(ngrams) == len(set(ngrams))


@given(
    st.integers(0, 5).flatmap(
        lambda length: st.lists(st.lists(st.integers(0, 3), min_size=length, max_size=length), min_size=1, max_size=4)
    ),
    st.integers(1, 4),
)
def test_the_banned_ends_are_those_of_the_n_grams_the_row_holds(histories, n):
    """Each row's banned tokens: what followed each earlier occurrence of its last n - 1 tokens, as
    the definition reads, one n-gram at a time (tokens from a vocabulary of four, so that repeats
    are common)."""
    banned = repeated_ngram_ends(np.array(histories, dtype=np.int64), n)
    for history, ends in zip(histories, banned):
        last = tuple(history[len(history) - n + 1 :]) if n > 1 else ()
        expected = [history[i + n - 1] for i in range(len(history) - n + 1) if tuple(history[i : i + n - 1]) == last]
        assert ends.tolist() == expected


def test_without_blocking_the_favourite_repeats():
    [[best]] = decode(SearchOptions(beam=1, min_length=6), table=LIKES_TO_STOP)
    assert best.tokens == [4] * 6


def test_coverage_penalty_changes_the_score_not_the_log_prob():
    plain = decode(SearchOptions(beam=1, min_length=2), table=LIKES_TO_STOP)[0][0]
    covered = decode(SearchOptions(beam=1, min_length=2, coverage_penalty=1.0), table=LIKES_TO_STOP)[0][0]
    assert plain.log_prob == pytest.approx(covered.log_prob)
    assert covered.score == pytest.approx(plain.score)  # uniform attention over 3 steps covers every position
    short = decode(SearchOptions(beam=1, coverage_penalty=1.0), table=LIKES_TO_STOP)[0][0]  # 1 step: 1/3 each
    assert short.score == pytest.approx(short.log_prob / 1.0 + 3 * np.log(1 / 3), abs=1e-6)


def test_n_best_is_sorted_and_distinct():
    hypotheses = decode(SearchOptions(beam=5, n_best=5, length_penalty=1.0))[0]
    assert len(hypotheses) == 5
    assert [h.score for h in hypotheses] == sorted((h.score for h in hypotheses), reverse=True)
    assert len({tuple(h.tokens) for h in hypotheses}) == 5


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True])
def test_a_seed_outside_numpys_range_is_a_usage_error(seed):
    """A negative seed reached numpy and was an internal error."""
    from attn.runtime.errors import UsageError
    from attn.runtime.search import check_search_value

    with pytest.raises(UsageError, match="seed"):
        check_search_value("seed", seed)


def test_a_seed_repeats_sampling_and_another_seed_differs():
    options = SearchOptions(beam=1, sample=True, seed=11, min_length=8)
    first = [h[0].tokens for h in decode(options, sentences=6)]
    again = [h[0].tokens for h in decode(options, sentences=6)]
    other = [h[0].tokens for h in decode(SearchOptions(beam=1, sample=True, seed=12, min_length=8), sentences=6)]
    assert first == again
    assert first != other
    assert first[0] != [4] * len(first[0])  # it does sample: not the argmax all the way
    unseeded = [h[0].tokens for h in decode(SearchOptions(beam=1, sample=True, min_length=8), sentences=6)]
    assert len({tuple(t) for t in unseeded}) > 1  # without a seed, each sentence draws its own


def test_a_seeded_sample_is_the_same_alone_and_in_a_batch():
    """Each sentence draws from its own generator: the server's batches mix requests.
    The toy's sentences are alike, so that any sentence of the batch must equal the one alone."""
    options = SearchOptions(beam=1, sample=True, seed=7, min_length=5)
    alone = decode(options, sentences=1)[0][0].tokens
    assert all(found[0].tokens == alone for found in decode(options, sentences=5))


def test_top_k_one_is_greedy():
    sampled = decode(SearchOptions(beam=1, sample=True, top_k=1, seed=0, min_length=4), sentences=3)
    greedy = decode(SearchOptions(beam=1, min_length=4), sentences=3)
    assert [h[0].tokens for h in sampled] == [h[0].tokens for h in greedy]


def test_top_p_zero_keeps_the_top_token_and_is_greedy():
    """At top_p 0 no token had been kept: the draw was NaN and the translation empty (a newcomer's trial)."""
    sampled = decode(SearchOptions(beam=1, sample=True, top_p=0.0, seed=0, min_length=4), sentences=3)
    greedy = decode(SearchOptions(beam=1, min_length=4), sentences=3)
    assert [h[0].tokens for h in sampled] == [h[0].tokens for h in greedy]


def test_top_p_keeps_only_the_nucleus():
    sampled = decode(SearchOptions(beam=1, sample=True, top_p=0.5, seed=3, min_length=10), sentences=4)
    assert all(set(h[0].tokens) == {4} for h in sampled)  # token 4 alone holds 0.6 ≥ 0.5
