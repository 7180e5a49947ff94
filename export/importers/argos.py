"""`attn import argos`: an Argos Translate package (`.argosmodel`: a zip of `metadata.json`, a
SentencePiece model `sentencepiece.model` for both sides, and a CTranslate2 model folder `model/`)
as an attn model folder, read without CTranslate2 (export/importers/ctranslate2_model.py).

What the conversion keeps: CTranslate2's TransformerSpec as attn's Transformer: pre- or post-norm
layers (`pre_norm`, with the stacks' final norms), the activation (ReLU, swish, GELU), the
embedding scale, the positions' table, the fused query-key-value products split into attn's, one
embedding matrix for source, target and output (CTranslate2's aliases), int8 weights dequantized.
Anything else the spec holds (relative positions, ALiBi, gated FFNs, several source embeddings,
an embedding layer norm, separate vocabularies, no stored positions) is refused by name.

Ids: attn's are fixed (pad 0, unk 1, bos 2, eos 3); the importer renumbers CTranslate2's
vocabulary: 0 its pad (`<blank>` or `<pad>`) or an added zero row, 1 its unk, 2 the decoder's start
token (a zero row where the spec starts from a zero embedding), 3 its eos, then the rest in its
order. Rows CTranslate2's output layer lacks get the output bias NEVER, so log-probabilities over
its tokens are CTranslate2's. Sources end with EOS only when the model's config.json says
`add_source_eos` (Argos reads them without: the runtime then masks the EOS out, `source_eos`).
"""

from __future__ import annotations

import json
import math
import re
import stat
import zipfile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import numpy as np

from attn.export.config import Config, ModelConfig, SearchConfig, TaskConfig
from attn.export.importers.ctranslate2_model import Ctranslate2Error, read_variables, read_vocabulary
from attn.export.importers.imported import (
    NEVER,
    CheckpointError,
    Converted,
    Importer,
    checked_pair,
    checked_sentencepiece,
    checked_size,
)
from attn.runtime.search import MODEL_SEARCH_DEFAULTS

if TYPE_CHECKING:
    import torch

    from attn.export.models.transformer import Transformer

# The largest member an import reads (the biggest Argos models' model.bin are a few hundred MB) and
# the most a member may inflate (model weights compress little; 400 MB of zeros 700 times over)
LARGEST_MEMBER = 2 << 30
LARGEST_PACKAGE = 4 << 30  # all members together
MOST_INFLATION = 50
ACTIVATIONS = {0: "relu", 2: "swish", 3: "gelu"}  # CTranslate2's Activation enum → [model] activation
PADS = ("<blank>", "<pad>")
# The spec's attributes (scalars) attn reads, and those that must keep their default: any other is refused.
ATTRIBUTES = {
    "activation",
    "alignment_heads",
    "alignment_layer",
    "num_heads",
    "pre_norm",
    "scale_embeddings",
    "start_from_zero_embedding",
    "embeddings_merge",
    "alibi_use_positive_positions",
    "scale_alibi",
}
DEFAULT_ONLY = {"alibi": 0, "multi_query_attention": 0}
SPLIT = {"self_attention/linear_0": ("query", "key", "value"), "attention/linear_1": ("key", "value")}
LAYER = re.compile(
    r"(encoder|decoder)/layer_(\d+)/(self_attention|attention|ffn)/(layer_norm|linear_\d)/(weight|bias|gamma|beta)"
)
PARTS = {  # (stack, block, part) → attn's module within the layer
    ("encoder", "self_attention", "layer_norm"): "attention_norm",
    ("encoder", "self_attention", "linear_1"): "attention.out",
    ("encoder", "ffn", "layer_norm"): "feedforward_norm",
    ("encoder", "ffn", "linear_0"): "feedforward.0",
    ("encoder", "ffn", "linear_1"): "feedforward.3",
    ("decoder", "self_attention", "layer_norm"): "self_norm",
    ("decoder", "self_attention", "linear_1"): "self_attention.out",
    ("decoder", "attention", "layer_norm"): "cross_norm",
    ("decoder", "attention", "linear_0"): "cross_attention.query",
    ("decoder", "attention", "linear_2"): "cross_attention.out",
    ("decoder", "ffn", "layer_norm"): "feedforward_norm",
    ("decoder", "ffn", "linear_0"): "feedforward.0",
    ("decoder", "ffn", "linear_1"): "feedforward.3",
}
NAMES = {"weight": "weight", "bias": "bias", "gamma": "weight", "beta": "bias"}
ATTENTIONS = {
    ("encoder", "self_attention"): "attention",
    ("decoder", "self_attention"): "self_attention",
    ("decoder", "attention"): "cross_attention",
}


class ArgosImporter(Importer):
    """An Argos Translate package; `source_eos` None: as its config.json's add_source_eos says."""

    kind, expected = "a file", "an .argosmodel package"

    def __init__(self, source_eos: bool | None = None):
        self.source_eos = source_eos

    def convert(
        self, package: Path, source_lang: str | None, target_lang: str | None, alignment_layer: int
    ) -> Converted:
        files, metadata = package_files(package)
        where = f"{package}: model/"
        config = json.loads(files["model/config.json"].decode("utf-8")) if "model/config.json" in files else {}
        variables = read_variables(files["model/model.bin"], f"{where}model.bin")
        vocabulary = read_vocabulary({name.removeprefix("model/"): data for name, data in files.items()}, where)
        settings = model_settings(variables, config, alignment_layer, self.source_eos, where)
        rows = variables["decoder/embeddings/weight"].shape[0]
        if rows != len(vocabulary):  # the rows past the vocabulary's end would be dropped unsaid
            raise Ctranslate2Error(
                f"{where}: the vocabulary lists {len(vocabulary)} tokens, the embeddings have {rows} rows"
            )
        order = attn_order(vocabulary, config, bool(scalar(variables, "decoder/start_from_zero_embedding", 0)), where)
        checked_size(settings, len(order), where)
        pair = checked_pair(
            source_lang or metadata.get("from_code"),
            target_lang or metadata.get("to_code"),
            f"{package}: metadata.json names no pair (from_code, to_code); give it with --from and --to",
        )
        spm = checked_sentencepiece(files["sentencepiece.model"], f"{package}: sentencepiece.model")
        longest = min(MODEL_SEARCH_DEFAULTS["max_source_pieces"], settings.position_table_size * 2 // 3 - 10)
        full = Config(
            task=TaskConfig("translate", *pair),
            model=settings,
            search=SearchConfig(max_source_pieces=max(longest, 1)),
        )
        return Converted(
            converted_model(variables, order, settings, where),
            [vocabulary[index] if index is not None else "" for index in order],
            full,
            spm,
            spm,
            {
                "imported_from": "argos",
                "package": package.name,
                "package_version": str(metadata.get("package_version", "")),
            },
        )


def converted_model(
    variables: dict[str, np.ndarray], order: list[int | None], settings: ModelConfig, where: str
) -> Transformer:
    """The spec's variables in attn's Transformer of `settings` (eval mode); the first step of an
    import that loads PyTorch."""
    from attn.export.models.transformer import Transformer

    model = Transformer(settings, len(order)).eval()
    model.load_state_dict(converted_weights(variables, order, settings, where), strict=True)
    return model


def check_members(archive: zipfile.ZipFile, package: Path) -> None:
    """Refuse a package no Argos tool writes: a member named out of its folder (an absolute path,
    `..`), a symbolic link, or members that inflate to more than LARGEST_PACKAGE together."""
    total = 0
    for info in archive.infolist():
        parts = PurePosixPath(info.filename.replace("\\", "/")).parts
        if info.filename.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
            raise CheckpointError(f"{package}: its member {info.filename!r} points out of the package's folder")
        if stat.S_ISLNK(info.external_attr >> 16):
            raise CheckpointError(f"{package}: its member {info.filename!r} is a symbolic link")
        total += info.file_size
    if total > LARGEST_PACKAGE:
        raise CheckpointError(f"{package}: unpacks to {total:,} bytes, more than an Argos model holds")


def package_files(package: Path) -> tuple[dict[str, bytes], dict]:
    """The package's files that the import reads, by name under its top folder, and its metadata."""
    try:
        archive = zipfile.ZipFile(package)
    except (zipfile.BadZipFile, OSError) as error:
        raise CheckpointError(f"{package}: not an Argos package (a zip file): {error}") from None
    with archive:
        check_members(archive, package)
        names = [info.filename for info in archive.infolist() if not info.is_dir()]
        found = sorted((name for name in names if name.rsplit("/", 1)[-1] == "metadata.json"), key=len)
        prefix = found[0].removesuffix("metadata.json") if found else ""  # the package's top folder
        wanted = {
            "metadata.json",
            "sentencepiece.model",
            "model/model.bin",
            "model/config.json",
            "model/shared_vocabulary.json",
            "model/shared_vocabulary.txt",
            "model/source_vocabulary.json",
            "model/source_vocabulary.txt",
        }
        members = [info for info in archive.infolist() if info.filename.removeprefix(prefix) in wanted]
        for info in members:  # checked before anything is inflated: a zip bomb stays a small file
            if info.file_size > LARGEST_MEMBER or info.file_size > MOST_INFLATION * max(info.compress_size, 1):
                raise CheckpointError(
                    f"{package}: {info.filename} would inflate to {info.file_size:,} bytes from "
                    f"{info.compress_size:,}: more than an Argos model holds"
                )
        files = {info.filename.removeprefix(prefix): archive.read(info) for info in members}
    for required in ("metadata.json", "model/model.bin"):
        if required not in files:
            raise CheckpointError(f"{package}: holds no {required} (an Argos package has metadata.json and model/)")
    if "sentencepiece.model" not in files:
        raise CheckpointError(
            f"{package}: holds no sentencepiece.model (attn imports packages tokenized by SentencePiece)"
        )
    try:
        metadata = json.loads(files["metadata.json"].decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CheckpointError(f"{package}: metadata.json is not valid JSON ({error})") from None
    return files, metadata if isinstance(metadata, dict) else {}


def scalar(variables: dict[str, np.ndarray], name: str, default=None):
    value = variables.get(name)
    return default if value is None else value.item()


def model_settings(
    variables: dict[str, np.ndarray], config: dict, alignment_layer: int, source_eos: bool | None, where: str
) -> ModelConfig:
    """attn's [model] for the spec, or a Ctranslate2Error naming what attn cannot compute."""
    for name, value in variables.items():
        stack, _, attribute = name.partition("/")
        if value.ndim == 0 and attribute not in ATTRIBUTES and DEFAULT_ONLY.get(attribute, object()) != value.item():
            raise Ctranslate2Error(f"{where}: {name} = {value.item()} is not supported by attn's Transformer")
    heads = {scalar(variables, f"{stack}/num_heads") for stack in ("encoder", "decoder")}
    norms = {bool(scalar(variables, f"{stack}/pre_norm", 1)) for stack in ("encoder", "decoder")}
    activations = {scalar(variables, f"{stack}/activation", 0) for stack in ("encoder", "decoder")}
    for what, values in (("num_heads", heads), ("pre_norm", norms), ("activation", activations)):
        if len(values) != 1:
            raise Ctranslate2Error(f"{where}: the encoder's and the decoder's {what} differ; attn has one for both")
    [activation] = activations
    if activation not in ACTIVATIONS:
        raise Ctranslate2Error(f"{where}: activation {activation} is not supported (attn has ReLU, swish and GELU)")
    embedding = variables.get("decoder/embeddings/weight")
    if embedding is None or "decoder/position_encodings/encodings" not in variables:
        raise Ctranslate2Error(
            f"{where}: no decoder/embeddings/weight or no stored positions (decoder/position_encodings)"
        )
    width = embedding.shape[1]
    scales = {scalar(variables, f"{stack}/scale_embeddings", True) for stack in ("encoder", "decoder")}
    if len(scales) != 1:
        raise Ctranslate2Error(f"{where}: the encoder's and the decoder's scale_embeddings differ")
    [scale] = scales
    if isinstance(scale, float) and not any(
        math.isclose(scale, value, rel_tol=1e-5) for value in (1.0, math.sqrt(width))
    ):
        raise Ctranslate2Error(f"{where}: embeddings scaled by {scale}; attn scales by √width or not at all")
    embedding_scale = math.isclose(scale, math.sqrt(width), rel_tol=1e-5) if isinstance(scale, float) else bool(scale)
    layers = {
        stack: 1
        + max(
            int(name.split("/")[1].removeprefix("layer_")) for name in variables if name.startswith(f"{stack}/layer_")
        )
        for stack in ("encoder", "decoder")
    }
    [head_count] = heads
    if not -layers["decoder"] <= alignment_layer < layers["decoder"]:
        raise Ctranslate2Error(f"--alignment-layer {alignment_layer}: the model has {layers['decoder']} decoder layers")
    return ModelConfig(
        architecture="transformer",
        embedding_size=width,
        encoder_layers=layers["encoder"],
        decoder_layers=layers["decoder"],
        heads=int(head_count),
        feedforward_size=variables["encoder/layer_0/ffn/linear_0/weight"].shape[0],
        dropout=0.0,
        attention_dropout=0.0,
        alignment_layer=alignment_layer,
        layer_norm="pre" if norms.pop() else "post",
        activation=ACTIVATIONS[activation],
        embedding_scale=embedding_scale,
        positions="table",
        position_table_size=variables["decoder/position_encodings/encodings"].shape[0],
        source_eos=bool(config.get("add_source_eos", False)) if source_eos is None else source_eos,
    )


def attn_order(vocabulary: list[str], config: dict, start_from_zero: bool, where: str) -> list[int | None]:
    """The CTranslate2 id of each attn id (see the module's docstring); None: an added zero row."""

    def index(token: str | None) -> int | None:
        return vocabulary.index(token) if token in vocabulary else None

    unk, eos = index(config.get("unk_token", "<unk>")), index(config.get("eos_token", "</s>"))
    start = None if start_from_zero else index(config.get("decoder_start_token", config.get("bos_token", "<s>")))
    pad = next((index(token) for token in PADS if token in vocabulary), None)
    if unk is None or eos is None or (start is None and not start_from_zero):
        raise Ctranslate2Error(f"{where}: the vocabulary lacks the unk, eos or decoder start token config.json names")
    taken = {pad, unk, start, eos} - {None}  # every other token keeps its row: the normalization stays CTranslate2's
    return [pad, unk, start, eos] + [i for i in range(len(vocabulary)) if i not in taken]


def converted_weights(
    variables: dict[str, np.ndarray], order: list[int | None], settings: ModelConfig, where: str
) -> dict[str, torch.Tensor]:
    """The spec's variables → attn's Transformer's state dict; every variable is used or refused."""
    import torch

    embedding = variables["decoder/embeddings/weight"]
    for name in ("encoder/embeddings_0/weight", "encoder/embeddings/weight", "decoder/projection/weight"):
        if name in variables and variables[name] is not embedding and not np.array_equal(variables[name], embedding):
            raise Ctranslate2Error(
                f"{where}: {name} differs from decoder/embeddings/weight; attn imports models that share one"
            )
    if not np.array_equal(
        variables.get("encoder/position_encodings/encodings", variables["decoder/position_encodings/encodings"]),
        variables["decoder/position_encodings/encodings"],
    ):
        raise Ctranslate2Error(f"{where}: the encoder's and the decoder's positions differ; attn has one table")
    rows = [embedding[i] if i is not None else np.zeros(embedding.shape[1], np.float32) for i in order]
    projection_bias = variables.get("decoder/projection/bias", np.zeros(len(embedding), np.float32))
    bias = np.array([projection_bias[i] if i is not None else NEVER for i in order], dtype=np.float32)
    bias[0] = NEVER
    state = {
        "embedding.weight": torch.tensor(np.stack(rows)),
        "output_bias": torch.tensor(bias),
        "position_table": torch.tensor(np.array(variables["decoder/position_encodings/encodings"], dtype=np.float32)),
    }
    if settings.layer_norm == "pre":
        for stack in ("encoder", "decoder"):
            for kind, attn_kind in (("gamma", "weight"), ("beta", "bias")):
                state[f"{stack}_norm.{attn_kind}"] = torch.tensor(np.array(variables[f"{stack}/layer_norm/{kind}"]))
    used = {
        "decoder/embeddings/weight",
        "encoder/embeddings_0/weight",
        "encoder/embeddings/weight",
        "decoder/projection/weight",
        "decoder/projection/bias",
        "encoder/position_encodings/encodings",
        "decoder/position_encodings/encodings",
        *(f"{stack}/layer_norm/{kind}" for stack in ("encoder", "decoder") for kind in ("gamma", "beta")),
    }
    for name, value in variables.items():
        if value.ndim == 0 or name in used:
            continue
        match = LAYER.fullmatch(name)
        if match is None:
            raise Ctranslate2Error(f"{where}: {name} has no place in attn's Transformer")
        stack, layer, block, part, kind = match.groups()
        prefix = f"{stack}_layers.{layer}."
        tensor = torch.tensor(np.array(value, dtype=np.float32))
        if (f"{block}/{part}") in SPLIT:
            for attn_part, piece in zip(SPLIT[f"{block}/{part}"], tensor.chunk(len(SPLIT[f"{block}/{part}"]), dim=0)):
                state[f"{prefix}{ATTENTIONS[stack, block]}.{attn_part}.{NAMES[kind]}"] = piece.clone()
        elif (stack, block, part) in PARTS:
            state[f"{prefix}{PARTS[stack, block, part]}.{NAMES[kind]}"] = tensor
        else:
            raise Ctranslate2Error(f"{where}: {name} has no place in attn's Transformer")
    return state
