"""An extractive summary: the sentences of a document that its generated summary drew on.

The summarizer's alignment says, for each summary word, how much attention it paid to each
document word it read (WordAlignment weights (T, S)); a sentence's salience is the attention its
words received in all, and the N most salient sentences are given in document order. Only what
the summarizer read counts: of a document longer than it reads (--max-source-pieces), the
salient sentences it was condensed to (runtime/condense.py), or the head of a document of one
long sentence, cut where the reading stopped.
"""

from __future__ import annotations

import numpy as np

from .alignment import WordAlignment
from .sentences import split_sentences


def sentence_salience(sentences: list[str], alignment: WordAlignment) -> np.ndarray:
    """The attention (summed over summary words) that each sentence's words received → (N,)."""
    received = alignment.weights.sum(axis=0) if alignment.weights.size else np.zeros(len(alignment.source_words))
    salience = np.zeros(len(sentences))
    start = 0
    for index, sentence in enumerate(sentences):
        end = start + len(sentence.split())
        salience[index] = float(received[start:end].sum())
        start = end
    return salience


def attended_sentences(alignment: WordAlignment, count: int, language: str = "en") -> list[str]:
    """The `count` sentences of what the summarizer read (the alignment's source words: a long
    document's head, or its salient sentences, runtime/condense.py) that the summary attended to
    most, in document order (ties by position)."""
    sentences = split_sentences(" ".join(alignment.source_words), language)
    salience = sentence_salience(sentences, alignment)
    chosen = sorted(range(len(sentences)), key=lambda index: (-salience[index], index))[:count]
    return [sentences[index] for index in sorted(chosen)]
