"""Roman numbers up to 39, as centuries, rulers and republics are numbered ("XIXe siècle",
"François Ier", "Ve République")."""

from __future__ import annotations

import re

# A Roman number up to 39, never a word's letters
ROMAN = r"X{0,3}(?:IX|IV|VI{0,3}|I{1,3})|X{1,3}"
ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}
# A Roman number with an ordinal's ending in English or French ("XIXe", "XVIème", "Ier", "XXth")
ROMAN_ORDINAL = re.compile(rf"(?<!\w)({ROMAN})(?:ème|eme|ième|ère|er|re|e|th|st|nd|rd)(?!\w)")


def roman(number: int) -> str:
    """`number` (1 to 39) as a Roman number ("XIX")."""
    tens, units = divmod(number, 10)
    return "X" * tens + ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"][units]


def roman_value(numeral: str) -> int:
    """The value of a Roman number of ROMAN ("XIX" → 19)."""
    values = [ROMAN_VALUES[letter] for letter in numeral]
    return sum(-value if value < after else value for value, after in zip(values, values[1:] + [0]))
