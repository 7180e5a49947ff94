"""Training data: per-origin sampling, encoding and token-based length buckets."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass

import torch
from torch import Tensor

from attn.runtime.constants import BOS, EOS, PAD
from attn.runtime.tokenizer import SubwordTokenizer
from attn.runtime.tsv import Row


def sample_origins(rows: list[Row], sample: dict[str, int], seed: int) -> list[Row]:
    """`sample[origin]` rows of each named origin: fewer than it has are a random sample
    (random.Random(seed).sample, file order kept), more repeat all of its rows as often as they fit
    and sample the rest (upsampling a small origin); other origins are kept as they are."""
    kept = [row for row in rows if row.origin not in sample]
    for origin, count in sample.items():
        members = [row for row in rows if row.origin == origin]
        if not members:
            continue
        copies, rest = divmod(count, len(members))
        chosen = set(random.Random(seed).sample(range(len(members)), rest))
        kept.extend(members * copies)
        kept.extend(row for i, row in enumerate(members) if i in chosen)
    return kept


def hold_out(rows: list[Row], counts: dict[str, int], key=lambda row: row.source) -> tuple[list[Row], list[Row]]:
    """Split `rows` into (kept, held out): of each origin named in `counts`, at least that many
    rows whose `key` text (the file's first column) comes first in SHA-256 order are held out,
    with every other row of the same text, so that no held-out sentence is also learned. The
    choice depends on the texts alone: the same rows are held out in every run and either way
    round."""
    held_texts: set[str] = set()
    for origin, count in counts.items():
        rows_of_text = Counter(key(row) for row in rows if row.origin == origin)
        taken = 0
        for text in sorted(rows_of_text, key=lambda text: hashlib.sha256(text.encode("utf-8")).digest()):
            if taken >= count:
                break
            held_texts.add(text)
            taken += rows_of_text[text]
    kept = [row for row in rows if key(row) not in held_texts]
    held = [row for row in rows if key(row) in held_texts]
    return kept, held


@dataclass(frozen=True)
class Pair:
    """source: piece ids + EOS; target: BOS + piece ids + EOS."""

    source: list[int]
    target: list[int]


@dataclass(frozen=True)
class Direction:
    """The rows of one direction a model learns, and the ids that open each of their sources: the
    target-language token in a model of several directions, else none."""

    prefix: list[int]
    rows: list[Row]


def encode_pairs(
    rows: list[Row],
    tokenizer: SubwordTokenizer,
    max_source: int,
    max_target: int,
    truncate_source: bool = False,
    prefix: list[int] = (),
) -> list[Pair]:
    """Encode rows, dropping pairs with an empty side or longer than the limits (in pieces, the
    `prefix` not counted); with `truncate_source`, a long source keeps its first `max_source`
    pieces instead. Each source becomes prefix + pieces + EOS."""
    sources = tokenizer.encode_batch([row.source for row in rows])
    targets = tokenizer.encode_batch([row.target for row in rows])
    if truncate_source:
        sources = [source[:max_source] for source in sources]
    return [
        Pair([*prefix, *source, EOS], [BOS] + target + [EOS])
        for source, target in zip(sources, targets)
        if 0 < len(source) <= max_source and 0 < len(target) <= max_target
    ]


def token_batches(pairs: list[Pair], batch_tokens: int, seed: int, epoch: int) -> list[list[int]]:
    """Index batches of similar lengths holding at most `batch_tokens` padded positions each.

    Pairs are sorted by (target length, source length) with a random tie-break, cut into batches,
    and the batches shuffled: the order is a pure function of (seed, epoch), which makes resuming
    at a batch position exact.
    """
    rng = random.Random(seed * 100_003 + epoch)
    order = sorted(
        range(len(pairs)),
        key=lambda i: (len(pairs[i].target), len(pairs[i].source), rng.random()),
    )
    batches, current, longest = [], [], 0
    for index in order:
        length = max(len(pairs[index].source), len(pairs[index].target))
        if current and max(longest, length) * (len(current) + 1) > batch_tokens:
            batches.append(current)
            current, longest = [], 0
        current.append(index)
        longest = max(longest, length)
    if current:
        batches.append(current)
    rng.shuffle(batches)
    return batches


@dataclass(frozen=True)
class Batch:
    """source (B, S), mask (B, S), target_in (B, T), target_out (B, T); PAD-filled."""

    source: Tensor
    mask: Tensor
    target_in: Tensor
    target_out: Tensor

    @property
    def target_tokens(self) -> int:
        return int((self.target_out != PAD).sum())

    def to(self, device: torch.device) -> Batch:
        return Batch(
            *(
                tensor.to(device, non_blocking=True)
                for tensor in (self.source, self.mask, self.target_in, self.target_out)
            )
        )


def collate(pairs: list[Pair]) -> Batch:
    source = pad([p.source for p in pairs])
    target = pad([p.target for p in pairs])
    return Batch(source, (source != PAD).long(), target[:, :-1], target[:, 1:])


def pad(sequences: list[list[int]]) -> Tensor:
    """Right-pad id lists into a (B, max length) long tensor."""
    longest = max(len(s) for s in sequences)
    out = torch.full((len(sequences), longest), PAD, dtype=torch.long)
    for row, sequence in enumerate(sequences):
        out[row, : len(sequence)] = torch.tensor(sequence, dtype=torch.long)
    return out
