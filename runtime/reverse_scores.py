"""The beam's translations ranked again by how well each explains its source.

A translation model scores a translation by how likely it is given the source, and it likes a
short, fluent sentence that leaves part of the source out, or a phrase written twice. The model of
the other direction, forced to write the source back from each translation (teacher forcing), tells
how much of the source the translation carries: its log-probability log P(source | translation) is
the channel model's score of noisy-channel reranking (Yee et al. 2019; Marian and fairseq rescore
n-best lists so). The final ranking is

    score + weight · log P(source | translation) / lp(|source|)

with `score` the forward search's (log-probability over the GNMT length normaliser lp, search.py
final_score) and the reverse log-probability normalised by the same lp over the source's pieces, so
that the weight is one number for short and long sentences. The weight was chosen on the dev files
(docs/studies/REVERSE-RERANK.md).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .constants import BOS, EOS
from .number_choice import near_the_best
from .parallel import map_in_threads
from .search import length_normaliser

if TYPE_CHECKING:  # loaded_model imports texts, which imports this module
    from .loaded_model import LoadedModel
    from .translation import Translation

ROWS_PER_BATCH = 64


def forced_log_probs(
    model: LoadedModel, inputs: list[list[int]], targets: list[list[int]], stop: threading.Event | None = None
) -> np.ndarray:
    """log P(targets[i] | inputs[i]) under `model`, teacher-forced in one batch: inputs (N lists of
    source ids, EOS included), targets (N lists of target ids, EOS included) → (N,). Setting `stop`
    ends it at its next step (SearchStopped)."""
    state = model.encode(inputs, shortlist=False, stop=stop)
    lengths = np.array([len(target) for target in targets])
    forced = np.full((len(targets), lengths.max()), EOS, dtype=np.int64)
    for row, target in enumerate(targets):
        forced[row, : len(target)] = target
    previous = np.concatenate([np.full((len(targets), 1), BOS, dtype=np.int64), forced[:, :-1]], axis=1)
    rows = np.arange(len(targets))
    total = np.zeros(len(targets))
    for position in range(forced.shape[1]):
        log_probs, _ = state.step(previous[:, position])
        total += np.where(position < lengths, log_probs[rows, forced[:, position]], 0.0)
    return total


class ReverseScorer:
    """log P(source | translation) by `model`, a model of the direction opposite the translations'."""

    def __init__(self, model: LoadedModel):
        self.model = model

    def scores(
        self, translations: Sequence[str], sources: Sequence[str], stop: threading.Event | None = None
    ) -> np.ndarray:
        """(N,) log-probabilities of writing each of `sources` back from the translation beside it,
        each over lp(its source's pieces, EOS included); in batches of ROWS_PER_BATCH rows alike in
        length (so little is padded), decoded on the model's workers."""
        inputs = [self.model.source_ids(text) for text in translations]
        targets = [self.model.tokenizer.encode(text) + [EOS] for text in sources]
        order = sorted(range(len(inputs)), key=lambda i: (len(targets[i]), len(inputs[i])))
        batches = [order[start : start + ROWS_PER_BATCH] for start in range(0, len(order), ROWS_PER_BATCH)]
        found = map_in_threads(
            lambda batch: forced_log_probs(self.model, [inputs[i] for i in batch], [targets[i] for i in batch], stop),
            batches[::-1],  # longest first: the last to finish are short
            self.model.workers,
        )
        scores = np.zeros(len(inputs))
        for batch, values in zip(batches[::-1], found):
            scores[batch] = values
        return scores / length_normaliser(np.array([len(target) for target in targets]), 1.0)

    def scores_of_lists(
        self, lists: Sequence[Sequence[str]], sources: Sequence[str], stop: threading.Event | None = None
    ) -> list[np.ndarray]:
        """Each list of translations of the source beside it scored as `scores` does, all in one
        call: an array (len(list),) for each. A list of one translation is scored too: nothing is
        chosen by it, but a translation's score is then the same whether one or several were asked
        for (a sentence's best had been scored with `--n-best 3` and not without)."""
        rows = [(i, text) for i, texts in enumerate(lists) for text in texts]
        flat = iter(self.scores([text for _, text in rows], [sources[i] for i, _ in rows], stop))
        return [np.array([next(flat) for _ in texts]) for texts in lists]


def ranked_with_reverse(
    translations: list[Translation], reverse: Sequence[float], weight: float
) -> tuple[list[Translation], list[Translation]]:
    """`translations` of one source (the search's best first), each scored anew as its score +
    weight · reverse[i] (its ReverseScorer score), in two lists each best first: those within
    SCORE_MARGIN of the search's best (near_the_best: a single output is chosen among them), and
    the others (sorts are stable: equal scores keep the search's order)."""
    near = len(near_the_best(translations))
    scored = [replace(t, score=t.score + weight * float(back)) for t, back in zip(translations, reverse)]
    return sorted(scored[:near], key=lambda t: -t.score), sorted(scored[near:], key=lambda t: -t.score)
