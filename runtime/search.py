"""Batched search over numpy, driven by a single-step decoder: greedy, sampling and beam.

Shapes: N rows in flight (sentences × beams), S source positions, C candidate tokens (the
vocabulary, or a shortlist of it: column c of the log-probabilities is token state.vocabulary[c]),
T output steps.
Sentences leave the batch as soon as they are finished, so late steps run on fewer rows.
Constraints shared by every search (minimum length, n-gram blocking) act on the step's
log-probabilities before a token is chosen; the final score adds the GNMT length normalisation
and coverage penalty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .constants import BOS, EOS, PAD
from .errors import UsageError


@dataclass
class Hypothesis:
    """tokens: output ids without EOS; score: the final (normalised, penalised) score;
    log_prob: the summed log-probability; attention (T, S): weights of each output step (the EOS
    step included) over source positions."""

    tokens: list[int]
    score: float
    log_prob: float
    attention: np.ndarray


# The columns no row may take at a step, and each row's own (banned_columns).
Banned = tuple[np.ndarray, list[np.ndarray]]


class RowBans(Protocol):
    """A constraint on each row's next token beside the options' (runtime/word_check.py)."""

    def banned(self, vocabulary: np.ndarray, histories: list[list[int]], sentences: np.ndarray) -> list[np.ndarray]:
        """vocabulary (C,), each row's tokens so far, the sentence (N,) of each row → each row's
        banned columns."""


class DecoderState(Protocol):
    """What search needs from an encoded batch; `select(rows)` keeps/repeats rows (axis 0).
    vocabulary (C,): the sorted token ids of the log-probabilities' columns."""

    vocabulary: np.ndarray

    def step(self, previous: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """previous token ids (N,) → log_probs (N, C), attention (N, S); advances the recurrent state."""

    def step_best(self, previous: np.ndarray, width: int, banned: Banned) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As step, but only each row's `width` largest log-probabilities among the columns not
        `banned` (banned_columns) come back: columns (N, W) and values (N, W), W = min(width, C),
        best first, equal values by lower column first (largest_per_row of the constrained step;
        where fewer than W columns are allowed, banned ones fill the end at -inf); and attention
        (N, S)."""

    def select(self, rows: np.ndarray) -> None: ...


def largest_per_row(log_probs: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """log_probs (N, C) → columns (N, W) and values (N, W) of each row's W = min(width, C) largest
    values, best first, equal values by lower column first: the order of ONNX's TopK, which
    OnnxDecoderState.step_best runs in the graph session instead. One per row is each row's
    argmax, which takes the first of equal values too."""
    rows, count = log_probs.shape
    width = min(width, count)
    if width == 1:
        columns = log_probs.argmax(axis=1)[:, None]
        return columns, np.take_along_axis(log_probs, columns, axis=1)
    if width < count:
        threshold = np.partition(log_probs, count - width, axis=1)[:, count - width]
        row, column = np.nonzero(log_probs >= threshold[:, None])  # at least `width` per row; more on ties
    else:
        row, column = np.divmod(np.arange(rows * count), count)
    values = log_probs[row, column]
    order = np.lexsort((column, -values, row))  # by row, then best first, then lower column
    row, column, values = row[order], column[order], values[order]
    take = np.searchsorted(row, np.arange(rows))[:, None] + np.arange(width)
    return column[take], values[take]


class BestOfFullStep:
    """step_best for a DecoderState whose full step is on the host anyway: the step, constrained
    in place, then largest_per_row."""

    def step_best(self, previous: np.ndarray, width: int, banned: Banned) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        log_probs, attention = self.step(previous)
        constrain(log_probs, banned)
        return *largest_per_row(log_probs, width), attention


# The search settings a model carries (its training config's [search], written into the manifest),
# and what holds when a model sets none: the one home of these defaults, for `attn export`
# (export/config.py SearchConfig) and the runtime alike.
MODEL_SEARCH_DEFAULTS = {
    "beam": 5,
    "length_penalty": 1.0,
    "min_length": 0,
    "no_repeat_ngram": 0,
    "replace_unk": False,
    "max_length_ratio": 2.0,
    "max_length_offset": 10,
    "max_source_pieces": 200,
    "reverse_weight": 0.0,
}


@dataclass(frozen=True)
class SearchOptions:
    """beam 1 is greedy search; `sample` draws tokens instead (temperature, top-k, top-p, seed).
    Lengths: at most max_length_ratio·|source| + max_length_offset tokens (None: the model's
    defaults), at least min_length. no_repeat_ngram n > 0 forbids repeating any n-gram.
    shortlist decodes each batch over the model's target-vocabulary shortlist when it has one
    (runtime/shortlist.py), as CTranslate2's translate_batch takes `use_vmap`: faster, but off by
    default, since a word whose pieces the shortlist leaves out comes back as another word or a
    non-word (an earlier en-de: "He drinks coffee every morning." → "Ertränke jeden Morgen.";
    docs/model-history.md measures both). What happens to a text before and after the search
    (sentences, parts, repairs) is runtime/translation.py's TextOptions."""

    beam: int = MODEL_SEARCH_DEFAULTS["beam"]
    n_best: int = 1
    length_penalty: float = MODEL_SEARCH_DEFAULTS["length_penalty"]
    coverage_penalty: float = 0.0
    min_length: int = MODEL_SEARCH_DEFAULTS["min_length"]
    max_length_ratio: float | None = None
    max_length_offset: int | None = None
    no_repeat_ngram: int = MODEL_SEARCH_DEFAULTS["no_repeat_ngram"]
    sample: bool = False
    temperature: float = 1.0
    top_k: int = 0
    top_p: float = 1.0
    seed: int | None = None
    shortlist: bool = False

    def __post_init__(self):
        for name, value in vars(self).items():
            check_search_value(name, value)


# The accepted range of each numeric setting of the search (SearchOptions) and of the text pipeline
# (runtime/translation.py's TextOptions), from the command line, a request or a manifest.
# Bounds keep a search finite: a beam, a minimum or a maximum length far beyond any sentence would
# only ask for memory and time (a beam of 10**9 asks onnxruntime for terabytes).
SEARCH_LIMITS: dict[str, tuple[float, float]] = {
    "beam": (1, 128),
    "n_best": (1, 128),
    "length_penalty": (0.0, 10.0),
    "coverage_penalty": (0.0, 10.0),
    "min_length": (0, 1000),
    "max_length_ratio": (0.0, 100.0),
    "max_length_offset": (0, 10_000),
    "no_repeat_ngram": (0, 100),
    "max_source_pieces": (1, 10_000),
    "reverse_weight": (0.0, 10.0),
    "temperature": (0.0, 100.0),
    "top_k": (0, 1_000_000),
    "top_p": (0.0, 1.0),
}
SEARCH_FLAGS = ("sample", "replace_unk", "shortlist", "sentences")
SAMPLING_SETTINGS = ("temperature", "top_k", "top_p", "seed")  # how `sample` draws: nothing else reads them


def check_search_value(name: str, value, highest: float | None = None, field: bool = False) -> None:
    """Raise ValueError naming the setting when `value` is of the wrong type or out of range
    (NaN included; `highest` lowers its upper bound: a server's); None stands for "the model's
    default" where a setting has one. The setting is named as the command line's option
    ("length-penalty"), or as a request's `field` ("length_penalty")."""
    if value is None or name == "seed":
        if (
            name == "seed"
            and value is not None
            and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64)
        ):
            raise UsageError(f"seed must be an integer in [0, 2^64), got {value!r}")
        return
    if name in SEARCH_FLAGS:
        if not isinstance(value, bool):
            raise UsageError(f"{name} must be true or false, got {value!r}")
        return
    if name not in SEARCH_LIMITS:
        return
    low, high = SEARCH_LIMITS[name]
    high = high if highest is None else min(high, highest)
    wanted = int if isinstance(low, int) else (int, float)
    if isinstance(value, bool) or not isinstance(value, wanted) or not low <= value <= high:
        kind = "an integer" if wanted is int else "a number"
        named = name if field else name.replace("_", "-")
        raise UsageError(f"{named} must be {kind} in [{low}, {high}], got {value!r}")


def length_normaliser(length: int | np.ndarray, alpha: float):
    """GNMT length penalty ((5 + length) / 6) ** alpha."""
    return ((5.0 + length) / 6.0) ** alpha


def final_score(log_prob: float, attention: np.ndarray, source_length: int, options: SearchOptions) -> float:
    """log_prob / lp(length) + β · Σ_j log(min(Σ_i α_ij, 1)) over the real source positions."""
    score = log_prob / length_normaliser(attention.shape[0], options.length_penalty)
    if options.coverage_penalty:
        coverage = attention[:, :source_length].sum(axis=0)
        score += options.coverage_penalty * float(np.log(np.clip(coverage, 1e-6, 1.0)).sum())
    return float(score)


NEVER_OUTPUT = (PAD, BOS)


def columns_of(vocabulary: np.ndarray, ids) -> np.ndarray:
    """The columns of those token `ids` that the sorted `vocabulary` (C,) holds."""
    ids = np.asarray(ids, dtype=np.int64)
    where = np.minimum(np.searchsorted(vocabulary, ids), len(vocabulary) - 1)
    return where[vocabulary[where] == ids]


def repeated_ngram_ends(history: np.ndarray, n: int) -> list[np.ndarray]:
    """history (N, t): each row's tokens so far → for each row, the token ids (as often as they
    occur) that would end an n-gram the row already holds: those that followed an earlier
    occurrence of its last n - 1 tokens (for n = 1, every token it holds)."""
    rows, length = history.shape
    if length < n:  # no n-gram yet
        return [np.zeros(0, dtype=np.int64)] * rows
    following = history[:, n - 1 :]  # (N, t - n + 1): the last token of each n-gram
    if n == 1:
        return list(following)
    starts = np.lib.stride_tricks.sliding_window_view(history[:, :-1], n - 1, axis=1)  # (N, t - n + 1, n - 1)
    matches = (starts == history[:, None, length - n + 1 :]).all(axis=2)  # (N, t - n + 1)
    return [row[match] for row, match in zip(following, matches)]


def banned_columns(
    vocabulary: np.ndarray,
    histories: Callable[[], list[list[int]]],
    step: int,
    options: SearchOptions,
    rows: tuple[RowBans, np.ndarray] | None = None,
) -> Banned:
    """The columns of `vocabulary` no row may take at this step, and each row's own: PAD and BOS,
    which no output holds (an imported Marian model's BOS is its pad, whose probability stays in
    the normalization, as in Marian's search), EOS before min_length; and, per row, the tokens that
    would repeat an n-gram and those a RowBans forbids (`rows`: it and the sentence of each row);
    an empty list when neither acts. `histories` gives each row's tokens so far (`step` of them in
    every row); it is only called when one of them acts."""
    common = columns_of(vocabulary, NEVER_OUTPUT if step >= options.min_length else [*NEVER_OUTPUT, EOS])
    n = options.no_repeat_ngram
    if n <= 0 and rows is None:
        return common, []
    tokens = histories()
    per_row = [np.zeros(0, dtype=np.int64) for _ in tokens]
    if n > 0:
        history = np.asarray(tokens, dtype=np.int64).reshape(len(tokens), step)  # (N, step)
        for row, ends in enumerate(repeated_ngram_ends(history, n)):
            if len(ends):
                per_row[row] = columns_of(vocabulary, ends)
    if rows is not None:
        constraint, sentences = rows
        for row, banned in enumerate(constraint.banned(vocabulary, tokens, sentences)):
            per_row[row] = np.union1d(per_row[row], banned) if len(per_row[row]) else banned
    return common, per_row


def constrain(log_probs: np.ndarray, banned: Banned) -> None:
    """In place: the banned columns (banned_columns) of log_probs (N, C) become -inf."""
    common, per_row = banned
    log_probs[:, common] = -np.inf
    for row, columns in enumerate(per_row):
        log_probs[row, columns] = -np.inf


def most_banned(banned: Banned) -> int:
    """How many of a row's columns `banned` forbids at most."""
    common, per_row = banned
    return len(common) + max((len(columns) for columns in per_row), default=0)


def best_allowed(columns: np.ndarray, values: np.ndarray, width: int, banned: Banned) -> tuple[np.ndarray, np.ndarray]:
    """Each row's `width` best columns (N, W) and values (N, W) among those not banned, best first,
    equal values by lower column first, from each row's best `width` + most_banned(banned) (as
    largest_per_row gives them): what the full row, constrained, would give."""
    common, per_row = banned
    forbidden = np.isin(columns, common)
    for row, row_banned in enumerate(per_row):
        if len(row_banned):
            forbidden[row] |= np.isin(columns[row], row_banned)
    if forbidden.any():
        values = np.where(forbidden, -np.inf, values)
        order = np.argsort(-values, axis=1, kind="stable")  # the allowed keep their order
        columns, values = np.take_along_axis(columns, order, axis=1), np.take_along_axis(values, order, axis=1)
    return columns[:, :width], values[:, :width]


def sampler(options: SearchOptions, batch: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Draw one token per row, row r holding sentence `sentences[r]` of the batch, from the tempered,
    top-k / top-p truncated distribution. Each sentence draws from its own generator, seeded with
    options.seed: with a seed, a sentence's sample depends on its text alone, not on the batch it
    shares (alone and in any batch, as the server's batches mix requests)."""
    if options.seed is None:
        generators = np.random.default_rng().spawn(batch)
    else:
        generators = [np.random.default_rng(options.seed) for _ in range(batch)]

    def draw(log_probs: np.ndarray, sentences: np.ndarray) -> np.ndarray:
        logits = log_probs / max(options.temperature, 1e-6)
        if 0 < options.top_k < logits.shape[1]:
            kth = np.partition(logits, -options.top_k, axis=1)[:, -options.top_k][:, None]
            logits = np.where(logits < kth, -np.inf, logits)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        if options.top_p < 1.0:
            order = np.argsort(-probs, axis=1)
            sorted_probs = np.take_along_axis(probs, order, axis=1)
            outside = np.cumsum(sorted_probs, axis=1) - sorted_probs >= options.top_p
            outside[:, 0] = False  # the top token is kept: at top_p 0 none had been, and the draw was NaN
            np.put_along_axis(probs, order, np.where(outside, 0.0, sorted_probs), axis=1)
            probs /= probs.sum(axis=1, keepdims=True)
        cumulative = probs.cumsum(axis=1)
        draws = np.array([[generators[sentence].random()] for sentence in sentences]) * cumulative[:, -1:]
        return np.minimum((cumulative < draws).sum(axis=1), probs.shape[1] - 1)

    return draw


def greedy_search(
    state: DecoderState,
    max_lengths: np.ndarray,
    source_lengths: np.ndarray,
    options: SearchOptions,
    constraint: RowBans | None = None,
) -> list[list[Hypothesis]]:
    """One token per step per sentence: the argmax, or a sample when options.sample; `constraint`
    bans each row's tokens beside the options'."""
    batch = len(max_lengths)
    draw = sampler(options, batch) if options.sample else None
    alive = np.arange(batch)
    previous = np.full(batch, BOS, dtype=np.int64)
    tokens: list[list[int]] = [[] for _ in range(batch)]
    attentions: list[list[np.ndarray]] = [[] for _ in range(batch)]
    log_prob_sums = np.zeros(batch)
    results: list[list[Hypothesis]] = [[] for _ in range(batch)]
    step = 0
    while len(alive):
        banned = banned_columns(
            state.vocabulary,
            lambda: [tokens[s] for s in alive],
            step,
            options,
            None if constraint is None else (constraint, alive),
        )
        if draw is None:
            best, best_log_probs, attention = state.step_best(previous, 1, banned)
            column, log_prob = best[:, 0], best_log_probs[:, 0]
        else:
            log_probs, attention = state.step(previous)
            constrain(log_probs, banned)
            column = draw(log_probs, alive)
            log_prob = log_probs[np.arange(len(alive)), column]
        chosen = state.vocabulary[column]
        keep = []
        for row, sentence in enumerate(alive):
            log_prob_sums[sentence] += log_prob[row]
            attentions[sentence].append(attention[row])
            if chosen[row] != EOS:
                tokens[sentence].append(int(chosen[row]))
            if chosen[row] == EOS or step + 1 >= max_lengths[sentence]:
                steps = np.stack(attentions[sentence])
                score = final_score(log_prob_sums[sentence], steps, source_lengths[sentence], options)
                results[sentence] = [Hypothesis(tokens[sentence], score, float(log_prob_sums[sentence]), steps)]
            else:
                keep.append(row)
        keep = np.array(keep, dtype=np.int64)
        if len(keep) < len(alive):
            state.select(keep)
        alive, previous = alive[keep], chosen[keep].astype(np.int64)
        step += 1
    return results


def best_of_groups(
    columns: np.ndarray, values: np.ndarray, count: int, k: int, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each group of k rows' `width` best candidates, from each row's best: columns (N, W) and
    values (N, W) as step_best gives them (N = G·k, W ≥ width or all C = `count` columns) →
    positions (G, width) among the group's k·C candidates (row r of the group, column c: r·C + c)
    and their values, best first, equal values by lower position first, as a selection over all
    k·C would order them: a row can give at most `width` of them, so its best W suffice."""
    rows, w = columns.shape
    positions = (np.arange(rows) % k * count)[:, None] + columns
    positions, values = positions.reshape(rows // k, k * w), values.reshape(rows // k, k * w)
    order = np.lexsort((positions, -values), axis=-1)[:, :width]
    return np.take_along_axis(positions, order, axis=1), np.take_along_axis(values, order, axis=1)


def beam_search(
    state: DecoderState,
    max_lengths: np.ndarray,
    source_lengths: np.ndarray,
    options: SearchOptions,
    constraint: RowBans | None = None,
) -> list[list[Hypothesis]]:
    """Beam search; returns `n_best` hypotheses per sentence, best first. A sentence finishes
    when `beam` hypotheses have ended (or at its maximum length). `constraint` bans each row's
    tokens beside the options'."""
    k = options.beam
    batch = len(max_lengths)
    state.select(np.repeat(np.arange(batch), k))
    alive = np.arange(batch)  # the sentence of each alive group of k rows
    scores = np.tile(np.array([0.0] + [-np.inf] * (k - 1)), batch)  # (N,)
    history = np.zeros((batch * k, 0), dtype=np.int64)  # (N, t)
    attention_history = None  # (N, t, S)
    previous = np.full(batch * k, BOS, dtype=np.int64)
    finished: list[list[Hypothesis]] = [[] for _ in range(batch)]
    step = 0
    while len(alive):
        banned = banned_columns(
            state.vocabulary,
            history.tolist,
            step,
            options,
            None if constraint is None else (constraint, alive.repeat(k)),
        )
        best, best_log_probs, attention = state.step_best(previous, 2 * k, banned)  # (N, 2k) each
        columns, groups = len(state.vocabulary), len(alive)
        top, top_scores = best_of_groups(
            best, scores[:, None] + best_log_probs, columns, k, min(2 * k, k * columns)
        )  # (groups, 2k), best first
        token = state.vocabulary[top % columns]
        rows = np.arange(groups)[:, None] * k + top // columns  # (groups, 2k) rows in flight
        last_step = step + 1 >= max_lengths[alive]  # (groups,)
        ends = (token == EOS) | last_step[:, None]  # (groups, 2k)
        for g, rank in zip(*np.nonzero(ends[:, :k] & np.isfinite(top_scores[:, :k]))):
            sentence, row = alive[g], rows[g, rank]
            steps = (
                attention[row][None]
                if attention_history is None
                else np.concatenate([attention_history[row], attention[row][None]])
            )
            kept = history[row].tolist() + ([] if token[g, rank] == EOS else [int(token[g, rank])])
            log_prob = float(top_scores[g, rank])
            finished[sentence].append(
                Hypothesis(kept, final_score(log_prob, steps, source_lengths[sentence], options), log_prob, steps)
            )
        going = ~last_step & np.array([len(finished[sentence]) < k for sentence in alive])
        if not going.any():
            break
        # each going group continues with its k best candidates that did not end (a row ends at
        # most once, so at least k of the 2k did not)
        continuing = ~ends[going] & (np.cumsum(~ends[going], axis=1) <= k)  # (going groups, 2k)
        selected = rows[going][continuing]
        history = np.concatenate([history[selected], token[going][continuing][:, None]], axis=1)
        step_attention = attention[selected][:, None]
        attention_history = (
            step_attention
            if attention_history is None
            else np.concatenate([attention_history[selected], step_attention], axis=1)
        )
        scores = top_scores[going][continuing]
        previous = history[:, -1].copy()
        alive = alive[going]
        state.select(selected)
        step += 1
    return [sorted(hyps, key=lambda h: -h.score)[: options.n_best] for hyps in finished]
