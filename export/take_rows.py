"""The runtime's one model-independent graph, runtime/take_rows.onnx: Gather along axis 0, so that
search can reorder decoder states that live on the execution device (runtime/translator.py)
without bringing them to the host. Written by this module, committed, and checked by a test.

    python -m attn.export.take_rows      # rewrites runtime/take_rows.onnx
"""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from attn.runtime.decoder_state import TAKE_ROWS

OPSET = 17
IR_VERSION = 8  # onnxruntime reads IR ≤ 13; 8 is what opset 17 needs


def take_rows_graph() -> onnx.ModelProto:
    """data (any rank) float, rows (R,) int64 → taken = data[rows]."""
    graph = helper.make_graph(
        [helper.make_node("Gather", ["data", "rows"], ["taken"], axis=0)], "take_rows",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("rows", TensorProto.INT64, ["rows"])],
        [helper.make_tensor_value_info("taken", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
                             producer_name="attn")


def main() -> None:
    TAKE_ROWS.write_bytes(take_rows_graph().SerializeToString())
    print(f"wrote {TAKE_ROWS}")


if __name__ == "__main__":
    main()
