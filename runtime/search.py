"""Batched greedy and beam search over numpy, driven by a single-step decoder.

Shapes: N rows in flight (sentences × beams), S source positions, V vocabulary, T output steps.
Sentences leave the batch as soon as they are finished, so late steps run on fewer rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .constants import BOS, EOS


@dataclass
class Hypothesis:
    """tokens: output ids without EOS; score: length-normalised log-probability;
    attention (T, S): weights of each output step (EOS step included) over source positions."""

    tokens: list[int]
    score: float
    log_prob: float
    attention: np.ndarray


class DecoderState(Protocol):
    """What search needs from an encoded batch; `select(rows)` keeps/repeats rows (axis 0)."""

    def step(self, previous: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """previous (N,) → log_probs (N, V), attention (N, S); advances the recurrent state."""

    def select(self, rows: np.ndarray) -> None: ...


@dataclass(frozen=True)
class SearchOptions:
    beam: int = 5
    n_best: int = 1
    length_penalty: float = 1.0
    min_length: int = 0


def length_normaliser(length: int | np.ndarray, alpha: float):
    """GNMT length penalty ((5 + length) / 6) ** alpha."""
    return ((5.0 + length) / 6.0) ** alpha


def greedy_search(state: DecoderState, max_lengths: np.ndarray, options: SearchOptions) -> list[list[Hypothesis]]:
    """Argmax decoding of every row of `state` (one row per sentence)."""
    batch = len(max_lengths)
    alive = np.arange(batch)
    previous = np.full(batch, BOS, dtype=np.int64)
    tokens: list[list[int]] = [[] for _ in range(batch)]
    attentions: list[list[np.ndarray]] = [[] for _ in range(batch)]
    log_probs_sum = np.zeros(batch)
    results: list[list[Hypothesis]] = [[] for _ in range(batch)]
    step = 0
    while len(alive):
        log_probs, attention = state.step(previous)
        if step < options.min_length:
            log_probs[:, EOS] = -np.inf
        chosen = log_probs.argmax(axis=1)
        keep = []
        for row, sentence in enumerate(alive):
            log_probs_sum[sentence] += log_probs[row, chosen[row]]
            attentions[sentence].append(attention[row])
            last_step = step + 1 >= max_lengths[sentence]
            if chosen[row] == EOS or last_step:
                if chosen[row] != EOS:
                    tokens[sentence].append(int(chosen[row]))
                length = len(attentions[sentence])
                results[sentence] = [Hypothesis(tokens[sentence],
                                                float(log_probs_sum[sentence] / length_normaliser(length, options.length_penalty)),
                                                float(log_probs_sum[sentence]), np.stack(attentions[sentence]))]
            else:
                tokens[sentence].append(int(chosen[row]))
                keep.append(row)
        keep = np.array(keep, dtype=np.int64)
        if len(keep) < len(alive):
            state.select(keep)
        alive, previous = alive[keep], chosen[keep].astype(np.int64)
        step += 1
    return results


def beam_search(state: DecoderState, max_lengths: np.ndarray, options: SearchOptions) -> list[list[Hypothesis]]:
    """Beam search with GNMT length normalisation; returns `n_best` hypotheses per sentence,
    best first. A sentence finishes when `beam` hypotheses have ended (or at its max length)."""
    k = options.beam
    batch = len(max_lengths)
    state.select(np.repeat(np.arange(batch), k))
    alive = np.arange(batch)  # sentence of each alive beam group
    scores = np.tile(np.array([0.0] + [-np.inf] * (k - 1)), batch)  # (N,)
    history = np.zeros((batch * k, 0), dtype=np.int64)  # (N, t)
    attention_history: np.ndarray | None = None  # (N, t, S)
    previous = np.full(batch * k, BOS, dtype=np.int64)
    finished: list[list[Hypothesis]] = [[] for _ in range(batch)]
    step = 0
    while len(alive):
        log_probs, attention = state.step(previous)
        if step < options.min_length:
            log_probs[:, EOS] = -np.inf
        vocab = log_probs.shape[1]
        groups = len(alive)
        candidates = (scores[:, None] + log_probs).reshape(groups, k * vocab)
        width = min(2 * k, k * vocab)
        top = np.argpartition(-candidates, width - 1, axis=1)[:, :width]
        order = np.argsort(-np.take_along_axis(candidates, top, axis=1), axis=1, kind="stable")
        top = np.take_along_axis(top, order, axis=1)  # (groups, 2k) best first
        top_scores = np.take_along_axis(candidates, top, axis=1)
        source_beam, token = top // vocab, top % vocab
        rows = np.arange(groups)[:, None] * k + source_beam  # (groups, 2k) rows in flight
        attention_so_far = attention[rows]  # (groups, 2k, S)
        keep_groups, next_rows, next_tokens, next_scores = [], [], [], []
        for g, sentence in enumerate(alive):
            last_step = step + 1 >= max_lengths[sentence]
            ends = (token[g] == EOS) | last_step
            for rank in np.flatnonzero(ends[:k]):
                if not np.isfinite(top_scores[g, rank]):
                    continue
                row = rows[g, rank]
                kept_tokens = history[row].tolist() + ([] if token[g, rank] == EOS else [int(token[g, rank])])
                steps = np.concatenate(
                    [attention_history[row] if attention_history is not None else attention[:0],
                     attention_so_far[g, rank][None]])
                length = step + 1
                finished[sentence].append(Hypothesis(
                    kept_tokens, float(top_scores[g, rank] / length_normaliser(length, options.length_penalty)),
                    float(top_scores[g, rank]), steps))
            if len(finished[sentence]) >= k or last_step:
                continue
            continuing = np.flatnonzero(~ends)[:k]
            keep_groups.append(g)
            next_rows.append(rows[g, continuing])
            next_tokens.append(token[g, continuing])
            next_scores.append(top_scores[g, continuing])
        if not keep_groups:
            break
        selected = np.concatenate(next_rows)
        history = np.concatenate([history[selected], np.concatenate(next_tokens)[:, None]], axis=1)
        step_attention = attention[selected][:, None]
        attention_history = step_attention if attention_history is None else np.concatenate(
            [attention_history[selected], step_attention], axis=1)
        scores = np.concatenate(next_scores)
        previous = history[:, -1].copy()
        alive = alive[keep_groups]
        state.select(selected)
        step += 1
    return [sorted(hyps, key=lambda h: -h.score)[: options.n_best] for hyps in finished]
