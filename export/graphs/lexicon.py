"""Learn the lexical table behind the target-vocabulary shortlist: IBM Model 1 (Brown et al.
1993) by EM over the training pairs, in piece ids, the source's EOS standing in for the NULL word.

t(target | source) starts uniform; each iteration spreads every target piece over the source
pieces of its sentence in proportion to t, and re-estimates t from the expected counts. A piece's
shortlist entries are its `per_source` likeliest targets, of those at least `min_probability`
likely; the runtime adds the most frequent target pieces and the source pieces themselves
(runtime/shortlist.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import torch

from attn.export.config import ShortlistConfig
from attn.export.training.data import Pair
from attn.runtime.constants import BOS, EOS
from attn.runtime.shortlist import Shortlist

if TYPE_CHECKING:
    from rich.console import Console

    from attn.export.training.train import Corpus

PAIRS_PER_CHUNK = 4096


def run_shortlist(corpus: Corpus, settings: ShortlistConfig, console: Console | None = None) -> Shortlist | None:
    """The shortlist a config's [shortlist] asks for, learned on a run's training pairs, with a
    frequent list per target language in a model of several directions; None when `frequent` is 0."""
    if not settings.frequent:
        return None
    if console is not None:
        console.log(f"learning the shortlist's lexical table (IBM Model 1, {settings.iterations} iterations)")
    language_tokens = [token for direction in corpus.dev_directions for token in direction.prefix]
    return learn_shortlist(
        corpus.train,
        corpus.tokenizer.vocab_size,
        settings.frequent,
        settings.per_source,
        settings.iterations,
        language_tokens,
        settings.min_probability,
    )


def learn_shortlist(
    pairs: list[Pair],
    vocab_size: int,
    frequent: int,
    per_source: int,
    iterations: int,
    language_tokens: list[int] = (),
    min_probability: float = ShortlistConfig.min_probability,
) -> Shortlist:
    """A Shortlist of the `frequent` most frequent target pieces and a (V, per_source) table; with
    `language_tokens` (a model of several directions), also the `frequent` most frequent target
    pieces of the pairs whose source opens with each token."""
    # t[source, target] over the pieces that occur on each side only (a V × V table of 24,000
    # pieces is 2.3 GB, and EM holds two: 7 GB for 300 pairs); a piece that never occurs
    # as a source gets no translations.
    sources = np.unique(
        np.concatenate([np.asarray(p.source, dtype=np.int64) for p in pairs] or [np.zeros(0, np.int64)])
    )
    targets = np.unique(np.concatenate([_target_pieces(p) for p in pairs] or [np.zeros(0, np.int64)]))
    source_row, target_column = np.full(vocab_size, -1), np.full(vocab_size, -1)
    source_row[sources], target_column[targets] = np.arange(len(sources)), np.arange(len(targets))
    rows, columns = len(sources), max(len(targets), 1)
    table = torch.full((rows, columns), 1.0 / columns)
    for _ in range(iterations):
        counts = torch.zeros(rows * columns)
        for source, target, instance in _links(pairs):
            flat = torch.from_numpy(source_row[source.numpy()] * columns + target_column[target.numpy()])
            weights = table.view(-1)[flat]
            totals = torch.zeros(int(instance.max()) + 1).index_add_(0, instance, weights)
            counts.index_add_(0, flat, weights / totals[instance])
        counts = counts.view(rows, columns)
        table = counts / counts.sum(dim=1, keepdim=True).clamp_min(1e-12)
    kept = min(per_source, len(targets))
    probabilities, found = (
        table.topk(kept, dim=1) if kept else (torch.zeros(rows, 0), torch.zeros(rows, 0, dtype=torch.long))
    )
    translations = np.full((vocab_size, min(per_source, vocab_size)), -1, dtype=np.int64)
    translations[sources, :kept] = np.where(probabilities.numpy() >= min_probability, targets[found.numpy()], -1)
    by_language = {
        token: _most_frequent([p for p in pairs if p.source[0] == token], vocab_size, frequent)
        for token in language_tokens
    }
    return Shortlist(_most_frequent(pairs, vocab_size, frequent), translations, by_language)


def _most_frequent(pairs: list[Pair], vocab_size: int, count: int) -> np.ndarray:
    """The `count` most frequent target pieces of `pairs` (fewer when fewer occur), most frequent first."""
    counts = np.bincount(
        np.concatenate([_target_pieces(p) for p in pairs] or [np.zeros(0, np.int64)]), minlength=vocab_size
    )
    ranked = np.argsort(-counts, kind="stable")[:count]
    return ranked[counts[ranked] > 0]


def _target_pieces(pair: Pair) -> np.ndarray:
    return np.array([t for t in pair.target if t not in (BOS, EOS)], dtype=np.int64)


def _links(pairs: list[Pair]) -> Iterator[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """Every (source piece, target piece) combination of each pair, in chunks of pairs: source ids
    (L,), target ids (L,) and the target position each link belongs to (L,), numbered per chunk."""
    for start in range(0, len(pairs), PAIRS_PER_CHUNK):
        sources, targets, instances, offset = [], [], [], 0
        for pair in pairs[start : start + PAIRS_PER_CHUNK]:
            source, target = np.asarray(pair.source, dtype=np.int64), _target_pieces(pair)  # source ends in EOS
            sources.append(np.repeat(source, len(target)))
            targets.append(np.tile(target, len(source)))
            instances.append(np.tile(np.arange(offset, offset + len(target)), len(source)))
            offset += len(target)
        if offset:
            yield tuple(torch.from_numpy(np.concatenate(parts)) for parts in (sources, targets, instances))
