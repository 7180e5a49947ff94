"""A sentence in capitals ("THE FILE COULD NOT BE OPENED.") read in small letters and its
translation written in capitals. The models learned from text in ordinary case, and read
capitals as pieces they seldom saw: "DIE FÜCK ZINEN NICHT BE OPENED NICHT.", "HELLO, HEICH ARE
DUTE?". Read as a sentence is written (its first letter capital, the rest small), the same
sentences come out as the small-letter ones do; names and German nouns lose their capital, which
the written capitals do not show (`python -m benchmarks.capitals`, docs/studies/CAPITALS.md).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .alignment import WordAlignment

LEAST_WORDS = 2  # words of two letters or more: "OK", "USB" alone are names, not shouting
WORD = re.compile(r"[^\W\d_]{2,}")


def in_capitals(sentence: str) -> bool:
    """Whether every cased letter of `sentence` is a capital, in LEAST_WORDS words or more."""
    words = WORD.findall(sentence)
    return len(words) >= LEAST_WORDS and all(word.isupper() for word in words) and sentence.upper() == sentence


def as_written(sentence: str) -> str:
    """`sentence` in small letters, its first letter a capital."""
    small = sentence.lower()
    first = next((index for index, character in enumerate(small) if character.isalpha()), None)
    return small if first is None else small[:first] + small[first].upper() + small[first + 1 :]


def written_in_capitals(alignment: WordAlignment) -> WordAlignment:
    """`alignment` with its target words in capitals."""
    return replace(alignment, target_words=[word.upper() for word in alignment.target_words])
