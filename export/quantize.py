"""int8 dynamic quantization of an exported model folder (weights int8, activations quantized
per batch at run time). The decoder step is plain MatMul/Gemm, so all of its products are covered;
the encoder's GRU/LSTM ops stay fp32 (onnxruntime does not quantize GRU)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from onnxruntime.quantization import QuantType, quantize_dynamic

from attn.runtime.constants import DECODER, ENCODER, MANIFEST
from attn.runtime.manifest import read_manifest, sha256_of

from .staging import staged_folder


def quantize_folder(source: Path, out: Path) -> dict:
    """Write an int8 copy of the model folder `source` to `out` (atomically); returns the sizes."""
    manifest = read_manifest(source)
    with staged_folder(out) as staging:
        for name in manifest.files:
            if name not in (ENCODER, DECODER):
                shutil.copyfile(source / name, staging / name)
        for name in (ENCODER, DECODER):
            quantize_dynamic(source / name, staging / name, weight_type=QuantType.QInt8,
                             op_types_to_quantize=["MatMul", "Gemm"])
        raw = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
        raw["files"] = {name: sha256_of(staging / name) for name in manifest.files}
        raw["architecture"]["precision"] = "int8"
        (staging / MANIFEST).write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    return {name: (source / name).stat().st_size for name in (ENCODER, DECODER)} | {
        f"{name} int8": (out / name).stat().st_size for name in (ENCODER, DECODER)}
