"""A word a translation writes twice or more in a row where its source doubles none, written once:
"3,2 Millionen Euro Euro Euro." → "3,2 Millionen Euro.", "still still" → "still".

The models stutter on a word they are unsure how to go on from (one piece predicted again), and a
block of repeated piece n-grams does not reach a word of one piece (docs/studies/NO-REPEAT-NGRAM.md).
A word of fewer than LEAST_LETTERS letters is left doubled, and the longer ones of RIGHTLY_DOUBLED:
German, French and English write such doubles right ("die die Zeitung liest", "nous nous sommes",
"had had", "that that"); so is a number ("10 10", a score). Measured on the dev files: `python -m benchmarks.doubled_words`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .alignment import WordAlignment

LEAST_LETTERS = 4
RIGHTLY_DOUBLED = frozenset({"nous", "vous", "that"})
CORE = re.compile(r"^\W*(.*?)\W*$")  # a word without the punctuation at its edges


def _core(word: str) -> str:
    return CORE.match(word).group(1).lower()


def doubles(words: list[str]) -> list[int]:
    """The indexes of `words` whose next word is the same word (its core, in small letters, of
    LEAST_LETTERS letters or more) with nothing after it but what the next one has: the first of
    each such pair ("Euro" of "Euro Euro."), none after a word that ends with punctuation."""
    found = []
    for index in range(len(words) - 1):
        word, following = words[index], words[index + 1]
        core = _core(word)
        doubled = core == _core(following) and core not in RIGHTLY_DOUBLED
        if doubled and len(core) >= LEAST_LETTERS and core.isalpha() and word[-1].isalpha():
            found.append(index)
    return found


def source_doubles(words: list[str]) -> bool:
    """Whether `words` (a source's) write a word twice in a row, of any length ("no no no")."""
    return any(_core(word) and _core(word) == _core(following) for word, following in zip(words, words[1:]))


def undoubled(alignment: WordAlignment) -> WordAlignment:
    """`alignment` (weights (T, S)) with each word it doubles written once where its source words
    double none (doubles; source_doubles): the pair one word, as the first is written (its capital) with the
    punctuation after the second ("Euro Euro." → "Euro."), its row of the weights the mean of
    theirs, so (T − joined, S)."""
    words = list(alignment.target_words)
    joined = doubles(words)
    if not joined or source_doubles(list(alignment.source_words)):
        return alignment
    weights = alignment.weights.copy()
    for index in reversed(joined):
        following = words[index + 1]
        words[index] += following[CORE.match(following).end(1) :]
        weights[index] = (weights[index] + weights[index + 1]) / 2
        del words[index + 1]
        weights = weights[[row for row in range(len(weights)) if row != index + 1]]
    return replace(alignment, target_words=words, weights=weights)
