"""Small edits of an ONNX graph that the quantizer's rewrites share, and what they read of it."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper


def constants(graph: onnx.GraphProto) -> dict[str, np.ndarray]:
    """Each initializer's name → its array; so too a Constant node's output, and the output of an
    Identity of either (PyTorch's exporter writes parameters of equal value once and reads the
    others through Identity nodes). The nodes are in topological order: one pass follows chains."""
    arrays = {tensor.name: numpy_helper.to_array(tensor) for tensor in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and node.attribute[0].name == "value":
            arrays[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
        elif node.op_type == "Identity" and node.input[0] in arrays:
            arrays[node.output[0]] = arrays[node.input[0]]
    return arrays


def producers(graph: onnx.GraphProto) -> dict[str, onnx.NodeProto]:
    """Each tensor name written by a node → that node."""
    return {output: node for node in graph.node for output in node.output}


def readers(graph: onnx.GraphProto, name: str) -> list[onnx.NodeProto]:
    """The nodes that read the tensor `name`."""
    return [node for node in graph.node if name in node.input]


def drop_unread(graph: onnx.GraphProto) -> None:
    """Remove nodes none of whose outputs is read by a node or is a graph output, repeatedly,
    then the initializers no node reads."""
    while True:
        read = {name for node in graph.node for name in node.input} | {output.name for output in graph.output}
        unread = [node for node in graph.node if not any(output in read for output in node.output)]
        if not unread:
            break
        for node in unread:
            graph.node.remove(node)
    unused = [tensor for tensor in graph.initializer if tensor.name not in read]
    for tensor in unused:
        graph.initializer.remove(tensor)
