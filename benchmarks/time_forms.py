"""Which written form of a time the shipped models copy right (runtime/clock.py chooses the form a
time of the other clock is read in): sentences of our own, each form of each time put in each
frame, translated from English by the installed models' default search; a time is given right
when the translation holds its hour once, and its minutes once and beside it (in any of the
target's forms: "21 h 30", "21:30", "21h30"), or a whole hour with its hour's word; a range, when
it holds each of its hours once, in order.

    python -m benchmarks.time_forms [--to fr|de|en] [--as-written] [--out FILE]

With `--as-written`, each time is written in the forms of the source language (a user's "9:30 p.m.",
"21.30 Uhr"), which runtime/clock.py reads into the target's: what the whole runtime gives.

These are the words around a time that a shop, a mail or a timetable writes; the dev files hold
three en→fr rows with a time of the other clock (docs/studies/TIMES.md), too few to choose on.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import attn.runtime as attn
from benchmarks.report import command_line, finish, table

# Sentences around a time in each source language: English into German and French, German into
# English
FRAMES = {
    "en": [
        "The meeting starts at {time}.",
        "The train leaves at {time} tomorrow.",
        "Please call me at {time} on Monday.",
        "The shop closes at {time} on weekdays.",
        "Dinner is served at {time} in the main hall.",
        "We will meet at the station at {time}.",
    ],
    "de": [
        "Das Treffen beginnt um {time}.",
        "Der Zug fährt morgen um {time} ab.",
        "Bitte rufen Sie mich am Montag um {time} an.",
        "Der Laden schließt werktags um {time}.",
        "Das Abendessen wird um {time} im großen Saal serviert.",
        "Es soll für {time} sein.",
    ],
}
RANGE_FRAMES = {
    "en": [
        "The office is open from {first} to {last} on weekdays.",
        "Office hours are {first}-{last}.",
        "The meeting is between {first} and {last}.",
        "Lunch is served from {first} to {last}.",
        "Monday to Friday, {first} to {last}.",
        "Please call us from {first} to {last} tomorrow.",
    ],
    "de": [
        "Das Büro ist werktags von {first} bis {last} geöffnet.",
        "Die Sprechzeiten sind {first}-{last}.",
        "Das Treffen ist zwischen {first} und {last}.",
        "Das Mittagessen gibt es von {first} bis {last}.",
        "Montag bis Freitag, {first} bis {last}.",
        "Bitte rufen Sie uns morgen von {first} bis {last} an.",
    ],
}
SOURCES = {"de": "en", "fr": "en", "en": "de"}
HOURS = [8, 9, 14, 18, 19, 20, 21]
MINUTES = ["15", "30", "45"]
RANGE_HOURS = [(8, 15), (9, 17), (11, 14), (14, 16), (18, 22)]


def twelve(hour: int) -> int:
    return hour % 12 or 12


def half(hour: int) -> str:
    return "a" if hour < 12 else "p"


# Each target language's candidate forms of a time: (name, form(hour, minutes or None))
FORMS = {
    "fr": [
        ("glued", lambda hour, minutes: f"{hour}h{minutes or ''}"),
        ("spaced", lambda hour, minutes: f"{hour} h" + (f" {minutes}" if minutes else "")),
        ("colon and h", lambda hour, minutes: f"{hour}:{minutes or '00'} h"),
        ("colon", lambda hour, minutes: f"{hour}:{minutes or '00'}"),
    ],
    "de": [
        ("colon and Uhr", lambda hour, minutes: f"{hour}:{minutes or '00'} Uhr"),
        ("bare and Uhr", lambda hour, minutes: f"{hour}{'.' + minutes if minutes else ''} Uhr"),
        ("colon", lambda hour, minutes: f"{hour}:{minutes or '00'}"),
    ],
    "en": [
        ("dotted", lambda hour, minutes: f"{twelve(hour)}{':' + minutes if minutes else ''} {half(hour)}.m."),
        ("glued", lambda hour, minutes: f"{twelve(hour)}{':' + minutes if minutes else ''}{half(hour)}m"),
        ("spaced", lambda hour, minutes: f"{twelve(hour)}{':' + minutes if minutes else ''} {half(hour)}m"),
    ],
}
# Forms of a time that only a user writes, which runtime/clock.py reads (NAMED_HALVES) but never
# writes: `--as-written` puts them beside FORMS
READ_ONLY_FORMS = {
    "en": [
        (
            "its half of the day in words",
            lambda hour, minutes: (
                f"{twelve(hour)}{':' + minutes if minutes else ' o' + chr(39) + 'clock'} {day_part(hour)}"
            ),
        )
    ]
}


def day_part(hour: int) -> str:
    return "in the morning" if hour < 12 else "in the afternoon" if hour < 18 else "in the evening"


# Each target language's candidate forms of a range of whole hours: (name, form(first, last))
RANGE_FORMS = {
    "fr": [
        ("glued", lambda first, last: (f"{first}h", f"{last}h")),
        ("first bare", lambda first, last: (f"{first}", f"{last} h")),
        ("colon and h", lambda first, last: (f"{first}:00 h", f"{last}:00 h")),
    ],
    "de": [
        ("bare, Uhr after the last", lambda first, last: (f"{first}", f"{last} Uhr")),
        ("colon, Uhr after the last", lambda first, last: (f"{first}:00", f"{last}:00 Uhr")),
        ("colon and Uhr", lambda first, last: (f"{first}:00 Uhr", f"{last}:00 Uhr")),
    ],
    "en": [
        (
            "glued, the first bare in the last's half",
            lambda first, last: (
                f"{twelve(first)}" + ("" if half(first) == half(last) else f"{half(first)}m"),
                f"{twelve(last)}{half(last)}m",
            ),
        ),
        (
            "dotted, the first bare in the last's half",
            lambda first, last: (
                f"{twelve(first)}" + ("" if half(first) == half(last) else f" {half(first)}.m."),
                f"{twelve(last)} {half(last)}.m.",
            ),
        ),
        ("each dotted", lambda first, last: (f"{twelve(first)} {half(first)}.m.", f"{twelve(last)} {half(last)}.m.")),
    ],
}
# The words after a whole hour that tell it is one ("21 Uhr", "21 h", "9 p.m.")
HOUR_WORDS = {"fr": r"(?:h|heures?)\b", "de": r"Uhr\b", "en": r"[ap]\.?\s?m\b|o'clock"}


def written_hour(hour: int, language: str) -> int:
    """The number a time's hour is written with in `language`."""
    return twelve(hour) if language == "en" else hour


def given_right(hour: int, minutes: str | None, translation: str, language: str) -> bool:
    """Whether `translation` holds `hour` once and `minutes` once beside it (or, a whole hour,
    its hour's word or ":00" after it)."""
    hour = written_hour(hour, language)
    once = len(re.findall(rf"(?<!\d){hour}(?!\d)", translation)) == 1
    if minutes is None:
        return once and re.search(rf"(?<!\d){hour}(?::00)?\s?(?:{HOUR_WORDS[language]})", translation) is not None
    written = re.search(rf"(?<!\d){hour}\s?[h:.]\s?{minutes}(?!\d)", translation) is not None
    return once and written and len(re.findall(rf"(?<!\d){minutes}(?!\d)", translation)) == 1


def range_given_right(first: int, last: int, translation: str, language: str) -> bool:
    """Whether `translation` holds each hour of a range once, the first before the last."""
    first, last = written_hour(first, language), written_hour(last, language)
    found = [int(number) for number in re.findall(r"(?<![\d:.])\d{1,2}(?![\d.]\d)", translation)]
    return found.count(first) == 1 and found.count(last) == 1 and found.index(first) < found.index(last)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--to", choices=sorted(FORMS), default="fr")
    parser.add_argument("--as-written", action="store_true", help="times in the source language's forms")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    source = SOURCES[args.to]
    written_in = source if args.as_written else args.to
    translator = attn.load(notify=lambda note: None)
    rows = []
    for name, form in FORMS[written_in] + (READ_ONLY_FORMS.get(written_in, []) if args.as_written else []):
        row = [name, f"`{form(21, None)}`, `{form(21, '30')}`"]
        for chosen in ([None], MINUTES):
            cases = [
                (hour, minutes, frame.format(time=form(hour, minutes)))
                for hour in HOURS
                for minutes in chosen
                for frame in FRAMES[source]
            ]
            outputs = [result.text for result in translator.translate([case[2] for case in cases], source, args.to)]
            right = sum(
                given_right(hour, minutes, output, args.to) for (hour, minutes, _), output in zip(cases, outputs)
            )
            row.append(f"{right} of {len(cases)}")
        rows.append(row)
    ranges = []
    for name, form in RANGE_FORMS[written_in]:
        cases = [
            (first, last, frame.format(first=form(first, last)[0], last=form(first, last)[1]))
            for first, last in RANGE_HOURS
            for frame in RANGE_FRAMES[source]
        ]
        outputs = [result.text for result in translator.translate([case[2] for case in cases], source, args.to)]
        right = sum(range_given_right(first, last, output, args.to) for (first, last, _), output in zip(cases, outputs))
        ranges.append([name, f"`{' … '.join(form(14, 16))}`, `{' … '.join(form(9, 17))}`", f"{right} of {len(cases)}"])
    lines = [
        command_line(),
        "",
        f"{source}→{args.to}: {len(FRAMES[source])} frames × hours {', '.join(map(str, HOURS))} (× minutes "
        f"{', '.join(MINUTES)}); the installed models' default search, the time written in each form "
        + (
            f"of the source's ({source}), which runtime/clock.py reads in the target's."
            if args.as_written
            else "(the form runtime/clock.py reads it in is what the translation of a time of the other clock starts from)."
        ),
        "",
        table(["form", "example", "whole hours given right", "hours and minutes given right"], rows),
        "",
        f"Ranges: {len(RANGE_FRAMES[source])} frames × {len(RANGE_HOURS)} ranges of whole hours "
        f"({', '.join(f'{first}-{last}' for first, last in RANGE_HOURS)}); given right when the translation holds each "
        "hour once, in order.",
        "",
        table(["form", "example", "ranges given right"], ranges),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
