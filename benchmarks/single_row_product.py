"""onnxruntime's CPU matrix product rounds a one-row product differently from the same row among
others (MLAS takes a matrix-vector kernel for M = 1): a cause of batch dependence
(BATCH-INVARIANCE.md). A (M, 512) × (512, 8,000) MatMul + Add, as the decoder's output layer, of
random numbers; counts the entries of rows 0 and M-1 that differ from the 40-row product's,
and of a column subset against the whole product.

    python benchmarks/single_row_product.py
"""

from __future__ import annotations

import numpy as np
import onnxruntime
from onnx import TensorProto, helper

ROWS, WIDTH, COLUMNS = 40, 512, 8000


def session() -> onnxruntime.InferenceSession:
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["product"]), helper.make_node("Add", ["product", "b"], ["y"])],
        "output",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["m", WIDTH]),
            helper.make_tensor_value_info("w", TensorProto.FLOAT, [WIDTH, "n"]),
            helper.make_tensor_value_info("b", TensorProto.FLOAT, ["n"]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["m", "n"])],
    )
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def main() -> None:
    run = session()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((ROWS, WIDTH)).astype(np.float32)
    w = (rng.standard_normal((WIDTH, COLUMNS)) * 0.05).astype(np.float32)
    b = rng.standard_normal(COLUMNS).astype(np.float32)
    whole = run.run(None, {"x": x, "w": w, "b": b})[0]
    print(f"onnxruntime {onnxruntime.__version__}: entries differing from the {ROWS}-row product")
    print("| rows M | row 0 | row M-1 |\n|---|---|---|")
    for rows in (1, 2, 3, 5, 8, 16, 39):
        part = run.run(None, {"x": x[:rows], "w": w, "b": b})[0]
        print(f"| {rows} | {int((part[0] != whole[0]).sum())} | {int((part[-1] != whole[rows - 1]).sum())} |")
    columns = np.sort(rng.choice(COLUMNS, 1500, replace=False))
    subset = run.run(None, {"x": x, "w": np.ascontiguousarray(w[:, columns]), "b": b[columns]})[0]
    print(f"1,500 of the {COLUMNS} columns, {ROWS} rows: {int((subset != whole[:, columns]).sum())} entries differ")


if __name__ == "__main__":
    main()
