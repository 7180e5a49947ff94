"""The int8 rewrites of export/graphs/quantize.py that change how a product is computed, not what it
computes: checked on small graphs against numpy (the shipped models: test_shipped_model.py)."""

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper

from attn.export.graphs.quantize import layer_norm_bound, squeezed_step_scores

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
