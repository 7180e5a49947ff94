"""Ordinal numbers written with digits ("2nd", "21st"; French "2e", "1er", "XIXe") read as the
target language writes them, and set aside from the search where that was measured to help.

The models kept the source's form or lost the number: "He is in his 2nd year and finished 21st."
stayed "2nd" and "21st" in French, "The 21st century began in 2001." became "Le XVIème siècle …"
(the sixteenth), "my 30th birthday" "mon trente anniversaire"; from French, "au XIXe siècle" and "2e"
stayed as written in English. Read in the target's form ("21e", "21.", "21st") and set aside
(READ_APART), the number is copied whole; docs/studies/ORDINALS.md, `python -m
benchmarks.ordinal_forms`. Not an ordinal joined to a word by a hyphen ("18th-century": an
adjective the target writes otherwise), nor a street's ("19th Street", "5th Ave": a name), nor a
date's (runtime/dates.py reads those first).
"""

from __future__ import annotations

import re

import numpy as np

from .alignment import WordAlignment

# A street's word after its number: "19th Street", "135th Avenue", "5th Ave." are names
STREET = r"(?!\s+(?:Street|St\b|Avenue|Ave\b|Road|Rd\b|Boulevard|Blvd\b|Drive|Dr\b|Lane|Ln\b|Place|Pl\b))"
# A Roman number up to 39 (a century's, a king's: "XIXe", "XVIIIe", "Ve"), never a word's letters
ROMAN = r"X{0,3}(?:IX|IV|VI{0,3}|I{1,3})|X{1,3}"
ORDINALS = {
    "en": re.compile(rf"(?<![\w.,/-])(?P<number>\d{{1,4}})(?:st|nd|rd|th)(?![\w-]){STREET}"),
    "fr": re.compile(
        rf"(?<![\w.,/-])(?:(?P<number>\d{{1,4}})|(?P<roman>{ROMAN}))(?P<suffix>ème|eme|ère|er|re|e)(?![\w-])"
    ),
}
ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}
# The directions whose ordinals are read in the target's form, and those whose read ordinals are
# set aside from the search (the model copies the placeholder where it had lost or changed them)
READ = frozenset({("en", "fr"), ("en", "de"), ("fr", "en")})
READ_APART = frozenset({("en", "fr"), ("fr", "en")})
# An ordinal as ordinal writes it into each language READ_APART sets them aside in (German's "21."
# is no different from a number ending a sentence)
WRITTEN = {
    "fr": re.compile(r"(?<![\w.,/-])\d{1,4}(?:er|e)(?![\w-])"),
    "en": re.compile(r"(?<![\w.,/-])\d{1,4}(?:st|nd|rd|th)(?![\w-])"),
}


def ordinal(number: int, language: str) -> str:
    """`number` as an ordinal in `language`'s digits: "21e" (French, "1er" for the first), "21."
    (German), "21st" (English)."""
    if language == "fr":
        return "1er" if number == 1 else f"{number}e"
    if language == "de":
        return f"{number}."
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


def roman_value(numeral: str) -> int:
    """The value of a Roman number of ROMAN ("XIX" → 19)."""
    values = [ROMAN_VALUES[letter] for letter in numeral]
    return sum(-value if value < after else value for value, after in zip(values, values[1:] + [0]))


def read_ordinals(sentence: str, source: str, target: str) -> str:
    """`sentence` with each ordinal written with digits (ORDINALS) as `target` writes it
    (ordinal), in the directions READ reads; as it is otherwise. A French Roman one is read in
    digits ("au XIXe siècle" → "au 19th siècle")."""
    if (source, target) not in READ:
        return sentence

    def written(found: re.Match) -> str:
        number = int(found["number"]) if found["number"] else roman_value(found["roman"])
        if target == "de" and sentence[found.end() : found.end() + 1] == ".":  # "finished 21st." → "21."
            return str(number)
        return ordinal(number, target)

    return ORDINALS[source].sub(written, sentence)


def ordinal_spans(text: str, source: str, target: str) -> list[tuple[int, int]]:
    """(start, end) of each ordinal that read_ordinals wrote in `text`, a sentence of `source` as
    read, where the direction sets them aside (READ_APART)."""
    if (source, target) not in READ_APART:
        return []
    return [found.span() for found in WRITTEN[target].finditer(text)]


# A target word's number that may stand for an ordinal: digits, maybe with any language's ordinal
# ending ("21", "21st", "21e", "21ème"), or a Roman number with a French one ("XVIème")
NUMBER_WRITTEN = re.compile(
    rf"(?<!\w)(?:(?P<number>\d{{1,4}})(?P<suffix>st|nd|rd|th|ème|eme|ère|er|re|e)?|(?P<roman>{ROMAN})(?P<roman_suffix>ème|eme|e|er))(?!\w)"
)
# The endings each target language writes after an ordinal's digits (German its point, which
# ordinal writes)
ENDINGS = {"fr": ("e", "ème", "er", "re", "ère"), "en": ("st", "nd", "rd", "th")}


def ordinals_written(alignment: WordAlignment, source: str, target: str) -> WordAlignment:
    """`alignment` (a translation from `source` into `target`, weights (T, S)) with each source
    ordinal (ORDINALS: "21st", "XIXe") given as `target` writes it (ordinal) where the target word
    linked to it (its strongest source word is the ordinal, or the ordinal's most linked word) holds a
    number in another form or of another value ("XVIème siècle" for "21st century" → "21e siècle",
    "30th" → "30e", "21" → "21e"); right already ("21ème", "XXIe", "21."), or no number there (a word:
    "deuxième"), it stays. One word for one: the weights are unchanged."""
    if (source, target) not in READ or alignment.weights.size == 0:
        return alignment
    words = list(alignment.target_words)
    strongest = np.argmax(alignment.weights, axis=1)  # (T,): each target word's source word
    most_linked = np.argmax(alignment.weights, axis=0)  # (S,): each source word's target word
    for source_index, source_word in enumerate(alignment.source_words):
        found = ORDINALS[source].search(source_word)
        if found is None:
            continue
        number = int(found["number"]) if found["number"] else roman_value(found["roman"])
        linked = [index for index in range(len(words)) if strongest[index] == source_index]
        for index in sorted(set(linked) | {int(most_linked[source_index])}):
            written = NUMBER_WRITTEN.search(words[index])
            if written is None:
                continue
            if not written_right(written, number, target, words[index]):
                after = words[index][written.end() :]
                form = str(number) if target == "de" and after.startswith(".") else ordinal(number, target)
                words[index] = words[index][: written.start()] + form + after
            break
    return WordAlignment(alignment.source_words, words, alignment.weights)


def written_right(written: re.Match, number: int, target: str, word: str) -> bool:
    """Whether `written` (a NUMBER_WRITTEN match in target word `word`) is `number`'s ordinal as
    `target` writes it: its value, and the target's ending (German: a point after the digits)."""
    value = int(written["number"]) if written["number"] else roman_value(written["roman"])
    if value != number:
        return False
    ending = written["suffix"] or written["roman_suffix"]
    if target == "de":
        return ending is None and word[written.end() : written.end() + 1] == "."
    if target == "en":
        return ending == ordinal(number, "en")[len(str(number)) :]
    return ending in ENDINGS.get(target, ())
