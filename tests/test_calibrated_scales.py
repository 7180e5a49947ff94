"""The encoder's activations on fixed scales calibrated on source text (attn quantize --calibrate,
export/graphs/calibrated_scales.py): every product one fused node, a sentence still encoded alone as in
any batch, the task still learned."""

import numpy as np
import onnx
import pytest
import torch

from attn.export.graphs.calibrated_scales import (
    CALIBRATED_ENCODER_SCALES,
    activation_peaks,
    calibrated_activations,
    calibration_sources,
    row_quantizations,
)
from attn.export.graphs.quantize import quantize_folder
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.search import SearchOptions
from attn.runtime.tsv import read_tsv

from .conftest import ROOT
from .forked_cli import run_attn

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def folders(transformer_model, reverse_test_rows, tmp_path_factory):
    """The reverse Transformer in int8 with per-row scales, and with the encoder calibrated on
    test rows the checks below do not read."""
    root = tmp_path_factory.mktemp("calibrated")
    quantize_folder(transformer_model, root / "row")
    pair = read_manifest(transformer_model).pairs[0]
    quantize_folder(transformer_model, root / "calibrated", {pair: [row.source for row in reverse_test_rows[100:300]]})
    return root / "row", root / "calibrated"


def ops(folder, name="encoder.onnx"):
    return [node.op_type for node in onnx.load(str(folder / name)).graph.node]


def test_every_encoder_product_is_one_fused_node(folders):
    row, calibrated = folders
    assert ops(row).count("MatMulInteger") > 0 and "MatMulIntegerToFloat" not in ops(row)
    assert ops(calibrated).count("MatMulIntegerToFloat") == ops(row).count("MatMulInteger")
    assert not {"MatMulInteger", "Abs", "ReduceMax"} & set(ops(calibrated))  # no per-row maxima left
    assert ops(calibrated, "decoder.onnx") == ops(row, "decoder.onnx")  # the decoder keeps its per-row scales
    assert read_manifest(calibrated).architecture["activation_scales"] == CALIBRATED_ENCODER_SCALES
    assert read_manifest(row).architecture["activation_scales"] == "row"


def test_the_calibrated_model_still_reverses(folders, reverse_test_rows):
    _, calibrated = folders
    rows = reverse_test_rows[:50]
    outputs = LoadedModel(calibrated, threads=1).translate([row.source for row in rows], SearchOptions(beam=5))
    assert sum(o[0].text == row.target for o, row in zip(outputs, rows)) >= 45


@pytest.mark.parametrize("beam", [1, 5])
def test_a_sentence_translates_alone_as_in_a_batch(folders, reverse_test_rows, beam):
    _, calibrated = folders
    translator = LoadedModel(calibrated, threads=1)
    sources = [row.source for row in reverse_test_rows[:24]]
    together = translator.translate(sources, SearchOptions(beam=beam))
    alone = [translator.translate([source], SearchOptions(beam=beam))[0] for source in sources]
    assert [t[0].text for t in together] == [t[0].text for t in alone]
    # the attention's softmax sums a padded row in another order: scores agree to rounding
    np.testing.assert_allclose([t[0].score for t in together], [t[0].score for t in alone], rtol=1e-5)


def test_peaks_are_the_largest_row_maxima_and_become_the_scales(folders, reverse_test_rows, tmp_path):
    row, _ = folders
    texts = [r.source for r in reverse_test_rows[100:140]]
    pair = read_manifest(row).pairs[0]
    peaks = activation_peaks(row, {pair: texts})
    assert set(peaks) == set(row_quantizations(onnx.load(str(row / "encoder.onnx")).graph))
    assert all(value > 0 for value in peaks.values())
    fewer = activation_peaks(row, {pair: texts[:5]})  # a maximum over fewer rows (padded otherwise: rounding aside)
    assert all(fewer[name] <= peaks[name] * (1 + 1e-5) for name in peaks)
    encoder = tmp_path / "encoder.onnx"
    encoder.write_bytes((row / "encoder.onnx").read_bytes())
    assert calibrated_activations(encoder, peaks) == len(peaks)
    initializers = {t.name: onnx.numpy_helper.to_array(t) for t in onnx.load(str(encoder)).graph.initializer}
    for name, peak in peaks.items():
        np.testing.assert_allclose(initializers[f"{name}_calibrated_scale"], np.float32(peak / 127))
    assert calibrated_activations(encoder, peaks) == 0  # nothing left to calibrate


def quantize_cli(model, out, *options):
    return run_attn(["quantize", str(model), "--out", str(out), *map(str, options)], timeout=300)


def test_attn_quantize_reads_the_calibration_files_either_way_round(transformer_model, tmp_path):
    pairs = [("a0", "g2 f1 e0 d3 c2 b1 a0 g2 f1"), ("d3 e0", "c2 b1 a0 g2 f1 e0 d3")]
    corpus, swapped_corpus = tmp_path / "calibration.tsv", tmp_path / "swapped.tsv"
    corpus.write_text("".join(f"{a}\t{b}\n" for a, b in pairs))
    swapped_corpus.write_text("".join(f"{b}\t{a}\n" for a, b in pairs))
    for out, options in (
        ("first", ["--calibrate", corpus]),
        ("second", ["--calibrate", corpus, "--swap-columns"]),
        ("second-by-hand", ["--calibrate", swapped_corpus]),
    ):
        result = quantize_cli(transformer_model, tmp_path / out, *options)
        assert result.returncode == 0, result.stderr.decode()
    assert read_manifest(tmp_path / "first").architecture["activation_scales"] == CALIBRATED_ENCODER_SCALES
    encoder = {name: (tmp_path / name / "encoder.onnx").read_bytes() for name in ("first", "second", "second-by-hand")}
    assert encoder["second"] == encoder["second-by-hand"] != encoder["first"]
    blank = tmp_path / "blank.tsv"
    blank.write_text("\t\n \tx\n")
    for bad in (tmp_path / "absent.tsv", blank):
        refused = quantize_cli(transformer_model, tmp_path / "other", "--calibrate", bad)
        assert refused.returncode != 0 and b"Traceback" not in refused.stderr
        assert len(refused.stderr.decode().strip().splitlines()) == 1
        assert not (tmp_path / "other").exists()


def test_a_model_of_both_ways_calibrates_on_both_columns(both_ways_model, tmp_path):
    """One encoder reads both languages, each source behind its target's token: calibration reads
    each column of the corpus as the direction out of its language would (not as the default's)."""
    corpus = ROOT / "tests" / "fixtures" / "rotate" / "test.tsv"
    rows = read_tsv(corpus)
    sources = calibration_sources([corpus], read_manifest(both_ways_model))
    assert sources == {("sym", "rot"): [row.source for row in rows], ("rot", "sym"): [row.target for row in rows]}
    assert calibration_sources([corpus], read_manifest(both_ways_model), swap_columns=True) == {
        ("sym", "rot"): [row.target for row in rows],
        ("rot", "sym"): [row.source for row in rows],
    }
    row = tmp_path / "row"
    quantize_folder(both_ways_model, row)
    backwards = activation_peaks(row, {("rot", "sym"): sources[("rot", "sym")]})
    assert backwards != activation_peaks(row, {("sym", "rot"): sources[("rot", "sym")]})  # the token tells
    both = activation_peaks(row, sources)
    forwards = activation_peaks(row, {("sym", "rot"): sources[("sym", "rot")]})
    for name, peak in both.items():  # each the larger of the two ways (padded otherwise: rounding aside)
        assert peak == pytest.approx(max(forwards[name], backwards[name]), rel=1e-5)


def test_a_model_of_one_direction_calibrates_on_its_source_column(transformer_model):
    corpus = ROOT / "tests" / "fixtures" / "rotate" / "test.tsv"
    rows = read_tsv(corpus)
    assert calibration_sources([corpus], read_manifest(transformer_model), swap_columns=True) == {
        tuple(read_manifest(transformer_model).pairs[0]): [row.target for row in rows]
    }


@pytest.mark.integration
def test_a_calibrated_folder_gives_back_the_same_weights_as_its_per_row_twin(folders):
    """A run that starts from a calibrated folder (`[train] init_from`) takes every weight: the
    fused products hold the same int8 weights and scales as the per-row folder's."""
    from attn.export.training.exported_weights import exported_weights

    row, calibrated = folders
    per_row, fused = exported_weights(row), exported_weights(calibrated)
    assert set(fused) == set(per_row)
    for name, value in per_row.items():
        torch.testing.assert_close(fused[name], value, rtol=1e-6, atol=1e-7, msg=name)


def test_a_calibrated_int8_folder_quantized_again_keeps_its_scales_and_refuses_calibrating(
    folders, reverse_test_rows, tmp_path
):
    """Brought up to date again, a calibrated folder had been relabelled "row" (its graphs the same),
    and --calibrate on an int8 folder had been ignored without a word (a newcomer's trial)."""
    from attn.runtime.errors import UsageError

    _, calibrated = folders
    quantize_folder(calibrated, tmp_path / "again")
    assert read_manifest(tmp_path / "again").architecture["activation_scales"] == CALIBRATED_ENCODER_SCALES
    assert (tmp_path / "again" / "encoder.onnx").read_bytes() == (calibrated / "encoder.onnx").read_bytes()
    pair = read_manifest(calibrated).pairs[0]
    with pytest.raises(UsageError, match="is int8 already: --calibrate calibrates the fp32 folder"):
        quantize_folder(calibrated, tmp_path / "twice", {pair: [row.source for row in reverse_test_rows[:20]]})
    assert not (tmp_path / "twice").exists()
