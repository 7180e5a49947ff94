"""A sentence in capitals ("THE FILE COULD NOT BE OPENED.") read as a sentence is written and
its translation written in capitals. The models learned from text in ordinary case, and read
capitals as pieces they seldom saw: "DIE FÜCK ZINEN NICHT BE OPENED NICHT.", "HELLO, HEICH ARE
DUTE?". Each word is read in small letters or with its first letter a capital, whichever the
model's vocabulary holds in fewer pieces (the form it saw more often: "Datei", "Paris", but
"konnte"), the sentence's first letter a capital (`python -m benchmarks.capitals`,
docs/studies/CAPITALS.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from .alignment import WordAlignment
from .words import LETTERS_WORD

LEAST_WORDS = 2  # words of two letters or more: "OK", "USB" alone are names, not shouting


def in_capitals(sentence: str) -> bool:
    """Whether every cased letter of `sentence` is a capital, in LEAST_WORDS words or more."""
    words = LETTERS_WORD.findall(sentence)
    return len(words) >= LEAST_WORDS and all(word.isupper() for word in words) and sentence.upper() == sentence


def as_written(sentence: str, pieces: Callable[[str], int]) -> str:
    """`sentence` with each word in small letters, or with its first letter a capital, or its
    "ss" as "ß" (capitals write "ß" so), where that is fewer `pieces` (a word's count of the
    model's pieces, a space before it), and its first letter a capital."""

    def cased(word: re.Match) -> str:
        small = word.group()
        spellings = [small, small.replace("ss", "ß")] if "ss" in small else [small]  # "GRÖSSE": "Größe"
        forms = [form for spelling in spellings for form in (spelling, spelling[:1].upper() + spelling[1:])]
        return min(forms, key=pieces)  # the first of the fewest pieces: in small letters on a tie

    written = LETTERS_WORD.sub(cased, sentence.lower())
    first = next((index for index, character in enumerate(written) if character.isalpha()), None)
    return written if first is None else written[:first] + written[first].upper() + written[first + 1 :]


def written_in_capitals(alignment: WordAlignment) -> WordAlignment:
    """`alignment` with its target words in capitals."""
    return replace(alignment, target_words=[word.upper() for word in alignment.target_words])


def opened_as_source(alignment: WordAlignment) -> WordAlignment:
    """`alignment` with its translation's first word opening with a capital where its source's
    first word does ("Danke für deine Bestellung 😊" had become "thanks for your order 😊": the
    model writes small letters beside a placeholder); not where either opens with a digit ("3
    Katzen"). runtime/texts.py asks it of translations with a placeholder only: the de-en model
    writes chat in small letters as the chat corpus's English does, and capitalized everywhere, its
    outputs lost BLEU against those references."""
    source = next((word for word in alignment.source_words if any(c.isalnum() for c in word)), "")
    target = next((index for index, word in enumerate(alignment.target_words) if any(c.isalnum() for c in word)), None)
    if target is None or not first_alnum(source).isupper():
        return alignment
    word = alignment.target_words[target]
    at = next(index for index, character in enumerate(word) if character.isalnum())
    if not word[at].islower():
        return alignment
    words = list(alignment.target_words)
    words[target] = word[:at] + word[at].upper() + word[at + 1 :]
    return replace(alignment, target_words=words)


def first_alnum(word: str) -> str:
    """The first letter or digit of `word` ("" for none)."""
    return next((character for character in word if character.isalnum()), "")
