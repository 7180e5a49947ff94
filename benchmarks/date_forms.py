"""Which written form of a date the shipped models translate right (runtime/dates.py chooses the
form a date is read in): sentences of our own, a date of each month in each form put in each
frame, with and without its year, translated by the installed models' default search; a date is
given right when the translation holds its day once and its month's name once, as the target
writes dates ("3. Juni", "3 juin", "1er mai", "June 3", "3rd of June"), its year once where it
had one, no comma before the sentence's end ("June 3,."), and the frame's own word (the sentence
around the date kept). A form may read the word before the date as the target has it ("on June 3"
as "le 3 juin").

    python -m benchmarks.date_forms [--direction en-de|de-en|en-fr|fr-en] [--out FILE]

Each form is translated as it is written (runtime/dates.py off), and the source's own form as
runtime/dates.py reads it (the last row). Into German, ranges of dates too ("from March 3 to March
10"), in our frames and in sentences a helper wrote (benchmarks/date_ranges/en.tsv).

These are the words around a date that a shop, a mail or a form writes; the dev files hold few
dates, and their references write them in several forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from attn.runtime.dates import MONTH_NAMES, WEEKDAY_NAMES
from benchmarks.report import command_line, direction_arguments, finish, table

MONTHS, WEEKDAYS = MONTH_NAMES, WEEKDAY_NAMES


@contextmanager
def dates_off() -> Iterator[None]:
    """runtime/dates.py off: sentences read as written, no weekday set aside, the German days'
    points as the model wrote them."""
    with (
        mock.patch("attn.runtime.source_reading.read_dates", lambda sentence, *_: sentence),
        mock.patch("attn.runtime.source_reading.read_spans", lambda *_: []),
        mock.patch("attn.runtime.texts.day_points", lambda alignment, _: alignment),
    ):
        yield  # the names runtime/dates.py reads


DAYS = [1, 2, 3, 10, 12, 15, 21, 22, 24, 28, 30, 31]  # one for each month, in order
YEAR = 2024
# Sentences around a date in each source language, each with the word its translation keeps in
# each target language (a regular expression, without case)
FRAMES = {
    "en": [
        ("He was born on {date}.", {"de": "geboren", "fr": "né"}),
        ("The shop is closed on {date}.", {"de": "geschlossen", "fr": "fermé"}),
        ("We will meet on {date} at the station.", {"de": "Bahnhof", "fr": "gare"}),
        ("The party is on {date}.", {"de": "Party|Fest|Feier", "fr": "fête"}),
        ("On {date} the museum opens again.", {"de": "Museum", "fr": "musée"}),
        ("Your order was shipped on {date}.", {"de": "Bestellung", "fr": "commande"}),
        ("The course starts on {date}.", {"de": "Kurs", "fr": "cours"}),
        ("Please reply by {date}.", {"de": "antwort", "fr": "répond"}),
        # the preposition before a date, and a weekday and a time beside it, with the date
        ("We have been open since {date}.", {"de": "seit dem", "fr": "depuis le"}),
        ("The offer is valid until {date}.", {"de": "bis zum", "fr": "jusqu'au"}),
        ("Before {date}, we need the report.", {"de": "vor dem .*(brauchen|benötigen) wir", "fr": "avant le"}),
        ("The meeting is on Tuesday, {date} at 3:30 pm.", {"de": "Dienstag.*15[:.]30", "fr": "mardi.*15 h 30"}),
    ],
    "de": [
        ("Er wurde am {date} geboren.", {"en": "born"}),
        ("Der Laden ist am {date} geschlossen.", {"en": "closed"}),
        ("Wir treffen uns am {date} am Bahnhof.", {"en": "station"}),
        ("Die Feier ist am {date}.", {"en": "party|celebration"}),
        ("Am {date} öffnet das Museum wieder.", {"en": "museum"}),
        ("Ihre Bestellung wurde am {date} verschickt.", {"en": "order"}),
        ("Der Kurs beginnt am {date}.", {"en": "course"}),
        ("Bitte antworten Sie bis zum {date}.", {"en": "reply|answer|respond"}),
    ],
    "fr": [
        ("Il est né le {date}.", {"en": "born"}),
        ("Le magasin est fermé le {date}.", {"en": "closed"}),
        ("Nous nous retrouvons le {date} à la gare.", {"en": "station"}),
        ("La fête est le {date}.", {"en": "party|celebration"}),
        ("Le {date}, le musée ouvre de nouveau.", {"en": "museum"}),
        ("Votre commande a été expédiée le {date}.", {"en": "order"}),
        ("Le cours commence le {date}.", {"en": "course|class"}),
        ("Merci de répondre avant le {date}.", {"en": "reply|answer|respond"}),
    ],
}


def month_first(language: str):
    return lambda day, month, year: f"{MONTHS[language][month]} {day}" + (f", {year}" if year else "")


def day_first(language: str, point: str = ""):
    return lambda day, month, year: f"{day}{point} {MONTHS[language][month]}" + (f" {year}" if year else "")


# Each direction's candidate forms of a date: (name, form(day, month index, year or None), the
# word before a date that the target's word for it replaces: ("on", "le") reads "on June 3" as "le
# 3 juin"); the first is the source's own
FORMS = {
    "en-de": [
        ("as written, month first", month_first("en"), None),
        ("day first", day_first("en"), None),
        ("German", day_first("de", "."), None),
        ("German, after am", day_first("de", "."), ("on", "am")),
    ],
    "de-en": [
        ("as written", day_first("de", "."), None),
        ("English, month first", month_first("en"), None),
        ("English, day first", day_first("en"), None),
        ("month first", month_first("de"), None),
        ("English, month first, after on", month_first("en"), ("am", "on")),
    ],
    "en-fr": [
        ("as written, month first", month_first("en"), None),
        ("day first", day_first("en"), None),
        ("French", day_first("fr"), None),
        ("French, after le", day_first("fr"), ("on", "le")),
    ],
    "fr-en": [
        ("as written", day_first("fr"), None),
        ("English, month first", month_first("en"), None),
        ("English, day first", day_first("en"), None),
        ("English, month first, after on", month_first("en"), ("le", "on")),
    ],
}


# Sentences around a month's name alone ("in March"), with the word each translation keeps
MONTH_FRAMES = {
    "en": [
        ("The course starts in {month}.", "cours"),
        ("Prices rose in {month}.", "prix"),
        ("The museum opens again in {month}.", "musée"),
        ("We moved to Paris in {month}.", "Paris"),
        ("The report was published in {month}.", "rapport"),
    ],
    "fr": [
        ("Le cours commence en {month}.", "course|class"),
        ("Les prix ont augmenté en {month}.", "price"),
        ("Le musée rouvre en {month}.", "museum"),
        ("Nous avons déménagé à Paris en {month}.", "Paris"),
        ("Le rapport a été publié en {month}.", "report"),
    ],
}


WEEKDAY_FRAMES = {
    "en": [
        ("The meeting is on {month}.", "réunion"),
        ("We will meet on {month} at the station.", "gare"),
        ("The shop is closed on {month}.", "magasin"),
        ("The package arrives on {month} afternoon.", "colis|paquet"),
        # what a mail writes (2026-11-30: "I will see you on Tuesday." → "Je vous verrai aujourd'hui.")
        ("I will see you on {month}.", "verr"),
        ("See you on {month}!", "."),
        ("Can we talk on {month}?", "parler"),
        ("She called me on {month} morning.", "appel"),
        ("On {month} we go home.", "maison"),
        ("The report is due {month}.", "rapport"),
        ("Are you free on {month}?", "libre"),
        ("He arrived last {month}.", "arriv"),
    ],
    "fr": [
        ("La réunion est {month}.", "meeting"),
        ("Nous nous retrouvons {month} à la gare.", "station"),
        ("Le magasin est fermé le {month}.", "shop|store"),
        ("Le colis arrive {month} après-midi.", "package|parcel|colis"),
    ],
}


# Sentences around a range of dates in English, with the word each German translation keeps, and
# the ranges' forms: (name, the range written from (month index, first day, last day, year or None))
RANGE_FRAMES = [
    ("The exhibition runs {range}.", "Ausstellung"),
    ("The office is closed {range}.", "Büro"),
    ("We are on holiday {range}.", "Urlaub|Ferien"),
    ("The course takes place {range}.", "Kurs"),
    ("Prices are reduced {range}.", "Preis"),
    ("The road will be closed {range}.", "Straße"),
]
RANGES = [(2, 3, 10), (4, 12, 18), (7, 1, 15), (9, 20, 27), (10, 28, 30), (5, 2, 9)]  # March 3–10, …


def year_after(year: int | None, comma: str = ", ") -> str:
    return f"{comma}{year}" if year else ""


RANGE_FORMS = [
    (
        "from, both month first",
        lambda m, a, b, y: f"from {MONTHS['en'][m]} {a} to {MONTHS['en'][m]} {b}{year_after(y)}",
    ),
    ("from, one month", lambda m, a, b, y: f"from {MONTHS['en'][m]} {a} to {b}{year_after(y)}"),
    (
        "between, both month first",
        lambda m, a, b, y: f"between {MONTHS['en'][m]} {a} and {MONTHS['en'][m]} {b}{year_after(y)}",
    ),
    ("a dash", lambda m, a, b, y: f"{MONTHS['en'][m]} {a}-{b}{year_after(y)}"),
    (
        "from, both day first",
        lambda m, a, b, y: f"from {a} {MONTHS['en'][m]} to {b} {MONTHS['en'][m]}{year_after(y, ' ')}",
    ),
]


def range_written(first: int, last: int, months: tuple[int, int], year: int | None, translation: str) -> bool:
    """Whether a German `translation` holds the range of `first` and `last` days of `months` (the
    first's and the last's, January 0): the first day with an ordinal's point (its month's name
    after it where the months differ, or may be), the last with the point and its month's name,
    each month named at most twice, the year once where it has one, and no other number."""
    names = [MONTHS["de"][month] for month in months]
    first_month = f" {names[0]}" if names[0] != names[1] else f"(?: {names[0]})?"
    numbers = re.findall(r"(?<![\d.,:])\d+(?![\d:])", translation)
    return (
        re.search(rf"(?<!\d){first}\.{first_month}", translation) is not None
        and re.search(rf"(?<!\d){last}\. {names[1]}", translation) is not None
        and all(1 <= len(re.findall(name, translation)) <= 2 for name in names)
        and sorted(numbers) == sorted([str(first), str(last)] + ([str(year)] if year else []))
    )


HELD_OUT_RANGES = Path(__file__).parent / "date_ranges" / "en.tsv"


def held_out_ranges(translator) -> list[list]:
    """Rows (how read, given right) of the English sentences with a range of dates that a helper
    wrote without seeing the rule (HELD_OUT_RANGES: sentence, first day, its month, last day, its
    month, year), translated into German as written and as runtime/dates.py reads them."""
    cases = [line.split("\t") for line in HELD_OUT_RANGES.read_text(encoding="utf-8").splitlines()]
    rows = []
    for name, as_written in (("as written", True), ("read by runtime/dates.py", False)):
        with dates_off() if as_written else nullcontext():
            outputs = [result.text for result in translator.translate([case[0] for case in cases], "en", "de")]
        right = sum(
            range_written(
                int(first),
                int(last),
                (MONTHS["en"].index(month), MONTHS["en"].index(last_month)),
                int(year or 0) or None,
                output,
            )
            for (_, first, month, last, last_month, year), output in zip(cases, outputs)
        )
        rows.append([name, "", f"{right} of {len(cases)}"])
    return rows


def ranges_given_right(translator) -> list[list]:
    """Rows (form, example, given right without and with the year) of English ranges of dates in
    RANGE_FRAMES translated into German, each form as written (runtime/dates.py off), then the
    forms as runtime/dates.py reads them."""
    rows = []
    for (name, form), as_written in [*((form, True) for form in RANGE_FORMS), *((form, False) for form in RANGE_FORMS)]:
        row = [name if as_written else f"{name}, read by runtime/dates.py", f"`{form(2, 3, 10, None)}`"]
        for year in (None, YEAR):
            cases = [
                (month, first, last, frame.format(range=form(month, first, last, year)), anchor)
                for month, first, last in RANGES
                for frame, anchor in RANGE_FRAMES
            ]
            with dates_off() if as_written else nullcontext():
                outputs = [result.text for result in translator.translate([case[3] for case in cases], "en", "de")]
            right = sum(
                range_written(first, last, (month, month), year, output) and re.search(anchor, output, re.I) is not None
                for (month, first, last, _, anchor), output in zip(cases, outputs)
            )
            row.append(f"{right} of {len(cases)}")
        rows.append(row)
    return rows


def names_alone(translator, source: str, target: str, names: dict, frames: dict, years: tuple) -> list[list]:
    """Rows (form, example, given right for each of `years`) of each of `names`' words (months,
    weekdays) put in each of `frames`, as written, in the target's words (runtime/dates.py off),
    and as runtime/dates.py reads them."""
    rows = []
    for name, language, as_written in (
        ("as written", source, True),
        ("the target's name", target, True),
        ("read by runtime/dates.py", source, False),
    ):
        row = [name, ", ".join(f"`{names[language][2]}{' ' + str(year) if year else ''}`" for year in years)]
        for year in years:
            cases = [
                (index, frame.format(month=names[language][index] + (f" {year}" if year else "")), anchor)
                for index in range(len(names[language]))
                for frame, anchor in frames[source]
            ]
            with dates_off() if as_written else nullcontext():
                outputs = [result.text for result in translator.translate([case[1] for case in cases], source, target)]
            right = sum(
                len(re.findall(rf"\b{names[target][index]}\b", output, re.I)) == 1
                and (year is None or str(year) in output)
                and re.search(anchor, output, re.I) is not None
                for (index, _, anchor), output in zip(cases, outputs)
            )
            row.append(f"{right} of {len(cases)}")
        rows.append(row)
    return rows


def framed(frame: str, date: str, before: tuple[str, str] | None) -> str:
    """`frame` with `date` in it, the word before it replaced as `before` says (its first letter's
    case kept)."""
    if before is not None:
        word, replacement = before
        frame = frame.replace(f"{word} {{date}}", f"{replacement} {{date}}")
        frame = frame.replace(f"{word.capitalize()} {{date}}", f"{replacement.capitalize()} {{date}}")
    return frame.format(date=date)


def date_written(day: int, month: int, year: int | None, translation: str, language: str) -> bool:
    """Whether `translation` holds the date (`month` 0 for January) once as `language` writes
    dates, its year once where it has one, and no comma before the sentence's end ("June 3,."); in
    English no "the" before a date written month first ("born the June 3")."""
    name = MONTHS[language][month]
    day_written = {
        "de": rf"(?<!\d){day}\. {name}",
        "fr": rf"(?<!\d)(?:{day}|1er) {name}" if day == 1 else rf"(?<!\d){day} {name}",
        "en": rf"{name} {day}(?:st|nd|rd|th)?(?!\d)|(?<!\d){day}(?:st|nd|rd|th)? (?:of )?{name}",
    }[language]
    numbers = re.findall(r"(?<![\d.,:])\d+(?![\d:])", translation)
    return (
        re.search(day_written, translation, re.I) is not None
        and len(re.findall(name, translation, re.I)) == 1
        and numbers.count(str(day)) == 1
        and (year is None or numbers.count(str(year)) == 1)
        and re.search(r",\s*[.?!]", translation) is None
        and (language != "en" or re.search(rf"\bthe {name} {day}(?!\d)", translation, re.I) is None)
    )


def given_right(day: int, month: int, year: int | None, translation: str, language: str, anchor: str) -> bool:
    """Whether `translation` holds the date (date_written) and `anchor`, the frame's own word."""
    return date_written(day, month, year, translation, language) and re.search(anchor, translation, re.I) is not None


def main() -> None:
    args, source, target = direction_arguments(__doc__.splitlines()[0], sorted(FORMS), "en-fr")
    translator = attn.load(notify=lambda note: None)
    rows, missed = [], []
    source_form = FORMS[args.direction][0]
    candidates = [(*form, True) for form in FORMS[args.direction]]  # each as written, runtime/dates.py off
    for name, form, before, as_written in [*candidates, ("read by runtime/dates.py", *source_form[1:], False)]:
        word = f"{before[1]} " if before else ""
        row = [name, f"`{word}{form(3, 5, None)}`, `{word}{form(3, 5, YEAR)}`"]
        for year in (None, YEAR):
            cases = [
                (day, month, framed(frame, form(day, month, year), before), anchors[target])
                for month, day in enumerate(DAYS)
                for frame, anchors in FRAMES[source]
            ]
            with dates_off() if as_written else nullcontext():
                outputs = [result.text for result in translator.translate([case[2] for case in cases], source, target)]
            right = [
                given_right(day, month, year, output, target, anchor)
                for (day, month, _, anchor), output in zip(cases, outputs)
            ]
            row.append(f"{sum(right)} of {len(cases)}")
            missed += [f"- {name}: {case[2]} → {output}" for case, output, ok in zip(cases, outputs, right) if not ok][
                :2
            ]
        rows.append(row)
    alone = {}
    if args.direction == "en-de":
        alone["A range of dates"] = (
            ranges_given_right(translator),
            f"{len(RANGE_FRAMES)} frames × {len(RANGES)} ranges within a month, without and with the year; given "
            "right when the German holds the first day with its point, the last with its point and the month, the "
            "month at most twice, the year once where it has one, no other number, and the frame's own word.",
        )
        alone["Sentences with a range of dates that a helper wrote without seeing the rule"] = (
            held_out_ranges(translator),
            "benchmarks/date_ranges/en.tsv (40, each form of range people write, a third with a year, a quarter across "
            "two months), given right as above, each month named at most twice.",
        )
    if source != "de" and target != "de":  # between English and French
        named = (
            "each in each frame of ours (without and with a year where a month has one); given right when the "
            "translation names it once in the target's words, with the year and the frame's own word."
        )
        alone["A month's name alone"] = (
            names_alone(translator, source, target, MONTHS, MONTH_FRAMES, (None, YEAR)),
            named,
        )
        alone["A weekday's name"] = (names_alone(translator, source, target, WEEKDAYS, WEEKDAY_FRAMES, (None,)), named)
    lines = [
        command_line(),
        "",
        f"{source}→{target}: {len(FRAMES[source])} frames × {len(DAYS)} dates (one in each month: days "
        f"{', '.join(map(str, DAYS))}), without and with the year {YEAR}; the installed models' default search, "
        "the date written in each form and read as written (runtime/dates.py off), then the source's own form "
        "read as runtime/dates.py reads it.",
        "",
        table(["form", "example", "dates given right", "with the year"], rows),
        *[
            line
            for kind, (found, described) in alone.items()
            for line in (
                "",
                f"{kind}: {described}",
                "",
                table(["form", "example", "given right", *(["with the year"] if len(found[0]) > 3 else [])], found),
            )
        ],
        "",
        "Two missed of each form and year:",
        "",
        *missed,
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
