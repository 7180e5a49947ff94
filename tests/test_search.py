"""Search over the exported reverse models, RNN and Transformer through the same runtime code:
accuracy, greedy = beam 1, batched = unbatched, n-best."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.number_choice import SCORE_MARGIN
from attn.runtime.search import (
    BestOfFullStep,
    Hypothesis,
    SearchOptions,
    banned_columns,
    beam_search,
    best_allowed,
    best_of_groups,
    constrain,
    greedy_search,
    largest_per_row,
    most_banned,
)

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def translator(any_reverse_model):
    return LoadedModel(any_reverse_model, threads=1)


def texts(rows):
    return [row.source for row in rows]


@pytest.mark.parametrize("beam", [1, 5])
def test_exported_model_reverses(translator, reverse_test_rows, beam):
    outputs = translator.translate(texts(reverse_test_rows), SearchOptions(beam=beam))
    correct = sum(out[0].text == row.target for out, row in zip(outputs, reverse_test_rows))
    assert correct / len(reverse_test_rows) >= 0.9


def run_search(translator, sources, search, options):
    ids = [translator.tokenizer.encode_source(text).ids for text in sources]
    lengths = np.array([len(s) for s in ids])
    return search(translator.encode(ids), 2 * lengths + 5, lengths, options)


def test_greedy_equals_beam_size_one(translator, reverse_test_rows):
    sources = texts(reverse_test_rows[:40])
    greedy = run_search(translator, sources, greedy_search, SearchOptions(beam=1))
    beam = run_search(translator, sources, beam_search, SearchOptions(beam=1))
    for g, b in zip(greedy, beam):
        assert g[0].tokens == b[0].tokens
        assert g[0].score == pytest.approx(b[0].score, abs=1e-5)
        np.testing.assert_allclose(g[0].attention, b[0].attention, atol=1e-6)


@pytest.mark.parametrize("beam", [1, 5])
def test_batched_equals_unbatched(translator, reverse_test_rows, beam):
    sources = texts(reverse_test_rows[:30])
    options = SearchOptions(beam=beam, n_best=beam)
    batched = translator.translate(sources, options, batch_size=16)
    alone = [translator.translate([source], options, batch_size=1)[0] for source in sources]
    for together, single in zip(batched, alone):
        assert [t.text for t in together] == [t.text for t in single]
        np.testing.assert_allclose([t.score for t in together], [t.score for t in single], atol=1e-4)


def test_n_best_is_sorted_and_distinct(translator, reverse_test_rows):
    for hypotheses in translator.translate(texts(reverse_test_rows[:20]), SearchOptions(beam=5, n_best=5)):
        scores = [h.score for h in hypotheses]
        assert len(hypotheses) == 5
        assert scores == sorted(scores, reverse=True)
        assert len({tuple(h.tokens) for h in hypotheses}) == 5


def spelled_out(tokenizer, tokens: list[int]) -> list[int]:
    """The same text in single-character pieces (byte-level BPE has every one of them)."""
    ids = {piece: i for i, piece in enumerate(tokenizer.pieces)}
    return [ids[character] for token in tokens for character in tokenizer.pieces[token]]


def test_n_best_shows_each_text_once(translator, monkeypatch):
    """Two spellings in pieces of one output are one line of an n-best list, the better one;
    the list goes on to the next different text."""
    source, best, other = "a0 b1 c2", "c2 b1 a0", "c2 b1"
    tokens = translator.tokenizer.encode(best)
    spellings = [tokens, spelled_out(translator.tokenizer, tokens), translator.tokenizer.encode(other)]
    assert len({tuple(s) for s in spellings}) == 3
    source_length = len(translator.tokenizer.encode_source(source).ids)
    found = [
        Hypothesis(s, -1.0 - rank, -1.0 - rank, np.full((len(s) + 1, source_length), 1 / source_length))
        for rank, s in enumerate(spellings)
    ]
    monkeypatch.setattr(
        translator, "search", lambda sources, options, stop=None, untranslatable=None, required=None: [found]
    )
    [three] = translator.translate([source], SearchOptions(beam=3, n_best=3))
    assert [(t.text, t.score) for t in three] == [(best, -1.0), (other, -3.0)]
    [two] = translator.translate([source], SearchOptions(beam=3, n_best=2))
    assert [t.text for t in two] == [best, other]
    [one] = translator.translate([source], SearchOptions(beam=3, n_best=1))
    assert [t.text for t in one] == [best]


def test_a_search_hands_over_its_beams(translator, reverse_test_rows):
    """Asked for 2 of a beam of 5, search hands over all 5 hypotheses for the texts to be told
    apart; asked for 1, those the number choice may take (runtime/number_choice.py)."""
    ids = [translator.tokenizer.encode_source(reverse_test_rows[0].source).ids]
    assert len(translator.search(ids, SearchOptions(beam=5, n_best=2))[0]) == 5
    one = translator.search(ids, SearchOptions(beam=5, n_best=1))[0]
    assert len(one) >= 1 and all(h.score >= one[0].score - SCORE_MARGIN for h in one)
    every = translator.search(ids, SearchOptions(beam=5, n_best=2))[0]
    assert [h.tokens for h in one] == [h.tokens for h in every[: len(one)]]
    assert len(translator.search(ids, SearchOptions(beam=1))[0]) == 1


def test_attention_rows_are_distributions_over_the_source(translator, reverse_test_rows):
    source = reverse_test_rows[0].source
    [best] = translator.translate([source], SearchOptions(beam=5))[0][:1]
    pieces = translator.tokenizer.encode_source(source)
    assert best.attention.shape == (len(best.tokens) + 1, len(pieces.ids))
    np.testing.assert_allclose(best.attention.sum(axis=1), 1.0, atol=1e-5)


def test_blank_inputs_give_empty_outputs_in_place(translator):
    outputs = translator.translate(["a0 b1", "", "   ", "c2 d3"], SearchOptions(beam=2))
    assert [o[0].text for o in outputs][1:3] == ["", ""]
    assert outputs[0][0].text and outputs[3][0].text


def full_order(values: np.ndarray) -> np.ndarray:
    """Each row's positions, best first, equal values by lower position first: the order a
    selection over every candidate gives."""
    return np.lexsort((np.broadcast_to(np.arange(values.shape[1]), values.shape), -values), axis=-1)


# few distinct values and -inf among them: ties everywhere, at the edge of the selection too
tied_values = st.one_of(st.just(-np.inf), st.integers(-8, 0).map(float))


@given(arrays(np.float32, st.tuples(st.integers(1, 5), st.integers(1, 40)), elements=tied_values), st.integers(1, 12))
def test_largest_per_row_is_the_full_order_cut(log_probs, width):
    columns, values = largest_per_row(log_probs, width)
    expected = full_order(log_probs)[:, :width]
    np.testing.assert_array_equal(columns, expected)
    np.testing.assert_array_equal(values, np.take_along_axis(log_probs, expected, axis=1))


@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 40), st.data())
def test_best_of_groups_from_each_rows_best_equals_a_selection_over_all(groups, k, count, data):
    """A group's 2k best of its k·C candidates come out the same, and in the same order, from
    each row's 2k best (what the device sends back) as from all k·C; only which of the -inf
    candidates (dead rows, banned tokens: never finished, never in an output) fill the end may differ."""
    scores = data.draw(arrays(np.float64, groups * k, elements=tied_values))
    log_probs = data.draw(arrays(np.float32, (groups * k, count), elements=tied_values))
    width = min(2 * k, k * count)
    columns, values = largest_per_row(log_probs, 2 * k)
    positions, best = best_of_groups(columns, scores[:, None] + values, count, k, width)
    candidates = (scores[:, None] + log_probs).reshape(groups, k * count)
    expected = full_order(candidates)[:, :width]
    np.testing.assert_array_equal(best, np.take_along_axis(candidates, expected, axis=1))
    finite = np.isfinite(best)
    np.testing.assert_array_equal(positions[finite], expected[finite])


class FixedStep(BestOfFullStep):
    """A decoder whose one step gives the log-probabilities it holds."""

    def __init__(self, log_probs: np.ndarray):
        self.log_probs, self.vocabulary = log_probs, np.arange(log_probs.shape[1])

    def step(self, previous):
        return self.log_probs.copy(), np.ones((len(self.log_probs), 1))


@given(
    arrays(np.float32, st.tuples(st.integers(1, 5), st.integers(6, 60)), elements=tied_values),
    st.integers(0, 3),
    st.integers(1, 8),
    st.integers(0, 2),
    st.data(),
)
def test_best_allowed_equals_the_best_of_the_constrained_step(log_probs, min_length, width, n, data):
    """PAD, BOS, EOS before min_length and n-gram repeats are banned from a few of each row's best
    (what the device sends back) as from the whole row (constrain, then the best: the host's
    step_best)."""
    step = data.draw(st.integers(0, 6))  # every row holds as many tokens: the rows are at one step
    token = st.integers(0, log_probs.shape[1] - 1)
    histories = [data.draw(st.lists(token, min_size=step, max_size=step)) for _ in log_probs]
    options = SearchOptions(min_length=min_length, no_repeat_ngram=n)
    banned = banned_columns(np.arange(log_probs.shape[1]), lambda: histories, step=step, options=options)
    columns, values = best_allowed(*largest_per_row(log_probs, width + most_banned(banned)), width, banned)
    expected_columns, expected_values, _ = FixedStep(log_probs).step_best(
        np.zeros(len(log_probs), dtype=np.int64), width, banned
    )
    constrained = log_probs.copy()
    constrain(constrained, banned)
    np.testing.assert_array_equal(expected_values, largest_per_row(constrained, width)[1])
    np.testing.assert_array_equal(values, expected_values)
    finite = np.isfinite(values)  # the columns of banned (-inf) candidates are never used
    np.testing.assert_array_equal(columns[finite], expected_columns[finite])


@pytest.mark.parametrize("beam", [1, 5])
def test_parallel_batches_give_the_same_output_in_order(translator, reverse_test_rows, beam):
    """threads=3 decodes batches side by side (smaller ones, so each thread has one); the outputs,
    scores and input order are those of one thread."""
    parallel = LoadedModel(translator.folder, threads=3)
    assert parallel.workers == 3
    sources = texts(reverse_test_rows[:40])
    options = SearchOptions(beam=beam, n_best=beam)
    for batch_size in (4, 32):
        side_by_side = parallel.translate(sources, options, batch_size=batch_size)
        one_by_one = translator.translate(sources, options, batch_size=batch_size)
        for together, single in zip(side_by_side, one_by_one, strict=True):
            assert [t.text for t in together] == [t.text for t in single]
            np.testing.assert_allclose([t.score for t in together], [t.score for t in single], atol=1e-4)
