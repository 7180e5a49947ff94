"""Binding a graph's inputs as constants (runtime/bound_graph.py): the same outputs as feeding them,
what the graph declared for them, and a clear error for anything else."""

import numpy as np
import onnx
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper

from attn.runtime.bound_graph import DeclaredInput, GraphBytesError, MissingInputError, with_constant_inputs
from attn.runtime.constants import BOS, EOS

from .conftest import installed_translator

WIDTH, COLUMNS = 6, 5


def affine_graph() -> bytes:
    """y = x · weight + bias, with weight (WIDTH, columns) and bias (columns,) fed as inputs."""
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "weight"], ["product"]), helper.make_node("Add", ["product", "bias"], ["y"])],
        "affine",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", WIDTH]),
            helper.make_tensor_value_info("weight", TensorProto.FLOAT, [WIDTH, "columns"]),
            helper.make_tensor_value_info("bias", TensorProto.FLOAT, ["columns"]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", "columns"])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def run(model: bytes, feeds: dict[str, np.ndarray]) -> np.ndarray:
    return onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


@pytest.mark.unit
def test_bound_inputs_give_the_outputs_of_fed_ones():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, WIDTH)).astype(np.float32)
    constants = {
        "weight": rng.standard_normal((WIDTH, COLUMNS)).astype(np.float32),
        "bias": rng.standard_normal(COLUMNS).astype(np.float32),
    }
    bound, declared = with_constant_inputs(affine_graph(), constants)
    model = onnx.load_from_string(bound)
    onnx.checker.check_model(model)
    assert [i.name for i in model.graph.input] == ["x"]
    assert declared == {
        "weight": DeclaredInput(TensorProto.FLOAT, (WIDTH, "columns")),
        "bias": DeclaredInput(TensorProto.FLOAT, ("columns",)),
    }
    np.testing.assert_array_equal(run(bound, {"x": x}), run(affine_graph(), {"x": x, **constants}))


@pytest.mark.unit
def test_an_input_the_graph_lacks_is_refused():
    with pytest.raises(MissingInputError, match="scale"):
        with_constant_inputs(affine_graph(), {"scale": np.ones(COLUMNS, np.float32)})


@pytest.mark.unit
def test_an_array_of_a_type_onnx_lacks_is_refused():
    with pytest.raises(GraphBytesError, match="complex"):
        with_constant_inputs(affine_graph(), {"bias": np.ones(COLUMNS, np.complex64)})


@pytest.mark.unit
@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200))
def test_any_bytes_either_bind_or_raise_graph_bytes_error(data):
    try:
        with_constant_inputs(data, {"bias": np.ones(COLUMNS, np.float32)})
    except GraphBytesError:
        pass


@pytest.mark.unit
def test_an_input_named_in_bytes_that_are_not_utf8_is_no_match():
    value_info = (
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [1]).SerializeToString().replace(b"\x01x", b"\x01\xff")
    )
    graph = b"\x5a" + bytes([len(value_info)]) + value_info  # GraphProto field 11, length-delimited
    model = b"\x3a" + bytes([len(graph)]) + graph  # ModelProto field 7
    with pytest.raises(MissingInputError):
        with_constant_inputs(model, {"x": np.ones(1, np.float32)})


@pytest.mark.unit
def test_a_graph_cut_short_raises_graph_bytes_error():
    graph = affine_graph()
    with pytest.raises(GraphBytesError, match="truncated"):
        with_constant_inputs(graph[: len(graph) // 2], {"weight": np.ones((WIDTH, COLUMNS), np.float32)})


@pytest.mark.system
@pytest.mark.parametrize("pair", [("en", "de"), ("de", "en"), ("fr", "en")], ids="-".join)
def test_the_shipped_decoder_scores_alike_bound_and_fed(pair):
    """The default decoder (the whole output layer bound) and the exported one fed the same rows
    (what a shortlist uses) give the same log-probabilities: the int8 product sums integers
    exactly either way (bit for bit on the Intel Xeon that measured it; a tolerance far below any
    wrong row or column, so that another CPU's kernels may round the rescale differently)."""
    translator = installed_translator(pair)
    sources = [
        translator.source_prefix + translator.tokenizer.encode(text) + [EOS]
        for text in ("she is eating a green apple", "Where is it?")
    ]
    bound = translator.encode(sources, shortlist=False)
    fed = translator.encode(sources, shortlist=False)
    fed.decoder = translator.shortlist_decoder
    fed.output = {name: translator.device.put(value) for name, value in translator.output_layer.rows(None).items()}
    previous = np.full(len(sources), BOS, dtype=np.int64)
    for _ in range(3):
        (bound_scores, bound_attention), (fed_scores, fed_attention) = bound.step(previous), fed.step(previous)
        np.testing.assert_allclose(bound_scores, fed_scores, rtol=0, atol=1e-5)
        np.testing.assert_allclose(bound_attention, fed_attention, rtol=0, atol=1e-6)
        previous = bound_scores.argmax(axis=1).astype(np.int64)
