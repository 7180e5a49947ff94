"""The int8 rewrites of export/graphs/quantize.py that change how a product is computed, not what it
computes: checked on small graphs against numpy (the shipped models: test_shipped_model.py)."""

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper

from attn.export.graphs.quantize import (
    bounded_output_product,
    fused_output_rescale,
    int8_output_product,
    layer_norm_bound,
    rowwise_activations,
    squeezed_step_scores,
)
from attn.runtime.graph_contract import OUTPUT_BIAS, OUTPUT_SCALE, OUTPUT_WEIGHT

pytestmark = pytest.mark.unit


def test_no_row_of_a_layer_norm_goes_beyond_its_bound_and_a_one_hot_row_reaches_it():
    rng = np.random.default_rng(0)
    size = 64
    gain, shift = rng.normal(size=size), rng.normal(size=size) * 0.3
    spiky = np.concatenate([np.eye(size), -np.eye(size)]) * 1e3  # one element apart: |n_j| = √(d − 1)
    rows = np.concatenate([rng.normal(size=(2000, size)) * rng.exponential(10, size=(2000, 1)), spiky])
    normalized = (rows - rows.mean(-1, keepdims=True)) / np.sqrt(rows.var(-1, keepdims=True) + 1e-5)
    largest = np.abs(gain * normalized + shift).max()
    bound = layer_norm_bound(gain, shift)
    assert largest <= bound and largest > 0.999 * bound


def test_the_gathered_step_becomes_a_squeeze_with_the_same_scores(tmp_path):
    rows, columns = 3, 7
    nodes = [
        helper.make_node("Add", ["products", "output_bias"], ["scores"]),
        helper.make_node("Constant", [], ["first"], value=numpy_helper.from_array(np.array(0, dtype=np.int64))),
        helper.make_node("Gather", ["scores", "first"], ["step"], axis=1),
        helper.make_node("LogSoftmax", ["step"], ["log_probs"], axis=-1),
    ]
    graph = helper.make_graph(
        nodes,
        "step",
        [
            helper.make_tensor_value_info("products", TensorProto.FLOAT, ["N", 1, columns]),
            helper.make_tensor_value_info("output_bias", TensorProto.FLOAT, [columns]),
        ],
        [helper.make_tensor_value_info("log_probs", TensorProto.FLOAT, ["N", columns])],
    )
    path = tmp_path / "decoder.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    feed = {
        "products": np.random.default_rng(1).normal(size=(rows, 1, columns)).astype(np.float32),
        "output_bias": np.arange(columns, dtype=np.float32),
    }
    before = onnxruntime.InferenceSession(str(path)).run(None, feed)[0]
    assert squeezed_step_scores(path)
    ops = [node.op_type for node in onnx.load(str(path)).graph.node]
    assert "Gather" not in ops and "Squeeze" in ops
    assert np.array_equal(onnxruntime.InferenceSession(str(path)).run(None, feed)[0], before)
    assert not squeezed_step_scores(path)  # nothing left to rewrite


def output_layer_graph(path, width: int, columns: int, through_identity: bool) -> None:
    """x (N, width) → LayerNormalization → MatMul(output_weight) → Add(output_bias) as the int8
    output product's rewrites leave it, the norm's gain and shift initializers, or (as PyTorch's
    exporter writes parameters of equal value once) Identity nodes of them."""
    rng = np.random.default_rng(2)
    gain = numpy_helper.from_array(rng.normal(1, 0.1, width).astype(np.float32), "gain")
    shift = numpy_helper.from_array(rng.normal(0, 0.1, width).astype(np.float32), "shift")
    read = ["gain_read", "shift_read"] if through_identity else ["gain", "shift"]
    nodes = [helper.make_node("Identity", [name], [alias]) for name, alias in zip(["gain", "shift"], read)]
    nodes = (nodes if through_identity else []) + [
        helper.make_node("LayerNormalization", ["x", *read], ["normed"], axis=-1),
        helper.make_node("MatMul", ["normed", OUTPUT_WEIGHT], ["products"]),
        helper.make_node("Add", ["products", OUTPUT_BIAS], ["scores"]),
    ]
    graph = helper.make_graph(
        nodes,
        "step",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", width]),
            helper.make_tensor_value_info(OUTPUT_WEIGHT, TensorProto.FLOAT, [width, columns]),
            helper.make_tensor_value_info(OUTPUT_BIAS, TensorProto.FLOAT, [columns]),
        ],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["N", columns])],
        [gain, shift],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


@pytest.mark.parametrize("through_identity", [False, True])
def test_the_output_product_reads_its_norm_on_the_fixed_bound_also_through_identity_nodes(tmp_path, through_identity):
    width, columns = 16, 9
    path = tmp_path / "decoder.onnx"
    output_layer_graph(path, width, columns, through_identity)
    int8_output_product(path)
    rowwise_activations(path)
    assert fused_output_rescale(path)
    assert bounded_output_product(path)
    graph = onnx.load(str(path)).graph
    assert "output_bound_scale" in {tensor.name for tensor in graph.initializer}
    rng = np.random.default_rng(3)
    weight = rng.integers(-127, 128, (width, columns)).astype(np.int8)
    feed = {
        "x": rng.normal(size=(4, width)).astype(np.float32),
        OUTPUT_WEIGHT: weight,
        OUTPUT_SCALE: np.full(columns, 0.01, dtype=np.float32),
        OUTPUT_BIAS: np.arange(columns, dtype=np.float32),
    }
    scores = onnxruntime.InferenceSession(str(path)).run(None, feed)[0]
    gain, shift = (numpy_helper.to_array(t) for t in graph.initializer if t.name in ("gain", "shift"))
    x = feed["x"]
    normed = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * gain + shift
    exact = normed @ (weight * 0.01) + feed[OUTPUT_BIAS]
    step = layer_norm_bound(gain, shift) / 127  # one rounding step of the activations, at most half off
    assert np.abs(scores - exact).max() <= np.abs(weight * 0.01).sum(0).max() * step / 2 + 1e-4
