"""A sentence's first word that its translation copied as it was, though it is a word, not a name.

The models took a capitalized word they were unsure of for a name and copied it, most often the
first word of a sentence, which every sentence writes with a capital: "Speed, the number of images
per second, is also very important." → "Speed, die Anzahl von Bildern pro Sekunde …", "Diet" →
"Diet", "Available in three colours." → "Available en trois couleurs." In small letters the same
sentences came out translated ("Geschwindigkeit, …", "Diät", "Disponible en …"). A first word is
taken for a word, not a name, where the model's vocabulary holds it whole in small letters (one
piece: a word its training text wrote so often) and no capitalized word follows it ("Ben
Affleck"); runtime/second_searches.py searches such a sentence again with that word in small letters and
takes the translation that no longer opens with the copy and leaves out no more source words
(docs/studies/OPENING-WORDS.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# A text's first word (its first run of letters, after what opens it) and the first character of
# the word after it
FIRST_WORD = re.compile(r"^[^\w]*(?P<word>[^\W\d_]+)(?:\S*\s+(?P<next>\S))?")
LEAST_LETTERS = 3  # "An", "Le" are seldom copied, and seldom a name's


def first_word(text: str) -> str | None:
    """The first word of `text` (its first run of letters, after what opens it), or None."""
    found = FIRST_WORD.match(text)
    return found["word"] if found else None


def copied_opener(sentence: str, translation: str, pieces: Callable[[str], int]) -> str | None:
    """The first word of `sentence` where `translation` opens with it as written, and it is a
    word, not a name (module docstring; `pieces`: how many pieces the model reads for a word);
    None otherwise."""
    found = FIRST_WORD.match(sentence)
    if found is None:
        return None
    word = found["word"]
    if (
        len(word) < LEAST_LETTERS
        or not word[0].isupper()
        or word.isupper()
        or first_word(translation) != word
        or (found["next"] or "").isupper()
        or pieces(word.lower()) != 1
    ):
        return None
    return word


def lowered_opener(sentence: str) -> str:
    """`sentence` with the first letter of its first word in small letters."""
    found = FIRST_WORD.match(sentence)
    at = found.start("word")
    return sentence[:at] + sentence[at].lower() + sentence[at + 1 :]


def opens_otherwise(word: str, translation: str) -> int:
    """1 where `translation` does not open with `word` (the copy), 0 where it does."""
    return int(first_word(translation) != word)
