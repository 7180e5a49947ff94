"""French dates with a month's name into English, with the word before them (runtime/dates.py
english_before): how many the installed models' translations give as English writes dates (no "the"
before one written month first: "signed the August 15"), read so and as the rule before it read
them ("le" left as written, no weekday read with its date), same run.

benchmarks/french_dates/fr.tsv (and held-out/fr.tsv, written at the same time and not read while
the rule was chosen): French sentences written for this by a helper who had not seen the rule,
each with its dates (DAY-MONTH or DAY-MONTH-YEAR, "|" between them; none in a sentence without
one). A date is given right as benchmarks/date_forms.py `date_written` says. Also counted: the
sentences without a date that the rule reads otherwise.

    python -m benchmarks.french_dates [--sentences benchmarks/french_dates/held-out] [--show 5] [--out FILE]
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from attn.runtime import dates
from benchmarks.numeric_dates import given_right
from benchmarks.sentence_sets import report

SENTENCES = Path("benchmarks/french_dates")


@contextmanager
def as_before():
    """runtime/dates.py as it read French dates before the rule: "le" kept, no weekday taken in."""
    with (
        mock.patch.dict(dates.READ, {("fr", "en"): {}}),
        mock.patch.object(dates, "FRENCH_SOURCE_DATE", dates.DATES["fr"]),
    ):
        yield


def read_without_dates(source: str, target: str, sentences: list[tuple[str, list[str]]], *translations) -> str:
    """How many of `sentences` that write no date the rule reads otherwise, of how many."""
    without = [sentence for sentence, found in sentences if not found]
    with as_before():
        before = [dates.read_dates(sentence, source, target) for sentence in without]
    changed = sum(dates.read_dates(sentence, source, target) != read for sentence, read in zip(without, before))
    return f"{changed} of {len(without)}"


def main() -> None:
    report(
        __doc__.splitlines()[0],
        SENTENCES,
        [("fr", "en")],
        as_before,
        given_right,
        ("as read before", "with the word before it"),
        read_without_dates,
        ["direction", "dates", "given right", "sentences without a date read otherwise"],
        "French dates given as English writes them",
    )


if __name__ == "__main__":
    main()
