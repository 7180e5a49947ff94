"""Ways onnxruntime can compute one int8 product with its bias, and a step's best columns, timed on
random numbers with 1 thread (benchmarks/studies/SPEED-HISTORY.md, "The output layer on one fixed
scale"):

- per row: the int8 form of export/graphs/quantize.py (each row quantized by its own largest value;
  MatMulIntegerToFloat with the column scales, then Mul by the row's scale, then Add the bias);
- fixed scale: one activation scale for every row, the bias inside MatMulIntegerToFloat
  (`bounded_output_product`);
- fixed scale, fed: the same with the weights, their scales and the bias fed as inputs on every
  run, as the decoder takes the output layer's rows (runtime/bound_graph.py binds them instead);
- MatMulNBits: 8-bit weights in blocks of 32, activations quantized per block of each row
  (accuracy_level 4), the bias inside;
- fp32: MatMul, then Add.
Then LogSoftmax → TopK against TopK on the scores with ReduceLogSumExp subtracted.

    python benchmarks/product_variants.py
"""

from __future__ import annotations

import time

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper

# (rows, inner width, columns): the output layer at 32 sentences × 5 beams and greedy; a layer product over
# 32 sentences × 30 source pieces
SHAPES = [(160, 256, 24000), (32, 256, 24000), (960, 256, 256), (960, 256, 1024)]
RUNS = 30


def one_thread_session(graph: onnx.GraphProto) -> onnxruntime.InferenceSession:
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("com.microsoft", 1)]
    )
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def session(nodes: list, initializers: list, width: int, fed: tuple[str, ...] = ()) -> onnxruntime.InferenceSession:
    """A product's graph: x (N, width) → y; the initializers named in `fed` are inputs instead."""
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", width])]
    inputs += [helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in initializers if t.name in fed]
    return one_thread_session(
        helper.make_graph(
            nodes,
            "product",
            inputs,
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            [t for t in initializers if t.name not in fed],
        )
    )


FED = ("w", "w_scale", "b")  # what the decoder takes as inputs


def variants(
    weight: np.ndarray, bias: np.ndarray, bound: float
) -> tuple[dict[str, onnxruntime.InferenceSession], dict[str, np.ndarray]]:
    """The sessions by name, and the arrays a session with FED inputs is fed."""
    width, columns = weight.shape
    column_scale = (np.abs(weight).max(0) / 127).astype(np.float32)
    constants = [
        numpy_helper.from_array(np.round(weight / column_scale).astype(np.int8), "w"),
        numpy_helper.from_array(column_scale, "w_scale"),
        numpy_helper.from_array(bias, "b"),
        helper.make_tensor("step", TensorProto.FLOAT, [], [1 / 127]),
        helper.make_tensor("zero", TensorProto.UINT8, [], [128]),
        helper.make_tensor("tiny", TensorProto.FLOAT, [], [1e-30]),
        helper.make_tensor("axis", TensorProto.INT64, [1], [-1]),
        helper.make_tensor("one", TensorProto.FLOAT, [], [1.0]),
        helper.make_tensor("limit", TensorProto.FLOAT, [], [127.0]),
        helper.make_tensor("fixed", TensorProto.FLOAT, [], [bound / 127]),
    ]
    per_row = [
        helper.make_node("Abs", ["x"], ["a"]),
        helper.make_node("ReduceMax", ["a", "axis"], ["m0"], keepdims=1),
        helper.make_node("Max", ["m0", "tiny"], ["m"]),
        helper.make_node("Div", ["x", "m"], ["u"]),
        helper.make_node("QuantizeLinear", ["u", "step", "zero"], ["q"]),
        helper.make_node("MatMulIntegerToFloat", ["q", "w", "one", "w_scale", "zero"], ["z"], domain="com.microsoft"),
        helper.make_node("Div", ["m", "limit"], ["row_scale"]),
        helper.make_node("Mul", ["z", "row_scale"], ["p"]),
        helper.make_node("Add", ["p", "b"], ["y"]),
    ]
    fixed = [
        helper.make_node("QuantizeLinear", ["x", "fixed", "zero"], ["q"]),
        helper.make_node(
            "MatMulIntegerToFloat", ["q", "w", "fixed", "w_scale", "zero", "", "b"], ["y"], domain="com.microsoft"
        ),
    ]
    blocks = weight.T.reshape(columns, width // 32, 32)
    block_scale = np.abs(blocks).max(-1) / 127
    nbits = [
        helper.make_node(
            "MatMulNBits",
            ["x", "codes", "block_scale", "", "", "b"],
            ["y"],
            domain="com.microsoft",
            K=width,
            N=columns,
            bits=8,
            block_size=32,
            accuracy_level=4,
        )
    ]
    nbits_constants = [
        numpy_helper.from_array((np.round(blocks / block_scale[..., None]) + 128).astype(np.uint8), "codes"),
        numpy_helper.from_array(block_scale.reshape(-1).astype(np.float32), "block_scale"),
        numpy_helper.from_array(bias, "b"),
    ]
    fp32 = [helper.make_node("MatMul", ["x", "w32"], ["p"]), helper.make_node("Add", ["p", "b"], ["y"])]
    return {
        "per row": session(per_row, constants, width),
        "fixed scale": session(fixed, constants, width),
        "fixed scale, fed": session(fixed, constants, width, FED),
        "MatMulNBits": session(nbits, nbits_constants, width),
        "fp32": session(fp32, [numpy_helper.from_array(weight, "w32"), numpy_helper.from_array(bias, "b")], width),
    }, {t.name: numpy_helper.to_array(t) for t in constants if t.name in FED}


def milliseconds(run) -> float:
    run()
    started = time.perf_counter()
    for _ in range(RUNS):
        run()
    return (time.perf_counter() - started) / RUNS * 1000


def main() -> None:
    rng = np.random.default_rng(0)
    print(
        "| rows × width × columns | "
        + " | ".join(["per row", "fixed scale", "fixed scale, fed", "MatMulNBits", "fp32"])
        + " |"
    )
    print("|---|---|---|---|---|---|")
    for rows, width, columns in SHAPES:
        weight = (rng.standard_normal((width, columns)) * 0.05).astype(np.float32)
        bias = (rng.standard_normal(columns) * 0.1).astype(np.float32)
        x = rng.standard_normal((rows, width)).astype(np.float32)
        sessions, fed = variants(weight, bias, float(np.abs(x).max()))
        times = [
            milliseconds(lambda s=s: s.run(None, {"x": x, **{i.name: fed[i.name] for i in s.get_inputs()[1:]}}))
            for s in sessions.values()
        ]
        print(f"| {rows} × {width} × {columns} | " + " | ".join(f"{t:.2f} ms" for t in times) + " |")
    k = helper.make_tensor("k", TensorProto.INT64, [1], [10])
    scores = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "C"])
    outputs = [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
        helper.make_tensor_value_info("i", TensorProto.INT64, None),
    ]

    def best_columns(nodes: list, initializers: list) -> onnxruntime.InferenceSession:
        return one_thread_session(helper.make_graph(nodes, "best", [scores], outputs, initializers))

    log_softmax = best_columns(
        [helper.make_node("LogSoftmax", ["x"], ["l"], axis=-1), helper.make_node("TopK", ["l", "k"], ["y", "i"])], [k]
    )
    log_sum_exp = best_columns(
        [
            helper.make_node("ReduceLogSumExp", ["x", "axis"], ["s"], keepdims=1),
            helper.make_node("TopK", ["x", "k"], ["t", "i"]),
            helper.make_node("Sub", ["t", "s"], ["y"]),
        ],
        [k, helper.make_tensor("axis", TensorProto.INT64, [1], [-1])],
    )
    x = (rng.standard_normal((160, 24000)) * 3).astype(np.float32)
    print(
        f"\n160 × 24,000 scores, the 10 best of each row: LogSoftmax then TopK "
        f"{milliseconds(lambda: log_softmax.run(None, {'x': x})):.2f} ms, TopK with ReduceLogSumExp "
        f"{milliseconds(lambda: log_sum_exp.run(None, {'x': x})):.2f} ms"
    )


if __name__ == "__main__":
    main()
