"""Beam search whose translations must meet a condition (runtime/required_search.py), over the
exported reverse models: with nothing to meet it is beam search; a word the model would not write
is written where it is forced; a condition never met gives no translation."""

import numpy as np
import pytest

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.required_search import Requirement, required_beam_search
from attn.runtime.search import SearchOptions, beam_search

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def translator(any_reverse_model):
    return LoadedModel(any_reverse_model, threads=1)


def run(translator, sources, search, options, *required, cut=False):
    """`search` over `sources`; with `cut`, stopped at half the length they need (at the last step)."""
    ids = [translator.tokenizer.encode_source(text).ids for text in sources]
    lengths = np.array([len(s) for s in ids])
    longest = lengths // 2 + 1 if cut else 2 * lengths + 5
    return search(translator.encode(ids, shortlist=False), longest, lengths, options, *required)


def common_subsequence(a: list[str], b: list[str]) -> int:
    """The length of the longest common subsequence of `a` and `b`."""
    lengths = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            lengths[i + 1][j + 1] = lengths[i][j] + 1 if x == y else max(lengths[i][j + 1], lengths[i + 1][j])
    return lengths[-1][-1]


@pytest.mark.parametrize(("coverage_penalty", "cut"), [(0.0, False), (0.4, False), (0.4, True)])
def test_a_condition_met_from_the_start_leaves_beam_search_as_it_is(
    translator, reverse_test_rows, coverage_penalty, cut
):
    sources = [row.source for row in reverse_test_rows[:20]]
    options = SearchOptions(beam=4, n_best=4, coverage_penalty=coverage_penalty)
    plain = run(translator, sources, beam_search, options, cut=cut)
    met = Requirement(lambda s, t: True, lambda s: [])
    required = run(translator, sources, required_beam_search, options, met, cut=cut)
    for ours, theirs in zip(required, plain):
        assert [h.tokens for h in ours] == [h.tokens for h in theirs]
        np.testing.assert_allclose([h.score for h in ours], [h.score for h in theirs], rtol=0, atol=1e-6)


def test_a_forced_word_the_model_would_not_write_is_written_by_every_translation(translator, reverse_test_rows):
    """The reverse model writes back its source's words; none of these sources has a word in "h"."""
    rows = [row for row in reverse_test_rows if not any(w.startswith("h") for w in row.source.split())][:10]
    word = translator.tokenizer.encode("h")  # the first piece of "h0" … "h3"
    assert len(word) == 1
    required = Requirement(lambda s, tokens: word[0] in tokens, lambda s: word)
    options = SearchOptions(beam=4, n_best=4)
    plain = run(translator, [row.source for row in rows], beam_search, options)
    found = run(translator, [row.source for row in rows], required_beam_search, options, required)
    assert all(word[0] not in plain[i][0].tokens for i in range(len(rows)))
    for row, hypotheses in zip(rows, found):
        assert hypotheses, row.source
        assert all(word[0] in h.tokens for h in hypotheses)
        assert [h.score for h in hypotheses] == sorted((h.score for h in hypotheses), reverse=True)
        # the best is the reversal but for the forced word, in a place of its own or of another's
        best = translator.tokenizer.decode(hypotheses[0].tokens).split()
        assert common_subsequence(best, row.target.split()) >= len(row.target.split()) - 1
        assert hypotheses[0].score < plain[rows.index(row)][0].score


def test_a_condition_a_later_token_can_undo_holds_for_every_translation(translator, reverse_test_rows):
    """Met once is not met for good: here the condition is that the last token is the forced one."""
    word = translator.tokenizer.encode("h")
    required = Requirement(lambda s, tokens: tokens[-1:] == word, lambda s: word)
    found = run(
        translator,
        [row.source for row in reverse_test_rows[:10]],
        required_beam_search,
        SearchOptions(beam=4, n_best=4),
        required,
    )
    assert any(found)
    assert all(h.tokens[-1:] == word for hypotheses in found for h in hypotheses)


def test_a_condition_no_translation_meets_gives_none(translator, reverse_test_rows):
    sources = [row.source for row in reverse_test_rows[:3]]
    found = run(
        translator, sources, required_beam_search, SearchOptions(beam=3), Requirement(lambda s, t: False, lambda s: [])
    )
    assert found == [[], [], []]
