"""int8 dynamic quantization of an exported model folder (weights int8, activations quantized
per batch at run time). The decoder step is plain MatMul/Gemm, so onnxruntime's quantizer covers
every product with a constant weight. The output layer is a graph input, since a shortlist picks
its rows, and the quantizer leaves a product with a fed weight alone: `int8_output_product`
rewrites it by hand (activations quantized per step, int8 × int8 → int32, then the two scales),
and output_layer.npz holds int8 rows with per-row scales (runtime/output_layer.py). The encoder's
GRU/LSTM ops stay fp32 (onnxruntime does not quantize GRU).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import onnx
from onnx import TensorProto, helper
from onnxruntime.quantization import QuantType, quantize_dynamic

from attn.runtime.constants import DECODER, ENCODER, MANIFEST, OUTPUT_LAYER
from attn.runtime.manifest import read_manifest, sha256_of
from attn.runtime.output_layer import OutputLayer

from .staging import staged_folder


def int8_output_product(decoder_file: Path) -> None:
    """Rewrite, in place, the decoder's MatMul(x (B, R), output_weight (R, C)) into
    DynamicQuantizeLinear(x) → MatMulInteger with an int8 output_weight → Cast → × (x's scale ·
    output_scale (C,)), output_scale being a new input: the per-row scales of the chosen rows."""
    model = onnx.load(str(decoder_file))
    graph = model.graph
    [product] = [node for node in graph.node if node.op_type == "MatMul" and node.input[1] == "output_weight"]
    position = list(graph.node).index(product)
    activations, result = product.input[0], product.output[0]
    rewritten = [
        helper.make_node("DynamicQuantizeLinear", [activations], ["output_x_q", "output_x_scale", "output_x_zero"]),
        helper.make_node("MatMulInteger", ["output_x_q", "output_weight", "output_x_zero"], ["output_int32"]),
        helper.make_node("Cast", ["output_int32"], ["output_float"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["output_x_scale", "output_scale"], ["output_scales"]),
        helper.make_node("Mul", ["output_float", "output_scales"], [result]),
    ]
    graph.node.remove(product)
    for offset, node in enumerate(rewritten):
        graph.node.insert(position + offset, node)
    [weight] = [value for value in graph.input if value.name == "output_weight"]
    weight.type.tensor_type.elem_type = TensorProto.INT8
    graph.input.append(helper.make_tensor_value_info("output_scale", TensorProto.FLOAT, ["candidates"]))
    onnx.save(model, str(decoder_file))


def quantize_folder(source: Path, out: Path) -> dict:
    """Write an int8 copy of the model folder `source` to `out` (atomically); returns the sizes."""
    manifest = read_manifest(source)
    with staged_folder(out) as staging:
        for name in manifest.files:
            if name not in (ENCODER, DECODER, OUTPUT_LAYER):
                shutil.copyfile(source / name, staging / name)
        OutputLayer.load(source / OUTPUT_LAYER).quantized().save(staging / OUTPUT_LAYER)
        for name in (ENCODER, DECODER):
            quantize_dynamic(source / name, staging / name, weight_type=QuantType.QInt8,
                             op_types_to_quantize=["MatMul", "Gemm"])
        int8_output_product(staging / DECODER)
        raw = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
        raw["files"] = {name: sha256_of(staging / name) for name in manifest.files}
        raw["architecture"]["precision"] = "int8"
        (staging / MANIFEST).write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    quantized = (ENCODER, DECODER, OUTPUT_LAYER)
    return {name: (source / name).stat().st_size for name in quantized} | {
        f"{name} int8": (out / name).stat().st_size for name in quantized}
