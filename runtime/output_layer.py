"""The decoder's output layer, kept outside decoder.onnx so that a step can compute scores for a
shortlist of the vocabulary: the graph takes the rows it should use as inputs.

output_layer.npz holds weight (V, R) and bias (V,), float32; or, in an int8 folder, the weight as
int8 rows with one float32 scale each (symmetric, per row), expanded to float32 on loading.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .manifest import ModelFolderError

INT8_LIMIT = 127


class OutputLayer:
    """weight (V, R), bias (V,) float32; `rows(ids)` gives the decoder's inputs for C tokens:
    output_weight (R, C), the rows transposed, and output_bias (C,)."""

    def __init__(self, weight: np.ndarray, bias: np.ndarray):
        self.weight = np.asarray(weight, dtype=np.float32)
        self.bias = np.ascontiguousarray(bias, dtype=np.float32)
        self.columns = np.ascontiguousarray(self.weight.T)  # (R, V)

    @property
    def vocab_size(self) -> int:
        return len(self.bias)

    def rows(self, ids: np.ndarray | None) -> dict[str, np.ndarray]:
        """Decoder feeds for the token ids `ids` (C,), or for the whole vocabulary when None."""
        if ids is None:
            return {"output_weight": self.columns, "output_bias": self.bias}
        return {"output_weight": np.ascontiguousarray(self.columns[:, ids]), "output_bias": self.bias[ids]}

    @classmethod
    def load(cls, path: Path) -> OutputLayer:
        try:
            with np.load(path, allow_pickle=False) as stored:
                if "weight_int8" in stored:
                    weight = stored["weight_int8"].astype(np.float32) * stored["scale"][:, None]
                else:
                    weight = stored["weight"]
                return cls(weight, stored["bias"])
        except (OSError, ValueError, KeyError) as error:
            raise ModelFolderError(f"{path}: cannot read the output layer ({error})") from None

    def save(self, path: Path, int8: bool = False) -> None:
        """Write float32, or int8 rows with per-row scales (a quarter of the size)."""
        if not int8:
            np.savez(path, weight=self.weight, bias=self.bias)
            return
        scale = np.abs(self.weight).max(axis=1) / INT8_LIMIT
        scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
        quantized = np.clip(np.rint(self.weight / scale[:, None]), -INT8_LIMIT, INT8_LIMIT).astype(np.int8)
        np.savez(path, weight_int8=quantized, scale=scale, bias=self.bias)
