"""Quantities with a unit's symbol ("12 V", "1.5 m", "50 g", "120 x 60 x 75 cm"), which a
translation must keep with their digits and their unit.

English, German and French write the same symbols (SI's and a few others': "kg", "ml", "kWh",
"GB", "°C", "mph"); only the number's marks differ ("1.5 m", "1,5 m"). The shipped models, which
learned little shop, recipe or technical text, lost the unit or spelled it into the next word:
"Use a 12 V battery." → "Utilisez une version 12 de la batterie.", "Ajoutez 50 g de beurre." →
"Add 50 girlfriend.", "A 2 L bottle" → "Eine 2 Lflasche", "a 3.5 mm hole" → "un trou à 3,5
mmère", "120 x 60 x 75 cm" → "120 x 75 cm". A sentence whose translation lost one is searched
again with its quantities set aside (runtime/second_searches.py, as a name the model never learned is:
runtime/unlearned_names.py), each written as the target writes numbers (as_target_writes).
"""

from __future__ import annotations

import re

from .verbatim import NUMBER_MARKS, number_written

# The units' symbols, longer before shorter ("kWh" before "kW", "km/h" before "km")
UNITS = (
    "km/h mph kWh kW mAh GHz MHz kHz Hz mm cm km m² m³ m mg kg g ml mL cl dl l L W V kB KB MB GB TB lbs lb oz ft °C °F"
).split()
UNIT = "|".join(map(re.escape, UNITS))
TIMES = r"\s?[x×]\s?"  # between a dimension's numbers
SPACES = "[ \u00a0\u202f]"  # between a number and its unit: a space, a no-break space, a narrow one
# A metre's "m" against its number is no unit: "1.7m people" (a million), "2h 9m" (minutes)
UNIT_AFTER = rf"(?:{SPACES}|(?!m(?![\w/²³])))"


def number_pattern(language: str) -> str:
    """A number as `language` writes numbers: its thousands grouped ("1,500", "1.500", "1 500")
    or not, maybe with decimals."""
    thousands, decimal = NUMBER_MARKS[language]
    grouping = SPACES if language == "fr" else re.escape(thousands)
    decimals = rf"(?:{re.escape(decimal)}\d+)?"
    return rf"(?:\d{{1,3}}(?:{grouping}\d{{3}})+{decimals}|\d+{decimals})"


def quantity_pattern(language: str) -> re.Pattern:
    """A quantity as `language` writes it: one number or a dimension's numbers ("120 x 60 x 75"),
    then a unit's symbol (a metre's after a space), not within a longer number, word, price, path
    or setting ("shop.example/1.5kg", "SIZE=1.5kg")."""
    number = number_pattern(language)
    return re.compile(
        rf"(?<![\w.,€$£/=_#@:])(?P<numbers>(?:{number}{TIMES})*{number}){UNIT_AFTER}(?P<unit>{UNIT})(?![\w/²³])"
    )


QUANTITIES = {language: quantity_pattern(language) for language in NUMBER_MARKS}


def quantity_spans(sentence: str, language: str) -> list[tuple[int, int]]:
    """(start, end) of each quantity of `sentence`, a sentence of `language`; none in a language
    whose numbers NUMBER_MARKS does not know."""
    pattern = QUANTITIES.get(language)
    return [] if pattern is None else [found.span() for found in pattern.finditer(sentence)]


def as_target_writes(quantity: str, source: str, target: str) -> str:
    """`quantity`, as `source` writes it, with each number written as `target` writes numbers
    (runtime/verbatim.py number_written: "12,500.5 kg" into German "12.500,5 kg", "1,500 m" "1500
    m"); the unit and the spaces as written; as it is from or into a language NUMBER_MARKS lacks."""
    if source not in QUANTITIES or target not in NUMBER_MARKS:  # an imported model's other language
        return quantity
    found = QUANTITIES[source].fullmatch(quantity)
    if found is None:
        return quantity
    decimal = NUMBER_MARKS[source][1]

    def written(number: re.Match) -> str:
        integer, _, decimals = number.group().partition(decimal)
        return number_written(re.sub(r"\D", "", integer), decimals, target)

    return re.sub(number_pattern(source), written, found["numbers"]) + quantity[found.end("numbers") :]


def kept(quantity: str, language: str, translation: str) -> bool:
    """Whether `translation` holds `quantity` (as `language`, the target, writes it): its numbers
    in order with their signs of dimension, then its unit, against them or after a space or a
    hyphen ("12 V-Batterie"), not running on into a word ("2 Lflasche", "3,5 mmère")."""
    pattern = QUANTITIES.get(language)  # none for an imported model's other language
    found = pattern.fullmatch(quantity) if pattern else None
    if found is None:
        return quantity in translation
    numbers = re.split(TIMES, found["numbers"])
    pattern = TIMES.join(re.escape(number) for number in numbers)
    return (
        re.search(rf"(?<![\d.,]){pattern}(?:{SPACES}|-)?{re.escape(found['unit'])}(?![^\W\d_])", translation)
        is not None
    )


def quantities_kept(quantities: list[str], language: str, translation: str) -> int:
    """How many of `quantities` (as `language`, the target, writes them) `translation` keeps."""
    return sum(kept(quantity, language, translation) for quantity in quantities)


def in_target(tokens: dict[str, str], source: str, target: str) -> dict[str, str]:
    """Of tokens set aside (runtime/set_aside.py: by their placeholder), each quantity that
    `target` writes otherwise, as it writes it."""
    written = {placeholder: as_target_writes(token, source, target) for placeholder, token in tokens.items()}
    return {placeholder: token for placeholder, token in written.items() if token != tokens[placeholder]}
