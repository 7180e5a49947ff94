"""Dates written in digits, day first, read with their month's name (runtime/numeric_dates.py): how
many the installed models' translations into English give as English writes dates, read so and as
written (source_reading.py's read_numeric_dates replaced by one that leaves a sentence as it is), same run.

benchmarks/numeric_dates/LANG.tsv (and held-out/LANG.tsv, written at the same time and not read
while the rule was chosen): German and French sentences written for this by a helper who had not
seen the rule, each with the dates it writes in digits (DAY-MONTH or DAY-MONTH-YEAR, "|" between
them; none in a sentence without one: "siehe Abschnitt 3.4.", "les 3/4 du budget"). A date is
given right as benchmarks/date_forms.py `date_written` says (its day and month's name as English
writes dates, its year once). Also counted: the sentences without a date that the rule reads.

    python -m benchmarks.numeric_dates [--sentences benchmarks/numeric_dates/held-out] [--show 5] [--out FILE]
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from attn.runtime.numeric_dates import read_numeric_dates
from benchmarks.date_forms import date_written
from benchmarks.sentence_sets import report

SENTENCES = Path("benchmarks/numeric_dates")
DIRECTIONS = [("de", "en"), ("fr", "en")]


def given_right(dates: list[str], translation: str) -> int:
    """How many of `dates` ("DAY-MONTH[-YEAR]") `translation` gives as English writes dates."""
    right = 0
    for date in dates:
        day, month, *year = map(int, date.split("-"))
        right += date_written(day, month - 1, year[0] if year else None, translation, "en")
    return right


def read_without_dates(source: str, target: str, sentences: list[tuple[str, list[str]]], *translations) -> str:
    """How many of `sentences` that write no date the rule reads, of how many."""
    without = [sentence for sentence, dates in sentences if not dates]
    return f"{sum(read_numeric_dates(sentence, source, target) != sentence for sentence in without)} of {len(without)}"


def main() -> None:
    report(
        __doc__.splitlines()[0],
        SENTENCES,
        DIRECTIONS,
        lambda: mock.patch("attn.runtime.source_reading.read_numeric_dates", lambda sentence, *languages: sentence),
        given_right,
        ("as written", "read with the month's name"),
        read_without_dates,
        ["direction", "dates", "given right", "sentences without a date read"],
        "Dates in digits given as English writes them",
    )


if __name__ == "__main__":
    main()
