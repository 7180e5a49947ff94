"""Export: graph contents, manifest, padding invariance, refusal on mismatch, atomic replacement."""

import json
import shutil

import numpy as np
import onnx
import pytest
import torch

from attn.export.graphs import onnx_export
from attn.runtime.manifest import read_manifest, sha256_of
from attn.runtime.sessions import create_session

from .conftest import REVERSE_CONFIG, REVERSE_TRANSFORMER_CONFIG, ROOT
from .forked_cli import run_attn

pytestmark = pytest.mark.integration


def test_manifest_describes_the_folder(reverse_model):
    manifest = read_manifest(reverse_model)
    assert manifest.task == "translate"
    assert [(s.name, s.kind) for s in manifest.state_specs] == [  # GRU, Luong style
        ("memory", "source"),
        ("keys", "source"),
        ("hidden", "row"),
        ("feed", "row"),
    ]
    for name, checksum in manifest.files.items():
        assert sha256_of(reverse_model / name) == checksum
    assert manifest.training["max_onnx_difference"] < onnx_export.TOLERANCE


def test_decoder_step_is_matmuls_not_rnn_ops(reverse_model):
    ops = {node.op_type for node in onnx.load(str(reverse_model / "decoder.onnx")).graph.node}
    assert ops & {"MatMul", "Gemm"}
    assert not ops & {"GRU", "LSTM", "RNN"}


def test_a_sentence_encodes_the_same_alone_and_in_a_padded_batch(reverse_model):
    encoder = create_session(reverse_model / "encoder.onnx", threads=1)
    ids = np.array([[5, 9, 7, 3, 0, 0], [6, 8, 10, 11, 12, 3]], dtype=np.int64)
    mask = (ids != 0).astype(np.int64)
    batched = encoder.run(None, {"source_ids": ids, "source_mask": mask})
    alone = encoder.run(None, {"source_ids": ids[:1, :4], "source_mask": mask[:1, :4]})
    for together, single in zip(batched, alone):
        if together.ndim == 3:
            together = together[:, :4]
        np.testing.assert_allclose(together[:1], single, atol=1e-5)


def test_mismatch_is_refused_and_the_old_folder_kept(reverse_run, tmp_path, monkeypatch):
    trainer, folder = reverse_run
    out = tmp_path / "model"
    shutil.copytree(folder, out)
    before = (out / "manifest.json").read_text()
    monkeypatch.setattr(onnx_export, "TOLERANCE", -1.0)
    with pytest.raises(onnx_export.ExportError, match="differs from PyTorch"):
        onnx_export.export_model(trainer.model, trainer.config, trainer.workdir / "tokenizer.json", out, {})
    assert (out / "manifest.json").read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["model"]  # no staging folder left behind


def test_non_finite_weights_are_refused_at_export(reverse_run, tmp_path):
    """NaN gave "max |difference| 0" (max(0, nan) is 0) and a NaN model was written."""
    import copy

    trainer, _ = reverse_run
    model = copy.deepcopy(trainer.model)
    with torch.no_grad():
        model.embedding.weight.fill_(float("nan"))
    with pytest.raises(onnx_export.ExportError, match="not finite"):
        onnx_export.export_model(model, trainer.config, trainer.workdir / "tokenizer.json", tmp_path / "nan", {})
    assert not (tmp_path / "nan").exists()


def test_export_replaces_an_existing_model_folder_whole(reverse_run, tmp_path):
    trainer, folder = reverse_run
    out = tmp_path / "model"
    shutil.copytree(reverse_run[1], out)
    (out / "lexicon.npz").write_text("a stale file of a model folder")
    onnx_export.export_model(trainer.model, trainer.config, trainer.workdir / "tokenizer.json", out, {"note": 1})
    assert not (out / "lexicon.npz").exists()
    assert json.loads((out / "manifest.json").read_text())["training"]["note"] == 1


def test_graphs_match_pytorch_on_a_long_batch(reverse_run):
    trainer, folder = reverse_run
    with torch.no_grad():
        largest = onnx_export.verify(trainer.model.eval(), folder, seed=7)
    assert largest < onnx_export.TOLERANCE


def test_int8_copy_quantizes_the_decoder_and_still_reverses(reverse_model, reverse_test_rows, tmp_path):
    from attn.export.graphs.quantize import quantize_folder
    from attn.runtime.loaded_model import LoadedModel
    from attn.runtime.search import SearchOptions

    out = tmp_path / "int8"
    quantize_folder(reverse_model, out)
    ops = [node.op_type for node in onnx.load(str(out / "decoder.onnx")).graph.node]
    assert "MatMulInteger" in ops and "DynamicQuantizeLinear" not in ops  # activations scaled per row
    assert ops.count("QuantizeLinear") >= 3
    manifest = read_manifest(out)
    assert manifest.architecture["precision"] == "int8" and manifest.architecture["activation_scales"] == "row"
    rows = reverse_test_rows[:50]
    outputs = LoadedModel(out, threads=1).translate([row.source for row in rows], SearchOptions(beam=5))
    assert sum(o[0].text == row.target for o, row in zip(outputs, rows)) >= 45


def test_int8_graphs_compute_the_same_with_and_without_graph_optimizations(reverse_model, tmp_path):
    """onnxruntime's fusions must not change what the per-row quantized graph computes (its
    MatMulIntegerToFloat fusion reads one activation scale and once applied row 0's to every row)."""
    import onnxruntime

    from attn.export.graphs.quantize import quantize_folder
    from attn.runtime.output_layer import OutputLayer

    out = tmp_path / "int8"
    quantize_folder(reverse_model, out)
    rng = np.random.default_rng(0)
    batch, source = 5, 7
    outputs = []
    for level in (
        onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL,
        onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL,
    ):
        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = level
        session = onnxruntime.InferenceSession(str(out / "decoder.onnx"), options, providers=["CPUExecutionProvider"])
        feeds = OutputLayer.load(out / "output_layer.npz").rows(None)
        for value in session.get_inputs():
            if value.name in feeds:
                continue
            shape = [batch if d == "batch" else source if d == "source" else d for d in value.shape]
            if value.name == "previous_tokens":
                feeds[value.name] = rng.integers(4, 40, batch)
            elif value.name == "source_mask":
                feeds[value.name] = np.ones((batch, source), np.int64)
            else:
                feeds[value.name] = rng.standard_normal(shape).astype(np.float32)
        rng = np.random.default_rng(0)  # the same feeds for both sessions
        outputs.append(session.run(None, feeds))
    for unoptimized, optimized in zip(*outputs):
        np.testing.assert_allclose(unoptimized, optimized, atol=1e-5)


def test_an_export_without_training_keeps_the_summary_of_a_run_brought_without_its_state(reverse_run, tmp_path):
    """A run folder brought back from another machine with its weights, tokenizer and summary.json
    but not last.pt: `attn export --no-train` wrote a summary of zeros over the run's, in the folder
    and in the exported manifest."""
    trainer, _ = reverse_run
    run = tmp_path / "run"
    run.mkdir()
    for name in ("best.pt", "tokenizer.json", "config.json", "summary.json"):
        shutil.copy(trainer.workdir / name, run / name)
    recorded = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert recorded["steps"] > 0
    result = run_attn(
        ["export", str(REVERSE_CONFIG), "--workdir", str(run), "--no-train", "--out", str(tmp_path / "model")],
        timeout=300,
    )
    assert result.returncode == 0, result.stderr.decode()
    assert json.loads((run / "summary.json").read_text(encoding="utf-8")) == recorded
    assert read_manifest(tmp_path / "model").training["steps"] == recorded["steps"]


@pytest.mark.parametrize("average", [[], ["--average", "3"]])
def test_an_export_without_training_of_a_run_without_weights_is_refused_and_writes_nothing(tmp_path, average):
    """It had set the folder up as a new run's (config, tokenizer, summary) and then failed on a
    missing best.pt, named as Python names a file."""
    run = tmp_path / "no-run"
    result = run_attn(
        ["export", str(REVERSE_CONFIG), "--workdir", str(run), "--no-train", *average, "--out", str(tmp_path / "m")],
        timeout=300,
        text=True,
    )
    assert (
        result.returncode == 2 and "--no-train: " in result.stderr and "to export: train the run first" in result.stderr
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_a_run_blended_with_the_folder_it_started_from_exports_the_mean_of_both(transformer_run, tmp_path):
    """`attn export --blend FOLDER`: each weight the mean of the run's and the folder's (read back
    from its graphs); a folder of another shape is refused in one line."""
    from attn.export.training.exported_weights import exported_weights

    trainer, exported = transformer_run
    run = tmp_path / "run"
    run.mkdir()
    for name in ("best.pt", "tokenizer.json", "config.json", "summary.json"):
        shutil.copy(trainer.workdir / name, run / name)
    zeroed = tmp_path / "zeroed.pt"  # the run's weights, all zero: the blend is then half the folder's
    best = torch.load(run / "best.pt", weights_only=True)
    torch.save({**best, "model": {k: torch.zeros_like(v) for k, v in best["model"].items()}}, zeroed)
    shutil.move(zeroed, run / "best.pt")
    command = ["export", str(REVERSE_TRANSFORMER_CONFIG), "--workdir", str(run), "--no-train"]
    result = run_attn([*command, "--blend", str(exported), "--out", str(tmp_path / "model")], timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    folder, blended = exported_weights(exported), exported_weights(tmp_path / "model")
    for name, value in folder.items():
        torch.testing.assert_close(blended[name], value / 2, atol=1e-6, rtol=1e-5)
    assert read_manifest(tmp_path / "model").training["blended_with"] == exported.name
    other = ROOT / "models" / "en-de"
    refused = run_attn([*command, "--blend", str(other), "--out", str(tmp_path / "x")], timeout=300)
    assert refused.returncode == 2 and b"not of this run's architecture" in refused.stderr
