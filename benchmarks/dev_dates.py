"""Dates read as the target language writes them (runtime/dates.py): on the dev rows whose source
holds a date the rule reads, how many of those dates the installed models' translations give
(benchmarks/date_forms.py `date_written`: the day and the month's name as the target writes
dates, the year once), and BLEU and chrF against the references, with the rule and without it
(runtime/texts.py's read_dates replaced by one that leaves a sentence as it is).

    python -m benchmarks.dev_dates [--data ../shared/data] [--show 3] [--out FILE]
"""

from __future__ import annotations

import attn.runtime as attn
from attn.runtime.dates import DATES, READ, month_number, read_dates
from benchmarks.date_forms import date_written
from benchmarks.report import command_line, dev_rows, dev_set_arguments, finish, read_and_unread, table

DEV_FILES = ["dev", "chat-dev", "l10n-dev", "news-dev", "tatoeba-dev", "markup-dev"]


def dates_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(dates of `sources` given right in their translations, dates of `sources`)."""
    found = [
        (date.groupdict(), translation)
        for text, translation in zip(sources, translations)
        for date in DATES[source].finditer(text)
    ]
    right = sum(
        date_written(
            int(date["day"] or date["first_day"]),
            month_number(date["month"] or date["first_month"], source) - 1,
            date["year"] or date.get("first_year"),
            translation,
            target,
        )
        for date, translation in found
    )
    return right, len(found)


def main() -> None:
    args = dev_set_arguments(__doc__.splitlines()[0], "rows listed per direction where the two differ")
    translator = attn.load(notify=lambda note: None)
    rows, shown = [], []
    for source, target in READ:
        pair = "en-de" if "de" in (source, target) else "en-fr"
        found = [
            row
            for row in dev_rows(args.data, pair, DEV_FILES, swap=source != "en")
            if read_dates(row.source, source, target) != row.source
        ]
        found_rows, differing = read_and_unread(
            translator,
            [row.source for row in found],
            [row.target for row in found],
            (source, target),
            "read_dates",
            lambda texts, outputs: dates_right(texts, outputs, source, target),
            args.show,
        )
        rows += found_rows
        shown += differing
    lines = [
        command_line(),
        "",
        f"Dev rows ({', '.join(DEV_FILES)}) whose source holds a date runtime/dates.py reads; the installed models' "
        "default search.",
        "",
        table(["direction", "dates read", "rows", "dates given right", "BLEU", "chrF"], rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
