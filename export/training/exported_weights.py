"""The PyTorch weights of an exported Transformer folder, read back from its graphs, so that a run
can start from a model that shipped (`[train] init_from = "models/en-de"`: fine-tuning it on one's
own data, or going on with it when its run folder is gone). An fp32 folder gives back the exported
weights exactly; an int8 folder their dequantized values, (q − zero point) × scale, which is what
its int8 products compute with.

Where each weight is: every layer norm and bias keeps its PyTorch name (prefixed `model.`) in the
graph that uses it; a linear layer's weight is the constant second operand, transposed (D_in,
D_out), of the MatMul (fp32) or MatMulInteger (int8: MatMulInteger → Cast → Mul by the row
scales) whose result its named bias is added to, or of the MatMulIntegerToFloat that takes the bias
as its last input (an encoder with calibrated activation scales); the embedding, shared with the output layer, and
the output bias are output_layer.npz (int8 there with one scale per row).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from attn.export.config import ConfigError
from attn.export.graphs.quantize import row_divisor
from attn.runtime.constants import DECODER, ENCODER, MANIFEST, OUTPUT_LAYER
from attn.runtime.manifest import read_manifest
from attn.runtime.output_layer import INT8_LIMIT, OutputLayer

PREFIX = "model."  # the exported graphs' modules wrap the model as `model`


def is_exported_folder(path: Path) -> bool:
    return (path / MANIFEST).is_file()


def exported_weights(folder: Path) -> dict[str, torch.Tensor]:
    """The state dict of the Transformer exported to `folder`, by PyTorch parameter name
    (embedding.weight (V, D), output_bias (V,), encoder_layers.0.attention.query.weight (D, D), …),
    float32."""
    architecture = read_manifest(folder).architecture
    if architecture.get("architecture") != "transformer":
        raise ConfigError(
            f"{folder}: only a Transformer's weights can be read back from its graphs "
            f"(this is a {architecture.get('architecture')} model); start from its run folder"
        )
    weights: dict[str, np.ndarray] = {}
    for graph_file in (ENCODER, DECODER):
        weights |= _graph_weights(onnx.load(str(folder / graph_file)).graph)
    output = OutputLayer.load(folder / OUTPUT_LAYER)
    rows = output.weight.astype(np.float32)
    weights["embedding.weight"] = rows if output.scale is None else rows * output.scale[:, None]
    weights["output_bias"] = output.bias
    return {name: torch.from_numpy(np.array(value, dtype=np.float32)) for name, value in weights.items()}


def _graph_weights(graph: onnx.GraphProto) -> dict[str, np.ndarray]:
    """The named layer norms and biases of one graph, and the weight (D_out, D_in) of each linear
    layer whose bias is added to a product with a constant weight."""
    constants = {tensor.name: tensor for tensor in graph.initializer}
    producer = {output: node for node in graph.node for output in node.output}
    weights = {
        name.removeprefix(PREFIX): numpy_helper.to_array(tensor)
        for name, tensor in constants.items()
        if name.startswith(PREFIX) and not name.startswith(f"{PREFIX}embedding.")
    }
    for node in graph.node:
        biases = [name for name in node.input if name.startswith(PREFIX) and name.endswith(".bias")]
        if len(biases) != 1:
            continue
        if node.op_type == "Add":
            [product_output] = [name for name in node.input if name != biases[0]]
            columns = _product_weight(producer.get(product_output), producer, constants)
        elif node.op_type == "MatMulIntegerToFloat":  # a calibrated product, its bias inside
            columns = _fused_product_weight(node, constants)
        else:
            continue
        if columns is not None:
            weights[biases[0].removeprefix(PREFIX).removesuffix(".bias") + ".weight"] = columns.T
    return weights


def _fused_product_weight(node, constants: dict) -> np.ndarray | None:
    """The constant (D_in, D_out) operand of MatMulIntegerToFloat(x, W_q, x_scale, w_scale, x_zero,
    w_zero, bias) (export/graphs/calibrated_scales.py), dequantized: (W_q − w_zero) × w_scale."""
    weight, scale, zero = (node.input[1], node.input[3], node.input[5])
    if not {weight, scale, zero} <= set(constants):
        return None
    quantized = numpy_helper.to_array(constants[weight]).astype(np.float32)
    return (quantized - numpy_helper.to_array(constants[zero])) * numpy_helper.to_array(constants[scale])


def _product_weight(node, producer: dict, constants: dict) -> np.ndarray | None:
    """The constant (D_in, D_out) operand of the product that made `node`'s output, dequantized;
    None when `node` is no such product."""
    if node is not None and node.op_type == "Mul":  # int8: Mul(Cast(MatMulInteger(x, W_q, …)), scales)
        cast = producer.get(node.input[0])
        node = producer.get(cast.input[0]) if cast is not None and cast.op_type == "Cast" else None
    if node is None or node.op_type not in ("MatMul", "MatMulInteger") or node.input[1] not in constants:
        return None
    weight = numpy_helper.to_array(constants[node.input[1]])
    if node.op_type == "MatMul":
        return weight
    weight_scale = node.input[1].removesuffix("_quantized") + "_scale"  # onnxruntime's quantizer's names
    zero = numpy_helper.to_array(constants[node.input[3]]) if len(node.input) > 3 else 0
    divisor = numpy_helper.to_array(constants[row_divisor(weight_scale)])  # INT8_LIMIT / scale
    return (weight.astype(np.float32) - zero) * (INT8_LIMIT / divisor)
