"""`attn import marian` against Hugging Face's MarianMTModel, on a small checkpoint the tests make
(tests/tiny_marian.py): the tokenizers cut as MarianTokenizer does, the encoder and every decoder
step agree within 1e-4, greedy search gives generate(num_beams=1)'s tokens, beam search its
num_beams tokens where the two searches are the same algorithm (docs/import.md)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

from .conftest import built_once  # noqa: E402
from .test_cli import attn  # noqa: E402
from .tiny_marian import build_tiny_marian, fixture_lines  # noqa: E402

pytestmark = pytest.mark.integration
TOLERANCE = 1e-4
SENTENCES = [
    "She is eating a green apple.",
    "Tom is here.",
    "Where is the station?",
    "The file could not be opened.",
    "I would like a coffee, please.",
    "Where are you?",
]


@pytest.fixture(scope="session")
def checkpoint(tiny_marian):
    return tiny_marian


@pytest.fixture(scope="session")
def imported(checkpoint, tmp_path_factory, worker_id):
    with built_once(tmp_path_factory, worker_id, "tiny-marian-imported") as folder:
        if not (folder / "manifest.json").exists():
            attn("import", "marian", str(checkpoint), "--out", str(folder))
        return folder


@pytest.fixture(scope="session")
def marian(checkpoint):
    """Hugging Face's model and tokenizer, and each Marian id's attn id."""
    from transformers import MarianMTModel, MarianTokenizer

    from attn.export.importers.marian import attn_order, read_config, read_vocabulary

    model = MarianMTModel.from_pretrained(checkpoint).eval()
    tokenizer = MarianTokenizer(
        str(checkpoint / "source.spm"), str(checkpoint / "target.spm"), str(checkpoint / "vocab.json")
    )
    config = read_config(checkpoint)
    order = attn_order(read_vocabulary(checkpoint, config), config)
    attn_id = np.zeros(len(order) - 1, dtype=np.int64)
    for new, old in enumerate(order[1:], start=1):
        attn_id[old] = new  # Marian's pad ends at 2, attn's BOS: its decoder start
    return model, tokenizer, attn_id


@pytest.fixture(scope="session")
def translator(imported):
    from attn.runtime.loaded_model import LoadedModel

    return LoadedModel(imported, threads=1)


def test_the_tokenizers_cut_as_marian_tokenizer_does(marian, translator):
    """Without sentencepiece at run time: the same ids for every fixture line and for text the
    SentencePiece models have not seen (accents, ligatures, CJK, runs of spaces)."""
    _, tokenizer, attn_id = marian
    english, german = fixture_lines()
    odd = ["Tom  doesn't   like   ÄÖÜ ﬁ café", "  leading and trailing  ", "日本語 x", "a\tb\nc", "12,5 % — “quoted”"]
    for text in english[:80] + odd:
        assert translator.tokenizer.encode_source(text).ids == attn_id[tokenizer(text)["input_ids"]].tolist(), text
    for text in german[:80] + odd:
        assert translator.tokenizer.encode(text) + [3] == attn_id[tokenizer(text_target=text)["input_ids"]].tolist(), (
            text
        )
        assert translator.tokenizer.decode(translator.tokenizer.encode(text)) == tokenizer.decode(
            tokenizer(text_target=text)["input_ids"], skip_special_tokens=True
        ), text


def test_a_typed_special_token_is_text(translator):
    ids = translator.tokenizer.encode_source("a <s> b </s> <pad>").ids
    assert ids[-1] == 3 and not {0, 2, 3} & set(ids[:-1])


def test_the_encoder_gives_marians_keys_and_values(marian, translator):
    """A batch of three sentences of different lengths (padded): every decoder layer's
    encoder-decoder keys and values from the encoder graph, at the real positions."""
    import torch

    from attn.runtime.graph_contract import SOURCE_IDS, SOURCE_MASK

    model, tokenizer, attn_id = marian
    batch = tokenizer(SENTENCES[:3], return_tensors="pt", padding=True)
    with torch.no_grad():
        memory = model.model.encoder(**batch).last_hidden_state
    ids = np.where(batch["attention_mask"].numpy() == 1, attn_id[batch["input_ids"].numpy()], 0)
    outputs = translator.encoder.run(None, {SOURCE_IDS: ids, SOURCE_MASK: batch["attention_mask"].numpy()})
    names = [output.name for output in translator.encoder.get_outputs()]
    real = batch["attention_mask"].numpy()[:, None, :, None]
    heads = model.config.encoder_attention_heads
    for index, layer in enumerate(model.model.decoder.layers):
        for kind, projection in (("keys", layer.encoder_attn.k_proj), ("values", layer.encoder_attn.v_proj)):
            with torch.no_grad():
                expected = projection(memory)
            expected = expected.view(*expected.shape[:2], heads, -1).transpose(1, 2).numpy()  # (B, H, S, D/H)
            got = outputs[names.index(f"cross_{kind}_{index}")]
            assert np.abs((got - expected) * real).max() < TOLERANCE


def generated(model, tokenizer, text: str, max_new_tokens: int, **search) -> list[int]:
    """MarianMTModel.generate's Marian ids, the decoder start included, with Marian's pad banned
    (Helsinki-NLP checkpoints say so in generation_config.json) and no forced </s> at the limit."""
    pad = model.config.pad_token_id
    return model.generate(
        **tokenizer(text, return_tensors="pt"),
        do_sample=False,
        max_new_tokens=max_new_tokens,
        forced_eos_token_id=None,
        bad_words_ids=[[pad]],
        **search,
    )[0].tolist()


def without_end(tokens: list[int]) -> list[int]:
    return tokens[:-1] if tokens and tokens[-1] == 3 else tokens


NEAR_TIE = 1e-4  # what separates two choices that another engine's (or CPU's) rounding may order either way


def agrees(translator, text: str, found: list[int], expected: list[int], limit: int, greedy: bool) -> bool:
    """`found` (attn's) is `expected` (the other engine's), or the two part at a near tie under
    attn's own log-probabilities: greedy, at the step where they part; beam, in their totals."""
    if found == expected:
        return True
    ended = [list(tokens) + [3] * (len(tokens) < limit) for tokens in (found, expected)]
    totals, parted = [], None
    for tokens in ended:
        state = translator.encode([translator.tokenizer.encode_source(text).ids], shortlist=False)
        total = 0.0
        for step, (previous, following) in enumerate(zip([2] + tokens, tokens)):
            log_probs, _ = state.step(np.array([previous]))
            if parted is None and step < len(ended[1]) and ended[0][step] != ended[1][step]:
                parted = abs(log_probs[0, ended[0][step]] - log_probs[0, ended[1][step]])
            total += log_probs[0, following]
        totals.append(total)
    return bool(parted is not None and parted < NEAR_TIE) if greedy else abs(totals[0] - totals[1]) < 10 * NEAR_TIE


def test_every_decoder_step_gives_marians_log_probabilities(marian, translator):
    """Teacher-forced along generate's output: each step's log-probabilities over all of Marian's
    pieces, and attn's added pad column without probability."""
    import torch

    model, tokenizer, attn_id = marian
    for text in SENTENCES:
        output = generated(model, tokenizer, text, 30, num_beams=1)
        with torch.no_grad():
            logits = model(**tokenizer(text, return_tensors="pt"), decoder_input_ids=torch.tensor([output])).logits[0]
        expected = torch.log_softmax(logits, dim=-1).numpy()
        state = translator.encode([translator.tokenizer.encode_source(text).ids], shortlist=False)
        for step, previous in enumerate(attn_id[output]):
            log_probs, _ = state.step(np.array([previous]))
            assert np.abs(log_probs[0, attn_id] - expected[step]).max() < TOLERANCE
            assert log_probs[0, 0] < -1e6


def test_greedy_search_gives_generates_tokens_alone_and_in_a_batch(marian, translator):
    model, tokenizer, attn_id = marian
    options = translator.default_options(beam=1)
    batched = translator.translate(SENTENCES, options)
    ended = 0
    for text, in_batch in zip(SENTENCES, batched):
        ids = translator.tokenizer.encode_source(text).ids
        limit = int(translator.max_lengths(np.array([len(ids)]), options)[0])
        expected = without_end(attn_id[generated(model, tokenizer, text, limit, num_beams=1)[1:]].tolist())
        alone = translator.translate([text], options)[0][0]
        assert agrees(translator, text, list(alone.tokens), expected, limit, greedy=True), text
        assert alone.tokens == in_batch[0].tokens
        ended += len(expected) < limit
    assert ended  # some outputs end with </s> before the limit: the end is compared too


def test_beam_search_gives_generates_tokens_without_a_length_penalty(marian, translator):
    """With no length penalty and generate's early_stopping=True the two beam searches are one
    algorithm (the 2k best continuations, an ending kept when it ranks among the k best, done at k
    endings); with one they normalize differently (docs/import.md)."""
    model, tokenizer, attn_id = marian
    for beam in (2, 5):
        options = translator.default_options(beam=beam, length_penalty=0.0)
        for text in SENTENCES:
            ids = translator.tokenizer.encode_source(text).ids
            limit = int(translator.max_lengths(np.array([len(ids)]), options)[0])
            output = generated(model, tokenizer, text, limit, num_beams=beam, length_penalty=0.0, early_stopping=True)
            expected = without_end([token for token in attn_id[output[1:]].tolist() if token != 2])
            found = list(translator.translate([text], options)[0][0].tokens)
            assert agrees(translator, text, found, expected, limit, greedy=False), (beam, text)


def test_the_command_imports_and_translates_with_alignments(checkpoint, imported, tmp_path):
    result = attn("translate", "--model", str(imported), "-f", "pharaoh", *SENTENCES[:2])
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 2
    for line in lines:
        text, links = line.split(" ||| ")
        assert text and all(link.count("-") == 1 for link in links.split())
    manifest = json.loads((imported / "manifest.json").read_text())
    assert manifest["architecture"]["layer_norm"] == "post" and manifest["architecture"]["alignment_layer"] == -2
    assert set(manifest["files"]) == {
        "encoder.onnx",
        "decoder.onnx",
        "output_layer.npz",
        "tokenizer.json",
        "source_tokenizer.json",
    }
    first = attn("import", "marian", str(checkpoint), "--out", str(tmp_path / "first-layer"), "--alignment-layer", "0")
    assert first.returncode == 0
    assert json.loads((tmp_path / "first-layer" / "manifest.json").read_text())["architecture"]["alignment_layer"] == 0


def test_an_int8_import_translates_each_sentence_as_in_a_batch(imported, tmp_path):
    from attn.runtime.loaded_model import LoadedModel

    attn("quantize", str(imported), "--out", str(tmp_path / "int8"))
    translator = LoadedModel(tmp_path / "int8", threads=1)
    for beam in (1, 5):
        options = translator.default_options(beam=beam)
        batched = [result[0].tokens for result in translator.translate(SENTENCES, options)]
        assert batched == [translator.translate([text], options)[0][0].tokens for text in SENTENCES]


@pytest.mark.parametrize(
    "key, value",
    [
        ("normalize_before", True),
        ("activation_function", "tanh"),
        ("share_encoder_decoder_embeddings", False),
        ("decoder_ffn_dim", 48),
    ],
)
def test_a_config_attn_cannot_honour_is_refused_naming_the_key(checkpoint, tmp_path, key, value):
    changed = tmp_path / "changed"
    shutil.copytree(checkpoint, changed)
    config = json.loads((changed / "config.json").read_text())
    (changed / "config.json").write_text(json.dumps({**config, key: value}))
    result = attn("import", "marian", str(changed), "--out", str(tmp_path / "out"), check_rc=2)
    error = result.stderr.decode()
    assert key in error and error.count("\n") == 1 and "Traceback" not in error
    assert not (tmp_path / "out").exists()


def test_a_folder_without_weights_is_refused(checkpoint, tmp_path):
    partial = tmp_path / "partial"
    shutil.copytree(checkpoint, partial)
    (partial / "model.safetensors").unlink()
    result = attn("import", "marian", str(partial), "--out", str(tmp_path / "out"), check_rc=2)
    assert "neither model.safetensors nor pytorch_model.bin" in result.stderr.decode()


@pytest.mark.parametrize("activation, safetensors", [("gelu", True), ("relu", False)])
def test_the_other_activations_and_pytorch_model_bin(tmp_path, activation, safetensors):
    """An untaught checkpoint with another FFN activation, one saved as pytorch_model.bin: attn's
    PyTorch Transformer (what the export then checks the graphs against) gives Marian's
    teacher-forced log-probabilities."""
    import torch
    from transformers import MarianMTModel, MarianTokenizer

    from attn.export.importers.marian import MarianImporter, attn_order, read_config, read_vocabulary

    folder = build_tiny_marian(tmp_path / activation, activation, teaching_steps=0, safetensors=safetensors)
    assert (folder / "model.safetensors").exists() == safetensors
    model = MarianMTModel.from_pretrained(folder).eval()
    tokenizer = MarianTokenizer(str(folder / "source.spm"), str(folder / "target.spm"), str(folder / "vocab.json"))
    ours, config = MarianImporter().convert(folder, "en", "de", alignment_layer=-1).model, read_config(folder)
    batch = tokenizer(SENTENCES[:3], text_target=SENTENCES[3:], return_tensors="pt", padding=True)
    start = torch.full((3, 1), config["pad_token_id"])
    target_in = torch.cat([start, batch["labels"][:, :-1]], dim=1)
    order = attn_order(read_vocabulary(folder, config), config)
    attn_id = torch.zeros(len(order) - 1, dtype=torch.long)
    attn_id[torch.tensor(order[1:])] = torch.arange(1, len(order))
    source = torch.where(batch["attention_mask"] == 1, attn_id[batch["input_ids"]], 0)
    with torch.no_grad():
        expected = torch.log_softmax(
            model(
                input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], decoder_input_ids=target_in
            ).logits,
            dim=-1,
        )
        got = torch.log_softmax(ours(source, batch["attention_mask"], attn_id[target_in])[0], dim=-1)[..., attn_id]
    real = (target_in != config["pad_token_id"]) | (torch.arange(target_in.shape[1]) == 0)
    assert (got - expected).abs()[real].max() < TOLERANCE
