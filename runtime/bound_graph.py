"""A graph with some of its inputs made constants, edited in its serialized bytes.

onnxruntime prepacks a product's constant weights once, when the session is created; weights fed
as an input are packed again on every run. The decoder takes the output layer's rows as inputs so
that a shortlist can feed a few of them; decoding over the whole vocabulary, the same rows every
step, binds them as constants instead, and the int8 output product runs about twice as fast
(docs/studies/SPEED-HISTORY.md, "The output layer bound"). The runtime has no onnx package,
so the few protobuf fields involved are read and written here:

- ModelProto: field 7, the graph (every other field is kept as it is);
- GraphProto: field 11, an input (ValueInfoProto: name 1, type 2); field 5, an initializer;
- TypeProto: field 1, a tensor type (elem_type 1, shape 2); TensorShapeProto: field 1, a dimension
  (dim_value 1 or dim_param 2);
- TensorProto: dims 1, data_type 2, name 8, raw_data 9 (little-endian).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

MODEL_GRAPH, GRAPH_INITIALIZER, GRAPH_INPUT = 7, 5, 11
VALUE_NAME, VALUE_TYPE = 1, 2
TYPE_TENSOR, TENSOR_ELEM_TYPE, TENSOR_SHAPE, SHAPE_DIM, DIM_VALUE, DIM_PARAM = 1, 1, 2, 1, 1, 2
TENSOR_DIMS, TENSOR_DATA_TYPE, TENSOR_NAME, TENSOR_RAW_DATA = 1, 2, 8, 9
VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
ONNX_TYPES = {np.dtype(np.float32): 1, np.dtype(np.int8): 3}  # TensorProto.DataType


class GraphBytesError(ValueError):
    """The bytes are not an ONNX model this module can read."""


class MissingInputError(GraphBytesError):
    """The graph has no input of a name it was asked to bind."""


@dataclass(frozen=True)
class DeclaredInput:
    """What the graph declared for an input it no longer has: ONNX element type and shape (an
    int per fixed dimension, a str per named one)."""

    elem_type: int
    shape: tuple[int | str, ...]


def with_constant_inputs(model: bytes, constants: dict[str, np.ndarray]) -> tuple[bytes, dict[str, DeclaredInput]]:
    """The ONNX model `model` with each input named in `constants` removed and its array added as
    an initializer of that name, and what the graph declared for those inputs (for the caller to
    check against the arrays before a session reads them). The bytes are copied once."""
    whole = memoryview(model)
    parts: list[bytes | memoryview] = []
    declared: dict[str, DeclaredInput] = {}
    graphs = 0
    for field, wire, start, end, payload in _fields(whole):
        if field == MODEL_GRAPH and wire == LENGTH_DELIMITED:
            graph, declared = _bound_graph(whole[payload:end], constants)
            parts += _length_delimited(MODEL_GRAPH, graph)
            graphs += 1
        else:
            parts.append(whole[start:end])
    if graphs != 1:
        raise GraphBytesError(f"{graphs} graphs in the model")
    missing = sorted(set(constants) - set(declared))
    if missing:
        raise MissingInputError(f"no input named {', '.join(missing)}")
    return b"".join(parts), declared


def float_initializers(model: bytes) -> Iterator[tuple[str, np.ndarray]]:
    """Each initializer of the model's graph held as float32 raw data: (name, values), the values a
    view of the bytes. The other initializers (int8 weights, shapes) are passed over."""
    whole = memoryview(model)
    for field, wire, _, end, payload in _fields(whole):
        if field != MODEL_GRAPH or wire != LENGTH_DELIMITED:
            continue
        graph = whole[payload:end]
        for graph_field, graph_wire, _, tensor_end, tensor_start in _fields(graph):
            if graph_field != GRAPH_INITIALIZER or graph_wire != LENGTH_DELIMITED:
                continue
            name, data_type, raw = "", 0, None
            tensor = graph[tensor_start:tensor_end]
            for tensor_field, tensor_wire, _, value_end, value_start in _fields(tensor):
                if tensor_field == TENSOR_DATA_TYPE and tensor_wire == VARINT:
                    data_type = _varint(tensor, value_start)[0]
                elif tensor_field == TENSOR_NAME and tensor_wire == LENGTH_DELIMITED:
                    name = bytes(tensor[value_start:value_end]).decode("utf-8", "replace")
                elif tensor_field == TENSOR_RAW_DATA and tensor_wire == LENGTH_DELIMITED:
                    raw = tensor[value_start:value_end]
            if data_type == ONNX_TYPES[np.dtype(np.float32)] and raw is not None and len(raw) % 4 == 0:
                yield name, np.frombuffer(raw, dtype="<f4")


def _bound_graph(
    graph: memoryview, constants: dict[str, np.ndarray]
) -> tuple[list[bytes | memoryview], dict[str, DeclaredInput]]:
    """The graph's fields, its bound inputs left out and their initializers added (as parts to
    join), and what it declared for those inputs."""
    parts, declared = [], {}
    for field, wire, start, end, payload in _fields(graph):
        if field == GRAPH_INPUT and wire == LENGTH_DELIMITED:
            name, kind = _value_info(graph[payload:end])
            if name in constants:
                declared[name] = kind
                continue
        parts.append(graph[start:end])
    for name, array in constants.items():
        parts += _length_delimited(GRAPH_INITIALIZER, _tensor(name, array))
    return parts, declared


def _value_info(value: memoryview) -> tuple[str, DeclaredInput]:
    name, elem_type, shape = "", 0, []
    for field, wire, _, end, payload in _fields(value):
        if field == VALUE_NAME and wire == LENGTH_DELIMITED:
            name = bytes(value[payload:end]).decode("utf-8", errors="replace")
        elif field == VALUE_TYPE and wire == LENGTH_DELIMITED:
            kind = value[payload:end]
            for t_field, t_wire, _, t_end, t_payload in _fields(kind):
                if t_field == TYPE_TENSOR and t_wire == LENGTH_DELIMITED:
                    elem_type, shape = _tensor_type(kind[t_payload:t_end])
    return name, DeclaredInput(elem_type, tuple(shape))


def _tensor_type(tensor: memoryview) -> tuple[int, list[int | str]]:
    elem_type, shape = 0, []
    for field, wire, _, end, payload in _fields(tensor):
        if field == TENSOR_ELEM_TYPE and wire == VARINT:
            elem_type = _varint(tensor, payload)[0]
        elif field == TENSOR_SHAPE and wire == LENGTH_DELIMITED:
            dims = tensor[payload:end]
            for d_field, d_wire, _, d_end, d_payload in _fields(dims):
                if d_field == SHAPE_DIM and d_wire == LENGTH_DELIMITED:
                    shape.append(_dimension(dims[d_payload:d_end]))
    return elem_type, shape


def _dimension(dimension: memoryview) -> int | str:
    for field, wire, _, end, payload in _fields(dimension):
        if field == DIM_VALUE and wire == VARINT:
            return _varint(dimension, payload)[0]
        if field == DIM_PARAM and wire == LENGTH_DELIMITED:
            return bytes(dimension[payload:end]).decode("utf-8", errors="replace")
    return ""


def _tensor(name: str, array: np.ndarray) -> list[bytes | memoryview]:
    """A TensorProto holding `array` as raw data, as parts to join (the data not copied)."""
    if array.dtype not in ONNX_TYPES:
        raise GraphBytesError(f"{name}: no ONNX type for {array.dtype}")
    dims = b"".join(_key(TENSOR_DIMS, VARINT) + _encode_varint(size) for size in array.shape)
    data = memoryview(np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))).cast("B")
    return [
        dims + _key(TENSOR_DATA_TYPE, VARINT) + _encode_varint(ONNX_TYPES[array.dtype]),
        *_length_delimited(TENSOR_NAME, [name.encode("utf-8")]),
        *_length_delimited(TENSOR_RAW_DATA, [data]),
    ]


def _fields(message: bytes | memoryview) -> Iterator[tuple[int, int, int, int, int]]:
    """Each field of a protobuf message: (number, wire type, start, end, payload start); the
    field's bytes are message[start:end], a length-delimited payload message[payload:end]."""
    position = 0
    while position < len(message):
        start = position
        key, position = _varint(message, position)
        field, wire = key >> 3, key & 7
        payload = position
        if wire == VARINT:
            position = _varint(message, position)[1]
        elif wire == FIXED64:
            position += 8
        elif wire == FIXED32:
            position += 4
        elif wire == LENGTH_DELIMITED:
            size, payload = _varint(message, position)
            position = payload + size
        else:
            raise GraphBytesError(f"unsupported protobuf wire type {wire}")
        if position > len(message):
            raise GraphBytesError("truncated protobuf message")
        yield field, wire, start, position, payload


def _varint(data: bytes | memoryview, position: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if position >= len(data) or shift > 63:
            raise GraphBytesError("truncated or overlong protobuf varint")
        byte = data[position]
        value |= (byte & 0x7F) << shift
        position += 1
        if byte < 0x80:
            return value, position
        shift += 7


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _encode_varint(field << 3 | wire)


def _length_delimited(field: int, parts: list[bytes | memoryview]) -> list[bytes | memoryview]:
    """The field `field` holding the concatenation of `parts`, as parts to join."""
    return [_key(field, LENGTH_DELIMITED) + _encode_varint(sum(len(part) for part in parts)), *parts]
