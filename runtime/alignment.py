"""Word-level alignments from piece-level attention.

Merge rule (documented in README): the model attends over source *pieces* while writing target
*pieces*. For a target word t and a source word s,

    weight(t, s) = mean over the pieces of t of ( sum over the pieces of s of attention )

Summing over source pieces keeps each row a distribution over source words (a word split into
three pieces gets the attention all three received); averaging over target pieces gives every
target word one row however many pieces it took. The EOS column is dropped and each row is
renormalised, so rows sum to 1 over the words the user wrote. The hard alignment links each
target word to its strongest source word (Pharaoh `s-t` pairs, 0-based).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

import numpy as np

from .words import word_spans

# A word written this many words or fewer from where the attention puts its source is in place
# (answered_in_place)
NEAR_WORDS = 2


@dataclass(frozen=True)
class WordAlignment:
    """source_words (S,), target_words (T,), weights (T, S), rows summing to 1."""

    source_words: list[str]
    target_words: list[str]
    weights: np.ndarray

    def hard_links(self) -> list[tuple[int, int]]:
        """(source index, target index) of each target word's strongest source word."""
        if self.weights.size == 0:
            return []
        return [(int(s), t) for t, s in enumerate(np.argmax(self.weights, axis=1))]

    def pharaoh(self) -> str:
        return " ".join(f"{s}-{t}" for s, t in self.hard_links())

    def linked_to(self, source: int) -> list[int]:
        """The target words linked to source word `source`, in order: each whose strongest source
        word it is, and its own strongest target word (which a near tie may have given another)."""
        if self.weights.size == 0:
            return []
        strongest = np.argmax(self.weights, axis=1)  # (T,)
        return sorted({int(t) for t in np.flatnonzero(strongest == source)} | {int(np.argmax(self.weights[:, source]))})

    @property
    def parts(self) -> list[tuple[int, int, WordAlignment]]:
        """(first row, first column, alignment) of each block: here the one, whole alignment."""
        return [(0, 0, self)]


@dataclass(frozen=True)
class JoinedAlignment:
    """The alignment of a line translated in parts (runtime/chunking.py): block-diagonal, each
    part's target words aligned within its part. The blocks are kept as they are and the whole
    (T, S) matrix is never built: for a 100,000-character line it would take gigabytes.
    parts: (first row, first column, the part's WordAlignment) for each part."""

    source_words: list[str]
    target_words: list[str]
    parts: list[tuple[int, int, WordAlignment]]

    def hard_links(self) -> list[tuple[int, int]]:
        return [(column + s, row + t) for row, column, part in self.parts for s, t in part.hard_links()]

    def pharaoh(self) -> str:
        return " ".join(f"{s}-{t}" for s, t in self.hard_links())


def answered_in_place(
    alignment: WordAlignment | JoinedAlignment,
    source_spans: Callable[[list[str]], list[list[int]]],
    target_marked: Callable[[list[str]], list[int]],
) -> int:
    """How many of the spans of source words that `source_spans` finds in each block of
    `alignment` (lists of word indexes: a negation, a number) a translation answers where the
    attention puts them: the target word that attends most to a word of the span, or one at most
    NEAR_WORDS words from it, is one that `target_marked` finds in the block's target words."""
    answered = 0
    for _, _, block in alignment.parts:
        if block.weights.size == 0:
            continue
        marked = target_marked(block.target_words)
        for span in source_spans(block.source_words):
            strongest = np.argmax(block.weights[:, span], axis=0)  # weights (T, S)
            answered += any(abs(int(t) - m) <= NEAR_WORDS for t in strongest for m in marked)
    return answered


def merge_to_words(
    attention: np.ndarray,
    source_word_of_piece: list[int],
    target_word_of_piece: list[int],
    source_words: list[str],
    target_words: list[str],
    source_marks: list[bool] | None = None,
    target_marks: list[bool] | None = None,
) -> WordAlignment:
    """attention (T pieces [+ EOS row], S pieces + EOS) → WordAlignment over words.

    Pieces with word index -1 (EOS) and attention rows beyond the target pieces are ignored, and
    so are the pieces `source_marks` and `target_marks` mark (punctuation: one flag per piece of
    each side) in a word that has an unmarked piece: "gekauft." had taken its link from the
    attention of its "." to the source's final "." ("yesterday.").
    """
    n_source, n_target = len(source_words), len(target_words)
    weights = np.zeros((n_target, n_source), dtype=np.float64)
    if n_source == 0 or n_target == 0:
        return WordAlignment(source_words, target_words, weights.astype(np.float32))
    source_map = np.zeros((attention.shape[1], n_source))
    source_words_of = words_read(source_word_of_piece[: attention.shape[1]], source_marks)
    kept = np.flatnonzero(source_words_of >= 0)
    source_map[kept, source_words_of[kept]] = 1.0
    per_piece = attention[: len(target_word_of_piece)] @ source_map  # (T pieces, S words)
    target_words_of = words_read(target_word_of_piece[: per_piece.shape[0]], target_marks)
    kept = np.flatnonzero(target_words_of >= 0)
    np.add.at(weights, target_words_of[kept], per_piece[kept])  # piece by piece, in order
    counts = np.bincount(target_words_of[kept], minlength=n_target)
    weights /= np.maximum(counts, 1)[:, None]
    totals = weights.sum(axis=1, keepdims=True)
    weights = np.divide(weights, totals, out=np.zeros_like(weights), where=totals > 0)
    return WordAlignment(source_words, target_words, weights.astype(np.float32))


def words_read(word_of_piece: list[int], marks: list[bool] | None) -> np.ndarray:
    """Each piece's word index, -1 for a piece that `marks` marks in a word that has an unmarked
    piece (its word is read from the others)."""
    words = np.asarray(word_of_piece, dtype=np.int64)
    if marks is None or not len(words):
        return words
    marked = np.asarray(marks[: len(words)], dtype=bool)
    unmarked_words = set(words[~marked].tolist())
    drop = marked & np.isin(words, list(unmarked_words))
    return np.where(drop, -1, words)


def restored(alignment: WordAlignment, read: str, written: str, language: str) -> WordAlignment:
    """`alignment`, of a translation of `read` (`written` as the model read it: its times,
    runtime/clock.py, or its capitals, runtime/capitals.py, read otherwise), with the source
    words as `written` has them, where its words are those of `read` whole (not a part of a long
    sentence's). Words read as they were written (but for their case or spelling) keep their
    columns; a run read otherwise ("3:45 pm" read "15 h 45", "am 3. Juni" "on June 3") shares the attention its
    read words received, each written word an equal part, so that rows still sum to 1 (the table
    and JSON had shown the words read, not the user's)."""
    if read == written:
        return alignment
    words = [read[start:end] for start, end in word_spans(read, language)]
    own = [written[start:end] for start, end in word_spans(written, language)]
    if list(alignment.source_words) != words:
        return alignment
    weights = np.asarray(alignment.weights)
    columns, unwritten = [], np.zeros((weights.shape[0], 1), weights.dtype)
    for kind, first, last, own_first, own_last in read_runs(words, own):
        received = weights[:, first:last].sum(axis=1, keepdims=True)
        count = own_last - own_first
        if not count:  # words read that the user did not write: their attention goes to the next
            # written word (to the last one, after the last written)
            unwritten = unwritten + received
            continue
        # word for word where the user's words are as many and hold no number ("GRÖSSE" read
        # "Größe") or the same numbers in the same places ("in June 2024" read "en juin 2024"); a
        # time or date as a whole, its words' order being the target's ("on June 3" read "le 3 juin")
        read_words, written_words = words[first:last], own[own_first:own_last]
        same = kind == "equal" or (
            count == last - first
            and (not any(map(has_digits, read_words)) or all(map(same_number, read_words, written_words)))
        )
        block = weights[:, first:last] if same else np.repeat(received / count, count, axis=1)
        columns.append(block + unwritten / count)
        unwritten = unwritten * 0
    if not columns:
        return alignment
    columns[-1] = columns[-1] + unwritten / columns[-1].shape[1]
    return replace(alignment, source_words=own, weights=np.concatenate(columns, axis=1))


def read_runs(words: list[str], own: list[str]) -> list[tuple[str, int, int, int, int]]:
    """SequenceMatcher's opcodes from the words read to the words written, case aside, with a run
    of numbers found in both between two runs read otherwise taken into them: a date or a price
    reordered ("on June 3" read "le 3 juin", "€15" "15 €") is one run, its day not matched apart."""
    opcodes = SequenceMatcher(None, [word.lower() for word in words], [word.lower() for word in own], autojunk=False)
    runs = opcodes.get_opcodes()
    merged: list[list] = []
    for index, (kind, first, last, own_first, own_last) in enumerate(runs):
        numbers = kind == "equal" and all(map(has_digits, words[first:last]))
        beside = any(0 <= near < len(runs) and runs[near][0] != "equal" for near in (index - 1, index + 1))
        changed = kind != "equal" or (numbers and beside)
        if changed and merged and merged[-1][0] == "replace":
            merged[-1][2], merged[-1][4] = last, own_last
        else:
            merged.append(["replace" if changed else kind, first, last, own_first, own_last])
    return [tuple(run) for run in merged]


def has_digits(word: str) -> bool:
    return any(character.isdigit() for character in word)


def same_number(read: str, written: str) -> bool:
    """Whether two words hold the same digits, or neither any ("2024" and "2024,", "juin" and "June")."""
    return [c for c in read if c.isdigit()] == [c for c in written if c.isdigit()]
