"""A small randomly initialized Hugging Face MarianMTModel, saved in the layout of the
Helsinki-NLP/opus-mt-* checkpoints (config.json, model.safetensors, source.spm, target.spm,
vocab.json), with SentencePiece models trained on the fixtures' English and German lines: what
`attn import marian` is tested on, without downloading anything (tests/test_import_marian.py)."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import FIXTURES

PIECES = 300  # per side's SentencePiece model
TEACHING_STEPS = 200  # a random model repeats one piece to the length limit; a little teaching makes sentences end


def fixture_lines() -> tuple[list[str], list[str]]:
    """The English and German sides of the en-de fixture slices (440 lines each)."""
    rows = [
        line.rstrip("\n").split("\t")
        for name in ("en-de-tatoeba-slice.tsv", "en-de-test-slice.tsv")
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    ]
    return [row[0] for row in rows], [row[1] for row in rows]


def build_tiny_marian(
    folder: Path,
    activation: str = "swish",
    teaching_steps: int = TEACHING_STEPS,
    safetensors: bool = True,
    width: int = 32,
    layers: int = 2,
    heads: int = 4,
    extra_pieces: int = 0,
    pairs: tuple[list[str], list[str]] | None = None,
    pieces: int = PIECES,
    batch_size: int = 16,
    learning_rate: float = 3e-3,
) -> Path:
    """Write the checkpoint into `folder` (weights as model.safetensors, or as pytorch_model.bin);
    returns it. `width`, `layers` (each side), `heads` and `extra_pieces` (vocabulary entries no
    SentencePiece model cuts, which the decoder may still write) make a model of another size
    (benchmarks/imported_speed.py: OPUS-MT's); `pairs` (English and German lines: the fixtures'
    unless given), `pieces` (per side), `batch_size` and `learning_rate` one that learns to
    translate (benchmarks/imported_int8_quality.py)."""
    import sentencepiece
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    english, german = pairs or fixture_lines()
    vocab = {"</s>": 0, "<unk>": 1}
    for name, lines in (("source", english), ("target", german)):
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(lines),
            model_prefix=str(folder / name),
            vocab_size=pieces,
            model_type="unigram",
            character_coverage=1.0,
            minloglevel=2,
            num_threads=1,
        )
        (folder / f"{name}.model").rename(folder / f"{name}.spm")
        (folder / f"{name}.vocab").unlink()
        model = sentencepiece.SentencePieceProcessor(model_file=str(folder / f"{name}.spm"))
        for index in range(model.get_piece_size()):
            piece = model.id_to_piece(index)
            if not (model.is_control(index) or model.is_unknown(index)) and piece not in vocab:
                vocab[piece] = len(vocab)
    for index in range(extra_pieces):
        vocab[f"▁extra{index}"] = len(vocab)
    vocab["<pad>"] = pad = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    config = MarianConfig(
        vocab_size=len(vocab),
        d_model=width,
        encoder_layers=layers,
        decoder_layers=layers,
        encoder_attention_heads=heads,
        decoder_attention_heads=heads,
        encoder_ffn_dim=4 * width,
        decoder_ffn_dim=4 * width,
        activation_function=activation,
        scale_embedding=True,
        pad_token_id=pad,
        decoder_start_token_id=pad,
        eos_token_id=0,
        forced_eos_token_id=0,
        max_position_embeddings=256,
    )
    torch.manual_seed(0)
    model = MarianMTModel(config)
    with torch.no_grad():  # a bias that MarianMTModel starts at zero: give it values, so that its import shows
        model.final_logits_bias.normal_(0.0, 0.2)
    taught(
        model,
        MarianTokenizer(str(folder / "source.spm"), str(folder / "target.spm"), str(folder / "vocab.json")),
        english,
        german,
        teaching_steps,
        batch_size,
        learning_rate,
    )
    model.save_pretrained(folder)
    if not safetensors:  # as the older Helsinki-NLP checkpoints: every tied copy and the positions' table too
        (folder / "model.safetensors").unlink()
        torch.save(model.state_dict(), folder / "pytorch_model.bin")
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"source_lang": "en", "target_lang": "de"}), encoding="utf-8"
    )
    return folder


def taught(
    model, tokenizer, english: list[str], german: list[str], steps: int, batch_size: int, learning_rate: float
) -> None:
    """Adam steps on random batches of the pairs (the learning rate warmed up linearly over the
    first tenth), so that outputs end (with </s>) at different lengths and beam search has endings
    to weigh; what is compared with attn is whatever the weights are. The padding piece's
    embedding stays zero, as in an OPUS-MT checkpoint, whose decoder starts from a zero vector
    (transformers starts it from <pad>, CTranslate2 from zeros): trained through the tied output
    layer, it had made CTranslate2's translations another model's (33 of 2,000 the same)."""
    import torch

    generator = torch.Generator().manual_seed(0)
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    warmup = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / warmup))
    model.train()
    for _ in range(steps):
        rows = torch.randint(len(english), (batch_size,), generator=generator).tolist()
        batch = tokenizer(
            [english[i] for i in rows],
            text_target=[german[i] for i in rows],
            padding=True,
            truncation=True,
            max_length=40,
            return_tensors="pt",
        )
        batch["labels"][batch["labels"] == tokenizer.pad_token_id] = -100
        loss = model(**batch).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        with torch.no_grad():
            model.get_input_embeddings().weight[tokenizer.pad_token_id].zero_()
    model.eval()
