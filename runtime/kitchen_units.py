"""Spoons of a recipe ("2 EL", "1 tsp", "2 c. à soupe") read as the target writes them and set aside.

Each language abbreviates the spoons its recipes measure in its own way (German "EL", "TL";
English "tbsp", "tsp"; French "c. à soupe", "c. à café"), and the shipped models, which learned
few recipes, left them as written or lost them: "2 EL Zucker und 1 TL Salz hinzufügen." → "2 EL
sugar and 1 TL salt.", "Ajoutez 2 c. à soupe de sucre" → "Add 2 c. to sugar", "Add 2 tbsp sugar
and 1 tsp salt." → "Ajoutez 2 de sucre de tbsp et 1 tsp.". A number and a spoon (SPOONS: the
abbreviations and the words, singular and plural) is read with the target's abbreviation (WRITTEN)
and its number as the target writes numbers ("1,5 EL" → "1.5 tbsp"), then set aside from the search
(runtime/set_aside.py: the model copies its placeholder). Chosen on sentences of our own (`python
-m benchmarks.kitchen_units`).
"""

from __future__ import annotations

import re

from .verbatim import NUMBER_MARKS

TABLESPOON, TEASPOON = "tablespoon", "teaspoon"
# Each language's ways of writing each spoon, the longer first
SPOONS = {
    "de": {
        TABLESPOON: ["Esslöffel", "Eßlöffel", "Essl.", "Eßl.", "EL"],
        TEASPOON: ["Teelöffel", "Teel.", "TL"],
    },
    "en": {
        TABLESPOON: ["tablespoons", "tablespoon", "Tbsp.", "tbsp.", "Tbsp", "tbsp", "tbs."],
        TEASPOON: ["teaspoons", "teaspoon", "tsp.", "tsp"],
    },
    "fr": {
        TABLESPOON: [
            "cuillères à soupe",
            "cuillère à soupe",
            "cuil. à soupe",
            "c. à soupe",
            "c. à s.",
            "c.à.s.",
            "c.à.s",
        ],
        TEASPOON: ["cuillères à café", "cuillère à café", "cuil. à café", "c. à café", "c. à c.", "c.à.c.", "c.à.c"],
    },
}
WRITTEN = {"de": {TABLESPOON: "EL", TEASPOON: "TL"}, "en": {TABLESPOON: "tbsp", TEASPOON: "tsp"}}
WRITTEN["fr"] = {TABLESPOON: "c. à soupe", TEASPOON: "c. à café"}
# A number of spoons: a whole or decimal number, a fraction ("1/2", "½"), a range ("2-3")
AMOUNT = r"\d+(?:[.,]\d+)?(?:\s?[-–]\s?\d+(?:[.,]\d+)?)?|\d+/\d+|[½¼¾⅓⅔]"


def _spoon_pattern(language: str) -> re.Pattern:
    forms = sorted(
        ((form, spoon) for spoon, written in SPOONS[language].items() for form in written),
        key=lambda pair: -len(pair[0]),
    )
    alternatives = "|".join(re.escape(form) for form, _ in forms)
    return re.compile(rf"(?<![\w.,/])(?P<amount>{AMOUNT})[ \u00a0]?(?P<spoon>{alternatives})(?!\w)")


MEASURES = {language: _spoon_pattern(language) for language in SPOONS}
SPOON_OF = {
    language: {form: spoon for spoon, forms in SPOONS[language].items() for form in forms} for language in SPOONS
}


# A number of spoons as read_spoons writes it in each target ("2 tbsp")
READ_MEASURES = {
    target: re.compile(rf"(?<![\w.,/])(?:{AMOUNT}) (?:{'|'.join(re.escape(form) for form in written.values())})(?!\w)")
    for target, written in WRITTEN.items()
}


def _amount_written(amount: str, source: str, target: str) -> str:
    """`amount` with a decimal mark as `target` writes it ("1,5" into English: "1.5")."""
    decimal, wanted = NUMBER_MARKS[source][1], NUMBER_MARKS[target][1]
    return re.sub(rf"(?<=\d){re.escape(decimal)}(?=\d)", wanted, amount)


# The word that joins a spoon to its ingredient where the target writes one and the source need not
# ("2 c. à soupe de sucre" for "2 tbsp sugar"): read with the source's own ("2 tbsp of sugar"), the
# model wrote "de"; without it, it lost the ingredient ("{0} sugar" → "{0}") or left it in English
JOINED_BY = {("en", "fr"): "of"}
# What follows a spoon without being its ingredient ("2 tbsp to the pan", "1 tsp or 2 tbsp", "each")
NOT_INGREDIENTS = {
    "en": frozenset(
        "of to with or and each in into on onto per for at a an the then more less plus from over "
        "is are was were will should can must".split()
    )
}


def read_spoons(sentence: str, source: str, target: str) -> str:
    """`sentence` with each number of spoons (MEASURES) read with the target's abbreviation
    (WRITTEN: "2 EL" into English "2 tbsp"), joined to the word after it (in small letters, not one
    of NOT_INGREDIENTS) by JOINED_BY's word where the target writes one; as it is between languages
    SPOONS lacks."""
    if source == target or source not in MEASURES or target not in WRITTEN:
        return sentence
    joiner = JOINED_BY.get((source, target))

    def written(found: re.Match) -> str:
        spoon = WRITTEN[target][SPOON_OF[source][found["spoon"]]]
        following = re.match(r" ([^\W\d_]+)", sentence[found.end() :])
        joined = (
            joiner
            and following is not None
            and following[1].islower()  # not the next sentence's first word ("Add 2 tbsp. Stir.")
            and following[1] not in NOT_INGREDIENTS[source]
        )
        return f"{_amount_written(found['amount'], source, target)} {spoon}" + (f" {joiner}" if joined else "")

    return MEASURES[source].sub(written, sentence)


def spoon_spans(text: str, source: str, target: str) -> list[tuple[int, int]]:
    """(start, end) of each number of spoons that read_spoons wrote in the target's abbreviation in
    `text`, a sentence as read; none between languages SPOONS lacks."""
    if source == target or source not in MEASURES or target not in WRITTEN:
        return []
    return [found.span() for found in READ_MEASURES[target].finditer(text)]


NEAR = 40  # characters on each side of a cut that a number of spoons may span


def within_measure(text: str, position: int, language: str) -> bool:
    """Whether a cut at `position` of `text` (after a point) falls inside a number of spoons (the
    point of "c. à soupe"), or after the point that ends one before a word in small letters ("2 tbsp.
    sugar"), as `language` writes them (runtime/sentences.py: "Ajoutez 2 c." had been a sentence)."""
    pattern = MEASURES.get(language)
    if pattern is None:
        return False
    start = max(0, position - NEAR)
    after = text[position:].lstrip()[:1]
    for found in pattern.finditer(text[start : position + NEAR]):
        end = start + found.end()
        if start + found.start() < position < end or (position == end and after.islower()):
            return True
    return False
