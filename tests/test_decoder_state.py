"""Decoder states stay where the sessions run (IO binding): reordered there by take_rows.onnx,
which gathers like numpy; each row's best candidates are picked there by best_columns.onnx, in
search's order. Both are the graphs export/graphs/runtime_graphs.py writes."""

import numpy as np
import onnxruntime
import pytest

from attn.export.graphs.runtime_graphs import GRAPHS
from attn.runtime.decoder_state import Device, sentence_groups
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.search import SearchOptions, beam_search, largest_per_row

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("path", list(GRAPHS), ids=lambda path: path.name)
def test_the_shipped_runtime_graphs_are_those_export_writes(path):
    assert path.read_bytes() == GRAPHS[path]().SerializeToString()


@pytest.mark.parametrize("seed", range(20))
def test_best_columns_on_the_device_pick_as_search_does(seed):
    """Many equal values (a few levels, -inf among them): the same columns, in the same order,
    as largest_per_row, which sorts by value and then by column."""
    rng = np.random.default_rng(seed)
    rows, count = int(rng.integers(1, 9)), int(rng.integers(1, 400))
    log_probs = rng.integers(-6, 1, size=(rows, count)).astype(np.float32)
    log_probs[rng.random((rows, count)) < 0.2] = -np.inf
    width = int(rng.integers(1, count + 1))
    device = Device("cpu")
    columns, values = device.largest(device.put(log_probs), width)
    expected_columns, expected_values = largest_per_row(log_probs, width)
    np.testing.assert_array_equal(columns, expected_columns)
    np.testing.assert_array_equal(values, expected_values)


@pytest.mark.parametrize("shape", [(5,), (5, 3), (5, 1, 7), (5, 4, 2, 3)])
def test_take_gathers_rows_like_numpy_on_the_device(shape):
    device = Device("cpu")
    data = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    rows = np.array([4, 0, 0, 2])
    taken = device.take(device.put(data), rows)
    assert isinstance(taken, onnxruntime.OrtValue) and taken.device_name().lower() == "cpu"
    np.testing.assert_array_equal(taken.numpy(), data[rows])


def test_states_stay_ortvalues_through_steps_and_reorderings(any_reverse_model):
    translator = LoadedModel(any_reverse_model, threads=1)
    sources = [translator.tokenizer.encode_source(text).ids for text in ("a0 b1 c2", "d3 e0")]
    state = translator.encode(sources)
    assert all(isinstance(value, onnxruntime.OrtValue) for value in state.carried.values())
    found = beam_search(state, np.array([8, 8]), np.array([len(s) for s in sources]), SearchOptions(beam=3))
    assert all(isinstance(value, onnxruntime.OrtValue) for value in state.carried.values())
    # each sentence searched alone finds the same (how well the toy model learned is not this test's subject)
    alone = [
        beam_search(translator.encode([source]), np.array([8]), np.array([len(source)]), SearchOptions(beam=3))[0]
        for source in sources
    ]
    assert [hypotheses[0].tokens for hypotheses in found] == [hypotheses[0].tokens for hypotheses in alone]


def test_sentence_groups_are_read_off_rows_in_equal_groups():
    assert sentence_groups(np.array([4, 4, 7, 7, 9, 9])).tolist() == [4, 7, 9]
    assert sentence_groups(np.array([0, 1, 2])).tolist() == [0, 1, 2]
    assert sentence_groups(np.array([], dtype=np.int64)).tolist() == []
    with pytest.raises(ValueError, match="equal groups"):
        sentence_groups(np.array([0, 0, 1]))
