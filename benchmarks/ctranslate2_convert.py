"""A Transformer checkpoint of `attn train` as a CTranslate2 model, through CTranslate2's own spec
API (the "custom converter" path), and a check that CTranslate2's greedy output equals ours.

    pip install ctranslate2
    python -m benchmarks.ctranslate2_convert configs/en-de-transformer.toml work/en-de-transformer \\
        --model work/en-de-t --out work/en-de-ct2 --check ../shared/data/en-de/test.tsv.gz --sentences 300

The weights are the run's best checkpoint (or the mean of the last `--average` kept ones, as
`attn export --average` takes them), so `--model` should be the folder exported from the same
weights. Mapping (export/models/transformer.py → ctranslate2.specs.TransformerSpec): pre-norm layers
with a final layer norm on both stacks; self-attention's query, key and value projections fused
into one; encoder-decoder attention's key and value fused; ReLU feed-forward; the embedding
matrix shared by source, target and the output projection (with our output bias); embeddings
scaled by √width; our sinusoidal table given as the position encodings. The vocabulary is the
tokenizer's pieces, ids in order, with our special pieces as unk/bos/eos. Sources are given as
pieces with the end-of-sentence piece, as our encoder reads them. `--model`'s lexical shortlist, when
it has one, goes along as CTranslate2's vocabulary map (vmap.txt, used with `use_vmap=True`): the
same candidates per source piece, and the same always-kept pieces.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import torch

from attn.export.models.transformer import MultiHeadAttention, Transformer, sinusoids
from attn.runtime.constants import BOS, EOS, SPECIAL_TOKENS, TOKENIZER, UNK
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.search import SearchOptions
from attn.runtime.shortlist import Shortlist
from attn.runtime.tokenizer import SubwordTokenizer
from attn.runtime.tsv import read_tsv, spread
from benchmarks.training_run import add_run_arguments, run_model

if TYPE_CHECKING:  # ctranslate2 is optional: imported where a function needs it
    from ctranslate2.specs import common_spec, transformer_spec

POSITIONS = 1024  # rows of the position table: longer than any source or output the runtime allows


def linear(spec: common_spec.LinearSpec, layer: torch.nn.Linear) -> None:
    spec.weight = layer.weight.detach().numpy()
    spec.bias = layer.bias.detach().numpy()


def layer_norm(spec: common_spec.LayerNormSpec, norm: torch.nn.LayerNorm) -> None:
    spec.gamma = norm.weight.detach().numpy()
    spec.beta = norm.bias.detach().numpy()


def attention(spec, module: MultiHeadAttention, norm: torch.nn.LayerNorm, self_attention: bool) -> None:
    from ctranslate2.converters import utils
    from ctranslate2.specs import common_spec

    parts = [common_spec.LinearSpec() for _ in range(3)]
    for part, layer in zip(parts, (module.query, module.key, module.value)):
        linear(part, layer)
    if self_attention:
        utils.fuse_linear(spec.linear[0], parts)
    else:
        spec.linear[0].weight, spec.linear[0].bias = parts[0].weight, parts[0].bias
        utils.fuse_linear(spec.linear[1], parts[1:])
    linear(spec.linear[-1], module.out)
    layer_norm(spec.layer_norm, norm)


def feedforward(spec, module, norm: torch.nn.LayerNorm) -> None:
    linear(spec.linear_0, module[0])
    linear(spec.linear_1, module[3])
    layer_norm(spec.layer_norm, norm)


def inputs(spec, model: Transformer) -> None:
    """The shared embedding (the encoder spec holds a list of one), its √width scale, positions."""
    embeddings = spec.embeddings[0] if isinstance(spec.embeddings, list) else spec.embeddings
    embeddings.weight = model.embedding.weight.detach().numpy()
    spec.scale_embeddings = True
    spec.position_encodings.encodings = sinusoids(torch.arange(POSITIONS), model.config.embedding_size).numpy()


def ctranslate2_spec(model: Transformer, pieces: list[str]) -> transformer_spec.TransformerSpec:
    from ctranslate2.specs import transformer_spec

    config = model.config
    spec = transformer_spec.TransformerSpec.from_config(
        (config.encoder_layers, config.decoder_layers), config.heads, pre_norm=True
    )
    inputs(spec.encoder, model)
    for layer_spec, layer in zip(spec.encoder.layer, model.encoder_layers):
        attention(layer_spec.self_attention, layer.attention, layer.attention_norm, self_attention=True)
        feedforward(layer_spec.ffn, layer.feedforward, layer.feedforward_norm)
    layer_norm(spec.encoder.layer_norm, model.encoder_norm)
    inputs(spec.decoder, model)
    for layer_spec, layer in zip(spec.decoder.layer, model.decoder_layers):
        attention(layer_spec.self_attention, layer.self_attention, layer.self_norm, self_attention=True)
        attention(layer_spec.attention, layer.cross_attention, layer.cross_norm, self_attention=False)
        feedforward(layer_spec.ffn, layer.feedforward, layer.feedforward_norm)
    layer_norm(spec.decoder.layer_norm, model.decoder_norm)
    spec.decoder.projection.weight = model.embedding.weight.detach().numpy()
    spec.decoder.projection.bias = model.output_bias.detach().numpy()
    spec.config.unk_token, spec.config.bos_token, spec.config.eos_token = pieces[UNK], pieces[BOS], pieces[EOS]
    spec.config.decoder_start_token = pieces[BOS]
    spec.register_source_vocabulary(pieces)
    spec.register_target_vocabulary(pieces)
    return spec


def write_vocabulary_map(shortlist: Shortlist, pieces: list[str], path: Path) -> None:
    """Our shortlist as CTranslate2's vmap.txt: a line "<source piece>\t<target pieces>" per piece
    (the piece itself, copied through, and its lexical translations), and the always-kept pieces
    (special and frequent) on the line whose source side is empty."""
    always = [*pieces[: len(SPECIAL_TOKENS)], *(pieces[i] for i in shortlist.frequent)]
    lines = ["\t" + " ".join(always)]
    for piece_id, translations in enumerate(shortlist.translations):
        targets = [pieces[piece_id], *(pieces[i] for i in translations if i >= 0)]
        lines.append(f"{pieces[piece_id]}\t{' '.join(targets)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def convert(model: Transformer, pieces: list[str], vocabulary_map: Path | None, out: Path) -> None:
    """Write the CTranslate2 model into `out`, through CTranslate2's documented extension point: a
    Converter whose _load returns the model spec."""
    from ctranslate2.converters import Converter

    class AttnConverter(Converter):
        def _load(self) -> transformer_spec.TransformerSpec:
            spec = ctranslate2_spec(model, pieces)
            if vocabulary_map:
                spec.register_vocabulary_mapping(str(vocabulary_map))
            return spec

    AttnConverter().convert(str(out), force=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser)
    parser.add_argument("--model", type=Path, required=True, help="our model folder exported from the same weights")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--check", type=Path, help="a TSV whose sources both engines translate greedily")
    parser.add_argument("--sentences", type=int, default=300)
    args = parser.parse_args()
    _, model, steps = run_model(args)
    pieces = SubwordTokenizer.load(args.workdir / TOKENIZER).pieces
    ours = LoadedModel(args.model, threads=1, notify=lambda message: None)
    with tempfile.TemporaryDirectory() as scratch:
        vocabulary_map = Path(scratch) / "vmap.txt" if ours.shortlist else None
        if vocabulary_map:
            write_vocabulary_map(ours.shortlist, pieces, vocabulary_map)
        convert(model, pieces, vocabulary_map, args.out)
    print(f"wrote {args.out} from step(s) {steps}{' with the shortlist as vmap.txt' if vocabulary_map else ''}")
    if not args.check:
        return
    import ctranslate2

    rows = spread(read_tsv(args.check), args.sentences)
    options = SearchOptions(beam=1)
    engine = ctranslate2.Translator(str(args.out), device="cpu", inter_threads=1, intra_threads=1)
    ids = {piece: i for i, piece in enumerate(pieces)}
    same, differing = 0, []
    for row in rows:
        source = ours.tokenizer.encode_source(row.source)
        expected = ours.search([source.ids], options)[0][0].tokens
        result = engine.translate_batch(
            [[pieces[i] for i in source.ids]],
            beam_size=1,
            max_decoding_length=int(ours.max_lengths(np.array([len(source.ids)]), options)[0]),
        )
        got = [ids.get(p, UNK) for p in result[0].hypotheses[0]]
        same += got == expected
        if got != expected and len(differing) < 5:
            differing.append((row.source, ours.tokenizer.decode(expected), ours.tokenizer.decode(got)))
    print(f"greedy outputs equal: {same}/{len(rows)}")
    for source, expected, got in differing:
        print(f"  {source}\n    attn:        {expected}\n    CTranslate2: {got}")


if __name__ == "__main__":
    sys.exit(main())
