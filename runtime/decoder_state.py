"""The exported decoder behind search's DecoderState protocol, with its arrays kept on the device.

Float arrays that every step reads or writes (the source states, the carried states, the output
layer's rows) live where the sessions run, as OrtValues: each step binds them (IO binding),
brings back only what search reads on the host (log_probs, attention) and leaves the new states
on the device; reordering rows (beams, finished sentences) gathers them there with
take_rows.onnx. On the CPU provider "the device" is host memory and nothing changes but the
bookkeeping; on CUDA no state crosses the bus between steps. The small integer inputs
(previous tokens, source_mask, source_ids) are host arrays, copied by onnxruntime as needed.
A search that needs only each row's best candidates (beam search, and greedy search on CUDA)
has them picked on the device by best_columns.onnx (step_best): only (N, W) values come back
instead of the (N, C) log-probabilities, and numpy never scans all C columns. Greedy search on
the CPU takes numpy's argmax of the constrained log-probabilities, which lie in host memory
already.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import onnxruntime

from .graph_contract import (
    ATTENTION,
    CARRIED,
    LOG_PROBS,
    PREVIOUS_TOKENS,
    SENTENCE,
    SOURCE,
    SOURCE_IDS,
    SOURCE_MASK,
    TAKE_DATA,
    TAKE_INDEXES,
    TAKEN,
    TOP_COLUMNS,
    TOP_VALUES,
    TOP_WIDTH,
    StateSpec,
)
from .manifest import ModelFolderError
from .search import Banned, BestOfFullStep, best_allowed, most_banned
from .sessions import create_session
from .shortlist import Shortlist

TAKE_ROWS = Path(__file__).with_name("take_rows.onnx")
BEST_COLUMNS = Path(__file__).with_name("best_columns.onnx")


class Device:
    """Where a model's sessions run ("cpu" or "cuda"): puts arrays there, gathers rows there."""

    def __init__(self, name: str):
        self.name = name
        # one thread: a gather of a few hundred kilobytes, or a selection over a few megabytes, costs
        # less than waking a thread pool, and a model's sessions run one batch per thread already
        self.take_rows = create_session(TAKE_ROWS, name, threads=1, notify=lambda message: None)
        self.best_columns = create_session(BEST_COLUMNS, name, threads=1, notify=lambda message: None)

    def put(self, array: np.ndarray) -> onnxruntime.OrtValue:
        return onnxruntime.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(array), self.name, 0)

    def take(self, value: onnxruntime.OrtValue, rows: np.ndarray) -> onnxruntime.OrtValue:
        """value[rows] along axis 0, computed and kept on the device."""
        binding = self.take_rows.io_binding()
        binding.bind_ortvalue_input(TAKE_DATA, value)
        binding.bind_cpu_input(TAKE_INDEXES, rows.astype(np.int64, copy=False))
        binding.bind_output(TAKEN, self.name)
        self.take_rows.run_with_iobinding(binding)
        return binding.get_outputs()[0]

    def largest(self, log_probs: onnxruntime.OrtValue, width: int) -> tuple[np.ndarray, np.ndarray]:
        """log_probs (N, C) on the device → columns (N, W) and values (N, W) on the host: each row's
        W = width ≤ C largest, best first, equal values by lower column first."""
        binding = self.best_columns.io_binding()
        binding.bind_ortvalue_input(LOG_PROBS, log_probs)
        binding.bind_cpu_input(TOP_WIDTH, np.array([width], dtype=np.int64))
        binding.bind_output(TOP_VALUES)
        binding.bind_output(TOP_COLUMNS)
        self.best_columns.run_with_iobinding(binding)
        values, columns = binding.get_outputs()
        return columns.numpy(), values.numpy()


def sentence_groups(sentence: np.ndarray) -> np.ndarray:
    """sentence (N,): the sentence of each row, its rows together → the sentence of each group
    (G,) when every group has the same number of rows (N = G·k, runtime/graph_contract.py
    SENTENCE); ValueError otherwise."""
    if not len(sentence):
        return sentence
    starts = np.flatnonzero(np.r_[True, sentence[1:] != sentence[:-1]])
    sizes = np.diff(np.r_[starts, len(sentence)])
    if (sizes != sizes[0]).any():
        raise ValueError(f"rows must come in equal groups per sentence, got sentences {sentence.tolist()}")
    return sentence[starts]


def group_positions(groups: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Where each sentence of `kept` stands among `groups` (G,): the rows of the per-sentence
    arrays to keep, in `kept`'s order."""
    order = np.argsort(groups)
    return order[np.searchsorted(groups, kept, sorter=order)]


class SearchStopped(Exception):
    """A search abandoned at a step because its `stop` event was set (a server request that
    timed out or whose client went away)."""


class OnnxDecoderState(BestOfFullStep):
    """An encoded batch and its states, reordered along axis 0, driven by the kinds the manifest
    declares (runtime/graph_contract.py), whatever kind of model made the graphs. What every step
    reads about the source is held per row (`per_row`: SOURCE states) or per sentence
    (`per_sentence`: SENTENCE states), with source_mask and, when the decoder copies (it asks for
    them), source_ids as columns of `vocabulary` beside the states of the decoder's kind. `carried`
    holds the ROW and CACHE states, which every step returns anew. `sentence` (N,) says which
    encoded sentence each row holds and `groups` (G,) which each group of rows reads: when a
    reordering keeps them (beams swapping places within their sentence), the source arrays stay as
    they are and only the carried states move. `output` holds the output layer's rows for
    `vocabulary` (C,), on the device, the same every step (none when the decoder holds the whole
    output layer as constants: runtime/bound_graph.py). With a shortlist, `allowed` (N, C) marks
    each row's own candidates among the batch's (its sentence's, reordered like the source): each
    step keeps every row to them (Shortlist.restrict)."""

    def __init__(
        self,
        decoder: onnxruntime.InferenceSession,
        device: Device,
        specs: list[StateSpec],
        encoded: dict[str, onnxruntime.OrtValue],
        ids: np.ndarray,
        mask: np.ndarray,
        vocabulary: np.ndarray,
        output: dict[str, onnxruntime.OrtValue],
        allowed: np.ndarray | None = None,
        stop: threading.Event | None = None,
    ):
        self.decoder = decoder
        self.stop = stop  # set by another thread: the next step raises SearchStopped
        self.device = device
        self.carried_specs = [spec for spec in specs if spec.kind in CARRIED]
        self.carried = {spec.name: encoded[spec.name] for spec in self.carried_specs}
        self.vocabulary = vocabulary
        self.output = output
        wanted = {i.name for i in decoder.get_inputs()}
        grouped = any(spec.kind == SENTENCE for spec in specs)
        source = {SOURCE_MASK: mask, SOURCE_IDS: np.searchsorted(vocabulary, ids)}
        source = {name: value for name, value in source.items() if name in wanted}
        self.per_row = {
            **{spec.name: encoded[spec.name] for spec in specs if spec.kind == SOURCE},
            **({} if grouped else source),
        }
        self.per_sentence = {
            **{spec.name: encoded[spec.name] for spec in specs if spec.kind == SENTENCE},
            **(source if grouped else {}),
        }
        self.allowed = allowed
        self.sentence = self.groups = np.arange(len(ids))

    def step(self, previous: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        log_probs, attention = self._run(previous, "cpu")
        log_probs = log_probs.numpy()
        _check_finite(log_probs[:, 0])
        if self.allowed is not None:
            return Shortlist.restrict(log_probs, self.allowed), attention
        return log_probs, attention

    def step_best(self, previous: np.ndarray, width: int, banned: Banned) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        many_banned = most_banned(banned) > len(self.vocabulary) // 8  # a summary's word check: thousands
        if self.allowed is not None or (width == 1 and self.device.name == "cpu") or many_banned:
            # on the host: each row has its own candidates (restricted there); or greedy on the CPU,
            # where the log-probabilities need no copy and numpy's argmax reads them several times
            # faster than TopK (SPEED-HISTORY.md, "Greedy's best on the host"); or so many columns
            # are banned that TopK would fetch most of the row for each (the same result either way)
            return super().step_best(previous, width, banned)
        log_probs, attention = self._run(previous, self.device.name)
        columns, values = self.device.largest(log_probs, min(width + most_banned(banned), len(self.vocabulary)))
        _check_finite(values[:, 0])
        return *best_allowed(columns, values, width, banned), attention

    def _run(self, previous: np.ndarray, log_probs_on: str) -> tuple[onnxruntime.OrtValue, np.ndarray]:
        """One decoder step: log_probs (N, C) left on `log_probs_on`, attention (N, S) on the host;
        the new carried states stay on the device."""
        if self.stop is not None and self.stop.is_set():
            raise SearchStopped("the search was stopped: nobody waits for its result any more")
        binding = self.decoder.io_binding()
        binding.bind_cpu_input(PREVIOUS_TOKENS, previous)
        for name, value in {**self.per_row, **self.per_sentence, **self.carried, **self.output}.items():
            if isinstance(value, np.ndarray):
                binding.bind_cpu_input(name, value)
            else:
                binding.bind_ortvalue_input(name, value)
        binding.bind_output(LOG_PROBS, log_probs_on)
        for spec in self.carried_specs:
            binding.bind_output(spec.output, self.device.name)
        binding.bind_output(ATTENTION)
        self.decoder.run_with_iobinding(binding)
        log_probs, *new_states, attention = binding.get_outputs()
        self.carried = {spec.name: value for spec, value in zip(self.carried_specs, new_states)}
        return log_probs, attention.numpy()

    def select(self, rows: np.ndarray) -> None:
        sentence = self.sentence[rows]
        if not np.array_equal(sentence, self.sentence):  # not when beams only swap places
            if self.per_sentence:
                groups = sentence_groups(sentence)
                if not np.array_equal(groups, self.groups):
                    where = group_positions(self.groups, groups)
                    self.per_sentence = {name: self._take(value, where) for name, value in self.per_sentence.items()}
                    self.groups = groups
            self.per_row = {name: self._take(value, rows) for name, value in self.per_row.items()}
            self.allowed = None if self.allowed is None else self.allowed[rows]
            self.sentence = sentence
        self.carried = {name: self.device.take(value, rows) for name, value in self.carried.items()}

    def _take(self, value, rows: np.ndarray):
        return value[rows] if isinstance(value, np.ndarray) else self.device.take(value, rows)


def _check_finite(first_column: np.ndarray) -> None:
    """One NaN logit makes its row's normaliser, so every column, NaN: a row's first value tells."""
    if np.isnan(first_column).any():
        raise ModelFolderError(
            "the model's decoder gives NaN log-probabilities: its weights are not finite "
            "(export it again from a good run)"
        )
