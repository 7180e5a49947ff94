"""`attn import marian`: a Hugging Face MarianMTModel checkpoint (the layout of every
Helsinki-NLP/opus-mt-* model: config.json, model.safetensors or pytorch_model.bin, source.spm,
target.spm, vocab.json) as an attn model folder under the graph contract.

What the conversion keeps: Marian's post-norm layers, embeddings × √d_model (scale_embedding),
its sinusoid frequencies, final_logits_bias, the FFN activation the config names, one embedding
matrix for source, target and output, and the decoder start token (Marian's pad). A key whose
value neither Hugging Face's MarianMTModel nor attn would compute is refused by name.

Ids: attn's special ids are fixed (runtime/constants.py: pad 0, unk 1, bos 2, eos 3) and Marian's
are eos 0, unk 1, pad last, pad also starting the decoder. The importer renumbers the vocabulary
(`attn_order`): 0 a copy of Marian's pad row whose output bias is NEVER (no probability), 1
Marian's unk, 2 Marian's pad (the decoder start, and the column that holds the pad's
probability in the normalization; the search never outputs it), 3 Marian's eos, then the rest in
Marian's order. Log-probabilities over Marian's pieces are therefore Marian's, exactly.

Tokenizers: source.spm and target.spm as `tokenizers` Unigram models in that id space
(export/importers/imported.py).
"""

from __future__ import annotations

import json
import pickle
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from attn.export.config import Config, ModelConfig, SearchConfig, TaskConfig
from attn.export.importers.imported import (
    LARGEST,
    NEVER,
    CheckpointError,
    Converted,
    Importer,
    checked_pair,
    checked_sentencepiece,
    checked_size,
    read_part,
)
from attn.runtime.search import MODEL_SEARCH_DEFAULTS

if TYPE_CHECKING:
    import torch

    from attn.export.models.transformer import Transformer

# Keys of a Marian config.json and the only values attn (and MarianMTModel) compute; older
# checkpoints carry BART's switches, which MarianMTModel ignores: a value other than these would
# describe a model that neither computes.
REQUIRED_VALUES = {
    "model_type": "marian",
    "share_encoder_decoder_embeddings": True,
    "tie_word_embeddings": True,
    "normalize_before": False,
    "normalize_embedding": False,
    "add_final_layer_norm": False,
    "static_position_embeddings": True,
    "add_bias_logits": False,
    "is_encoder_decoder": True,
}
ACTIVATIONS = {"swish": "swish", "silu": "swish", "gelu": "gelu", "relu": "relu"}  # Marian's names → [model] activation
OPUS_NAME = re.compile(r"opus-mt-([a-z]{2,3})-([a-z]{2,3})$")


class MarianImporter(Importer):
    """A Hugging Face MarianMTModel checkpoint folder."""

    kind, expected = "a folder", "a Hugging Face checkpoint folder"

    def convert(
        self, checkpoint: Path, source_lang: str | None, target_lang: str | None, alignment_layer: int
    ) -> Converted:
        config = read_config(checkpoint)
        vocabulary = read_vocabulary(checkpoint, config)
        order = attn_order(vocabulary, config)
        weights = weights_file(checkpoint)
        settings = Config(
            task=TaskConfig("translate", *languages(checkpoint, source_lang, target_lang)),
            model=model_settings(config, alignment_layer),
            search=search_settings(checkpoint, config),
        )
        spm = {
            side: checked_sentencepiece(read_part(checkpoint / f"{side}.spm"), f"the {side}'s SentencePiece model")
            for side in ("source", "target")
        }
        return Converted(
            converted_model(weights, config, settings.model, order),
            [vocabulary[index] for index in order],
            settings,
            spm["source"],
            spm["target"],
            {"imported_from": "marian", "checkpoint": checkpoint.name},
        )


def converted_model(weights: Path, config: dict, settings: ModelConfig, order: list[int]) -> Transformer:
    """The weights file's weights in attn's Transformer of `settings` (eval mode); the first step
    of an import that loads PyTorch."""
    from attn.export.models.transformer import Transformer

    model = Transformer(settings, config["vocab_size"] + 1).eval()
    model.load_state_dict(converted_weights(read_weights(weights), config, order), strict=True)
    return model


def read_json(path: Path):
    if not path.exists():
        raise CheckpointError(f"{path}: missing (a Hugging Face MarianMT checkpoint folder has it)")
    try:
        return json.loads(read_part(path).decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise CheckpointError(f"{path}: not valid JSON ({type(error).__name__})") from None


def read_config(checkpoint: Path) -> dict:
    path = checkpoint / "config.json"
    config = read_json(path)
    if not isinstance(config, dict):
        raise CheckpointError(f"{path}: not a JSON object")
    for key, value in REQUIRED_VALUES.items():
        if key in config and config[key] != value:
            raise CheckpointError(
                f"{path}: {key} = {json.dumps(config[key])} is not supported (attn imports {json.dumps(value)})"
            )
    if config.get("model_type") != "marian":
        raise CheckpointError(f'{path}: model_type must be "marian", got {json.dumps(config.get("model_type"))}')
    pairs = [("encoder_attention_heads", "decoder_attention_heads"), ("encoder_ffn_dim", "decoder_ffn_dim")]
    for first, second in pairs:
        if config.get(first) != config.get(second):
            raise CheckpointError(
                f"{path}: {first} ({config.get(first)}) and {second} ({config.get(second)}) differ; "
                "attn's Transformer has one value for both"
            )
    if config.get("decoder_vocab_size") not in (None, config.get("vocab_size")):
        raise CheckpointError(
            f"{path}: decoder_vocab_size differs from vocab_size (separate vocabularies are not supported)"
        )
    if config.get("activation_function") not in ACTIVATIONS:
        raise CheckpointError(
            f"{path}: activation_function {json.dumps(config.get('activation_function'))} is not "
            f"supported (attn has {', '.join(ACTIVATIONS)})"
        )
    for key in (
        "d_model",
        "encoder_layers",
        "decoder_layers",
        "encoder_attention_heads",
        "encoder_ffn_dim",
        "vocab_size",
        "pad_token_id",
        "eos_token_id",
    ):
        if isinstance(config.get(key), bool) or not isinstance(config.get(key), int):
            raise CheckpointError(f"{path}: {key} must be an integer, got {json.dumps(config.get(key))}")
    if config.get("decoder_start_token_id", config["pad_token_id"]) != config["pad_token_id"]:
        raise CheckpointError(
            f"{path}: decoder_start_token_id differs from pad_token_id (attn starts Marian's decoder with its pad)"
        )
    for key, size in (
        ("d_model", "embedding_size"),
        ("encoder_layers", "encoder_layers"),
        ("decoder_layers", "decoder_layers"),
        ("encoder_attention_heads", "heads"),
        ("encoder_ffn_dim", "feedforward_size"),
        ("vocab_size", "vocab_size"),
    ):
        if not 1 <= config[key] <= LARGEST[size]:  # before anything is allocated
            raise CheckpointError(f"{path}: {key} {config[key]} is outside what attn converts (1 to {LARGEST[size]:,})")
    if not 0 <= config["pad_token_id"] < config["vocab_size"] or not 0 <= config["eos_token_id"] < config["vocab_size"]:
        raise CheckpointError(
            f"{path}: pad_token_id and eos_token_id must be ids of the vocabulary (0 to vocab_size - 1)"
        )
    if config["d_model"] % config["encoder_attention_heads"]:
        raise CheckpointError(f"{path}: d_model is not a multiple of encoder_attention_heads")
    return config


def read_vocabulary(checkpoint: Path, config: dict) -> list[str]:
    """vocab.json as a list of pieces by Marian id."""
    path = checkpoint / "vocab.json"
    ids = read_json(path)
    size = config["vocab_size"]
    if not isinstance(ids, dict) or sorted(ids.values()) != list(range(size)):
        raise CheckpointError(
            f"{path}: must map {size} pieces (config.json vocab_size) to the ids 0 … {size - 1}, each once"
        )
    pieces = [""] * size
    for piece, index in ids.items():
        pieces[index] = piece
    return pieces


def attn_order(vocabulary: list[str], config: dict) -> list[int]:
    """The Marian id of each attn id (see the module's docstring): V + 1 ids."""
    pad, eos = config["pad_token_id"], config["eos_token_id"]
    unk = vocabulary.index("<unk>") if "<unk>" in vocabulary else None
    if unk is None or len({pad, eos, unk}) < 3:
        raise CheckpointError("vocab.json: needs distinct <unk>, pad_token_id and eos_token_id pieces")
    taken = {pad, unk, eos}
    return [pad, unk, pad, eos] + [index for index in range(len(vocabulary)) if index not in taken]


def model_settings(config: dict, alignment_layer: int) -> ModelConfig:
    """attn's [model] settings of the config, each size checked (checked_size)."""
    layers = config["decoder_layers"]
    if not -layers <= alignment_layer < layers:
        raise CheckpointError(f"--alignment-layer {alignment_layer}: the model has {layers} decoder layers")
    settings = ModelConfig(
        architecture="transformer",
        embedding_size=config["d_model"],
        encoder_layers=config["encoder_layers"],
        decoder_layers=layers,
        heads=config["encoder_attention_heads"],
        feedforward_size=config["encoder_ffn_dim"],
        dropout=0.0,
        attention_dropout=0.0,
        alignment_layer=alignment_layer,
        layer_norm="post",
        activation=ACTIVATIONS[config["activation_function"]],
        embedding_scale=bool(config.get("scale_embedding", False)),
        positions="marian",
    )
    return checked_size(settings, config["vocab_size"] + 1, "config.json")


def weights_file(checkpoint: Path) -> Path:
    """model.safetensors, or else pytorch_model.bin; a CheckpointError when there is neither."""
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (checkpoint / name).is_file():
            return checkpoint / name
    raise CheckpointError(f"{checkpoint}: holds neither model.safetensors nor pytorch_model.bin")


def read_weights(path: Path) -> dict[str, torch.Tensor]:
    """The weights of a safetensors file, or of a PyTorch pickle read with weights_only (no code runs)."""
    import torch

    try:
        if path.suffix == ".safetensors":
            from safetensors.torch import load_file

            return load_file(str(path))
        with warnings.catch_warnings():  # torch warns of old pickle protocols: not the user's concern
            warnings.simplefilter("ignore")
            return torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:
        if "weights only" in str(error).lower():  # torch's advice, weights_only=False, would run the file's code
            raise CheckpointError(
                f"{path}: holds more than weights (objects whose loading would run code): not imported"
            ) from None
        raise CheckpointError(f"{path}: damaged ({str(error).splitlines()[0][:200]})") from None
    except Exception as error:  # safetensors and torch raise many kinds on damaged files
        raise CheckpointError(f"{path.parent}: cannot read the weights ({str(error).splitlines()[0][:200]})") from None


LAYER_NAMES = {  # Marian's names within a layer → attn's
    "encoder": {
        "self_attn": "attention",
        "self_attn_layer_norm": "attention_norm",
        "fc1": "feedforward.0",
        "fc2": "feedforward.3",
        "final_layer_norm": "feedforward_norm",
    },
    "decoder": {
        "self_attn": "self_attention",
        "self_attn_layer_norm": "self_norm",
        "encoder_attn": "cross_attention",
        "encoder_attn_layer_norm": "cross_norm",
        "fc1": "feedforward.0",
        "fc2": "feedforward.3",
        "final_layer_norm": "feedforward_norm",
    },
}
PROJECTIONS = {"q_proj": "query", "k_proj": "key", "v_proj": "value", "out_proj": "out"}
EMBEDDINGS = (
    "model.shared.weight",
    "model.encoder.embed_tokens.weight",
    "model.decoder.embed_tokens.weight",
    "lm_head.weight",
)
LAYER = re.compile(
    r"model\.(encoder|decoder)\.layers\.(\d+)\.(\w+?)(?:\.(q_proj|k_proj|v_proj|out_proj))?\.(weight|bias)"
)


def converted_weights(weights: dict[str, torch.Tensor], config: dict, order: list[int]) -> dict[str, torch.Tensor]:
    """Marian's state dict → attn's Transformer's: layers renamed, the embedding and output bias
    renumbered (attn_order), the pad row's bias NEVER."""
    import torch

    converted: dict[str, torch.Tensor] = {}
    embeddings = [weights[name] for name in EMBEDDINGS if name in weights]
    if not embeddings:
        raise CheckpointError(f"the weights hold no embedding ({' or '.join(EMBEDDINGS[:2])})")
    if any(other.shape != embeddings[0].shape or not torch.equal(other, embeddings[0]) for other in embeddings[1:]):
        raise CheckpointError("the encoder, decoder and output embeddings differ; attn imports models that share one")
    index = torch.tensor(order)
    converted["embedding.weight"] = embeddings[0].float()[index].clone()
    bias = weights.get("final_logits_bias", torch.zeros(1, config["vocab_size"])).float().reshape(-1)[index].clone()
    bias[0] = NEVER
    converted["output_bias"] = bias
    for name, value in weights.items():
        match = LAYER.fullmatch(name)
        if match is None:
            if name not in EMBEDDINGS and name != "final_logits_bias" and "embed_positions" not in name:
                raise CheckpointError(f"the weights hold {name}, which attn's Transformer has no place for")
            continue
        stack, layer, part, projection, kind = match.groups()
        if part not in LAYER_NAMES[stack]:
            raise CheckpointError(f"the weights hold {name}, which attn's Transformer has no place for")
        target = LAYER_NAMES[stack][part] + (f".{PROJECTIONS[projection]}" if projection else "")
        converted[f"{stack}_layers.{layer}.{target}.{kind}"] = value.float()
    return converted


def languages(checkpoint: Path, source: str | None, target: str | None) -> tuple[str, str]:
    """The pair: as given, else from tokenizer_config.json (source_lang, target_lang), else from an
    opus-mt-xx-yy folder name."""
    found: tuple[str | None, str | None] = (None, None)
    settings = checkpoint / "tokenizer_config.json"
    if settings.is_file():
        try:
            raw = json.loads(settings.read_text(encoding="utf-8"))
            found = (raw.get("source_lang"), raw.get("target_lang")) if isinstance(raw, dict) else found
        except (json.JSONDecodeError, UnicodeDecodeError):
            pass
    match = OPUS_NAME.search(checkpoint.resolve().name)
    if match and None in found:
        found = match.groups()
    return checked_pair(
        source or found[0],
        target or found[1],
        f"{checkpoint}: cannot tell the languages; give them with --from and --to",
    )


def search_settings(checkpoint: Path, config: dict) -> SearchConfig:
    """attn's default search, with the checkpoint's beam (num_beams of generation_config.json, or of
    config.json in older checkpoints) and sources cut at its positions' length."""
    beam = config.get("num_beams", MODEL_SEARCH_DEFAULTS["beam"])
    generation = checkpoint / "generation_config.json"
    if generation.is_file():
        try:
            beam = int(json.loads(generation.read_text(encoding="utf-8")).get("num_beams", beam))
        except (json.JSONDecodeError, UnicodeDecodeError, TypeError, ValueError, AttributeError):
            pass
    longest = min(MODEL_SEARCH_DEFAULTS["max_source_pieces"], config.get("max_position_embeddings", 512))
    beam = beam if isinstance(beam, int) and not isinstance(beam, bool) else MODEL_SEARCH_DEFAULTS["beam"]
    return SearchConfig(beam=max(1, min(beam, 16)), max_source_pieces=longest)
