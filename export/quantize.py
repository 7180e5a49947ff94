"""int8 dynamic quantization of an exported model folder (weights int8, activations quantized
per batch at run time). The decoder step is plain MatMul/Gemm, so its products with constant
weights are covered. The output layer is a graph input, since a shortlist picks its rows, and the
quantizer leaves a MatMul with a fed weight as it is: output_layer.npz is stored as int8 rows with
per-row scales (runtime/output_layer.py) and multiplies in fp32. The encoder's GRU/LSTM ops stay
fp32 (onnxruntime does not quantize GRU)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from onnxruntime.quantization import QuantType, quantize_dynamic

from attn.runtime.constants import DECODER, ENCODER, MANIFEST, OUTPUT_LAYER
from attn.runtime.manifest import read_manifest, sha256_of
from attn.runtime.output_layer import OutputLayer

from .staging import staged_folder


def quantize_folder(source: Path, out: Path) -> dict:
    """Write an int8 copy of the model folder `source` to `out` (atomically); returns the sizes."""
    manifest = read_manifest(source)
    with staged_folder(out) as staging:
        for name in manifest.files:
            if name not in (ENCODER, DECODER, OUTPUT_LAYER):
                shutil.copyfile(source / name, staging / name)
        OutputLayer.load(source / OUTPUT_LAYER).save(staging / OUTPUT_LAYER, int8=True)
        for name in (ENCODER, DECODER):
            quantize_dynamic(source / name, staging / name, weight_type=QuantType.QInt8,
                             op_types_to_quantize=["MatMul", "Gemm"])
        raw = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
        raw["files"] = {name: sha256_of(staging / name) for name in manifest.files}
        raw["architecture"]["precision"] = "int8"
        (staging / MANIFEST).write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    quantized = (ENCODER, DECODER, OUTPUT_LAYER)
    return {name: (source / name).stat().st_size for name in quantized} | {
        f"{name} int8": (out / name).stat().st_size for name in quantized}
