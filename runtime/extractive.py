"""An extractive summary: the sentences of a document that its generated summary drew on.

The summarizer's alignment says, for each summary word, how much attention it paid to each
document word it read (WordAlignment weights (T, S)); a sentence's salience is the attention its
words received in all, and the N most salient sentences are given in document order. Only what
the summarizer read counts: of a document longer than it reads (--max-source-pieces), the
salient sentences it was condensed to (runtime/condense.py), or the head of a document of one
long sentence, cut where the reading stopped.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from .alignment import WordAlignment
from .sentences import document_sentences, split_sentences

if TYPE_CHECKING:
    from .translation import Translation

# How many sentences a summary is by default, in `attn summarize`, `attn serve` and the Python API
# (docs/studies/SUMMARY-FORMS.md)
DEFAULT_SENTENCES = 2
MOST_SENTENCES = 100  # the most that may be asked for


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


FRAGMENT_WORDS = 4  # a sentence of fewer words is a fragment: chosen after every other


def attended_sentences(
    alignment: WordAlignment, count: int, language: str = "en", sentences: list[str] | None = None
) -> list[str]:
    """The `count` sentences of what the summarizer read (the alignment's source words: a long
    document's head, or its salient sentences, runtime/condense.py) that the summary attended to
    most, in document order (ties by position); a fragment only when nothing else is chosen. `sentences`, the document's own
    (runtime/sentences.py document_sentences), say where the words read break into sentences;
    without them, the words read are split again."""
    read = alignment.source_words
    found = sentences_read(sentences, read) if sentences is not None else None
    if found is None:
        found = split_sentences(" ".join(read), language)
    salience = sentence_salience(found, alignment)
    # a greeting, a sign-off or a name says nothing of the document: chosen only if nothing else is
    fragment = [len(sentence.split()) < FRAGMENT_WORDS for sentence in found]
    ranked = sorted(range(len(found)), key=lambda index: (fragment[index], -salience[index], index))
    chosen: list[int] = []
    for index in ranked:  # a sentence that refers back ("It was reported …") with the one before it
        if len(chosen) == count:
            break
        if index in chosen:  # taken already, before one that referred back to it
            continue
        before = index - 1  # the sentence it refers to; a greeting or a title is none
        if refers_back(found[index], language) and before >= 0 and before not in chosen and not fragment[before]:
            if len(chosen) + 2 > count:
                continue
            chosen.append(before)
        chosen.append(index)
    chosen += [index for index in ranked if index not in chosen][: count - len(chosen)]
    if not all(fragment[index] for index in chosen):
        chosen = [index for index in chosen if not fragment[index]]
    return [found[index] for index in sorted(chosen)]


# Words that open a sentence by referring back to the one before it
BACK_REFERENCES = {"en": frozenset("it its this that these those they their them he his she her such".split())}


def refers_back(sentence: str, language: str) -> bool:
    """Whether `sentence` opens with a word that refers back to the sentence before it."""
    words = sentence.split()
    first = re.split(r"['’]", words[0].strip("\"'“‘(").lower())[0] if words else ""  # "It's", "That's"
    return first in BACK_REFERENCES.get(language, ())


def summary_sentences(document: str, headline: Translation, count: int, language: str) -> list[str]:
    """The `count` sentences of `document` its generated `headline` drew on most, in document order
    (none when there was nothing to summarize: punctuation alone)."""
    if not headline.text:
        return []
    return attended_sentences(headline.alignment, count, language, document_sentences(document, language))


def sentences_read(sentences: list[str], read: list[str]) -> list[str] | None:
    """Of a document's sentences, in order, those whose words the summarizer read: whole ones
    (condensing keeps whole sentences in document order), the last one cut where a head ends;
    None when the words read are not made so. Every way through is followed, so that a sentence
    is passed over where taking it would leave the rest unmatched ("John" before "John said …")."""
    reached: dict[int, tuple[str, ...]] = {0: ()}  # words read so far → the sentences that read them
    for sentence in sentences:
        words = sentence.split()
        for position, taken in list(reached.items()):
            end = position + len(words)
            if read[position:end] == words:
                reached.setdefault(end, (*taken, sentence))
            elif position < len(read) and read[position:] == words[: len(read) - position]:
                reached.setdefault(len(read), (*taken, " ".join(read[position:])))
    found = reached.get(len(read))
    return None if found is None else list(found)
