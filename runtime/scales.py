"""The words of a large number's scale ("million", "Milliarde", "milliard") given as the target
language counts them.

English "billion" is a thousand million, German "Billion" and French "billion" a million
million; a thousand million is German "Milliarde", French "milliard". The models wrote one for the
other: on the dev rows, 17 of 61 French scale words and 11 of 59 English ones into French came
out of another value or as written ("2,8 milliards d'euros" → "2.8 million d'euros", "$3 billion"
→ "3 billions de dollars", which a French reader takes for three million million).
After the search, the target word linked to a source's scale word that is a scale word of
another value in the target language, or the source's word left as it was, becomes the target's
word of the source's value (docs/studies/SCALES.md, `python -m benchmarks.dev_readings --rule
scales`).
"""

from __future__ import annotations

import re

from .alignment import WordAlignment
from .verbatim import EDGE_PUNCTUATION

# How each language writes a scale word, by the power of ten it stands for: (one, more than one);
# English after a number writes one; 10^15 too, which the en→fr model wrote for "billion" ("112 $
# billiard")
WRITTEN = {
    "en": {
        6: ("million", "millions"),
        9: ("billion", "billions"),
        12: ("trillion", "trillions"),
        15: ("quadrillion", "quadrillions"),
    },
    "de": {
        6: ("Million", "Millionen"),
        9: ("Milliarde", "Milliarden"),
        12: ("Billion", "Billionen"),
        15: ("Billiarde", "Billiarden"),
    },
    "fr": {
        6: ("million", "millions"),
        9: ("milliard", "milliards"),
        12: ("billion", "billions"),
        15: ("billiard", "billiards"),
    },
}
ABBREVIATED = {"de": {"mio": 6, "mrd": 9}}  # without their point
# Each language's scale words, in small letters, and the power of ten they stand for
SCALES = {
    language: {form.lower(): value for value, forms in written.items() for form in forms}
    | ABBREVIATED.get(language, {})
    for language, written in WRITTEN.items()
}
EDGES = EDGE_PUNCTUATION.replace(".", "")  # a scale word's point is its abbreviation's ("Mrd.") or the sentence's
CURRENCY_SIGNS = "$€£¥"  # before a number of a scale ("$3 billion")
NUMBER = re.compile(r"\d+(?:[.,\u202f\u00a0]\d+)*")  # a number written before a scale word
# A scale's number in words: one, and some of two or more ("two billion", "deux milliards", "mehrere Milliarden")
WORD_NUMBERS = {word: 1 for word in "one a an ein eine einer un une".split()} | {
    word: 2
    for word in "two three four five six seven eight nine ten several some few deux trois quatre cinq six sept "
    "huit neuf dix plusieurs quelques zwei drei vier fünf sechs sieben acht neun zehn mehrere einige".split()
}
PLURALS = frozenset(several.lower() for forms in WRITTEN.values() for _, several in forms.values())


def core(word: str) -> str:
    """A word without its punctuation around it nor an abbreviation's point, in small letters."""
    return word.strip(EDGES).rstrip(".").lower()


def scales_given(alignment: WordAlignment, source: str, target: str) -> WordAlignment:
    """`alignment` (a translation from `source` into `target`, weights (T, S)) with the target word
    linked to each of the source's scale words (whose strongest source word it is, or its most
    linked word) written as `target` writes the source's value (WRITTEN) where it is a scale word
    of another value in `target` (not that of another of the source's scale words, nor one another
    took: "2 million and 3 billion"), or the source's word untranslated; its punctuation kept.
    Several (plural) after a number that is not one, and where the model wrote several without
    one; English one after a number ("2.8 billion"; a word of the right value in the wrong number
    too: "two billions people" → "two billion"). One word for one: the weights are unchanged."""
    if source not in SCALES or target not in SCALES or alignment.weights.size == 0:
        return alignment
    words = list(alignment.target_words)
    values = {index: SCALES[source].get(core(word)) for index, word in enumerate(alignment.source_words)}
    values = {index: value for index, value in values.items() if value is not None}
    claimed: set[int] = set()  # target words a source scale word took: each is one's translation
    for source_index, value in values.items():
        for index in alignment.linked_to(source_index):
            written = core(words[index])
            if index in claimed or (written not in SCALES[target] and written not in SCALES[source]):
                continue
            claimed.add(index)
            found = SCALES[target].get(written)
            if found == value or found not in values.values():  # another's value: that one's translation
                words[index] = rewritten(words, index, WRITTEN[target][value], target)
            break
    return WordAlignment(alignment.source_words, words, alignment.weights)


def rewritten(words: list[str], index: int, forms: tuple[str, str], target: str) -> str:
    """`words[index]`, a scale word, as one of `forms` (one, several): several after a number
    (number_before, a currency's sign between them aside) of two or more into French, other than one into German, never into English;
    without a number, as many as the model wrote. Its punctuation kept, and its capital where it
    opens the sentence, but for an abbreviation's point inside the sentence ("Mrd. Euro" → "billion
    euros")."""
    word = words[index]
    start, end = len(word) - len(word.lstrip(EDGES)), len(word.rstrip(EDGES))
    point = "." if word[start:end].endswith(".") and index + 1 == len(words) else ""
    before = index - 1
    if before > 0 and len(words[before]) == 1 and words[before] in CURRENCY_SIGNS:  # "112 $ billiard"
        before -= 1
    number = number_before(words[before]) if before >= 0 else None
    if number is None:
        several = core(word) in PLURALS
    else:
        several = {"en": False, "fr": number >= 2}.get(target, number != 1)
    written = forms[several]
    if target != "de" and index == 0 and word[start : start + 1].isupper():  # "Billions of …" → "Milliards de …"
        written = written[:1].upper() + written[1:]
    return word[:start] + written + point + word[end:]


def number_before(word: str) -> float | None:
    """The value of `word` where it is a number ("2,8", "1.5", "$3", "12,500", "un", "eine"; 2 for
    one of two or more in words, "deux", "several"), None otherwise; a decimal part has one or two
    digits ("2.000" is two thousand)."""
    word = word.strip(EDGES + CURRENCY_SIGNS)
    if word.lower() in WORD_NUMBERS:
        return float(WORD_NUMBERS[word.lower()])
    if not NUMBER.fullmatch(word):
        return None
    digits = re.sub(r"[\u202f\u00a0]", "", word)
    decimal = re.search(r"[.,](\d{1,2})$", digits)
    whole = digits[: decimal.start()] if decimal else digits
    return float(re.sub(r"\D", "", whole) + "." + (decimal[1] if decimal else "0"))
