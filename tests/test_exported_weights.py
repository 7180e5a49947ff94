"""A run starts from an exported model folder (its weights read back from the graphs: exactly
from fp32, within half an int8 step from int8), and from a model of another vocabulary (fast
vocabulary transfer: shared pieces keep their rows, new ones start as the mean of their spelling)."""

import dataclasses

import pytest
import torch
from rich.console import Console

from attn.export.config import ConfigError
from attn.export.graphs.quantize import quantize_folder
from attn.export.models import build_model
from attn.export.training.exported_weights import exported_weights
from attn.export.training.train import Trainer, initial_weights
from attn.export.training.vocab_transfer import spellings, transfer_vocabulary
from attn.runtime.output_layer import INT8_LIMIT
from attn.runtime.tokenizer import SubwordTokenizer

from .conftest import REVERSE_TRANSFORMER_CONFIG, reverse_config

QUIET = Console(stderr=True, quiet=True)


@pytest.mark.integration
def test_an_fp32_folder_gives_back_the_exported_weights_exactly(transformer_run):
    trainer, folder = transformer_run
    expected = trainer.model.state_dict()
    read = exported_weights(folder)
    assert set(read) == set(expected)
    assert all(torch.equal(read[name], expected[name].float()) for name in expected)


@pytest.mark.integration
def test_an_int8_folder_gives_back_weights_within_half_a_step(transformer_run, tmp_path):
    trainer, folder = transformer_run
    quantize_folder(folder, tmp_path / "int8")
    expected = trainer.model.state_dict()
    read = exported_weights(tmp_path / "int8")
    assert set(read) == set(expected)
    for name, value in expected.items():
        if value.dim() == 2:  # quantized: one scale per tensor, or per row for the embedding
            largest = value.abs().amax(dim=1 if name == "embedding.weight" else None, keepdim=True)
            assert ((read[name] - value).abs() <= largest / INT8_LIMIT / 2 + 1e-6).all(), name
        else:
            assert torch.equal(read[name], value), name


@pytest.mark.integration
def test_a_run_starts_from_an_exported_folder(transformer_run, tmp_path):
    trained, folder = transformer_run
    config = reverse_config(config_file=REVERSE_TRANSFORMER_CONFIG, train_overrides={"init_from": str(folder)})
    started = Trainer(config, tmp_path / "tuned", QUIET)
    expected = trained.model.state_dict()
    assert all(torch.equal(value, expected[name]) for name, value in started.model.state_dict().items())
    assert (tmp_path / "tuned" / "tokenizer.json").read_bytes() == (folder / "tokenizer.json").read_bytes()
    averaged = dataclasses.replace(config.train, init_average=2)
    with pytest.raises(ConfigError, match="exported model folder"):
        Trainer(dataclasses.replace(config, train=averaged), tmp_path / "averaged", QUIET)


@pytest.mark.integration
def test_a_deeper_run_starts_from_a_folder_computing_what_it_computed(transformer_run, tmp_path):
    """A model grown by layers its start lacks (a wider-than-deep question for the GPU rounds,
    issue 60) starts where the start was: its new pre-norm layers add nothing yet, and learn."""
    trained, folder = transformer_run
    config = reverse_config(
        config_file=REVERSE_TRANSFORMER_CONFIG,
        train_overrides={"init_from": str(folder)},
        encoder_layers=trained.config.model.encoder_layers + 2,
        decoder_layers=trained.config.model.decoder_layers + 1,
    )
    grown = Trainer(config, tmp_path / "grown", QUIET)
    source = torch.tensor([[5, 6, 7, 8, 3], [9, 10, 3, 0, 0]])  # ids of pieces, </s> (3) and padding (0)
    mask, target = (source != 0).long(), torch.tensor([[1, 8, 7, 6, 5], [1, 10, 9, 0, 0]])
    with torch.no_grad():
        before, _ = trained.model.eval()(source, mask, target)
        after, _ = grown.model.eval()(source, mask, target)
    assert torch.allclose(before, after, atol=1e-5)
    new = grown.model.encoder_layers[-1]
    assert not new.attention.out.weight.any() and new.attention.query.weight.any()  # zero out, the rest drawn
    grown.config = dataclasses.replace(config, train=dataclasses.replace(config.train, max_steps=2))
    grown.train()
    assert new.attention.out.weight.any() and new.feedforward[-1].weight.any()  # learning, from the first steps
    wider = dataclasses.replace(trained.config.model, feedforward_size=2 * trained.config.model.feedforward_size)
    assert initial_weights(build_model(wider, trained.corpus.tokenizer.vocab_size), folder)[1] == 0  # wider, no deeper
    post = dataclasses.replace(config, model=dataclasses.replace(config.model, layer_norm="post"))
    with pytest.raises(ValueError, match="post-norm"):
        grown.model.encoder_layers[-1].__class__(post.model).start_as_identity()


@pytest.mark.integration
def test_only_a_transformer_folder_is_read_back(reverse_model):
    with pytest.raises(ConfigError, match="only a Transformer"):
        exported_weights(reverse_model)


@pytest.mark.integration
def test_a_run_with_its_own_vocabulary_moves_the_rows(transformer_run, tmp_path):
    """`[train] init_new_vocab`: the run learns its own tokenizer ([vocab] size 264, four merges
    fewer than the trained run's 268 pieces), the vocabulary-indexed rows are moved to its ids,
    and every other weight comes along unchanged (new pieces: the next test)."""
    trained, _ = transformer_run
    config = reverse_config(
        config_file=REVERSE_TRANSFORMER_CONFIG,
        train_overrides={"init_from": str(trained.workdir), "init_new_vocab": True},
    )
    config = dataclasses.replace(config, vocab=dataclasses.replace(config.vocab, size=264))
    started = Trainer(config, tmp_path / "small", QUIET)
    old_tokenizer = SubwordTokenizer.load(trained.workdir / "tokenizer.json")
    new_tokenizer = SubwordTokenizer.load(tmp_path / "small" / "tokenizer.json")
    assert new_tokenizer.vocab_size == 264 < old_tokenizer.vocab_size == 268
    assert started.model.embedding.weight.shape[0] == 264
    best = torch.load(trained.workdir / "best.pt", weights_only=True)["model"]
    own = started.model.state_dict()
    old_ids = {piece: i for i, piece in enumerate(old_tokenizer.pieces)}
    for new_id, piece in enumerate(new_tokenizer.pieces):
        if piece in old_ids:
            assert torch.equal(own["embedding.weight"][new_id], best["embedding.weight"][old_ids[piece]])
            assert torch.equal(own["output_bias"][new_id], best["output_bias"][old_ids[piece]])
    assert all(torch.equal(own[name], best[name]) for name in own if name not in ("embedding.weight", "output_bias"))


@pytest.mark.unit
def test_a_new_piece_starts_as_the_mean_of_its_spelling(tmp_path):
    from attn.export.training.subwords import train_tokenizer

    texts = ["eating apples", "eat an apple", "a green apple", "she is eating"] * 20
    for name, size in (("old", 270), ("new", 290)):
        (tmp_path / f"{name}.json").write_text(train_tokenizer(texts, size, 2).to_str())
    old, new = (SubwordTokenizer.load(tmp_path / f"{name}.json") for name in ("old", "new"))
    spelled = spellings(tmp_path / "old.json", tmp_path / "new.json")
    assert len(spelled) == new.vocab_size
    unknown = [i for i, piece in enumerate(new.pieces) if piece not in old.pieces]
    assert unknown and all(len(spelled[i]) > 1 for i in unknown)
    assert all("".join(old.pieces[j] for j in spelled[i]) == new.pieces[i] for i in range(new.vocab_size))
    rows = torch.randn(old.vocab_size, 4)
    moved = transfer_vocabulary({"embedding.weight": rows, "other": rows[:2]}, ["embedding.weight"], spelled)
    assert moved["embedding.weight"].shape == (new.vocab_size, 4) and torch.equal(moved["other"], rows[:2])
    assert torch.allclose(moved["embedding.weight"][unknown[0]], rows[spelled[unknown[0]]].mean(dim=0))


@pytest.mark.unit
def test_a_start_that_is_no_model_is_a_config_error(tmp_path):
    for new_vocab in (False, True):
        config = reverse_config(
            config_file=REVERSE_TRANSFORMER_CONFIG,
            train_overrides={"init_from": str(tmp_path / "nothing"), "init_new_vocab": new_vocab},
        )
        with pytest.raises(ConfigError, match="neither a run folder"):
            Trainer(config, tmp_path / f"run-{new_vocab}", QUIET)


@pytest.mark.system
@pytest.mark.parametrize("name", ["en-de", "de-en", "fr-en", "fr-en-hansard", "summarize"])
def test_every_shipped_folder_reads_back_as_training_weights(name):
    """A run starts from any shipped folder (`[train] init_from = "models/NAME"`): every weight of
    its model is read back, the calibrated encoders' fused products included."""
    from attn.export.models import build_model
    from attn.runtime.manifest import read_manifest
    from attn.runtime.registry import shipped_root

    folder = shipped_root() / name
    architecture = read_manifest(folder, verify_checksums=False).architecture
    from attn.export.config import ModelConfig

    config = ModelConfig(
        **{key: value for key, value in architecture.items() if key in ModelConfig.__dataclass_fields__}
    )
    model = build_model(config, architecture["vocab_size"])
    read = exported_weights(folder)
    own = model.state_dict()
    assert set(read) == set(own)
    assert all(read[key].shape == own[key].shape for key in own)
