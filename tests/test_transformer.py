"""The Transformer: it learns the reverse task within its step budget, exports with PyTorch
parity, and its folder runs through the same runtime code as the RNN's (search, alignments,
shortlist, int8, the CLI), which holds no branch per architecture."""

import json
import os
import re
import sys
from pathlib import Path

import onnx
import pytest
import torch

from attn.cli.models_list import describe
from attn.export.config import load_config
from attn.export.graphs.lexicon import learn_shortlist
from attn.export.graphs.onnx_export import beam_rows, export_model, verify
from attn.export.graphs.quantize import quantize_folder
from attn.export.models.transformer import Transformer
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.search import SearchOptions

from .conftest import REVERSE_TRANSFORMER_CONFIG, reverse_config
from .forked_cli import run_attn
from .test_variants import exact_match

ROOT = Path(__file__).resolve().parent.parent
ATTN = [sys.executable, "-m", "attn.cli"]


@pytest.mark.system
def test_it_learns_the_reverse_task_within_its_step_budget(transformer_run, reverse_test_rows):
    trainer, _ = transformer_run
    assert trainer.state["step"] <= reverse_config(config_file=REVERSE_TRANSFORMER_CONFIG).train.max_steps
    assert exact_match(trainer, reverse_test_rows) >= 0.9


@pytest.mark.integration
def test_the_readme_example_decodes(transformer_model):
    result = run_attn(["translate", "--model", str(transformer_model), "a0 b1 c2 d3"], timeout=120)
    assert result.returncode == 0 and result.stdout == b"d3 c2 b1 a0\n"


@pytest.mark.integration
def test_the_manifest_declares_the_architecture_and_the_state_kinds(transformer_model):
    manifest = read_manifest(transformer_model)
    assert manifest.architecture["architecture"] == "transformer" and "cell" not in manifest.architecture
    kinds = {spec.name: spec.kind for spec in manifest.state_specs}
    assert kinds == {
        "cross_keys_0": "sentence",
        "cross_values_0": "sentence",
        "self_keys_0": "cache",
        "self_values_0": "cache",
    }
    assert describe(manifest.architecture, False) == "transformer 2+1 layers, width 64, 4 heads, fp32"


@pytest.mark.integration
def test_attn_models_shows_each_architecture():
    result = run_attn(["models"], timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 0
    assert b"transformer 6+1 layers, width 256, 4 heads, int8" in result.stdout  # en-de
    assert b"transformer 6+1 layers, width 256, 4 heads, int8 +copy" in result.stdout  # summarize


@pytest.mark.integration
@pytest.mark.parametrize(
    "encoder_layers, decoder_layers, heads, copy", [(1, 1, 1, False), (3, 2, 4, False), (2, 2, 4, True)]
)
def test_fresh_models_export_with_parity(transformer_run, tmp_path, encoder_layers, decoder_layers, heads, copy):
    """verify() runs batch sizes 1/3/8 (beams of a sentence together), source lengths 1/6/23,
    ragged masks, three steps over the whole vocabulary and shortlists, and refuses a difference
    above 1e-4; with copy, the decoder graph's log_probs are the pointer-generator's mixture."""
    trainer, _ = transformer_run
    config = load_config(
        REVERSE_TRANSFORMER_CONFIG,
        [
            f"model.encoder_layers={encoder_layers}",
            f"model.decoder_layers={decoder_layers}",
            f"model.heads={heads}",
            "model.alignment_layer=0",
            f"model.copy={str(copy).lower()}",
        ],
    )
    torch.manual_seed(0)
    model = Transformer(config.model, trainer.corpus.tokenizer.vocab_size)
    assert export_model(model, config, trainer.workdir / "tokenizer.json", tmp_path / "model", {}) < 1e-4
    with torch.no_grad():
        assert verify(model.eval(), tmp_path / "model", seed=3) < 1e-4


@pytest.mark.integration
def test_with_the_switch_closed_the_transformer_copies_its_source(transformer_run):
    """p_gen ≈ 0: the step's distribution is the alignment layer's attention put on the source
    pieces, for each of a sentence's beams (rows N = G·k read the G sources)."""
    config = load_config(REVERSE_TRANSFORMER_CONFIG, ["model.copy=true"])
    torch.manual_seed(0)
    model = Transformer(config.model, 300).eval()
    source = torch.tensor([[17, 250, 251, 252, 3, 0], [40, 41, 3, 0, 0, 0]])
    mask = (source != 0).long()
    with torch.no_grad():
        model.switch.bias.fill_(-60.0)
        encoded, mask, source = beam_rows(model.states, model.encode(source, mask), mask, source, beams=2)
        log_probs, _, attention = model.decode_step(torch.tensor([2, 2, 2, 2]), encoded, mask, source)
    for row in range(4):
        sentence = row // 2
        expected = torch.zeros(300).index_add_(0, source[sentence], attention[row])
        torch.testing.assert_close(log_probs[row].exp(), expected, atol=1e-6, rtol=1e-4)


@pytest.mark.integration
def test_teacher_forcing_equals_step_by_step(transformer_run):
    trainer, _ = transformer_run
    model = trainer.model.eval()
    source = torch.tensor([[5, 6, 7, 3, 0], [8, 9, 3, 0, 0]])
    mask = (source != 0).long()
    target = torch.tensor([[2, 7, 6, 5], [2, 9, 8, 3]])
    with torch.no_grad():
        logits, attention = model(source, mask, target)
        encoded = model.encode(source, mask)
        for t in range(target.shape[1]):
            log_probs, grown, step_attention = model.decode_step(target[:, t], encoded, mask, source)
            encoded.update(grown)
            torch.testing.assert_close(log_probs, torch.log_softmax(logits[:, t], dim=-1), atol=1e-5, rtol=1e-5)
            torch.testing.assert_close(step_attention, attention[:, t], atol=1e-6, rtol=1e-5)
    assert encoded["self_keys_0"].shape[2] == target.shape[1]


@pytest.mark.integration
def test_a_sentences_beams_read_its_source_together_as_each_would_alone(transformer_run):
    """decode_step over G sentences × k rows (SENTENCE states once per sentence) gives what the
    same G·k rows give with the source states and mask repeated per row (k = 1)."""
    model = transformer_run[0].model.eval()
    source = torch.tensor([[5, 6, 7, 3, 0], [8, 9, 3, 0, 0]])
    mask = (source != 0).long()
    beams, steps = 3, torch.tensor([[2, 2, 2, 2, 2, 2], [7, 6, 5, 9, 8, 3], [4, 7, 6, 8, 9, 3]])
    with torch.no_grad():
        encoded = model.encode(source, mask)
        per_row = {name: value.repeat_interleave(beams, 0) for name, value in encoded.items()}
        grouped = {name: encoded[name] if name.startswith("cross_") else value for name, value in per_row.items()}
        for previous in steps:
            log_probs, grown, attention = model.decode_step(previous, grouped, mask, source)
            alone, grown_alone, attention_alone = model.decode_step(
                previous, per_row, mask.repeat_interleave(beams, 0), source.repeat_interleave(beams, 0)
            )
            torch.testing.assert_close(log_probs, alone, atol=1e-5, rtol=1e-5)
            torch.testing.assert_close(attention, attention_alone, atol=1e-6, rtol=1e-5)
            grouped.update(grown)
            per_row.update(grown_alone)


@pytest.mark.integration
@pytest.mark.parametrize(
    "flags",
    [
        ["--beam", "1"],
        ["-n", "3"],
        ["--sample", "--seed", "3"],
        ["--min-length", "6"],
        ["--no-repeat-ngram", "2"],
        ["--coverage-penalty", "0.2", "--length-penalty", "0.6"],
        ["-f", "pharaoh"],
        ["-f", "jsonl"],
        ["--align"],
        ["--replace-unk"],
    ],
)
def test_every_search_option_and_format(transformer_model, flags):
    result = run_attn(["translate", "--model", str(transformer_model), *flags], input=b"a0 b1 c2\nd3 e0\n", timeout=120)
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr and result.stdout


@pytest.mark.integration
def test_forced_alignment(transformer_model, reverse_test_rows):
    """`attn align` prints the model's alignment of a given pair, and the alignment of a reversal
    is the mirror, link for link but for a few: the model learned to translate, and its attention
    to align only along with it (on the 2026-11-25 Xeon, "a0 b1 c2" itself came out 2-0 2-1 0-2;
    539 of 558 links of the first 100 test rows were the mirror)."""
    result = run_attn(["align", "--model", str(transformer_model), "-f", "jsonl", "a0 b1 c2", "c2 b1 a0"], timeout=120)
    translator = LoadedModel(transformer_model, threads=1)
    assert json.loads(result.stdout)["pharaoh"] == translator.force("a0 b1 c2", "c2 b1 a0").alignment.pharaoh()
    links = mirrored = 0
    for row in reverse_test_rows[:50]:
        pairs = [
            map(int, link.split("-")) for link in translator.force(row.source, row.target).alignment.pharaoh().split()
        ]
        last = len(row.source.split()) - 1
        links, mirrored = links + len(pairs), mirrored + sum(source == last - target for source, target in pairs)
    assert links == sum(len(row.target.split()) for row in reverse_test_rows[:50])
    assert mirrored / links >= 0.9


@pytest.mark.integration
def test_long_inputs_are_translated_in_parts(transformer_model):
    line = " ".join(["a0 b1 c2"] * 100)
    result = run_attn(["translate", "--model", str(transformer_model), "--beam", "1", line], timeout=120)
    assert result.returncode == 0 and b"translated in" in result.stderr


@pytest.mark.integration
def test_the_shortlist_decodes_like_the_whole_vocabulary(transformer_run, reverse_test_rows, tmp_path):
    trainer, _ = transformer_run
    shortlist = learn_shortlist(
        trainer.corpus.train, trainer.corpus.tokenizer.vocab_size, frequent=300, per_source=5, iterations=2
    )
    export_model(trainer.model, trainer.config, trainer.workdir / "tokenizer.json", tmp_path / "model", {}, shortlist)
    translator = LoadedModel(tmp_path / "model", threads=1)
    sources = [row.source for row in reverse_test_rows[:40]]
    with_list = translator.translate(sources, SearchOptions(beam=5, shortlist=True))
    without = translator.translate(sources, SearchOptions(beam=5, shortlist=False))
    assert [h[0].text for h in with_list] == [h[0].text for h in without]


@pytest.mark.integration
def test_int8_quantizes_the_products_and_still_reverses(transformer_model, reverse_test_rows, tmp_path):
    quantize_folder(transformer_model, tmp_path / "int8")
    ops = [node.op_type for node in onnx.load(str(tmp_path / "int8" / "decoder.onnx")).graph.node]
    encoder_ops = [node.op_type for node in onnx.load(str(tmp_path / "int8" / "encoder.onnx")).graph.node]
    # decoder: q, k, v, out of self-attention; q, out of cross-attention; two feed-forward; and the
    # output layer, its column scales inside the product (fused_output_rescale)
    assert ops.count("MatMulInteger") == 8 and ops.count("MatMulIntegerToFloat") == 1
    # its activations, a LayerNormalization's, quantized with one fixed scale (bounded_output_product):
    # the bias added inside the product, no per-row rescale after it
    graph = onnx.load(str(tmp_path / "int8" / "decoder.onnx")).graph
    [product] = [node for node in graph.node if node.op_type == "MatMulIntegerToFloat"]
    assert product.input[2] == "output_bound_scale" and product.input[6] == "output_bias"
    assert not [node for node in graph.node if product.output[0] in node.input and node.op_type in ("Mul", "Add")]
    assert "DynamicQuantizeLinear" not in ops
    assert encoder_ops.count("MatMulInteger") >= 12  # per encoder layer: q, k, v, out, 2 feed-forward; + cross k, v
    translator = LoadedModel(tmp_path / "int8", threads=1)
    rows = reverse_test_rows[:60]
    outputs = translator.translate([row.source for row in rows], SearchOptions(beam=5))
    assert sum(o[0].text == row.target for o, row in zip(outputs, rows)) >= 54
    alone = [translator.translate([row.source], SearchOptions(beam=5), 1)[0][0].text for row in rows]
    assert [o[0].text for o in outputs] == alone


@pytest.mark.unit
@pytest.mark.parametrize("path", ["runtime/search.py", "runtime/decoder_state.py"])
def test_the_runtime_has_no_branch_per_architecture(path):
    text = (ROOT / path).read_text()
    assert not re.search(r"transformer|\brnn\b|architecture|\bgru\b|\blstm\b", text, re.IGNORECASE)


@pytest.mark.integration
def test_a_summarizer_reads_the_head_of_a_long_document(transformer_model, tmp_path):
    """The summarizer's head-cut (runtime/chunking.py) is the same for a Transformer folder."""
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(transformer_model, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["task"], manifest["search"]["max_source_pieces"] = "summarize", 6
    (folder / "manifest.json").write_text(json.dumps(manifest))
    notes = []
    summarizer = LoadedModel(folder, threads=1, notify=notes.append)
    [[long]] = summarizer.translate(["a0 b1 c2 d3 e0 f1 a2 b3 c0 d1 e2 f3"], SearchOptions(beam=5))
    [[head]] = summarizer.translate(["a0 b1 c2 d3 e0 f1"], SearchOptions(beam=5))
    assert long.text == head.text and "summarized from its first" in notes[0]


@pytest.mark.integration
def test_a_run_starts_from_another_runs_weights(transformer_run, tmp_path):
    """`[train] init_from`: a shallower decoder takes the run's encoder, embeddings and first
    decoder layer and its tokenizer; a work folder with another tokenizer is refused."""
    from rich.console import Console

    from attn.export.config import ConfigError
    from attn.export.training.train import Trainer

    trained, _ = transformer_run
    config = reverse_config(
        config_file=REVERSE_TRANSFORMER_CONFIG,
        decoder_layers=1,
        alignment_layer=0,
        train_overrides={"init_from": str(trained.workdir)},
    )
    started = Trainer(config, tmp_path / "shallow", Console(stderr=True, quiet=True))
    best = torch.load(trained.workdir / "best.pt", weights_only=True)["model"]
    own = started.model.state_dict()
    assert all(torch.equal(own[name], best[name]) for name in own)  # every weight of the shallower model came along
    assert not any(name.startswith("decoder_layers.1.") for name in own)
    assert (tmp_path / "shallow" / "tokenizer.json").read_bytes() == (trained.workdir / "tokenizer.json").read_bytes()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "tokenizer.json").write_text("{}")
    with pytest.raises(ConfigError, match="another tokenizer"):
        Trainer(config, tmp_path / "other", Console(stderr=True, quiet=True))
