"""Target-vocabulary shortlist (Jean et al. 2015; Sockeye's and Marian's lexical shortlists): a
batch is decoded over a few thousand candidate pieces instead of the whole vocabulary, which
shrinks the output projection, its softmax and the search's candidate selection.

The candidates of a batch are the special pieces, the `frequent` most frequent target pieces, the
batch's source pieces themselves (the vocabulary is joint: names, numbers and paths are copied
through), and each source piece's likeliest translations from a lexical table learned on the
training data (export/lexicon.py, IBM Model 1). lexicon.npz holds frequent (F,) and
translations (V, K) int32, -1 padding the rows of pieces with fewer than K translations.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .constants import SPECIAL_TOKENS
from .manifest import ModelFolderError


class Shortlist:
    def __init__(self, frequent: np.ndarray, translations: np.ndarray):
        self.frequent = np.asarray(frequent, dtype=np.int64)
        self.translations = np.asarray(translations, dtype=np.int64)

    def candidates(self, sources: list[list[int]]) -> np.ndarray:
        """Sorted, distinct candidate ids (C,) for a batch of source id sequences."""
        source_ids = np.unique(np.concatenate([np.asarray(s, dtype=np.int64) for s in sources]))
        translated = self.translations[source_ids].ravel()
        found = np.concatenate([np.arange(len(SPECIAL_TOKENS)), self.frequent, source_ids, translated[translated >= 0]])
        return np.unique(found)

    @classmethod
    def load(cls, path: Path) -> Shortlist:
        try:
            with np.load(path, allow_pickle=False) as stored:
                return cls(stored["frequent"], stored["translations"])
        except (OSError, ValueError, KeyError) as error:
            raise ModelFolderError(f"{path}: cannot read the lexical shortlist ({error})") from None

    def save(self, path: Path) -> None:
        np.savez_compressed(path, frequent=self.frequent.astype(np.int32), translations=self.translations.astype(np.int32))
