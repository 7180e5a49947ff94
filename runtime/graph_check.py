"""A model folder's files checked against each other before any decoding: the graphs take and
give what the manifest and the output layer say, and the tokenizer is the one the graphs were
exported with. A folder whose files each match their checksum can still disagree (a re-hashed
manifest, a hand-built folder); the disagreement is a ModelFolderError here, not a traceback or
gibberish later."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnxruntime

from .bound_graph import ONNX_TYPES, GraphBytesError, MissingInputError, float_initializers, with_constant_inputs
from .constants import DECODER, ENCODER, OUTPUT_LAYER, TOKENIZER
from .graph_contract import (
    ATTENTION,
    CARRIED,
    LOG_PROBS,
    OUTPUT_BIAS,
    OUTPUT_SCALE,
    OUTPUT_WEIGHT,
    PREVIOUS_TOKENS,
    SOURCE_MASK,
)
from .manifest import Manifest, ModelFolderError
from .output_layer import OutputLayer

TOKENIZER_CHECKSUM = "attn.tokenizer_sha256"  # graph metadata written by `attn export`
OUTPUT_INPUTS = (OUTPUT_WEIGHT, OUTPUT_BIAS, OUTPUT_SCALE)
# How an ONNX graph names the file holding a tensor kept outside it (TensorProto.external_data, a
# StringStringEntryProto whose key is "location"): these 11 bytes occur by chance in 25 MB of
# weights with a probability of about 2^-63.
EXTERNAL_DATA_KEY = b"\n\x08location\x12"


def check_self_contained(folder: Path, name: str, data: bytes) -> None:
    """Refuse a graph whose weights lie in another file (ONNX external data): the manifest's
    checksums cover only the files it lists, so such a file would be loaded unchecked."""
    if EXTERNAL_DATA_KEY in data:
        raise ModelFolderError(
            f"{folder / name}: keeps tensors in another file (ONNX external data), which the "
            "manifest's checksums do not cover; export the model again"
        )


def check_finite_weights(folder: Path, name: str, data: bytes) -> None:
    """Refuse a graph with a weight that is not a finite number: a NaN bias in an int8 model
    gives fluent nonsense ("Japan Japan Japan …"), not an error, once quantized products have
    turned it into finite values. Read whenever a graph is read (the optimized-graph cache keeps
    the graphs that passed)."""
    try:
        for weight, values in float_initializers(data):
            if not np.isfinite(values).all():
                raise ModelFolderError(
                    f"{folder / name}: its weight {weight!r} holds values that are not finite numbers (a damaged model)"
                )
    except GraphBytesError as error:
        raise ModelFolderError(f"{folder}: cannot load ONNX graph ({name}: {error})") from None


def bind_output_layer(folder: Path, decoder: bytes, output_layer: OutputLayer) -> bytes:
    """The decoder graph `decoder` with the output layer's rows for the whole vocabulary as
    constants (runtime/bound_graph.py), once they are checked to be what the graph takes."""
    rows = output_layer.rows(None)
    try:
        bound, declared = with_constant_inputs(decoder, rows)
    except MissingInputError as error:
        raise ModelFolderError(
            f"{folder}: {DECODER} does not take {OUTPUT_LAYER}'s {', '.join(sorted(rows))} ({error}; mixed precisions?)"
        ) from None
    except GraphBytesError as error:
        raise ModelFolderError(f"{folder}: cannot load ONNX graph ({DECODER}: {error})") from None
    for name, array in rows.items():
        if declared[name].elem_type != ONNX_TYPES[array.dtype]:
            raise ModelFolderError(
                f"{folder}: {DECODER} takes {name} of ONNX type {declared[name].elem_type}, but "
                f"{OUTPUT_LAYER} gives {array.dtype} (mixed precisions?)"
            )
    width = declared[OUTPUT_WEIGHT].shape[0] if declared[OUTPUT_WEIGHT].shape else None
    if isinstance(width, int) and width != output_layer.columns.shape[0]:
        raise ModelFolderError(
            f"{folder / OUTPUT_LAYER}: rows of width {output_layer.columns.shape[0]}, "
            f"but {DECODER} multiplies width {width}"
        )
    return bound


def check_graphs(
    folder: Path,
    manifest: Manifest,
    encoder: onnxruntime.InferenceSession,
    decoder: onnxruntime.InferenceSession,
    output_layer: Callable[[], OutputLayer],
) -> None:
    """`output_layer` gives the folder's output layer, read only to name what it gives when the
    decoder still takes some of it (a decoder bound to rows of another precision)."""
    specs = manifest.state_specs
    encoder_outputs = [o.name for o in encoder.get_outputs()]
    expected = [spec.name for spec in specs]
    if encoder_outputs != expected:
        raise ModelFolderError(
            f"{folder / ENCODER}: gives {', '.join(encoder_outputs)}, but the manifest's states "
            f"need {', '.join(expected)}"
        )
    inputs = {i.name: i for i in decoder.get_inputs()}
    outputs = [o.name for o in decoder.get_outputs()]
    missing = [n for n in [PREVIOUS_TOKENS, SOURCE_MASK, *expected] if n not in inputs]
    missing += [spec.output for spec in specs if spec.kind in CARRIED and spec.output not in outputs]
    missing += [n for n in (LOG_PROBS, ATTENTION) if n not in outputs]
    if missing:
        raise ModelFolderError(f"{folder / DECODER}: has no {', '.join(missing)} (the manifest's states disagree)")
    unbound = sorted(name for name in inputs if name in OUTPUT_INPUTS)  # the bound decoder takes none
    if unbound:
        raise ModelFolderError(
            f"{folder}: {DECODER} takes {', '.join(unbound)} but {OUTPUT_LAYER} "
            f"gives {', '.join(sorted(output_layer().input_names))} (mixed precisions?)"
        )
    for name, session in ((ENCODER, encoder), (DECODER, decoder)):
        try:
            recorded = session.get_modelmeta().custom_metadata_map.get(TOKENIZER_CHECKSUM)
        except UnicodeDecodeError:
            raise ModelFolderError(f"{folder / name}: unreadable metadata") from None
        if recorded is not None and recorded != manifest.files[TOKENIZER]:
            raise ModelFolderError(f"{folder / TOKENIZER}: not the tokenizer {name} was exported with")
