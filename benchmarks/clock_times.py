"""Times read as the target language writes them (runtime/clock.py): on the dev rows whose source
holds a time of the other clock, how many of those times the installed models' translations give
with the right hour and minutes, and BLEU and chrF against the references, with the rewrite and
without it (runtime/source_reading.py's read_times replaced by one that leaves a sentence as it is).

    python -m benchmarks.clock_times [--data ../shared/data] [--show 3] [--out FILE]

A time is given right when the translation holds it on the 24-hour clock ("19:10", "19.10 Uhr",
"19h10"; a whole hour "19 h", "19 Uhr", "19:00"), on the 12-hour clock with its half and minutes
("7:10 p.m."; a whole hour "7pm") or, a whole hour of the morning, as "7 o'clock"; a range's
first time also bare before its joint and the next number ("from 11 to 22 Uhr", "from 2 to 4pm"). A translation
that writes it again and again (a loop of the model's) counts as giving it. The references are one reading of each: they write the 12-hour clock ("7:10pm")
where the rewrite gives "7:10 p.m.", and BLEU counts the difference.
"""

from __future__ import annotations

import re

import attn.runtime as attn
from attn.runtime.clock import TIMES, day_hour, read_times
from benchmarks.report import DEV_FILES, command_line, dev_set_arguments, finish, read_and_unread, table

DIRECTIONS = [
    ("en-de", "en", "de", False),
    ("en-fr", "en", "fr", False),
    ("en-de", "de", "en", True),
    ("en-fr", "fr", "en", True),
]
RANGE_JOINTS = r"[-–—]|to|and|bis|und|à|et"


def given_right(hour: int, minutes: str | None, translation: str) -> bool:
    """Whether `translation` holds the time `hour`:`minutes` (module docstring): its minutes
    written where they are not 00."""
    minutes = minutes or "00"
    twelve, half = hour % 12 or 12, "p" if hour >= 12 else "a"
    not_twelve_hour = r"(?!\s?[ap]\.?m)"
    if minutes == "00":
        readings = [
            rf"\b{hour}(?::00\b|\s?(?:h|Uhr)\b){not_twelve_hour}",
            rf"\b{twelve}(?::00)?\s?{half}\.?m\b",
            *([rf"\b{hour} o'clock"] if hour < 12 else []),
        ]
    else:
        readings = [rf"\b{hour}\s?[:.h]\s?{minutes}\b{not_twelve_hour}", rf"\b{twelve}:{minutes}\s?{half}\.?m\b"]
    written = "" if minutes == "00" else f":{minutes}"  # a range's first time, bare before its joint
    readings += [rf"\b{number}{written}\s*(?:{RANGE_JOINTS})\s*\d" for number in {hour, twelve}]
    return any(re.search(reading, translation, re.IGNORECASE) for reading in readings)


def times_right(sources: list[str], translations: list[str], language: str) -> tuple[int, int]:
    """(times of `sources` given right in their translations, times of `sources`)."""
    found = [
        (time, translation)
        for source, translation in zip(sources, translations)
        for time in TIMES[language].finditer(source)
    ]
    return sum(given_right(day_hour(time), time["minutes"], translation) for time, translation in found), len(found)


def main() -> None:
    args = dev_set_arguments(__doc__.splitlines()[0], "rows listed per direction where the two differ")
    translator = attn.load(notify=lambda note: None)
    rows, shown = read_and_unread(
        translator,
        args.data,
        DEV_FILES,
        DIRECTIONS,
        "source_reading.read_times",
        read_times,
        lambda texts, outputs, source, target: times_right(texts, outputs, source),
        args.show,
    )
    lines = [
        command_line(),
        "",
        f"Dev rows ({', '.join(DEV_FILES)}) whose source holds a time of the other clock; the installed models' default search.",
        "",
        table(["direction", "times read", "rows", "times given right", "BLEU", "chrF"], rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
