"""An extractive summary: the sentences of a document that its generated summary drew on.

The summarizer's alignment says, for each summary word, how much attention it paid to each
document word it read (WordAlignment weights (T, S)); a sentence's salience is the attention its
words received in all, and the N most salient sentences are given in document order. Only what
the summarizer read counts: a sentence beyond the head it reads (--max-source-pieces) is never
chosen, and one that runs past it (an unpunctuated text is one long sentence) is cut where the
reading stopped, so the summary stays within what the model saw.
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


def attended_sentences(document: str, alignment: WordAlignment, count: int, language: str = "en") -> list[str]:
    """The `count` sentences of `document` whose words the summary attended to most, in document
    order (ties by position), of the words the summarizer read."""
    read = len(alignment.source_words)
    sentences, start = [], 0
    for sentence in split_sentences(document, language):
        words = sentence.split()
        if start < read:
            sentences.append(sentence if start + len(words) <= read else " ".join(words[: read - start]))
        start += len(words)
    salience = sentence_salience(sentences, alignment)
    chosen = sorted(range(len(sentences)), key=lambda index: (-salience[index], index))[:count]
    return [sentences[index] for index in sorted(chosen)]
