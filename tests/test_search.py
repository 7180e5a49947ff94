"""Search over the exported reverse models, RNN and Transformer through the same runtime code:
accuracy, greedy = beam 1, batched = unbatched, n-best."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attn.runtime.search import Hypothesis, SearchOptions, beam_search, best_candidates, greedy_search
from attn.runtime.translator import Translator

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def translator(any_reverse_model):
    return Translator(any_reverse_model, threads=1)


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
    found = [Hypothesis(s, -1.0 - rank, -1.0 - rank, np.full((len(s) + 1, source_length), 1 / source_length))
             for rank, s in enumerate(spellings)]
    monkeypatch.setattr(translator, "search", lambda sources, options, stop=None: [found])
    [three] = translator.translate([source], SearchOptions(beam=3, n_best=3))
    assert [(t.text, t.score) for t in three] == [(best, -1.0), (other, -3.0)]
    [two] = translator.translate([source], SearchOptions(beam=3, n_best=2))
    assert [t.text for t in two] == [best, other]
    [one] = translator.translate([source], SearchOptions(beam=3, n_best=1))
    assert [t.text for t in one] == [best]


def test_an_n_best_search_keeps_all_its_beams(translator, reverse_test_rows):
    """Asked for 2 of a beam of 5, search hands over all 5 hypotheses for the texts to be told apart."""
    ids = [translator.tokenizer.encode_source(reverse_test_rows[0].source).ids]
    assert len(translator.search(ids, SearchOptions(beam=5, n_best=2))[0]) == 5
    assert len(translator.search(ids, SearchOptions(beam=5, n_best=1))[0]) == 1


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


@given(arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 400)),
              elements=st.one_of(st.just(-np.inf), st.floats(-30, 0).map(lambda x: round(x, 1)))),
       st.integers(1, 12))
def test_best_candidates_are_the_largest_values_best_first(candidates, width):
    width = min(width, candidates.shape[1])
    positions, values = best_candidates(candidates, width)
    np.testing.assert_array_equal(values, -np.sort(-candidates, axis=1)[:, :width])
    np.testing.assert_array_equal(np.take_along_axis(candidates, positions, axis=1), values)
    assert all(len(set(row)) == width for row in positions.tolist())


@pytest.mark.parametrize("beam", [1, 5])
def test_parallel_batches_give_the_same_output_in_order(translator, reverse_test_rows, beam):
    """threads=3 decodes batches side by side (smaller ones, so each thread has one); the outputs,
    scores and input order are those of one thread."""
    parallel = Translator(translator.folder, threads=3)
    assert parallel.workers == 3
    sources = texts(reverse_test_rows[:40])
    options = SearchOptions(beam=beam, n_best=beam)
    for batch_size in (4, 32):
        side_by_side = parallel.translate(sources, options, batch_size=batch_size)
        one_by_one = translator.translate(sources, options, batch_size=batch_size)
        for together, single in zip(side_by_side, one_by_one, strict=True):
            assert [t.text for t in together] == [t.text for t in single]
            np.testing.assert_allclose([t.score for t in together], [t.score for t in single], atol=1e-4)
