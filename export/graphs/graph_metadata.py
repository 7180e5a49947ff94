"""Metadata that `attn export` and `attn quantize` write into the graphs (onnx, no torch)."""

from __future__ import annotations

from pathlib import Path

import onnx

from attn.runtime.constants import DECODER, ENCODER, TOKENIZER
from attn.runtime.graph_check import TOKENIZER_CHECKSUM
from attn.runtime.manifest import sha256_of


def record_tokenizer(folder: Path) -> None:
    """Write the checksum of the folder's tokenizer into both graphs' metadata, so that the
    runtime refuses a tokenizer from another model even when the manifest was re-hashed
    (runtime/graph_check.py)."""
    checksum = sha256_of(folder / TOKENIZER)
    for name in (ENCODER, DECODER):
        graph = onnx.load(str(folder / name))
        kept = [p for p in graph.metadata_props if p.key != TOKENIZER_CHECKSUM]
        del graph.metadata_props[:]
        graph.metadata_props.extend(kept)
        graph.metadata_props.add(key=TOKENIZER_CHECKSUM, value=checksum)
        onnx.save(graph, str(folder / name))
