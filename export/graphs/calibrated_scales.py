"""Fixed activation scales for the encoder's int8 products, calibrated on source text.

`rowwise_activations` (export/graphs/quantize.py) quantizes each row of a product's input by its own
largest magnitude m: Abs, ReduceMax, Max(·, tiny), Div(x, m), QuantizeLinear(·, 1/127, 128), and
each product then rescales its int32 result row by row, MatMulInteger → Cast → Mul(·, m / (127 /
w_scale)) → Add(bias). Over the (B·S, d) activations of an encoder those passes cost more than the
products (en-de's encoder over 32 × 20 pieces: 21.8 ms, 14.1 with the scales below;
benchmarks/encoder_speed.py, docs/studies/SPEED-HISTORY.md). Here each of the encoder's quantizations takes one fixed
scale instead, peak / 127, with `peak` the largest m that activation reached over the calibration
texts (`activation_peaks`): QuantizeLinear(x, peak / 127, 128), a value beyond the peak saturating
at ±127; and each product reading it becomes one MatMulIntegerToFloat(q, W, peak / 127, w_scale,
128, w_zero, bias), scales and bias applied as the kernel writes its output
(`calibrated_activations`). A fixed scale is the same for every row of every batch, so a
sentence's encoding still depends on that sentence alone. The decoder keeps its per-row scales:
its steps run on a few rows each, where the passes cost little.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper

from attn.export.graphs.graph_edits import drop_unread, producers, readers
from attn.runtime.constants import ENCODER
from attn.runtime.errors import UsageError
from attn.runtime.graph_contract import SOURCE_IDS, SOURCE_MASK
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import Manifest
from attn.runtime.output_layer import INT8_LIMIT
from attn.runtime.tsv import read_tsv

CALIBRATION_BATCH = 32  # sources per encoder run while calibrating, sorted by length
CALIBRATED_ENCODER_SCALES = "calibrated encoder, row decoder"  # the manifest's activation_scales


def calibration_sources(
    paths: list[Path], manifest: Manifest, swap_columns: bool = False
) -> dict[tuple[str, str], list[str]]:
    """The non-blank sources of the TSV corpora `paths` to calibrate the model of `manifest` with,
    by the direction that reads them: the first column (the second with `swap_columns`) as sources
    of the model's default direction; for a model that also translates back (its target language
    into its source language), the other column as that direction's sources, since one encoder
    reads both. A UsageError when the default direction gets none."""
    default, *others = manifest.pairs
    rows = [row for path in paths for row in read_tsv(path, swap_columns)]
    sources = {default: [row.source for row in rows if row.source.strip()]}
    if default[::-1] in others:
        sources[default[::-1]] = [row.target for row in rows if row.target.strip()]
    if not sources[default]:
        raise UsageError(f"no source text in {', '.join(map(str, paths))} to calibrate with")
    return sources


def row_quantizations(graph: onnx.GraphProto) -> dict[str, tuple[onnx.NodeProto, onnx.NodeProto]]:
    """Each per-row quantization of `graph` (rowwise_activations' pattern), by the name of its row
    maxima m (…, 1): its Div(x, m) and its QuantizeLinear."""
    writer_of = producers(graph)
    found = {}
    for quantize in graph.node:
        unit = writer_of.get(quantize.input[0]) if quantize.op_type == "QuantizeLinear" else None
        if unit is not None and unit.op_type == "Div" and unit.output[0].endswith("_row_unit"):
            found[unit.input[1]] = (unit, quantize)
    return found


def activation_peaks(folder: Path, sources: dict[tuple[str, str], list[str]]) -> dict[str, float]:
    """The largest row maximum m of each per-row quantization of the int8 folder's encoder over
    `sources`, each direction's texts read as that direction's sources (each cut to the model's
    max_source_pieces): the maxima, (B, S, 1) for source_ids (B, S), taken where source_mask is 1."""
    translator = LoadedModel(folder, threads=1, notify=lambda message: None)
    model = onnx.load(str(folder / ENCODER))
    names = list(row_quantizations(model.graph))
    if not names:
        return {}
    model.graph.output.extend(helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in names)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    ids_of = {pair: translator.towards(*pair).source_ids for pair in sources}
    pieces = sorted(
        (ids_of[pair](text)[: translator.max_source_pieces] for pair, texts in sources.items() for text in texts),
        key=len,
    )
    peaks = dict.fromkeys(names, 0.0)
    for start in range(0, len(pieces), CALIBRATION_BATCH):
        ids, mask = translator.encoder_inputs(pieces[start : start + CALIBRATION_BATCH])
        for name, maxima in zip(names, session.run(names, {SOURCE_IDS: ids, SOURCE_MASK: mask})):
            real = maxima.reshape(mask.shape)[mask.astype(bool)] if maxima.size == mask.size else maxima
            peaks[name] = max(peaks[name], float(real.max(initial=0.0)))
    return peaks


def calibrated_activations(encoder_file: Path, peaks: dict[str, float]) -> int:
    """Rewrite, in place, each per-row quantization of the encoder that `peaks` names, and the
    products that read it, on the fixed scale peak / 127 (module docstring); returns how many
    quantizations were rewritten. A product whose result is read otherwise than through Cast →
    Mul, or whose weight scale is not one number, keeps its nodes and reads the fixed scale."""
    model = onnx.load(str(encoder_file))
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    rewritten = 0
    for largest, (unit, quantize) in row_quantizations(graph).items():
        if not peaks.get(largest):
            continue
        scale = f"{largest}_calibrated_scale"
        graph.initializer.append(numpy_helper.from_array(np.array(peaks[largest] / INT8_LIMIT, np.float32), scale))
        quantize.input[:] = [unit.input[0], scale, quantize.input[2]]
        graph.node.remove(unit)
        for product in [n for n in graph.node if n.op_type == "MatMulInteger" and n.input[0] == quantize.output[0]]:
            _fuse_product(graph, initializers, product, scale)
        # whatever still reads the row maxima (an unfused product's rescale) reads the peak
        peak = f"{largest}_calibrated_peak"
        graph.initializer.append(numpy_helper.from_array(np.array(peaks[largest], np.float32), peak))
        for node in graph.node:
            node.input[:] = [peak if name == largest else name for name in node.input]
        rewritten += 1
    drop_unread(graph)
    if rewritten and not any(entry.domain == "com.microsoft" for entry in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    onnx.save(model, str(encoder_file))
    return rewritten


def _fuse_product(
    graph: onnx.GraphProto, initializers: dict[str, onnx.TensorProto], product: onnx.NodeProto, scale: str
) -> None:
    """MatMulInteger(q, W, 128, w_zero) → Cast → Mul(·, Div(m, 127 / w_scale)) [→ Add(bias)] becomes
    MatMulIntegerToFloat(q, W, scale, w_scale, 128, w_zero[, bias]) when the weight scale is one
    number (row_divisor's initializer 127 / w_scale)."""
    writer_of = producers(graph)
    cast = _only_reader(graph, product.output[0], "Cast")
    rescale = _only_reader(graph, cast.output[0], "Mul") if cast is not None else None
    divide = writer_of.get(next((n for n in rescale.input if n != cast.output[0]), "")) if rescale is not None else None
    divisor = initializers.get(divide.input[1]) if divide is not None and divide.op_type == "Div" else None
    if divisor is None or numpy_helper.to_array(divisor).size != 1:
        return
    weight_scale = f"{divisor.name}_weight_scale"
    if weight_scale not in initializers:
        value = INT8_LIMIT / numpy_helper.to_array(divisor).astype(np.float32)
        initializers[weight_scale] = numpy_helper.from_array(np.asarray(value, np.float32).reshape(()), weight_scale)
        graph.initializer.append(initializers[weight_scale])
    add = _only_reader(graph, rescale.output[0], "Add")
    bias = next((n for n in add.input if n != rescale.output[0]), None) if add is not None else None
    if bias not in initializers:
        add = bias = None
    fused = helper.make_node(
        "MatMulIntegerToFloat",
        [
            product.input[0],
            product.input[1],
            scale,
            weight_scale,
            product.input[2],
            product.input[3],
            *([bias] if bias else []),
        ],
        [(add or rescale).output[0]],
        domain="com.microsoft",
        name=f"{product.name}_calibrated",
    )
    position = list(graph.node).index(product)
    for node in (product, cast, rescale, *([add] if add is not None else [])):
        graph.node.remove(node)
    graph.node.insert(position, fused)


def _only_reader(graph: onnx.GraphProto, name: str, op_type: str) -> onnx.NodeProto | None:
    found = readers(graph, name)
    return found[0] if len(found) == 1 and found[0].op_type == op_type else None
