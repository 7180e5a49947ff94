"""Dates written in digits, day first, read with their month's name where the target writes dates so.

German and French write a date in digits with its day first ("am 24.12.", "vom 23.12. bis 2.1.",
"le 24/12/2025"). The models read such a date as numbers: "Die Lieferung kommt am 24.12." → "The
delivery comes on 24,12.", "vom 23.12. bis 2.1." → "from 23,12. to 2.1.", "du 23/12 au 2/1" → "from
23/12 in 2/1". Read with the month's name ("am 24. Dezember", "du 23 décembre au 2 janvier"), a date
is then read on as the target writes dates (runtime/dates.py: "on December 24"). Only what is a
date for sure: a day (1–31) and a month (1–12) with a year, or after a word that stands before a
date (BEFORE), a weekday's name or a date read just before it and a dash; not a section's number
("Abschnitt 3.4.", "Versionen 1.8 bis 2.1."), nor a fraction ("les 3/4 du budget", "le 1/2 litre"). Into English only (READ), whose readers
cannot tell which of two numbers is the day. Chosen on sentences a helper wrote
(`python -m benchmarks.numeric_dates`, docs/studies/DATE-FORMS.md).
"""

from __future__ import annotations

import re

from .abbreviations import DAYS
from .dates import DAY, MONTH_NAMES, YEAR

READ = frozenset({("de", "en"), ("fr", "en")})
MONTH = r"(?P<month>1[0-2]|0?[1-9])"
# A date in digits as each language writes it: German points after the day and the month, French slashes
IN_DIGITS = {
    "de": re.compile(rf"(?<![\w.,/]){DAY}\.{MONTH}\.(?:{YEAR}(?![\d.,]\d))?(?!\w|,\d)"),
    "fr": re.compile(rf"(?<![\w.,/]){DAY}/{MONTH}(?:/{YEAR})?(?![\w/]|[.,]\d)"),  # not "1/10e"
}
WEEKDAYS = {language: frozenset(name.lower() for name in DAYS[language].values()) for language in IN_DIGITS}
# The words after which a day and a month in digits are a date (in small letters)
BEFORE = {
    "de": frozenset("am vom bis zum ab seit der den dem stand datum spätestens ende anfang".split()),
    "fr": frozenset("le du au jusqu'au depuis avant après dès partir".split()),
}
QUOTES = frozenset("\"'“”„«»‘’‚")  # quotation marks, of which an empty slice is none
LINK = re.compile(r"\s*(?:[-–—]|bis(?: zum)?|und|au|et)\s*\Z")  # between two dates of a range
# A French day and month that are a common fraction too ("les 3/4 du budget", "le 1/8 de finale"):
# no date after a word of BEFORE alone
FRACTIONS = frozenset({(1, 2), (1, 3), (2, 3), (1, 4), (3, 4), (1, 8), (3, 8), (5, 8), (7, 8)})
NUMBER_BEFORE = re.compile(r"\d[.,/]?\s+\Z")  # a number before the word that stands before a date


def _range_follows(sentence: str, found: re.Match, language: str) -> bool:
    """Whether a dash and another day and month in digits follow `found` ("23.12.–2.1.")."""
    link = re.match(r"\s*[-–—]\s*", sentence[found.end() :])
    return link is not None and IN_DIGITS[language].match(sentence, found.end() + link.end()) is not None


def _set_apart(sentence: str, found: re.Match) -> bool:
    """Whether `found` stands alone in brackets ("am Brückentag (30.5.)") or opens the sentence as
    a heading before a colon ("14/07 : feu d'artifice")."""
    if sentence[found.start() - 1 : found.start()] == "(" and sentence[found.end() : found.end() + 1] == ")":
        return True
    return not sentence[: found.start()].strip() and sentence[found.end() :].lstrip().startswith(":")


def _quoted(sentence: str, found: re.Match) -> bool:
    """Whether `found` stands alone in quotation marks: a value as written ("enthält den Wert
    "1.4.2018""), kept so."""
    return sentence[found.start() - 1 : found.start()] in QUOTES and sentence[found.end() : found.end() + 1] in QUOTES


def _is_date(sentence: str, found: re.Match, language: str, read_before: int | None) -> bool:
    """Whether `found`, a day and a month in digits in `sentence`, is a date: not alone in quotation
    marks (_quoted), and with its year, before a dash and another such date, set apart (_set_apart),
    after a weekday's name (a comma between), after a date read ending at `read_before` and a
    range's link (LINK: a dash, "bis", "au"), or after a word of BEFORE, but a number before that word
    ("Versionen 1.8 bis 2.1.") or a French fraction (FRACTIONS: "le 1/8 de finale")."""
    if _quoted(sentence, found):
        return False
    if found["year"] or _range_follows(sentence, found, language) or _set_apart(sentence, found):
        return True
    before = sentence[: found.start()]
    if read_before is not None and LINK.fullmatch(sentence[read_before : found.start()]):
        return True
    word = re.search(r"([^\W\d_]+(?:'[^\W\d_]+)?)[\s,:]*\Z", before)
    if word is None:
        return False
    if word[1].lower() in WEEKDAYS[language]:
        return True
    fraction = language == "fr" and (int(found["day"]), int(found["month"])) in FRACTIONS
    # "Versionen 1.8 bis 2.1.", "Abschnitte 3.4. bis 3.6.": a number before the word, not a date read
    numbered = NUMBER_BEFORE.search(before[: word.start()]) is not None
    return word[1].lower() in BEFORE[language] and not fraction and not numbered


def dates_in_digits(sentence: str, source: str) -> list[re.Match]:
    """The dates that `sentence` writes in digits as `source` does (IN_DIGITS, _is_date), in order;
    none in a language READ does not read from. Each has the groups day, month and year."""
    if source not in IN_DIGITS:
        return []
    found: list[re.Match] = []
    for date in IN_DIGITS[source].finditer(sentence):
        if _is_date(sentence, date, source, found[-1].end() if found else None):
            found.append(date)
    return found


def read_numeric_dates(sentence: str, source: str, target: str) -> str:
    """`sentence` with each date that `source` writes in digits (dates_in_digits) written with its
    month's name as `source` writes dates ("24. Dezember 2025", "24 décembre 2025"), where `target`
    reads so (READ); as it is otherwise. A German date's last point is kept where it ends the
    sentence."""
    if (source, target) not in READ:
        return sentence
    read, position = "", 0
    for found in dates_in_digits(sentence, source):
        day, month, year = int(found["day"]), int(found["month"]), found["year"]
        name = MONTH_NAMES[source][month - 1]
        if source == "de":
            written = f"{day}. {name}" + (f" {year}" if year else "")
            ends = sentence[found.end() :].strip(" \"'”»") == ""  # not in brackets: "(am 24.12.)"
            written += "." if ends and found.group().endswith(".") else ""
        else:
            written = f"{'1er' if day == 1 else day} {name}" + (f" {year}" if year else "")
        read += sentence[position : found.start()] + written
        position = found.end()
    return read + sentence[position:]
