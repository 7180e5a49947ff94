"""Target-vocabulary shortlist (Jean et al. 2015; Sockeye's and Marian's lexical shortlists): a
batch is decoded over a few thousand candidate pieces instead of the whole vocabulary, which
shrinks the output projection, its softmax and the search's candidate selection.

A sentence's candidates are the special pieces, the `frequent` most frequent target pieces, its
source pieces themselves (the vocabulary is joint: names, numbers and paths are copied through),
and each source piece's likeliest translations from a lexical table learned on the training data
(export/graphs/lexicon.py, IBM Model 1). The decoder scores the union over the batch; each sentence then
keeps to its own candidates, renormalized, so that it translates the same in any batch as alone
(with the union alone, a sentence's output would depend on its neighbours in the batch).
In a model of several directions each target language has its own frequent pieces, chosen by the
language token that opens the source: one list over both languages covers less of each (en-fr,
1,000 pieces: 69.5 % of the French dev targets' pieces, against 74.4 % for French's own list;
docs/studies/SHORTLIST-PER-LANGUAGE.md).
lexicon.npz holds frequent (F,) and translations (V, K) int32, -1 padding the rows of pieces with
fewer than K translations, and for several directions language_tokens (L,) and
language_frequent (L, F), -1 padding."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .constants import SPECIAL_TOKENS
from .manifest import ModelFolderError, check_npz


def distinct(ids: np.ndarray) -> np.ndarray:
    """The sorted distinct values of ids (n,): np.unique's answer without its first call's import
    of numpy.ma (about 10 ms of every cold start)."""
    ordered = np.sort(ids)
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


class Shortlist:
    def __init__(
        self, frequent: np.ndarray, translations: np.ndarray, language_frequent: dict[int, np.ndarray] | None = None
    ):
        """language_frequent: a language token's id → the frequent pieces of its language, which
        replace `frequent` for a source opening with that token."""
        self.frequent = np.asarray(frequent, dtype=np.int64)
        self.translations = np.asarray(translations, dtype=np.int64)
        self.language_frequent = {
            int(token): np.asarray(ids, dtype=np.int64) for token, ids in (language_frequent or {}).items()
        }

    def candidates(self, sources: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """For a batch of source id sequences: the sorted, distinct ids (C,) of all their
        candidates, and allowed (B, C), which of them are each sentence's own. The decoder scores
        the C; search keeps each sentence to its own, renormalized (`restrict`), so that a
        sentence decodes the same in any batch as alone."""
        own = [self._own(source) for source in sources]
        vocabulary = distinct(np.concatenate(own))
        allowed = np.zeros((len(sources), len(vocabulary)), dtype=bool)
        for row, ids in enumerate(own):
            allowed[row, np.searchsorted(vocabulary, ids)] = True
        return vocabulary, allowed

    def _own(self, source: list[int]) -> np.ndarray:
        source_ids = distinct(np.asarray(source, dtype=np.int64))
        translated = self.translations[source_ids].ravel()
        frequent = self.language_frequent.get(source[0], self.frequent) if len(source) else self.frequent
        return np.concatenate([np.arange(len(SPECIAL_TOKENS)), frequent, source_ids, translated[translated >= 0]])

    @staticmethod
    def restrict(log_probs: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        """log_probs (N, C) over the batch's candidates → over each row's own (allowed (N, C)):
        the others -inf, the rest renormalized, as if the row's sentence were decoded alone."""
        kept = np.where(allowed, log_probs, -np.inf)
        return kept - np.log(np.exp(kept).sum(axis=1, keepdims=True))

    @classmethod
    def load(cls, path: Path, vocab_size: int) -> Shortlist:
        """The shortlist of a model of `vocab_size` pieces; ids out of range are refused."""
        check_npz(path, "the lexical shortlist")
        try:
            with np.load(path, allow_pickle=False) as stored:
                frequent, translations = stored["frequent"], stored["translations"]
                tokens = stored.get("language_tokens", np.zeros(0, np.int32))
                by_language = stored.get("language_frequent", np.zeros((0, 0), np.int32))
        except Exception as error:  # numpy's npz reader raises many kinds on damaged bytes (SyntaxError, TokenError, …)
            raise ModelFolderError(f"{path}: cannot read the lexical shortlist ({error})") from None
        integer = frequent.dtype.kind in "iu" and translations.dtype.kind in "iu"
        if not integer or frequent.ndim != 1 or translations.ndim != 2 or len(translations) != vocab_size:
            raise ModelFolderError(f"{path}: expected frequent (F,) and translations ({vocab_size}, K) of integers")
        if (
            tokens.dtype.kind not in "iu"
            or by_language.dtype.kind not in "iu"
            or tokens.ndim != 1
            or by_language.ndim != 2
            or len(by_language) != len(tokens)
        ):
            raise ModelFolderError(f"{path}: expected language_tokens (L,) and language_frequent (L, F) of integers")
        if (
            frequent.size
            and not (0 <= frequent.min() and frequent.max() < vocab_size)
            or translations.size
            and not (-1 <= translations.min() and translations.max() < vocab_size)
            or tokens.size
            and not (0 <= tokens.min() and tokens.max() < vocab_size)
            or by_language.size
            and not (-1 <= by_language.min() and by_language.max() < vocab_size)
        ):
            raise ModelFolderError(f"{path}: piece ids outside the vocabulary of {vocab_size}")
        return cls(frequent, translations, {token: row[row >= 0] for token, row in zip(tokens, by_language)})

    def save(self, path: Path) -> None:
        arrays = {"frequent": self.frequent.astype(np.int32), "translations": self.translations.astype(np.int32)}
        if self.language_frequent:
            width = max(len(ids) for ids in self.language_frequent.values())
            arrays["language_tokens"] = np.array(list(self.language_frequent), dtype=np.int32)
            arrays["language_frequent"] = np.array(
                [np.pad(ids, (0, width - len(ids)), constant_values=-1) for ids in self.language_frequent.values()],
                dtype=np.int32,
            )
        np.savez_compressed(path, **arrays)
