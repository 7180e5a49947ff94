"""int8 dynamic quantization of an exported model folder (weights int8, activations quantized
at run time, one scale per row). The decoder step is plain MatMul/Gemm, so onnxruntime's quantizer
covers every product with a constant weight, and the embedding tables (Gather: int8 with one scale
per table, the gathered rows dequantized, a fixed rescale the same in any batch; en-de Transformer
25 → 14 MB, BLEU unchanged, docs/studies/SPEED-HISTORY.md). The output layer is a graph input, since a
shortlist picks its rows, and the quantizer leaves a product with a fed weight alone: `int8_output_product`
rewrites it by hand (activations quantized per step, int8 × int8 → int32, then the two scales),
and output_layer.npz holds int8 rows with per-row scales (runtime/output_layer.py). The encoder's
GRU/LSTM ops stay fp32 (onnxruntime does not quantize GRU).

onnxruntime's DynamicQuantizeLinear takes one scale and zero point for the whole tensor, that is
over every sentence of the batch, so a sentence's rounding, and so its translation, would depend
on its batch companions. `rowwise_activations` replaces each of them with a symmetric quantization
of every row (the last axis: one hypothesis, or one source position) by its own largest magnitude:
q = round(x · 127 / max|x|) + 128 as uint8 with the zero point 128, so that MatMulInteger, exact in
int32, and the rescale give each row a result that depends on that row alone. The output layer of a
Transformer reads a LayerNormalization, whose values have a bound known from its weights: its
activations are quantized on that one fixed scale instead (`bounded_output_product`), the same
for every row, which lets onnxruntime's kernel add the bias and apply every scale in one pass.
"""

from __future__ import annotations

import logging
import shutil
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic

from attn.export.graphs.calibrated_scales import CALIBRATED_ENCODER_SCALES, activation_peaks, calibrated_activations
from attn.export.graphs.graph_edits import constants, drop_unread, producers, readers
from attn.export.graphs.graph_metadata import record_tokenizer
from attn.export.graphs.staging import staged_folder, write_derived_manifest
from attn.runtime.constants import DECODER, ENCODER, OUTPUT_LAYER
from attn.runtime.errors import UsageError
from attn.runtime.graph_contract import OUTPUT_BIAS, OUTPUT_SCALE, OUTPUT_WEIGHT
from attn.runtime.manifest import read_manifest
from attn.runtime.output_layer import INT8_LIMIT, OutputLayer


def int8_output_product(decoder_file: Path) -> None:
    """Rewrite, in place, the decoder's MatMul(x (B, R), output_weight (R, C)) into
    DynamicQuantizeLinear(x) → MatMulInteger with an int8 output_weight → Cast → × (x's scale ·
    output_scale (C,)), output_scale being a new input: the per-row scales of the chosen rows."""
    model = onnx.load(str(decoder_file))
    graph = model.graph
    [product] = [node for node in graph.node if node.op_type == "MatMul" and node.input[1] == OUTPUT_WEIGHT]
    position = list(graph.node).index(product)
    activations, result = product.input[0], product.output[0]
    rewritten = [
        helper.make_node("DynamicQuantizeLinear", [activations], ["output_x_q", "output_x_scale", "output_x_zero"]),
        helper.make_node("MatMulInteger", ["output_x_q", OUTPUT_WEIGHT, "output_x_zero"], ["output_int32"]),
        helper.make_node("Cast", ["output_int32"], ["output_float"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["output_x_scale", OUTPUT_SCALE], ["output_scales"]),
        helper.make_node("Mul", ["output_float", "output_scales"], [result]),
    ]
    graph.node.remove(product)
    for offset, node in enumerate(rewritten):
        graph.node.insert(position + offset, node)
    [weight] = [value for value in graph.input if value.name == OUTPUT_WEIGHT]
    weight.type.tensor_type.elem_type = TensorProto.INT8
    graph.input.append(helper.make_tensor_value_info(OUTPUT_SCALE, TensorProto.FLOAT, ["candidates"]))
    onnx.save(model, str(decoder_file))


def fused_output_rescale(decoder_file: Path) -> bool:
    """Rewrite, in place, the per-row int8 output product MatMulInteger(q, output_weight) → Cast →
    Mul(·, Div(m, 127 / output_scale)), four passes over the (N, C) scores and an (N, C) matrix of
    scales, into MatMulIntegerToFloat(q, output_weight, 1, output_scale) → Mul(·, m / 127): the
    column scales applied inside the product (onnxruntime's kernel), the row's after it. The same
    numbers, rounded in another order; each row still depends on that row alone. Returns whether
    there was such a product (an int8 decoder of attn before this rewrite, or one just quantized)."""
    model = onnx.load(str(decoder_file))
    graph = model.graph
    products = [n for n in graph.node if n.op_type == "MatMulInteger" and n.input[1] == OUTPUT_WEIGHT]
    if not products:
        return False
    [product] = products
    [cast] = readers(graph, product.output[0])
    [rescale] = readers(graph, cast.output[0])
    [scales] = [name for name in rescale.input if name != cast.output[0]]
    [scales_node] = [n for n in graph.node if scales in n.output]
    assert cast.op_type == "Cast" and rescale.op_type == "Mul" and scales_node.op_type == "Div", (
        "not a per-row output product"
    )
    largest = scales_node.input[0]
    graph.initializer.extend(
        [
            helper.make_tensor("output_unit_scale", TensorProto.FLOAT, [], [1.0]),
            helper.make_tensor("output_row_limit", TensorProto.FLOAT, [], [float(INT8_LIMIT)]),
        ]
    )
    fused = [
        helper.make_node(
            "MatMulIntegerToFloat",
            [product.input[0], OUTPUT_WEIGHT, "output_unit_scale", OUTPUT_SCALE, product.input[2]],
            ["output_column_scaled"],
            domain="com.microsoft",
        ),
        helper.make_node("Div", [largest, "output_row_limit"], ["output_row_scale"]),
        helper.make_node("Mul", ["output_column_scaled", "output_row_scale"], [rescale.output[0]]),
    ]
    position = list(graph.node).index(rescale)
    for offset, node in enumerate(fused):
        graph.node.insert(position + 1 + offset, node)
    for node in (product, cast, rescale):
        graph.node.remove(node)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    drop_unread(graph)
    onnx.save(model, str(decoder_file))
    return True


def layer_norm_bound(gain: np.ndarray, shift: np.ndarray) -> float:
    """The largest magnitude any element of LayerNormalization's output γ·n + β can take, over
    every input: n, a row of d elements normalized to mean 0 and mean square at most 1, has no
    element beyond √(d − 1) (all of the others equal and opposite to it), so
    |γ_j·n_j + β_j| ≤ |γ_j|·√(d − 1) + |β_j|."""
    return float(np.max(np.abs(gain) * np.sqrt(gain.size - 1) + np.abs(shift)))


def bounded_output_product(decoder_file: Path) -> bool:
    """Rewrite, in place, the int8 output product of a decoder whose output layer reads a
    LayerNormalization (every Transformer of attn: the decoder's final norm) so that its
    activations are quantized with one fixed scale, layer_norm_bound / 127: no row can exceed the
    bound, so none is clipped, and a fixed scale is the same for every row of every batch. The
    product then takes that scale, the column scales and the bias in one kernel,
    MatMulIntegerToFloat(q, output_weight, bound / 127, output_scale, bias = output_bias), where
    the per-row scale needed four nodes over the (N, R) activations before it and a Mul and an Add
    over the (N, C) scores after it. The scores move by a rounding of the activations (the shipped
    models' BLEU by 0.14 at most: docs/studies/SPEED-HISTORY.md). Returns whether the graph
    had such a product."""
    model = onnx.load(str(decoder_file))
    graph = model.graph
    writer_of = producers(graph)
    known = constants(graph)
    products = [n for n in graph.node if n.op_type == "MatMulIntegerToFloat" and n.input[1] == OUTPUT_WEIGHT]
    if len(products) != 1:
        return False
    [product] = products
    quantize = writer_of.get(product.input[0])
    unit = writer_of.get(quantize.input[0]) if quantize is not None and quantize.op_type == "QuantizeLinear" else None
    norm = writer_of.get(unit.input[0]) if unit is not None and unit.op_type == "Div" else None
    rescales = readers(graph, product.output[0])
    biases = readers(graph, rescales[0].output[0]) if len(rescales) == 1 and rescales[0].op_type == "Mul" else []
    if (
        norm is None
        or norm.op_type != "LayerNormalization"
        or len(norm.input) < 3
        or not all(name in known for name in norm.input[1:3])
        or any(a.name == "axis" and a.i != -1 for a in norm.attribute)
        or len(biases) != 1
        or biases[0].op_type != "Add"
        or OUTPUT_BIAS not in biases[0].input
    ):
        return False
    [add] = biases
    scale = layer_norm_bound(known[norm.input[1]], known[norm.input[2]]) / INT8_LIMIT
    graph.initializer.append(helper.make_tensor("output_bound_scale", TensorProto.FLOAT, [], [scale]))
    zero = product.input[4]
    bounded = [
        helper.make_node("QuantizeLinear", [norm.output[0], "output_bound_scale", zero], ["output_x_bounded"]),
        helper.make_node(
            "MatMulIntegerToFloat",
            ["output_x_bounded", OUTPUT_WEIGHT, "output_bound_scale", OUTPUT_SCALE, zero, "", OUTPUT_BIAS],
            [add.output[0]],
            domain="com.microsoft",
        ),
    ]
    position = list(graph.node).index(product)
    for offset, node in enumerate(bounded):
        graph.node.insert(position + offset, node)
    for node in (product, rescales[0], add):
        graph.node.remove(node)
    drop_unread(graph)
    onnx.save(model, str(decoder_file))
    return True


def squeezed_step_scores(decoder_file: Path) -> bool:
    """Rewrite, in place, the Gather(scores (N, 1, C), 0, axis 1) with which older decoders
    took their one step's scores into a Squeeze of that axis, as new exports do: the same (N, C) values without copying them. Returns whether there was such a Gather."""
    model = onnx.load(str(decoder_file))
    graph = model.graph
    known = constants(graph)
    scores = {n.output[0] for n in graph.node if OUTPUT_BIAS in n.input}
    gathers = [
        n
        for n in graph.node
        if n.op_type == "Gather"
        and n.input[0] in scores
        and any(a.name == "axis" and a.i == 1 for a in n.attribute)
        and (index := known.get(n.input[1])) is not None
        and index.ndim == 0
        and int(index) == 0
    ]
    if len(gathers) != 1:
        return False
    [gather] = gathers
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if opset >= 13:
        graph.initializer.append(helper.make_tensor("step_axis", TensorProto.INT64, [1], [1]))
        squeeze = helper.make_node("Squeeze", [gather.input[0], "step_axis"], [gather.output[0]])
    else:
        squeeze = helper.make_node("Squeeze", [gather.input[0]], [gather.output[0]], axes=[1])
    graph.node.insert(list(graph.node).index(gather), squeeze)
    graph.node.remove(gather)
    drop_unread(graph)
    onnx.save(model, str(decoder_file))
    return True


ROW_ZERO_POINT = 128  # uint8 codes of a symmetric quantization: round(x / scale) + 128
NARROW = 8  # products with fewer output columns stay fp32: quantizing their input costs more than it saves


def rowwise_activations(graph_file: Path) -> int:
    """Rewrite, in place, the graph's dynamically quantized products so that every row (the last
    axis: one hypothesis, or one source position) is quantized on its own; returns how many
    DynamicQuantizeLinear nodes were rewritten.

    A product with fewer than NARROW output columns (the additive attention's vᵀ tanh(…) over
    B·S rows) goes back to an fp32 MatMul with its dequantized weight. Every other
    DynamicQuantizeLinear(x) → (q, scale, zero) becomes five nodes:
    m = max(max|x| over the last axis, tiny) (…, 1); q = QuantizeLinear(x / m, 1/127, 128) (uint8:
    × 127, round, + 128, saturate in one pass), its zero point the shared scalar 128; and each
    product's rescale Mul(int32 as float, Mul(scale, w_scale)) reads Div(m, 127 / w_scale)
    instead, (…, 1) broadcast over the columns (`_row_rescales`)."""
    model = onnx.load(str(graph_file))
    graph = model.graph
    _narrow_products_to_fp32(graph)
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    shared = [
        helper.make_tensor("row_q_step", TensorProto.FLOAT, [], [1.0 / INT8_LIMIT]),
        helper.make_tensor("row_q_tiny", TensorProto.FLOAT, [], [1e-30]),
        helper.make_tensor("row_q_zero", TensorProto.UINT8, [], [ROW_ZERO_POINT]),
    ]
    rewritten = 0
    for node in list(graph.node):
        if node.op_type != "DynamicQuantizeLinear":
            continue
        [x], (q, scale, zero) = node.input, node.output
        tag = f"{q}_row"
        if opset >= 18:
            graph.initializer.append(helper.make_tensor(f"{tag}_axes", TensorProto.INT64, [1], [-1]))
            reduce_max = helper.make_node("ReduceMax", [f"{tag}_abs", f"{tag}_axes"], [f"{tag}_max"], keepdims=1)
        else:
            reduce_max = helper.make_node("ReduceMax", [f"{tag}_abs"], [f"{tag}_max"], axes=[-1], keepdims=1)
        largest = f"{tag}_largest"
        nodes = [
            helper.make_node("Abs", [x], [f"{tag}_abs"]),
            reduce_max,
            helper.make_node("Max", [f"{tag}_max", "row_q_tiny"], [largest]),
            helper.make_node("Div", [x, largest], [f"{tag}_unit"]),
            helper.make_node("QuantizeLinear", [f"{tag}_unit", "row_q_step", "row_q_zero"], [q]),
        ]
        for reader in graph.node:  # the zero point is the shared constant
            reader.input[:] = ["row_q_zero" if name == zero else name for name in reader.input]
        _row_rescales(graph, scale, largest)
        position = list(graph.node).index(node)
        graph.node.remove(node)
        for offset, new in enumerate(nodes):
            graph.node.insert(position + offset, new)
        rewritten += 1
    if rewritten:
        graph.initializer.extend(shared)
    drop_unread(graph)
    onnx.save(model, str(graph_file))
    return rewritten


def row_divisor(weight_scale: str) -> str:
    """The name of the initializer INT8_LIMIT / w_scale that `_row_rescales` writes for the
    weight scale named `weight_scale` (export/training/exported_weights.py reads the scale back from it)."""
    return f"{weight_scale}_row_divisor"


def _row_rescales(graph: onnx.GraphProto, scale: str, largest: str) -> None:
    """Each Mul(scale, w_scale) that rescales a product (scale = the activations' per-tensor
    scale) becomes Div(largest, 127 / w_scale): the row's scale times the weight's. A Div, not a
    Mul, on purpose: onnxruntime's MatMulIntegerToFloat fusion looks for a Mul there, and its
    kernel takes the activation scale as one number, so it would apply the first row's scale to
    every row."""
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    combined_nodes = [n for n in graph.node if scale in n.input]
    assert all(n.op_type == "Mul" for n in combined_nodes), "an activation scale read by something else than a rescale"
    for combined in combined_nodes:
        [weight_scale] = [name for name in combined.input if name != scale]
        divisor = row_divisor(weight_scale)
        if divisor in initializers or any(divisor in n.output for n in graph.node):
            pass  # made for an earlier product with the same weight scale
        elif weight_scale in initializers:
            value = numpy_helper.to_array(initializers[weight_scale]).astype(np.float32)
            graph.initializer.append(numpy_helper.from_array((INT8_LIMIT / value).astype(np.float32), divisor))
            initializers[divisor] = graph.initializer[-1]
        else:  # fed at run time (the output layer's per-row scales)
            graph.initializer.append(helper.make_tensor(f"{divisor}_limit", TensorProto.FLOAT, [], [float(INT8_LIMIT)]))
            graph.node.insert(
                list(graph.node).index(combined), helper.make_node("Div", [f"{divisor}_limit", weight_scale], [divisor])
            )
        combined.op_type = "Div"
        combined.input[:] = [largest, divisor]


def _narrow_products_to_fp32(graph: onnx.GraphProto) -> None:
    """Replace each quantized product whose constant int8 weight has fewer than NARROW columns,
    MatMulInteger(q(x), W) → Cast → Mul(·, x_scale · w_scale), by MatMul(x, (W - w_zero) · w_scale),
    then drop the nodes nothing reads any more."""
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    producer = {output: node for node in graph.node for output in node.output}
    reading: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            reading.setdefault(name, []).append(node)
    for product in [n for n in graph.node if n.op_type == "MatMulInteger" and n.input[1] in initializers]:
        weight = numpy_helper.to_array(initializers[product.input[1]])
        if weight.ndim != 2 or weight.shape[1] >= NARROW:
            continue
        [cast] = reading[product.output[0]]
        [rescale] = reading[cast.output[0]]
        scales = producer[rescale.input[1]]  # Mul(x_scale, w_scale)
        quantizer = producer[product.input[0]]
        w_scale = numpy_helper.to_array(initializers[scales.input[1]])
        w_zero = numpy_helper.to_array(initializers[product.input[3]]) if len(product.input) > 3 else 0
        dequantized = ((weight.astype(np.float32) - w_zero) * w_scale).astype(np.float32)
        name = f"{product.input[1]}_fp32"
        graph.initializer.append(numpy_helper.from_array(dequantized, name))
        matmul = helper.make_node("MatMul", [quantizer.input[0], name], [rescale.output[0]])
        graph.node.insert(list(graph.node).index(rescale), matmul)
        for node in (product, cast, rescale):
            graph.node.remove(node)


@contextmanager
def _without_preprocessing_advice():
    """Drop onnxruntime's "consider pre-processing before quantization" warning, which it logs
    once per graph: attn quantizes its graphs as exported on purpose (shape inference and graph
    optimization before quantizing are not what the int8 scores in docs/model-history.md measured),
    so the advice is noise on the user's stderr."""

    def keep(record: logging.LogRecord) -> bool:
        return "pre-processing before quantization" not in record.getMessage()

    root = logging.getLogger()
    root.addFilter(keep)
    try:
        yield
    finally:
        root.removeFilter(keep)


def quantize_folder(source: Path, out: Path, calibration: dict[tuple[str, str], list[str]] | None = None) -> dict:
    """Write an int8 copy of the model folder `source` to `out` (atomically); returns the sizes.
    An int8 folder of an earlier attn (activations quantized per tensor, or the output product
    rescaled in four passes) is brought up to today's graphs, its int8 weights unchanged. With
    `calibration` (source texts by the direction that reads them: calibration_sources), the
    encoder's activations take fixed scales calibrated on them (export/graphs/calibrated_scales.py)."""
    if out.resolve() == source.resolve():  # the fp32 folder would be gone
        raise UsageError(f"--out {out} is the model being quantized; write the int8 copy to another folder")
    manifest = read_manifest(source)
    already_int8 = manifest.int8
    if already_int8 and calibration:  # its encoder's scales had been left as they were, without a word
        raise UsageError(f"{source} is int8 already: --calibrate calibrates the fp32 folder it was made from")
    with staged_folder(out) as staging:
        for name in manifest.files:
            if already_int8 or name not in (ENCODER, DECODER, OUTPUT_LAYER):
                shutil.copyfile(source / name, staging / name)
        if not already_int8:
            OutputLayer.load(source / OUTPUT_LAYER).quantized().save(staging / OUTPUT_LAYER)
            for name in (ENCODER, DECODER):
                # Handed a graph (not a path), onnxruntime infers shapes in a temporary folder
                # instead of writing `<name>-inferred.onnx` beside the source: the source folder
                # may be read-only (an installed model) or read by another process meanwhile.
                with _without_preprocessing_advice():
                    quantize_dynamic(
                        onnx.load(source / name),
                        staging / name,
                        weight_type=QuantType.QInt8,
                        op_types_to_quantize=["MatMul", "Gemm", "Gather"],
                    )
            int8_output_product(staging / DECODER)
        for name in (ENCODER, DECODER):
            rowwise_activations(staging / name)
        fused_output_rescale(staging / DECODER)
        bounded_output_product(staging / DECODER)
        squeezed_step_scores(staging / DECODER)
        record_tokenizer(staging)
        # an int8 folder brought up to date keeps its scales (a calibrated encoder had been relabelled "row")
        scales = manifest.architecture.get("activation_scales", "row") if already_int8 else "row"
        write_derived_manifest(
            source, staging, list(manifest.files), {"precision": "int8", "activation_scales": scales}
        )
        if calibration and calibrated_activations(staging / ENCODER, activation_peaks(staging, calibration)):
            write_derived_manifest(
                staging, staging, list(manifest.files), {"activation_scales": CALIBRATED_ENCODER_SCALES}
            )
    quantized = (ENCODER, DECODER, OUTPUT_LAYER)
    return {name: (source / name).stat().st_size for name in quantized} | {
        f"{name} int8": (out / name).stat().st_size for name in quantized
    }
