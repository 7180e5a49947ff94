"""Small edits of an ONNX graph that the quantizer's rewrites share."""

from __future__ import annotations

import onnx


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
