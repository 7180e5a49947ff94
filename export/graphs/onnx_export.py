"""Export a trained encoder-decoder (RNN or Transformer) as an encoder graph and a single-step
decoder graph, verify both against PyTorch with onnxruntime, and write the model folder
atomically. The graphs' inputs, outputs and state kinds follow runtime/graph_contract.py: the
encoder gives every state the model declares (`model.states`), the decoder takes them all and
returns the ROW and CACHE ones anew, with log_probs and attention.

output_layer.npz: the output layer's weight (V, R) and bias (V,), which the decoder takes as
inputs. The runtime binds all V rows into the graph as constants (runtime/bound_graph.py), or
feeds those of a shortlist of C candidates (runtime/shortlist.py); log_probs then has one column
per candidate, and a copy model's source_ids hold each source piece's column.
A copy model's log_probs are already the final pointer-generator mixture: with byte-level
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

from attn.export.config import Config, TaskConfig, model_settings
from attn.export.graphs.graph_metadata import record_tokenizer
from attn.export.graphs.runtime_graphs import OPSET
from attn.export.graphs.staging import staged_folder
from attn.export.models import EncoderDecoder
from attn.export.models.decoder import OutputRows
from attn.runtime.constants import (
    BOS,
    DECODER,
    DIRECTIONS_FORMAT,
    ENCODER,
    LEXICON,
    MANIFEST,
    ONE_DIRECTION_FORMAT,
    OUTPUT_LAYER,
    PAD,
    SOURCE_TOKENIZER,
    SPECIAL_IDS,
    SPECIAL_TOKENS,
    TOKENIZER,
)
from attn.runtime.graph_contract import (
    ATTENTION,
    CARRIED,
    LOG_PROBS,
    OUTPUT_BIAS,
    OUTPUT_WEIGHT,
    PREVIOUS_TOKENS,
    SENTENCE,
    SOURCE,
    SOURCE_IDS,
    SOURCE_MASK,
    StateSpec,
)
from attn.runtime.manifest import BY_NAME_ONLY, LICENCE, Manifest, sha256_of
from attn.runtime.output_layer import OutputLayer
from attn.runtime.shortlist import Shortlist

TOLERANCE = 1e-4
PROBABLE = 1e-5  # below this probability, log-probabilities are compared as probabilities
CHECK_BATCHES = ((1, 1), (3, 4), (8, 2))  # (sentences, rows per sentence: beams)
CHECK_LENGTHS = (1, 6, 23)
CHECK_STEPS = 3


class ExportError(RuntimeError):
    """The exported graphs disagree with PyTorch, or the folder could not be written."""


class EncoderGraph(nn.Module):
    def __init__(self, model: EncoderDecoder):
        super().__init__()
        self.model = model

    def forward(self, source_ids: Tensor, source_mask: Tensor) -> tuple[Tensor, ...]:
        encoded = self.model.encode(source_ids, source_mask)
        return tuple(encoded[spec.name] for spec in self.model.states)


class DecoderGraph(nn.Module):
    def __init__(self, model: EncoderDecoder):
        super().__init__()
        self.model = model

    def forward(self, previous_tokens: Tensor, *rest: Tensor) -> tuple[Tensor, ...]:
        specs = self.model.states
        encoded = {spec.name: value for spec, value in zip(specs, rest)}
        source_mask, output_weight, output_bias, *source_ids = rest[len(specs) :]
        source = source_ids[0] if source_ids else None
        log_probs, new_states, attention = self.model.decode_step(
            previous_tokens, encoded, source_mask, source, OutputRows(output_weight, output_bias)
        )
        return (log_probs, *(new_states[spec.name] for spec in specs if spec.kind in CARRIED), attention)


def manifest_terms(task: TaskConfig) -> dict:
    """The [task] settings a model folder keeps among its manifest's training fields: its licence
    and whether it is used only by name (runtime/registry.py BY_NAME_ONLY)."""
    return {
        **({LICENCE: task.licence} if task.licence else {}),
        **({BY_NAME_ONLY: True} if task.by_name_only else {}),
    }


def export_model(
    model: EncoderDecoder,
    config: Config,
    tokenizer_file: Path,
    out: Path,
    training: dict,
    shortlist: Shortlist | None = None,
    source_tokenizer_file: Path | None = None,
) -> float:
    """Write the verified model folder `out` (replacing it only on success), with the shortlist's
    lexicon.npz and a separate source tokenizer when given; returns the largest difference seen
    between onnxruntime and PyTorch."""
    model.eval()
    with staged_folder(Path(out)) as staging:
        _export_graphs(deepcopy(model), staging)  # see _export_graphs
        layer = model.output_layer
        OutputLayer(layer.weight.detach().numpy(), layer.bias.detach().numpy()).save(staging / OUTPUT_LAYER)
        shutil.copyfile(tokenizer_file, staging / TOKENIZER)
        record_tokenizer(staging)
        files = [ENCODER, DECODER, OUTPUT_LAYER, TOKENIZER]
        if source_tokenizer_file is not None:
            shutil.copyfile(source_tokenizer_file, staging / SOURCE_TOKENIZER)
            files.append(SOURCE_TOKENIZER)
        if shortlist is not None:
            shortlist.save(staging / LEXICON)
            files.append(LEXICON)
        largest = verify(model, staging)
        manifest = Manifest(
            task=config.task.kind,
            source_lang=config.task.source_lang,
            target_lang=config.task.target_lang,
            architecture={
                **model_settings(config),
                "vocab_size": model.embedding.num_embeddings,
                "parameters": sum(p.numel() for p in model.parameters()),
            },
            special_ids=SPECIAL_IDS,
            states=[spec.to_json() for spec in model.states],
            files={name: sha256_of(staging / name) for name in files},
            search=config.to_dict()["search"],
            training={**training, **manifest_terms(config.task), "max_onnx_difference": largest},
            directions=[list(pair) for pair in config.data.directions],
            format_version=DIRECTIONS_FORMAT if config.data.directions else ONE_DIRECTION_FORMAT,
        )
        (staging / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
        check_loads(staging)
    return largest


def check_loads(folder: Path) -> None:
    """The folder passes every check `attn translate` makes when it loads one (the manifest's
    fields, checksums, tokenizer, graphs): what would be refused is never written."""
    from attn.runtime.errors import UsageError
    from attn.runtime.loaded_model import LoadedModel

    try:
        LoadedModel(folder, threads=1, notify=lambda note: None)
    except (UsageError, ValueError) as error:  # ModelFolderError and the manifest's field checks
        raise ExportError(f"the folder would not load: {' '.join(str(error).split())}") from None


def _export_graphs(model: EncoderDecoder, folder: Path) -> None:
    """Trace both graphs into `folder`. Tracing leaves a model's GRUs changed (torch 2.13: the
    en-de encoder's eager output moved by 0.3 after export), so callers pass a copy and verify
    against the untouched original."""
    specs = model.states
    source = torch.full((2, 5), 5, dtype=torch.long)
    mask = torch.ones_like(source)
    with torch.no_grad():
        encoded = model.encode(source, mask)
    torch.onnx.export(
        EncoderGraph(model),
        (source, mask),
        str(folder / ENCODER),
        dynamo=False,
        opset_version=OPSET,
        input_names=[SOURCE_IDS, SOURCE_MASK],
        output_names=[spec.name for spec in specs],
        dynamic_axes={
            SOURCE_IDS: {0: "batch", 1: "source"},
            SOURCE_MASK: {0: "batch", 1: "source"},
            **{spec.name: model.state_axes(spec.name) for spec in specs},
        },
    )
    encoded, mask, source = beam_rows(specs, encoded, mask, source, beams=2)  # traced with groups of two rows
    previous = torch.full((4,), BOS, dtype=torch.long)
    layer = model.output_layer
    rows = (layer.weight.detach().t(), layer.bias.detach())
    copy_inputs = [SOURCE_IDS] if model.config.copy else []
    carried = [spec for spec in specs if spec.kind in CARRIED]
    per_sentence = "sentences" if any(spec.kind == SENTENCE for spec in specs) else "batch"
    torch.onnx.export(
        DecoderGraph(model),
        (previous, *(encoded[spec.name] for spec in specs), mask, *rows, *([source] if copy_inputs else [])),
        str(folder / DECODER),
        dynamo=False,
        opset_version=OPSET,
        input_names=[
            PREVIOUS_TOKENS,
            *(spec.name for spec in specs),
            SOURCE_MASK,
            OUTPUT_WEIGHT,
            OUTPUT_BIAS,
            *copy_inputs,
        ],
        output_names=[LOG_PROBS, *(spec.output for spec in carried), ATTENTION],
        dynamic_axes={
            PREVIOUS_TOKENS: {0: "batch"},
            SOURCE_MASK: {0: per_sentence, 1: "source"},
            OUTPUT_WEIGHT: {1: "candidates"},
            OUTPUT_BIAS: {0: "candidates"},
            LOG_PROBS: {0: "batch", 1: "candidates"},
            ATTENTION: {0: "batch", 1: "source"},
            **{spec.name: model.state_axes(spec.name) for spec in specs},
            **{spec.output: model.state_axes(spec.name, output=True) for spec in carried},
            **{name: {0: per_sentence, 1: "source"} for name in copy_inputs},
        },
    )


def beam_rows(
    specs: tuple[StateSpec, ...], encoded: dict[str, Tensor], mask: Tensor, source: Tensor, beams: int
) -> tuple[dict[str, Tensor], Tensor, Tensor]:
    """An encoded batch of B sentences as the decoder sees B·beams rows, each sentence's beams
    together: every state repeated per row but the SENTENCE states, which stay one per sentence
    and then keep mask and source (B, S) with them (runtime/graph_contract.py)."""
    grouped = any(spec.kind == SENTENCE for spec in specs)
    encoded = {
        spec.name: encoded[spec.name] if spec.kind == SENTENCE else encoded[spec.name].repeat_interleave(beams, 0)
        for spec in specs
    }
    if grouped:
        return encoded, mask, source
    return encoded, mask.repeat_interleave(beams, 0), source.repeat_interleave(beams, 0)


@torch.no_grad()
def verify(model: EncoderDecoder, folder: Path, seed: int = 0) -> float:
    """Run both graphs against PyTorch at several batch sizes, beams and source lengths (ragged
    masks), for a few decoder steps, the first over the whole vocabulary and the others over a random
    shortlist; raise ExportError above TOLERANCE; return the largest difference."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    encoder = onnxruntime.InferenceSession(str(folder / ENCODER), options, providers=["CPUExecutionProvider"])
    decoder = onnxruntime.InferenceSession(str(folder / DECODER), options, providers=["CPUExecutionProvider"])
    specs = model.states
    carried = [spec for spec in specs if spec.kind in CARRIED]
    source_axes = [
        next((axis for axis, name in model.state_axes(spec.name).items() if name == "source"), None)
        if spec.kind in (SOURCE, SENTENCE)
        else None
        for spec in specs
    ]
    layer = model.output_layer
    vocab = model.embedding.num_embeddings
    generator = torch.Generator().manual_seed(seed)
    largest = 0.0
    for batch, beams in CHECK_BATCHES:
        for length in CHECK_LENGTHS:
            source = torch.randint(4, vocab, (batch, length), generator=generator)
            lengths = torch.randint(1, length + 1, (batch,), generator=generator)
            lengths[0] = length
            mask = (torch.arange(length).unsqueeze(0) < lengths.unsqueeze(1)).long()
            source = source.masked_fill(mask == 0, PAD)
            encoded = model.encode(source, mask)
            got = encoder.run(None, {SOURCE_IDS: source.numpy(), SOURCE_MASK: mask.numpy()})
            expected = [encoded[spec.name] for spec in specs]
            masks = [
                None if axis is None else _along(mask, axis, value.dim()) for axis, value in zip(source_axes, expected)
            ]
            largest = max(largest, _difference(expected, got, f"encoder batch {batch} length {length}", masks))
            encoded, step_mask, step_source = beam_rows(specs, encoded, mask, source, beams)
            previous = torch.full((batch * beams,), BOS, dtype=torch.long)
            for step in range(CHECK_STEPS):
                candidates = torch.arange(vocab) if step == 0 else _random_shortlist(source, vocab, generator)
                rows = OutputRows(layer.weight[candidates].t().contiguous(), layer.bias[candidates])
                columns = torch.searchsorted(candidates, step_source)
                log_probs, new_states, attention = model.decode_step(previous, encoded, step_mask, columns, rows)
                feeds = {
                    PREVIOUS_TOKENS: previous.numpy(),
                    SOURCE_MASK: step_mask.numpy(),
                    OUTPUT_WEIGHT: rows.weight.numpy(),
                    OUTPUT_BIAS: rows.bias.numpy(),
                    **{spec.name: encoded[spec.name].numpy() for spec in specs},
                }
                if model.config.copy:
                    feeds[SOURCE_IDS] = columns.numpy()
                got = decoder.run(None, feeds)
                expected = [log_probs, *(new_states[spec.name] for spec in carried), attention]
                where = f"decoder batch {batch}×{beams} length {length} step {step} over {len(candidates)} candidates"
                largest = max(largest, _difference(expected, got, where, log_probs_first=True))
                encoded.update(new_states)
                previous = torch.randint(4, vocab, (batch * beams,), generator=generator)
    return largest


def _along(mask: Tensor, axis: int, dims: int) -> np.ndarray:
    """mask (B, S) shaped to broadcast over a tensor of `dims` axes whose source axis is `axis`."""
    shape = [mask.shape[0]] + [1] * (dims - 1)
    shape[axis] = mask.shape[1]
    return mask.numpy().reshape(shape)


def _random_shortlist(source: Tensor, vocab: int, generator: torch.Generator) -> Tensor:
    """Sorted ids: the special pieces, the source's pieces and a random third of the vocabulary."""
    sampled = torch.randperm(vocab, generator=generator)[: max(1, vocab // 3)]
    return torch.unique(torch.cat([torch.arange(len(SPECIAL_TOKENS)), source.flatten(), sampled]))


def _difference(
    expected: list[Tensor], got: list[np.ndarray], where: str, masks: list | None = None, log_probs_first: bool = False
) -> float:
    """Largest |torch - onnxruntime| over the outputs; an output with a mask in `masks` (a
    per-sentence source tensor) is compared at real source positions only. With `log_probs_first`, the first
    output's log-probabilities are compared where p ≥ PROBABLE and as probabilities below: the log
    of a tiny copy weight carries the float32 softmax's relative error, and no search picks it."""
    largest = 0.0
    for index, (torch_value, onnx_value) in enumerate(zip(expected, got)):
        expected_value = torch_value.numpy()
        if not (
            np.isfinite(expected_value).all() or log_probs_first and index == 0 and not np.isnan(expected_value).any()
        ):
            raise ExportError(
                f"the model gives non-finite values ({where}): its weights are not finite; refusing to write it"
            )
        diff = np.abs(expected_value - onnx_value)
        if masks is not None and masks[index] is not None:
            diff = diff * masks[index]
        if log_probs_first and index == 0:
            diff = np.where(
                expected_value >= np.log(PROBABLE), diff, np.abs(np.exp(expected_value) - np.exp(onnx_value))
            )
        largest = max(largest, float(diff.max()) if diff.size else 0.0)
    if largest > TOLERANCE:
        raise ExportError(f"onnxruntime differs from PyTorch by {largest:.2e} ({where}); refusing to write the model")
    return largest
