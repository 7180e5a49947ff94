"""Export a trained Seq2Seq as an encoder graph and a single-step decoder graph, verify both
against PyTorch with onnxruntime, and write the model folder atomically.

encoder.onnx: source_ids (B, S) int64, source_mask (B, S) int64
              → memory (B, S, V), keys (B, S, K), then the initial decoder states.
decoder.onnx: previous_tokens (B,) int64, the states, memory, keys, source_mask,
              output_weight (R, C), output_bias (C,) [, source_ids (B, S) int64 for copy models]
              → log_probs (B, C), the new states, attention (B, S).
output_layer.npz: the output layer's weight (V, R) and bias (V,). The runtime feeds all V rows,
or those of a shortlist of C candidates (runtime/shortlist.py); log_probs then has one column
per candidate, and a copy model's source_ids hold each source piece's column.
State names come from the model (hidden, cell for LSTM, feed for Luong, coverage) and go in the
manifest. A copy model's log_probs are already the final pointer-generator mixture: with byte-level
BPE every source word is a sequence of in-vocabulary pieces, so copying a word no vocabulary entry
holds is copying its pieces, and the extended vocabulary of See et al. is the piece vocabulary.
"""

from __future__ import annotations

import shutil
from copy import deepcopy
from pathlib import Path

import numpy as np
import onnxruntime
import torch
from torch import Tensor, nn

from attn.runtime.constants import BOS, DECODER, ENCODER, LEXICON, MANIFEST, OUTPUT_LAYER, PAD, SPECIAL_IDS, SPECIAL_TOKENS, TOKENIZER
from attn.runtime.manifest import Manifest, sha256_of
from attn.runtime.output_layer import OutputLayer
from attn.runtime.shortlist import Shortlist

from .config import Config
from .decoder import OutputRows
from .graph_metadata import record_tokenizer
from .model import Seq2Seq
from .staging import staged_folder

OPSET = 17
TOLERANCE = 1e-4
PROBABLE = 1e-5  # below this probability, log-probabilities are compared as probabilities
CHECK_BATCHES = (1, 3, 8)
CHECK_LENGTHS = (1, 6, 23)
CHECK_STEPS = 3


class ExportError(RuntimeError):
    """The exported graphs disagree with PyTorch, or the folder could not be written."""


class EncoderGraph(nn.Module):
    def __init__(self, model: Seq2Seq):
        super().__init__()
        self.model = model

    def forward(self, source_ids: Tensor, source_mask: Tensor) -> tuple[Tensor, ...]:
        memory, keys, states = self.model.encode(source_ids, source_mask)
        return (memory, keys, *(states[name] for name in self.model.state_names))


class DecoderGraph(nn.Module):
    def __init__(self, model: Seq2Seq):
        super().__init__()
        self.model = model

    def forward(self, previous_tokens: Tensor, *rest: Tensor) -> tuple[Tensor, ...]:
        names = self.model.state_names
        states = dict(zip(names, rest[: len(names)]))
        memory, keys, source_mask, output_weight, output_bias, *source_ids = rest[len(names) :]
        source = source_ids[0] if source_ids else None
        log_probs, new_states, attention = self.model.decode_step(
            previous_tokens, states, keys, memory, source_mask, source, OutputRows(output_weight, output_bias))
        return (log_probs, *(new_states[name] for name in names), attention)


def export_model(model: Seq2Seq, config: Config, tokenizer_file: Path, out: Path, training: dict,
                 shortlist: Shortlist | None = None) -> float:
    """Write the verified model folder `out` (replacing it only on success), with the shortlist's
    lexicon.npz when given; returns the largest difference seen between onnxruntime and PyTorch."""
    model.eval()
    with staged_folder(Path(out)) as staging:
        _export_graphs(deepcopy(model), staging)  # see _export_graphs
        layer = model.decoder.output_layer
        OutputLayer(layer.weight.detach().numpy(), layer.bias.detach().numpy()).save(staging / OUTPUT_LAYER)
        shutil.copyfile(tokenizer_file, staging / TOKENIZER)
        record_tokenizer(staging)
        files = [ENCODER, DECODER, OUTPUT_LAYER, TOKENIZER]
        if shortlist is not None:
            shortlist.save(staging / LEXICON)
            files.append(LEXICON)
        largest = verify(model, staging)
        manifest = Manifest(
            task=config.task.kind,
            source_lang=config.task.source_lang,
            target_lang=config.task.target_lang,
            architecture={**config.to_dict()["model"], "vocab_size": model.embedding.num_embeddings,
                          "parameters": sum(p.numel() for p in model.parameters())},
            special_ids=SPECIAL_IDS,
            state_names=list(model.state_names),
            files={name: sha256_of(staging / name) for name in files},
            search=config.to_dict()["search"],
            training={**training, "max_onnx_difference": largest},
        )
        (staging / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
    return largest


def _export_graphs(model: Seq2Seq, folder: Path) -> None:
    """Trace both graphs into `folder`. Tracing leaves a model's GRUs changed (torch 2.13: the
    en-de encoder's eager output moved by 0.3 after export), so callers pass a copy and verify
    against the untouched original."""
    names = list(model.state_names)
    source = torch.full((2, 5), 5, dtype=torch.long)
    mask = torch.ones_like(source)
    with torch.no_grad():
        memory, keys, states = model.encode(source, mask)
    state_axes = {name: _state_axes(name) for name in names}
    state_axes.update({f"new_{name}": _state_axes(name) for name in names})
    torch.onnx.export(
        EncoderGraph(model), (source, mask), str(folder / ENCODER), dynamo=False, opset_version=OPSET,
        input_names=["source_ids", "source_mask"], output_names=["memory", "keys", *names],
        dynamic_axes={"source_ids": {0: "batch", 1: "source"}, "source_mask": {0: "batch", 1: "source"},
                      "memory": {0: "batch", 1: "source"}, "keys": {0: "batch", 1: "source"},
                      **{name: _state_axes(name) for name in names}},
    )
    previous = torch.full((2,), BOS, dtype=torch.long)
    layer = model.decoder.output_layer
    rows = (layer.weight.detach().t(), layer.bias.detach())
    copy_inputs = ["source_ids"] if model.config.copy else []
    torch.onnx.export(
        DecoderGraph(model), (previous, *(states[n] for n in names), memory, keys, mask, *rows,
                              *([source] if copy_inputs else [])),
        str(folder / DECODER), dynamo=False, opset_version=OPSET,
        input_names=["previous_tokens", *names, "memory", "keys", "source_mask", "output_weight", "output_bias",
                     *copy_inputs],
        output_names=["log_probs", *(f"new_{n}" for n in names), "attention"],
        dynamic_axes={"previous_tokens": {0: "batch"}, "memory": {0: "batch", 1: "source"},
                      "keys": {0: "batch", 1: "source"}, "source_mask": {0: "batch", 1: "source"},
                      "output_weight": {1: "candidates"}, "output_bias": {0: "candidates"},
                      "log_probs": {0: "batch", 1: "candidates"}, "attention": {0: "batch", 1: "source"}, **state_axes,
                      **{name: {0: "batch", 1: "source"} for name in copy_inputs}},
    )


def _state_axes(name: str) -> dict[int, str]:
    """Dynamic axes of a recurrent state: all are batch-first; coverage (B, S) also spans the source."""
    return {0: "batch", 1: "source"} if name == "coverage" else {0: "batch"}


@torch.no_grad()
def verify(model: Seq2Seq, folder: Path, seed: int = 0) -> float:
    """Run both graphs against PyTorch at several batch sizes and source lengths (ragged masks),
    for a few decoder steps, the first over the whole vocabulary and the others over a random
    shortlist; raise ExportError above TOLERANCE; return the largest difference."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    encoder = onnxruntime.InferenceSession(str(folder / ENCODER), options, providers=["CPUExecutionProvider"])
    decoder = onnxruntime.InferenceSession(str(folder / DECODER), options, providers=["CPUExecutionProvider"])
    names = list(model.state_names)
    layer = model.decoder.output_layer
    vocab = model.embedding.num_embeddings
    generator = torch.Generator().manual_seed(seed)
    largest = 0.0
    for batch in CHECK_BATCHES:
        for length in CHECK_LENGTHS:
            source = torch.randint(4, vocab, (batch, length), generator=generator)
            lengths = torch.randint(1, length + 1, (batch,), generator=generator)
            lengths[0] = length
            mask = (torch.arange(length).unsqueeze(0) < lengths.unsqueeze(1)).long()
            source = source.masked_fill(mask == 0, PAD)
            memory, keys, states = model.encode(source, mask)
            got = encoder.run(None, {"source_ids": source.numpy(), "source_mask": mask.numpy()})
            expected = [memory, keys, *(states[n] for n in names)]
            largest = max(largest, _difference(expected, got, mask, f"encoder batch {batch} length {length}"))
            previous = torch.full((batch,), BOS, dtype=torch.long)
            for step in range(CHECK_STEPS):
                candidates = torch.arange(vocab) if step == 0 else _random_shortlist(source, vocab, generator)
                rows = OutputRows(layer.weight[candidates].t().contiguous(), layer.bias[candidates])
                columns = torch.searchsorted(candidates, source)
                log_probs, new_states, attention = model.decode_step(previous, states, keys, memory, mask, columns, rows)
                feeds = {"previous_tokens": previous.numpy(), "memory": memory.numpy(), "keys": keys.numpy(),
                         "source_mask": mask.numpy(), "output_weight": rows.weight.numpy(),
                         "output_bias": rows.bias.numpy(), **{n: states[n].numpy() for n in names}}
                if model.config.copy:
                    feeds["source_ids"] = columns.numpy()
                got = decoder.run(None, feeds)
                expected = [log_probs, *(new_states[n] for n in names), attention]
                where = f"decoder batch {batch} length {length} step {step} over {len(candidates)} candidates"
                largest = max(largest, _difference(expected, got, None, where, log_probs_first=True))
                states = new_states
                previous = torch.randint(4, vocab, (batch,), generator=generator)
    return largest


def _random_shortlist(source: Tensor, vocab: int, generator: torch.Generator) -> Tensor:
    """Sorted ids: the special pieces, the source's pieces and a random third of the vocabulary."""
    sampled = torch.randperm(vocab, generator=generator)[: max(1, vocab // 3)]
    return torch.unique(torch.cat([torch.arange(len(SPECIAL_TOKENS)), source.flatten(), sampled]))


def _difference(expected: list[Tensor], got: list[np.ndarray], mask: Tensor | None, where: str,
                log_probs_first: bool = False) -> float:
    """Largest |torch - onnxruntime| over the outputs; with a mask, the first two outputs (memory,
    keys: B, S, ·) are compared at real source positions only. With `log_probs_first`, the first
    output's log-probabilities are compared where p ≥ PROBABLE and as probabilities below: the log
    of a tiny copy weight carries the float32 softmax's relative error, and no search picks it."""
    largest = 0.0
    for index, (torch_value, onnx_value) in enumerate(zip(expected, got)):
        expected_value = torch_value.numpy()
        diff = np.abs(expected_value - onnx_value)
        if mask is not None and index < 2:
            diff = diff * mask.numpy()[:, :, None]
        if log_probs_first and index == 0:
            diff = np.where(expected_value >= np.log(PROBABLE), diff, np.abs(np.exp(expected_value) - np.exp(onnx_value)))
        largest = max(largest, float(diff.max()) if diff.size else 0.0)
    if largest > TOLERANCE:
        raise ExportError(f"onnxruntime differs from PyTorch by {largest:.2e} ({where}); refusing to write the model")
    return largest
