"""Copy (pointer-generator) and coverage: the mixture, the coverage state and loss, export,
search through onnxruntime, and learning the reverse task with both on."""

import numpy as np
import pytest
import torch
from rich.console import Console

from attn.export.config import ConfigError, config_from_dict
from attn.export.graphs.onnx_export import export_model
from attn.export.models.rnn import Seq2Seq
from attn.export.training.train import Trainer, coverage_loss
from attn.runtime.graph_contract import ROW
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.search import SearchOptions

from .conftest import built_once, reverse_config
from .test_variants import exact_match

pytestmark = pytest.mark.system

COPY_MODEL = {"style": "bahdanau", "score": "additive", "copy": True, "coverage": True}
# copying learns the task fast with a short warm-up: exact match 1.0 from step 200 through 1,400
# on an Intel Xeon and at step 200 on an AMD EPYC, 0.95 at step 100 there
# (`python -m benchmarks.variant_curves copy-coverage:300/0.003/1/50:1400 --every 100`); the
# example config's 400 warm-up steps reach 0.99 only at step 400
COPY_RECIPE = {"warmup_steps": 50}
COPY_STEPS = 200


@pytest.fixture(scope="module")
def copy_run(tmp_path_factory, worker_id):
    """The copy-and-coverage model trained COPY_STEPS and exported, once for all the workers."""
    with built_once(tmp_path_factory, worker_id, "copy-run") as workdir:
        config = reverse_config(steps=COPY_STEPS, train_overrides=COPY_RECIPE, **COPY_MODEL)
        trainer = Trainer(config, workdir, Console(quiet=True))
        summary = trainer.train()  # a run another worker finished trains no further
        if not (workdir / "model" / "manifest.json").exists():
            export_model(trainer.model, trainer.config, workdir / "tokenizer.json", workdir / "model", summary)
        return trainer, workdir / "model"


def test_copy_and_coverage_model_learns_to_reverse(copy_run, reverse_test_rows):
    trainer, _ = copy_run
    assert exact_match(trainer, reverse_test_rows) >= 0.9


def test_the_folder_carries_coverage_state_and_source_ids(copy_run):
    _, folder = copy_run
    assert [s.name for s in read_manifest(folder).state_specs if s.kind == ROW] == ["hidden", "coverage"]
    translator = LoadedModel(folder, threads=1)
    assert "source_ids" in {i.name for i in translator.decoder.get_inputs()}


def test_coverage_state_is_the_attention_summed_over_steps(copy_run):
    _, folder = copy_run
    translator = LoadedModel(folder, threads=1)
    ids = [translator.tokenizer.encode_source(text).ids for text in ("a0 b1 c2 d3", "e0 f1")]
    state = translator.encode(ids)
    total = np.zeros_like(state.carried["coverage"])
    previous = np.full(2, 2, dtype=np.int64)
    for _ in range(3):
        log_probs, attention = state.step(previous)
        total += attention
        previous = log_probs.argmax(axis=1)
        np.testing.assert_allclose(state.carried["coverage"], total, atol=1e-5)
    assert np.allclose(total[1, len(ids[1]) :], 0.0)  # padding is never covered


def test_with_the_switch_closed_every_token_is_a_copied_source_piece():
    config = reverse_config(**COPY_MODEL)
    torch.manual_seed(0)
    model = Seq2Seq(config.model, 300).eval()
    with torch.no_grad():
        model.decoder.switch.bias.fill_(-60.0)  # p_gen ≈ 0: only the copy distribution is left
        source = torch.tensor([[17, 250, 251, 252, 3, 0], [40, 41, 3, 0, 0, 0]])
        mask = (source != 0).long()
        log_probs, _, attention = model.decode_step(torch.tensor([2, 2]), model.encode(source, mask), mask, source)
    probabilities = log_probs.exp()
    for row in range(2):
        expected = torch.zeros(300).index_add_(0, source[row], attention[row])
        torch.testing.assert_close(probabilities[row], expected, atol=1e-6, rtol=1e-4)
        assert set((probabilities[row] > 1e-9).nonzero().flatten().tolist()) <= set(source[row][mask[row] > 0].tolist())


def test_batched_equals_unbatched_and_greedy_equals_beam_one(copy_run, reverse_test_rows):
    _, folder = copy_run
    translator = LoadedModel(folder, threads=1)
    sources = [row.source for row in reverse_test_rows[:12]]
    for options in (SearchOptions(beam=1), SearchOptions(beam=4)):
        batched = [r[0].text for r in translator.translate(sources, options, batch_size=12)]
        alone = [translator.translate([s], options)[0][0].text for s in sources]
        assert batched == alone
    greedy = translator.translate(sources, SearchOptions(beam=1))
    beam_one = [
        translator.search([translator.tokenizer.encode_source(s).ids], SearchOptions(beam=1))[0][0] for s in sources
    ]
    assert [g[0].tokens for g in greedy] == [b.tokens for b in beam_one]


def test_coverage_loss_counts_attention_paid_twice():
    attention = torch.tensor([[[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]])  # steps 1 and 2 attend the same place
    target = torch.tensor([[5, 6, 0]])  # the third step is padding
    assert coverage_loss(attention, target).item() == pytest.approx(0.5)  # (0 + 1) / 2 real tokens
    fresh = torch.tensor([[[1.0, 0.0], [0.0, 1.0]]])
    assert coverage_loss(fresh, torch.tensor([[5, 6]])).item() == 0.0


def test_coverage_needs_the_additive_score():
    with pytest.raises(ConfigError, match="coverage needs score"):
        config_from_dict({"model": {"score": "general", "coverage": True}})
    config_from_dict({"model": {"score": "concat", "style": "luong", "coverage": True, "copy": True}})
