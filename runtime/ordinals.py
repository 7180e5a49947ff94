"""Ordinal numbers written with digits ("2nd", "21st"; French "2e", "1er", "XIXe") given in the
translation as the target language writes them.

The models kept the source's form, changed the number or lost its ending: "The 21st century began
in 2001." became "Le XVIème siècle …" (the sixteenth), "my 30th birthday" "mon 30th
anniversaire", "the 2nd floor" "der 2nd Stock"; from French "Il est arrivé 2e" stayed "2e". After
the search, the target word linked to a source ordinal that holds a number in another form or of
another value is written as the target writes that ordinal ("21e siècle", "30e", "2.", "2nd"),
where the model put it. Read in the target's form before the search, or set aside from it as
dates are into French, the models lost more: the noun after it ("Le sol 21e", "l'église … dans le
siècle 19e"; docs/studies/ORDINALS.md, `python -m benchmarks.ordinal_forms`). German's "2." is an
ordinal inside a sentence before a word (runtime/sentences.py no longer ends a sentence after one
that an article or a possessive opens: "Der 2. | Stock ist geschlossen." had been cut in two). Not an ordinal
joined to a word by a hyphen ("18th-century": an adjective the target writes otherwise), nor a
street's ("19th Street", "5th Ave") or a name's part ("21st Century Fox"), nor a date's day
("December 21st": "le 21 décembre").
"""

from __future__ import annotations

import re

from .alignment import WordAlignment
from .dates import MONTHS
from .roman import ROMAN, roman, roman_value
from .verbatim import EDGE_PUNCTUATION

# A street's word in small letters after its number ("40th street", "135th avenue"); one with a
# capital is a name's part (source_ordinals: "19th Street", "5th Ave.")
STREET = re.compile(r"(?:street|st|avenue|ave|road|rd|boulevard|blvd)\b")
# The endings French writes after the first's number and after the others' ("1er", "1re", "2e",
# "2ème"), and all of them as a pattern, the longest first
FIRST_ENDINGS = ("er", "re", "ère")
FEMININE_FIRST = ("re", "ère")
# The French words that tell a feminine noun follows ("la 1re fois", "sa 1re année"; "1er" otherwise)
FEMININE_BEFORE = frozenset({"la", "sa", "ma", "ta", "une", "cette"})
OTHER_ENDINGS = ("e", "ème", "eme")
FRENCH_ENDINGS = "|".join(sorted(FIRST_ENDINGS + OTHER_ENDINGS, key=len, reverse=True))
# An ordinal written with digits as each source language writes one, in a source word
ORDINALS = {
    "en": re.compile(r"(?<![\w.,/-])(?P<number>\d{1,4})(?:st|nd|rd|th)(?![\w-])"),
    "fr": re.compile(rf"(?<![\w.,/-])(?:(?P<number>\d{{1,4}})|(?P<roman>{ROMAN}))(?:{FRENCH_ENDINGS})(?![\w-])"),
    # a word of its digits and a point alone, which source_ordinals reads as an ordinal only
    # inside a sentence and before a word ("am 2. Platz"; "1. Öffnen", "im Jahr 2001." are none)
    "de": re.compile(r"^[(\"'„“«»]*(?P<number>\d{1,4})\.$"),
}
# Capitalized words that open a sentence before a French Roman ordinal ("Le Ve", "Au XIXe siècle"),
# not a ruler's name
BEFORE_CENTURIES = frozenset({"le", "la", "les", "au", "aux", "du", "des", "en", "dès", "depuis", "l'", "l’"})
# The directions whose translations have their ordinals so given
GIVEN = frozenset({("en", "fr"), ("en", "de"), ("fr", "en"), ("de", "en")})
# A target word's number that may stand for an ordinal: digits, maybe with any language's ordinal
# ending ("21", "21st", "21e", "21ème"; "16ième", misspelt), or a Roman number with a French one ("XVIème")
NUMBER_WRITTEN = re.compile(
    rf"(?<!\w)(?:(?P<number>\d{{1,4}})(?P<suffix>st|nd|rd|th|ième|{FRENCH_ENDINGS})?"
    rf"|(?P<roman>{ROMAN})(?P<roman_suffix>ième|{FRENCH_ENDINGS}))(?!\w)"
)


def ordinal(number: int, language: str, feminine: bool = False) -> str:
    """`number` as an ordinal in `language`'s digits: "21e" (French, "1er" for the first, "1re"
    `feminine`), "21." (German), "21st" (English)."""
    if language == "fr":
        return ("1re" if feminine else "1er") if number == 1 else f"{number}e"
    if language == "de":
        return f"{number}."
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


def value_of(found: re.Match) -> int:
    """The number of an ORDINALS or NUMBER_WRITTEN match, in digits or Roman."""
    return int(found["number"]) if found["number"] else roman_value(found["roman"])


def ordinals_given(alignment: WordAlignment, source: str, target: str) -> WordAlignment:
    """`alignment` (a translation from `source` into `target`, weights (T, S)) with each source
    ordinal (source_ordinals) given as `target` writes it (ordinal) where the target word linked to
    it (whose strongest source word it is, or its own most linked word) holds a number in another
    form or of another value ("XVIème siècle" for "21st century" → "21e siècle", "30th" → "30e",
    "21" → "21e"); right already ("21ème", "XXIe", "21."), no number there (the ordinal in words:
    "deuxième"), or the value of another of the source's numbers (its translation: "He finished
    2nd in 2019" → "… deuxième en 2019", whatever links the 2019), it stays. In the directions
    GIVEN; one word for one: the weights are unchanged."""
    if (source, target) not in GIVEN or alignment.weights.size == 0:
        return alignment
    words = list(alignment.target_words)
    given = source_ordinals(alignment.source_words, source)
    # the numbers of the source's other words: a number of one of those values is their translation
    others = {
        int(found)
        for index, word in enumerate(alignment.source_words)
        if index not in given
        for found in re.findall(r"\d{1,4}", word)
    } | set(given.values())
    for source_index, number in given.items():
        for index in alignment.linked_to(source_index):
            written = NUMBER_WRITTEN.search(words[index])
            if written is None:
                continue
            if value_of(written) != number and value_of(written) in others:
                break
            feminine = target == "fr" and index > 0 and words[index - 1].lower() in FEMININE_BEFORE
            if not written_right(written, number, target, words[index], feminine):
                after = words[index][written.end() :]
                if target != "de" and after[:1] == "." and index + 1 < len(words):  # German's point copied
                    after = after[1:]
                form = written_form(number, target, written, after, feminine)
                words[index] = words[index][: written.start()] + form + after
            break
    return WordAlignment(alignment.source_words, words, alignment.weights)


def source_ordinals(words: list[str], language: str) -> dict[int, int]:
    """The number of each word of `words` (a sentence of `language`) that is an ordinal written
    with digits (ORDINALS), by its index: not a street's ("40th avenue"), an English name's part
    (a capitalized word after it: "21st Century Fox", "19th Street"), a ruler's (a French Roman one
    after a name: "François Ier"), nor a date's day, which the target writes as a number ("December
    21st", "the 21st of December", "July the 22nd", "1er mai", "des 21. Dezembers": "le 21
    décembre", "December 1"); in German, neither the first word (a list's number: "1. Öffnen Sie
    …") nor one no word follows (a number ending a sentence)."""
    found = {}
    for index, word in enumerate(words):
        ordinal_found = ORDINALS[language].search(word)
        if ordinal_found is None:
            continue
        before = [month_word(word) for word in words[max(index - 2, 0) : index]]
        after = [month_word(word) for word in words[index + 1 : index + 3]]
        months = before[-1:] + after[:1]
        months += (before[:1] if before[1:] == ["the"] else []) + (after[1:] if after[:1] == ["of"] else [])
        following = words[index + 1] if index + 1 < len(words) else ""
        if STREET.match(following) or any(word in MONTHS or word.removesuffix("s") in MONTHS for word in months):
            continue
        if language == "en" and following[:1].isupper():  # a name's part: "21st Century Fox", "19th Street"
            continue
        previous = words[index - 1].strip(EDGE_PUNCTUATION) if index else ""
        if (
            ordinal_found.groupdict().get("roman")
            and previous[:1].isupper()
            and previous.lower() not in BEFORE_CENTURIES
        ):
            continue  # a ruler's number after the name: "François Ier", "Henri IVe"
        if language == "de" and (index == 0 or not following[:1].isalpha()):  # a list's number, a sentence's end
            continue
        found[index] = value_of(ordinal_found)
    return found


def month_word(word: str) -> str:
    """`word` as MONTHS is looked up, in small letters and without its punctuation; English "may"
    in small letters is a verb, no month ("the 2nd may be late")."""
    core = word.strip(EDGE_PUNCTUATION)
    return "" if core == "may" else core.lower()


def written_form(number: int, target: str, written: re.Match, after: str, feminine: bool = False) -> str:
    """`number`'s ordinal as `target` writes it, in place of `written` (a NUMBER_WRITTEN match in a
    target word, `after` the word's rest) and in its form where the target writes that: in Roman
    where the model wrote Roman into French ("XIème siècle" for "9th century" → "IXème siècle"),
    with its ending where that is one of the number's in the target ("ème"; "1ème" → "1er");
    German's point after the digits, but where the word's rest holds one ("21." for "21")."""
    if target == "de":
        return str(number) if after.startswith(".") else ordinal(number, "de")
    ending = written["suffix"] or written["roman_suffix"]
    if not right_ending(number, ending, target, feminine):
        ending = ordinal(number, target, feminine)[len(str(number)) :]
    return (roman(number) if written["roman"] and target == "fr" and number < 40 else str(number)) + ending


def right_ending(number: int, ending: str | None, target: str, feminine: bool = False) -> bool:
    """Whether `ending` ends `number`'s ordinal in `target` (English "21st", not "21th"; French
    "1er", "1re", "1ère" where `feminine`, "2e", "2ème")."""
    if target == "en":
        return ending == ordinal(number, "en")[len(str(number)) :]
    if target == "fr":
        return ending in ((FEMININE_FIRST if feminine else FIRST_ENDINGS) if number == 1 else OTHER_ENDINGS)
    return False


def written_right(written: re.Match, number: int, target: str, word: str, feminine: bool = False) -> bool:
    """Whether `written` (a NUMBER_WRITTEN match in target word `word`) is `number`'s ordinal as
    `target` writes it: its value, and the target's ending (German: a point after the digits;
    French's first, `feminine`: "1re")."""
    if value_of(written) != number:
        return False
    ending = written["suffix"] or written["roman_suffix"]
    if target == "de":
        return ending is None and word[written.end() : written.end() + 1] == "."
    return right_ending(number, ending, target, feminine)
