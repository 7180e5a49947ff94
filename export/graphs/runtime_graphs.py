"""The runtime's model-independent graphs, written by this module, committed, and checked by a test:

- runtime/take_rows.onnx, Gather along axis 0, so that search can reorder decoder states that live
  on the execution device (runtime/decoder_state.py) without bringing them to the host;
- runtime/best_columns.onnx, TopK along axis 1, so that a search step brings back only each row's
  best log-probabilities instead of all C of them (runtime/search.py best_allowed).

    python -m attn.export.graphs.runtime_graphs      # rewrites both
"""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from attn.runtime.decoder_state import BEST_COLUMNS, TAKE_ROWS
from attn.runtime.graph_contract import (
    LOG_PROBS,
    TAKE_DATA,
    TAKE_INDEXES,
    TAKEN,
    TOP_COLUMNS,
    TOP_VALUES,
    TOP_WIDTH,
)

OPSET = 17  # of every graph attn writes (export/graphs/onnx_export.py too)
IR_VERSION = 8  # onnxruntime reads IR ≤ 13; 8 is what opset 17 needs


def _model(node: onnx.NodeProto, name: str, inputs: list, outputs: list) -> onnx.ModelProto:
    graph = helper.make_graph([node], name, inputs, outputs)
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION, producer_name="attn"
    )


def take_rows_graph() -> onnx.ModelProto:
    """data (any rank) float, rows (R,) int64 → taken = data[rows]."""
    return _model(
        helper.make_node("Gather", [TAKE_DATA, TAKE_INDEXES], [TAKEN], axis=0),
        "take_rows",
        [
            helper.make_tensor_value_info(TAKE_DATA, TensorProto.FLOAT, None),
            helper.make_tensor_value_info(TAKE_INDEXES, TensorProto.INT64, ["rows"]),
        ],
        [helper.make_tensor_value_info(TAKEN, TensorProto.FLOAT, None)],
    )


def best_columns_graph() -> onnx.ModelProto:
    """log_probs (N, C) float, width (1,) int64 → values (N, W) and columns (N, W) int64: each row's
    W largest, best first; of equal values the lower column first (TopK's order since opset 11)."""
    return _model(
        helper.make_node("TopK", [LOG_PROBS, TOP_WIDTH], [TOP_VALUES, TOP_COLUMNS], axis=1, largest=1, sorted=1),
        "best_columns",
        [
            helper.make_tensor_value_info(LOG_PROBS, TensorProto.FLOAT, ["rows", "candidates"]),
            helper.make_tensor_value_info(TOP_WIDTH, TensorProto.INT64, [1]),
        ],
        [
            helper.make_tensor_value_info(TOP_VALUES, TensorProto.FLOAT, ["rows", "width"]),
            helper.make_tensor_value_info(TOP_COLUMNS, TensorProto.INT64, ["rows", "width"]),
        ],
    )


GRAPHS = {TAKE_ROWS: take_rows_graph, BEST_COLUMNS: best_columns_graph}


def main() -> None:
    for path, graph in GRAPHS.items():
        path.write_bytes(graph().SerializeToString())
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
