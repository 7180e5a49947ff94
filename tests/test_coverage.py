"""Content the translation may have left out, told by attention (runtime/coverage.py, --check)."""

from __future__ import annotations

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.chunking import join_alignments
from attn.runtime.coverage import LOW_MASS, low_runs, received_attention, uncovered_runs

from .test_cli import attn


@pytest.mark.unit
def test_runs_of_long_words_that_received_almost_nothing():
    words = ["He", "accused", "the", "followers", "of", "wanting", "a", "coup", "today"]
    low, high = LOW_MASS / 2, LOW_MASS * 2
    masses = np.array([high, high, low, low, low, low, low, high, high])
    # "of" and "a" are too short to count or to end a run: "the followers of wanting" is one run
    assert low_runs(masses, words) == [[2, 3, 5]]
    assert low_runs(masses, words, run=4) == [] and low_runs(masses, words, chars=1) == [[2, 3, 4, 5, 6]]
    alone = np.array([high, low, high, high, high, high, high, high, high])
    assert low_runs(alone, words) == []  # one word alone is not reported


@pytest.mark.unit
def test_received_attention_sums_columns_across_parts():
    first = WordAlignment(["a", "b"], ["x", "y"], np.array([[1.0, 0.0], [0.5, 0.5]], np.float32))
    second = WordAlignment(["c"], ["z"], np.array([[1.0]], np.float32))
    np.testing.assert_allclose(received_attention(first), [1.5, 0.5])
    np.testing.assert_allclose(received_attention(join_alignments([first, second])), [1.5, 0.5, 1.0])
    words = ["keeps", "every", "word", "here"]
    assert uncovered_runs(WordAlignment(words, words, np.eye(4, dtype=np.float32))) == []


@pytest.mark.system
def test_a_reference_cut_short_is_flagged_and_the_whole_one_is_not():
    """Forced to write a reference without its second half, the shipped en-de attends to that half
    of the source hardly at all; the whole reference covers every word."""
    from .conftest import installed_translator

    model = installed_translator(("en", "de"))
    source = "The committee approved the new budget on Tuesday after a long debate about rising energy prices."
    whole = "Der Ausschuss hat den neuen Haushalt am Dienstag nach einer langen Debatte über steigende Energiepreise gebilligt."
    cut = "Der Ausschuss hat den neuen Haushalt am Dienstag gebilligt."
    assert uncovered_runs(model.force(source, whole).alignment) == []
    runs = uncovered_runs(model.force(source, cut).alignment)
    flagged = {model.force(source, cut).alignment.source_words[i] for run in runs for i in run}
    assert {"debate", "rising"} <= flagged and not {"committee", "budget"} & flagged


@pytest.mark.system
def test_check_names_what_may_be_left_out_and_jsonl_carries_coverage():
    import json

    plain = attn("translate", "--check", "she is eating a green apple")
    assert plain.stderr == b""
    record = json.loads(attn("translate", "-f", "jsonl", "she is eating a green apple").stdout)
    assert len(record["coverage"]) == len(record["source_words"]) and record["uncovered"] == []
    assert sum(record["coverage"]) == pytest.approx(len(record["words"]), abs=0.01)
