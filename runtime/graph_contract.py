"""The contract between the exported graphs and the runtime: every input and output name, and
the kinds of decoder state, in one place.

encoder.onnx: SOURCE_IDS (B, S) int64, SOURCE_MASK (B, S) int64 → one output per state the
    manifest declares (`states`), named after it: what the decoder reads about the source and
    the initial per-row states and caches.
decoder.onnx: PREVIOUS_TOKENS (B,) int64, every state by its name, SOURCE_MASK, OUTPUT_WEIGHT
    (R, C), OUTPUT_BIAS (C,) [, OUTPUT_SCALE (C,) in int8] [, SOURCE_IDS (B, S) for a copy model]
    → LOG_PROBS (B, C), NEW_PREFIX + name for every ROW and CACHE state, ATTENTION (B, S).
take_rows.onnx and best_columns.onnx, the runtime's own graphs (runtime/decoder_state.py): TAKE_DATA
    (any rank), TAKE_INDEXES (R,) int64 → TAKEN = data[rows]; LOG_PROBS (N, C), TOP_WIDTH (1,) int64 →
    TOP_VALUES (N, W), TOP_COLUMNS (N, W) int64.

State kinds, which tell the runtime how to carry a state between steps and through beam
reorderings without knowing the architecture:
- SOURCE: per sentence, computed once by the encoder and read by every step, never returned,
  one copy per row (RNN memory and keys). Gathered only when the rows change sentence, not when
  beams swap places within one.
- SENTENCE: like SOURCE, but one copy per sentence, shared by that sentence's rows: the step's
  rows come in equal groups, sentence-major, and group g reads sentence g (a Transformer's
  encoder-decoder keys and values per layer: the beams of a sentence attend to its source in
  one product of k rows instead of k products of one). A decoder with SENTENCE states takes
  SOURCE_MASK per sentence (G, S) too.
- ROW: per hypothesis, returned anew by every step and reordered with the beams (RNN hidden and
  cell states, Luong's input feed, the coverage vector).
- CACHE: per hypothesis, grows by one position every step (a Transformer's self-attention keys
  and values); carried exactly like ROW.
"""

from __future__ import annotations

from dataclasses import dataclass

SOURCE_IDS = "source_ids"
SOURCE_MASK = "source_mask"
PREVIOUS_TOKENS = "previous_tokens"
LOG_PROBS = "log_probs"
ATTENTION = "attention"
OUTPUT_WEIGHT = "output_weight"
OUTPUT_BIAS = "output_bias"
OUTPUT_SCALE = "output_scale"
NEW_PREFIX = "new_"
TAKE_DATA, TAKE_INDEXES, TAKEN = "data", "rows", "taken"
TOP_WIDTH, TOP_VALUES, TOP_COLUMNS = "width", "values", "columns"

SOURCE, SENTENCE, ROW, CACHE = "source", "sentence", "row", "cache"
STATE_KINDS = (SOURCE, SENTENCE, ROW, CACHE)
CARRIED = (ROW, CACHE)  # kinds a step returns anew


@dataclass(frozen=True)
class StateSpec:
    name: str
    kind: str

    @property
    def output(self) -> str:
        """The decoder's output for this state's next value (carried kinds only)."""
        return NEW_PREFIX + self.name

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind}


def rnn_states(state_names: list[str]) -> list[StateSpec]:
    """The states of a format-2 folder, which lists only its recurrent states: the encoder gives
    memory and keys, then those."""
    return [StateSpec("memory", SOURCE), StateSpec("keys", SOURCE), *(StateSpec(n, ROW) for n in state_names)]
