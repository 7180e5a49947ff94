"""The decoder's output layer, kept outside decoder.onnx so that a step can compute scores for a
shortlist of the vocabulary: the graph takes the rows it should use as inputs.

output_layer.npz holds weight (V, R) and bias (V,), float32; or, in an int8 folder, the weight as
int8 rows with one float32 scale each (symmetric, per row), which the int8 decoder multiplies as
int8 (export/graphs/quantize.py): it then also takes output_scale (C,).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .graph_contract import OUTPUT_BIAS, OUTPUT_SCALE, OUTPUT_WEIGHT
from .manifest import ModelFolderError, check_npz

INT8_LIMIT = 127


class OutputLayer:
    """weight (V, R) float32, or int8 with `scale` (V,) per row; bias (V,) float32. `rows(ids)`
    gives the decoder's inputs for C tokens: output_weight (R, C), the rows transposed,
    output_bias (C,), and for int8 output_scale (C,)."""

    def __init__(self, weight: np.ndarray, bias: np.ndarray, scale: np.ndarray | None = None):
        weight = weight if scale is not None else np.asarray(weight, dtype=np.float32)
        self.columns = np.ascontiguousarray(weight.T)  # (R, V): the only copy kept
        self.bias = np.ascontiguousarray(bias, dtype=np.float32)
        self.scale = None if scale is None else np.ascontiguousarray(scale, dtype=np.float32)

    @property
    def weight(self) -> np.ndarray:
        """(V, R), a view of `columns`."""
        return self.columns.T

    @property
    def vocab_size(self) -> int:
        return len(self.bias)

    @property
    def input_names(self) -> set[str]:
        """The decoder inputs this layer feeds."""
        return {OUTPUT_WEIGHT, OUTPUT_BIAS} | ({OUTPUT_SCALE} if self.scale is not None else set())

    def rows(self, ids: np.ndarray | None) -> dict[str, np.ndarray]:
        """Decoder feeds for the token ids `ids` (C,), or for the whole vocabulary when None."""
        take = slice(None) if ids is None else ids
        feeds = {OUTPUT_WEIGHT: np.ascontiguousarray(self.columns[:, take]), OUTPUT_BIAS: self.bias[take]}
        if self.scale is not None:
            feeds[OUTPUT_SCALE] = self.scale[take]
        return feeds

    def quantized(self) -> OutputLayer:
        """This float layer as int8 rows with symmetric per-row scales."""
        scale = np.abs(self.weight).max(axis=1) / INT8_LIMIT
        scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
        weight = np.clip(np.rint(self.weight / scale[:, None]), -INT8_LIMIT, INT8_LIMIT).astype(np.int8)
        return OutputLayer(weight, self.bias, scale)

    @classmethod
    def load(cls, path: Path) -> OutputLayer:
        check_npz(path, "the output layer")
        try:
            with np.load(path, allow_pickle=False) as stored:
                if "weight_int8" in stored:
                    arrays = stored["weight_int8"], stored["bias"], stored["scale"]
                else:
                    arrays = stored["weight"], stored["bias"], None
        except Exception as error:  # numpy's npz reader raises many kinds on damaged bytes (SyntaxError, TokenError, …)
            raise ModelFolderError(f"{path}: cannot read the output layer ({error})") from None
        weight, bias, scale = arrays
        expected_kind = "f" if scale is None else "i"
        shapes_agree = (
            weight.ndim == 2 and bias.shape == (len(weight),) and (scale is None or scale.shape == bias.shape)
        )
        if weight.dtype.kind != expected_kind or bias.dtype.kind != "f" or not shapes_agree or weight.shape[1] == 0:
            raise ModelFolderError(f"{path}: expected weight (V, R), bias (V,) [, scale (V,)] of matching types")
        if not all(np.isfinite(a).all() for a in (weight, bias, scale) if a is not None and a.dtype.kind == "f"):
            raise ModelFolderError(f"{path}: the output layer holds NaN or infinite values")
        return cls(*arrays)

    def save(self, path: Path) -> None:
        if self.scale is None:
            np.savez(path, weight=self.weight, bias=self.bias)
        else:
            np.savez(path, weight_int8=self.weight, scale=self.scale, bias=self.bias)
