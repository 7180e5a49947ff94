"""Beam search whose translations must meet a condition: a negation written, say.

Where no translation of a beam meets it, a wider beam seldom helps: the words that would meet it
are never among a hypothesis's best next tokens. This search, after Post & Vilar's dynamic beam
allocation (2018) for a single constraint, also extends every hypothesis that does not yet meet the
condition by each of a few `forced` tokens, and shares the beam between the hypotheses that meet it
and those that do not (half each, a half's unused places given to the other), so that a hypothesis
which took a forced token early, scored low for a while, is not pushed out by the many that did
not. A hypothesis may only end once it meets the condition; the finished are scored as beam search
scores them (search.final_score).

Shapes as in runtime/search.py: N rows in flight (sentences × beams), C candidate tokens, S source
positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .constants import BOS, EOS
from .search import (
    DecoderState,
    Hypothesis,
    SearchOptions,
    banned_columns,
    columns_of,
    constrain,
    final_score,
)

# Whether a sentence's tokens so far meet its condition: (sentence index in the batch, tokens) → bool
Condition = Callable[[int, list[int]], bool]
# A hypothesis's next token: (row, token, summed log-probability, whether it then meets the condition)
Candidate = tuple[int, int, float, bool]


@dataclass(frozen=True)
class Requirement:
    """What each translation of a batch must meet (`meets`), and each sentence's token ids that may
    meet it (`forced`: sentence index → ids), with which every hypothesis that does not is extended."""

    meets: Condition
    forced: Callable[[int], Sequence[int]]

    def for_batch(self, batch: list[int]) -> Requirement:
        """This requirement keyed by the sentences' indices in a batch of the ones in `batch`."""
        return Requirement(
            lambda sentence, tokens: self.meets(batch[sentence], tokens), lambda sentence: self.forced(batch[sentence])
        )


def required_beam_search(
    state: DecoderState,
    max_lengths: np.ndarray,
    source_lengths: np.ndarray,
    options: SearchOptions,
    required: Requirement,
) -> list[list[Hypothesis]]:
    """Beam search (options.beam = k wide) in which a hypothesis ends only when `required.meets`
    holds for its tokens, each hypothesis that does not is also extended by each of
    `required.forced`, and the beam is shared between the two kinds (module doc). Returns each
    sentence's finished hypotheses, all meeting the condition, best first, at most options.n_best;
    none where none met it within the sentence's maximum length. As in beam_search, a sentence
    finishes when k hypotheses have ended or at its maximum length; where every hypothesis meets
    the condition from the start, the two searches are one."""
    k = options.beam
    batch = len(max_lengths)
    state.select(np.repeat(np.arange(batch), k))
    vocabulary = state.vocabulary
    forced_columns = [columns_of(vocabulary, required.forced(s)) for s in range(batch)]
    eos_column = columns_of(vocabulary, [EOS])
    histories: list[list[int]] = [[] for _ in range(batch * k)]
    attentions: list[list[np.ndarray]] = [[] for _ in range(batch * k)]  # each row's (S,) per step
    scores = np.tile(np.array([0.0] + [-np.inf] * (k - 1)), batch)  # (N,)
    met = np.array([required.meets(s, []) for s in range(batch) for _ in range(k)])  # (N,)
    previous = np.full(batch * k, BOS, dtype=np.int64)
    alive = list(range(batch))
    finished: list[list[Hypothesis]] = [[] for _ in range(batch)]
    step = 0
    while alive:
        log_probs, attention = state.step(previous)  # (N, C), (N, S)
        constrain(log_probs, banned_columns(vocabulary, lambda: histories, step, options))
        log_probs[np.ix_(~met, eos_column)] = -np.inf  # no end before the condition is met
        totals = scores[:, None] + log_probs  # (N, C)
        going: list[Candidate] = []
        still = []
        for group, sentence in enumerate(alive):
            rows = np.arange(group * k, group * k + k)
            last_step = step + 1 >= max_lengths[sentence]

            def meets_with(row: int, token: int, sentence=sentence) -> bool:
                if token == EOS:  # the tokens stay as they were
                    return bool(met[row])
                return required.meets(sentence, histories[row] + [token])

            meeting, not_meeting = _candidates(rows, totals, met, forced_columns[sentence], vocabulary, k, meets_with)
            # as in beam_search: of the first k, those that end; at the last step, all of them
            ending = meeting[:k] if last_step else [c for c in meeting[:k] if c[1] == EOS]
            for row, token, total, _ in ending:
                steps = np.stack([*attentions[row], attention[row]])
                tokens = histories[row] + ([] if token == EOS else [token])
                score = final_score(total, steps, source_lengths[sentence], options)
                finished[sentence].append(Hypothesis(tokens, score, total, steps))
            continuing = _shared(meeting, not_meeting, k)
            if last_step or len(finished[sentence]) >= k or not continuing:
                continue
            still.append(sentence)
            going += continuing + [(continuing[0][0], continuing[0][1], -np.inf, continuing[0][3])] * (
                k - len(continuing)
            )  # rows that cannot go on fill the beam, scored -inf
        if not still:
            break
        rows, tokens, totals_kept, met_kept = zip(*going)
        histories = [histories[row] + [token] for row, token in zip(rows, tokens)]
        attentions = [[*attentions[row], attention[row]] for row in rows]
        scores, met = np.array(totals_kept), np.array(met_kept)
        previous = np.array(tokens, dtype=np.int64)
        alive = still
        state.select(np.array(rows, dtype=np.int64))
        step += 1
    return [sorted(hyps, key=lambda h: -h.score)[: options.n_best] for hyps in finished]


def _candidates(
    rows: np.ndarray,
    totals: np.ndarray,
    met: np.ndarray,
    forced_columns: np.ndarray,
    vocabulary: np.ndarray,
    k: int,
    meets_with: Callable[[int, int], bool],
) -> tuple[list[Candidate], list[Candidate]]:
    """One sentence's candidates for the next step from its k `rows` of totals (N, C), the summed
    log-probabilities of each row's next tokens: the best 2k of the rows that meet the condition
    and the best 2k of those that do not, apart (a hypothesis that took a forced token, scored low,
    competes with its own kind only), and each row that does not meet it extended by each forced
    column; as beam_search orders them (best first, equal values by lower row·C + column first),
    those that then meet the condition and those that do not, each up to its k-th that does not
    end (the condition is checked on as few as that needs)."""
    count = totals.shape[1]
    block = totals[rows]  # (k, C)
    flat = block.ravel()
    meeting_rows = met[rows]
    best = [
        _best_of(np.where(rows_of_kind[:, None], block, -np.inf).ravel(), 2 * k)
        for rows_of_kind in (meeting_rows, ~meeting_rows)
    ]
    forced = (np.flatnonzero(~meeting_rows)[:, None] * count + forced_columns[None, :]).ravel()
    positions = np.unique(np.concatenate([*best, forced]))
    positions = positions[np.isfinite(flat[positions])]
    positions = positions[np.lexsort((positions, -flat[positions]))]
    kinds: dict[bool, list[Candidate]] = {True: [], False: []}
    going = {True: 0, False: 0}  # of each kind, those that do not end
    for position in positions:
        if going[True] >= k and going[False] >= k:  # all that _shared and the ending can take
            break
        row, column = int(rows[position // count]), int(position % count)
        token = int(vocabulary[column])
        meets_now = meets_with(row, token)
        kinds[meets_now].append((row, token, float(flat[position]), meets_now))
        going[meets_now] += token != EOS
    return kinds[True], kinds[False]


def _best_of(flat: np.ndarray, width: int) -> np.ndarray:
    """The positions of the `width` largest values of `flat`, as beam_search orders them (equal
    values by lower position first)."""
    width = min(width, flat.size)
    threshold = np.partition(flat, flat.size - width)[flat.size - width]
    best = np.flatnonzero(flat >= threshold)
    return best[np.lexsort((best, -flat[best]))][:width]


def _shared(meeting: list[Candidate], not_meeting: list[Candidate], k: int) -> list[Candidate]:
    """Of a sentence's candidates (_candidates), those that go on, best first, at most k: of each
    kind the first k that do not end, (k + 1) // 2 of each where both have as many, the rest from
    the other kind (all from one where the other has none: beam_search's)."""
    going_met = [c for c in meeting if c[1] != EOS][:k]
    going_unmet = not_meeting[:k]  # their EOS is banned
    taken = min(len(going_met), max((k + 1) // 2, k - len(going_unmet)))
    return sorted(going_met[:taken] + going_unmet[: k - taken], key=lambda c: -c[2])
