"""A German date and the time after it ("am 3. Juni um 15 Uhr") read into English as one ("on June 3
at 3pm", runtime/dates.py time_at_date), and "den" or "der" before a date left out ("Montag, den 4.
Februar" → "Monday, February 4"), against both off (TIMES_AT_DATES emptied, "den" and "der" kept),
same run, by the installed model's default search: sentences of our own, each frame with each date
and time, counted: the date given as English writes dates (benchmarks/date_forms.py
`date_written`) with its time, the time after "at" as "um" says, the time after "by", which says
"bis" ("We'll meet on June 3 by 3pm"); and the rows of the German dev files holding a date, BLEU
and chrF against their references.

    python -m benchmarks.date_times [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime import dates
from benchmarks.date_forms import date_written
from benchmarks.report import DEV_FILES, command_line, data_option, dev_texts, finish, table

FRAMES = [
    "Die Besprechung ist am {date} um {time}.",
    "Wir treffen uns am {date} um {time} am Bahnhof.",
    "Am {date} um {time} öffnet das Museum.",
    "Der Kurs beginnt am {date} um {time}.",
    "Bitte kommen Sie am {date} um {time} in die Praxis.",
    "Die Lieferung erfolgt am {date} um {time}.",
    "Das Konzert findet am {date} um {time} statt.",
    "Ihr Termin ist am Montag, {date} um {time}.",
]
# (as written, day, month 1–12, year)
DATES = [
    ("3. Juni", 3, 6, None),
    ("24.12.", 24, 12, None),
    ("15. März 2025", 15, 3, 2025),
    ("1.4.", 1, 4, None),
    ("12. Oktober", 12, 10, None),
    ("30.5.2024", 30, 5, 2024),
]
TIMES = [("15 Uhr", "3pm"), ("9.30 Uhr", "9:30am")]  # (as written, as English writes it)


def counts(cases: list[tuple], translations: list[str]) -> list[int]:
    """[dates given right with their times, times after "at", times after "by"] of `translations`."""
    found = [0, 0, 0]
    for (day, month, year, time), translation in zip(cases, translations):
        found[0] += date_written(day, month - 1, year, translation, "en") and time in translation
        found[1] += f"at {time}" in translation
        found[2] += f"by {time}" in translation
    return found


def both_off() -> ExitStack:
    """The time after a date read apart from it and "den" and "der" before a date kept."""
    stack = ExitStack()
    stack.enter_context(mock.patch.object(dates, "TIMES_AT_DATES", frozenset()))
    stack.enter_context(mock.patch.dict(dates.READ, {("de", "en"): {"am": "on"}}))
    return stack


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    texts, cases = [], []
    for frame in FRAMES:
        for written, day, month, year in DATES:
            for time, english in TIMES:
                texts.append(frame.format(date=written, time=time))
                cases.append((day, month, year, english))
    one = [result.text for result in translator.translate(texts, "de", "en")]
    with both_off():
        apart = [result.text for result in translator.translate(texts, "de", "en")]
    rows = [
        [label, *(f"{count} of {len(texts)}" for count in counts(cases, outputs))]
        for label, outputs in (("off", apart), ("on", one))
    ]
    sources, references = dev_texts(args.data, "en-de", DEV_FILES, True, lambda text: dates.DATES["de"].search(text))
    ruled = [result.text for result in translator.translate(sources, "de", "en")]
    with both_off():
        unruled = [result.text for result in translator.translate(sources, "de", "en")]
    dev = [
        [
            label,
            len(sources),
            f"{sacrebleu.corpus_bleu(out, [references]).score:.2f}",
            f"{sacrebleu.corpus_chrf(out, [references]).score:.2f}",
        ]
        for label, out in (("off", unruled), ("on", ruled))
    ]
    lines = [
        command_line(),
        "",
        f"de→en: {len(FRAMES)} frames × {len(DATES)} dates × {len(TIMES)} times.",
        "",
        table(["rules", "date and time right", "at the time", "by the time"], rows),
        "",
        f"Rows of the German dev files ({', '.join(DEV_FILES)}) holding a date, de→en:",
        "",
        table(["rules", "rows", "BLEU", "chrF"], dev),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
