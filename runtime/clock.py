"""Times read as the target language writes them, which the models copy right.

The models got the hour of a time wrong when it went from one clock to the other: into German,
"9 am" became "21 Uhr" and "2 pm" "2 Uhr"; into French "6 pm" stayed and "10 a.m." was lost ("à
10, demain"); from German, "um 9 Uhr" and "um 14 Uhr" became "at 9pm", from French "à 20 heures"
"at 20 o'clock". Written as the target language writes times ("9:00 Uhr", "18:00 Uhr" into German,
"18h" into French, "9am", "2:30pm" into English), the same sentences came out right ("um 9:00 Uhr",
"à 18h", "at 9am", "at 2:30pm"). So the model reads a time so, in the form of the target's that it
copied right most often (benchmarks/time_forms.py); where that is as many words as were written
("9 am" → "9:00 Uhr"), the words of the alignment are the user's again
(runtime/alignment.py `restored`).
"""

from __future__ import annotations

import re

from .dates import MONTHS

# The languages whose speakers write times on the 12-hour clock; the others write the 24-hour clock
TWELVE_HOUR_LANGUAGES = frozenset({"en"})
# A time as each source language writes it: what comes before it (BEFORE) and the time (BODIES);
# groups: hour, minutes, the space before the hour's word or mark, and the 12-hour clock's half
BEFORE = {
    "en": r"(?<![\w:.,])",
    "de": r"(?<![\w:.,])",
    # after "à", but not a number's ("Comptez 2 à 3 heures": a duration), "vers" or "dès" ("vers
    # 15h30" had become "to 15:30"), and "avant" or "après" before an hour written with "h" that no
    # "de" follows ("avant 18 h" had stayed "before 18 h"; "après 2 heures", "après 20 h de voyage":
    # durations)
    "fr": r"(?:(?<=\b[àÀ] )|(?<=\b[Vv]ers )|(?<=\b[Dd]ès )|(?:(?<=\b[Aa]vant )|(?<=\b[Aa]près ))"
    r"(?=\d{1,2}\s?h(?!eure)(?:\s?\d\d)?(?!\s*(?:de\b|d'|d’))))(?<!\d [àÀ] )",
}
BODIES = {
    # "9 am", "7:30pm", "7.30 pm" (British), "10 a.m.", "3 P.M." (its last dot is the sentence's
    # when nothing follows)
    "en": r"(?P<hour>1[0-2]|0?[1-9])(?:[:.](?P<minutes>[0-5]\d))?(?P<space>\s?)(?P<half>[ap])(?:m|\.m\.?)(?!\w)",
    # "9 Uhr", "14.30 Uhr", "9 UHR" (read in small letters: runtime/capitals.py)
    "de": r"(?P<hour>[01]?\d|2[0-3])(?:[:.](?P<minutes>[0-5]\d))?(?P<space>\s?)(?i:uhr)(?!\w)",
    # "à 9 h", "à 14h30", "à 14 h 30" (the model had lost the hour of "à 18 h 30"), "à 20 heures";
    # not "à 2 heures de Paris" (a distance)
    "fr": r"(?P<hour>[01]?\d|2[0-3])(?P<space>\s?)(?:h|heures?(?!\s*(?:de\b|d'|d’)))(?:\s?(?P<minutes>[0-5]\d))?"
    r"(?!\w)(?!\s*\d)",
}
FLAGS = {"en": re.I, "de": 0, "fr": 0}
TIMES = {language: re.compile(BEFORE[language] + BODIES[language], FLAGS[language]) for language in BODIES}
# The word after a time of the 24-hour clock ("19:10 Uhr"; "19:10 h" had been copied into German
# as "h" at times); French glues its own (french_time), another language (an imported model's) none
HOUR_WORDS = {"de": "Uhr"}
# What tells the half of the day of a time of the 24-hour clock read on it ("um 8 Uhr abends", "à 8
# heures du soir": 20:00, which "8 a.m." had made a morning): such a time is left as it is
PART_OF_DAY = re.compile(
    r"\s+(?:(?:morgens|früh|vormittags|mittags|nachmittags|abends|nachts)\b|(?:am|in der) (?:Morgen|Vormittag|"
    r"Nachmittag|Abend|Nacht)\b|(?:du|de l'|de l’)\s*(?:matin|après-midi|soir)\b)",
    re.I,
)
# An English hour whose half of the day the words after it tell ("9 o'clock in the morning", "at 8
# in the evening", "11:30 at night"): into German "9 in the morning" had become "21 Uhr morgens", and
# "11 o'clock at night" "11 Uhr"; read as "9 am", "8 pm", "11:30 pm" (named_half), then as such a
# time. A bare number is an hour only after a word that puts a time ("at", "until"…): "Take 2 in
# the morning", "chapter 9 in the morning paper", "June 3 in the evening" are no times
AFTER_TIME_WORD = "|".join(
    rf"(?<=\b{word} )"
    for word in ("at", "by", "to", "until", "till", "from", "before", "after", "around", "about", "since", "past")
)
NAMED_HALVES = re.compile(
    rf"(?:{AFTER_TIME_WORD}|(?=\d{{1,2}}(?::|\s+o['’]clock)))"
    r"(?<![\w:.,])(?P<hour>1[0-2]|0?[1-9])(?::(?P<minutes>[0-5]\d))?(?:\s+o['’]clock)?"
    r"\s+(?P<part>in\s+the\s+(?:morning|afternoon|evening)|at\s+night)\b",
    re.I,
)
# A range's first time, whose clock or half of the day its end tells where it has none of its own
# ("2-4 pm", "von 14 bis 16 Uhr", "de 14 h à 16 h"; left as it was, "2-4 pm" had become "2-4 Uhr"
# and "von 14 bis 16 Uhr" "from 14 to 4pm"), the bare hours listed before it ("3, 4 or 5 pm"), and
# the words joining the two; groups: listed, start_hour, start_minutes, start_word (its own half or
# hour's word: "8 am to 3 pm", read as two times, had become "8:00 Uhr bis 15 Uhr bis 15:00 Uhr"),
# start_half
HOUR_NUMBERS = {"en": r"1[0-2]|0?[1-9]", "de": r"[01]?\d|2[0-3]", "fr": r"[01]?\d|2[0-3]"}
RANGE_STARTS = {
    "en": r"(?P<start_hour>1[0-2]|0?[1-9])(?:[:.](?P<start_minutes>[0-5]\d))?(?P<start_word>\s?(?P<start_half>[ap])(?:m|\.m\.?))?",
    "de": r"(?P<start_hour>[01]?\d|2[0-3])(?:[:.](?P<start_minutes>[0-5]\d))?(?P<start_word>\s?(?i:uhr))?",
    "fr": r"(?P<start_hour>[01]?\d|2[0-3])(?P<start_word>\s?h(?:\s?(?P<start_minutes>[0-5]\d))?)?",
}
LISTED_HOUR = re.compile(r"(\d{1,2})(?::([0-5]\d))?(,\s*)")
JOINTS = {"en": "to|until|till|through|and|or", "de": "bis|und|oder", "fr": "à|et|ou"}
# Joints of a list rather than a range where both times have their own half or hour's word ("at 5
# pm and 8 pm"; "between 2 and 4 pm" is a range)
LIST_JOINTS = frozenset({"and", "or", "und", "oder", "et", "ou"})
RANGES = {
    language: re.compile(
        rf"(?:(?<![\w:.,/])(?P<listed>(?:(?:{HOUR_NUMBERS[language]})(?::[0-5]\d)?,\s*)+)?{start}"
        rf"(?P<joint>\s*[-–—]\s*|\s+(?:{JOINTS[language]})\s+))?(?(start_hour)|{BEFORE[language]}){BODIES[language]}",
        FLAGS[language],
    )
    for language, start in RANGE_STARTS.items()
}
# A month's name before a number: the day of a date ("June 3 – 9 pm", "le 3 mai – 9 h"), not a
# range's first time
DAY_BEFORE = re.compile(rf"\b(?:{'|'.join(MONTHS)})\.?\s+$|\b(?:le|am|den)\s+$", re.I)
# What opens a French range of bare hours ("de 14 à 16 h", "entre 14 et 16 heures"); without it, or
# with what counts hours after it, it is a duration ("2 à 3 heures", "entre 12 et 14 heures par jour")
FRENCH_RANGE_BEFORE = re.compile(r"\b(?:de|des|entre)\s+$", re.I)
FRENCH_DURATION_AFTER = re.compile(r"\s+(?:par|de travail|d'affilée|d’affilée)\b", re.I)


# A time as read_times writes it into French (french_time; a range's last time: "de 14 à 16 h"), set
# aside from the search as read: the model had written "à 19 h 45" as "à 19, 45" and "à 8 h 15" as
# "à 8 heures" (104 of 126 times with minutes right, 126 set aside: docs/studies/TIME-FORMS.md, "Set
# aside"). Into German and English the model lost the preposition before a time set aside ("at 9
# am" → "bei 9 Uhr", "um 18 Uhr" → "around 6pm"), and copied their times right as read.
FRENCH_WRITTEN = re.compile(r"(?<![\w:.,])(?:[01]?\d|2[0-3])(?:h(?:[0-5]\d)?|\sh(?:\s[0-5]\d)?)(?![\w:])")


def time_spans(text: str, source: str, target: str) -> list[tuple[int, int]]:
    """(start, end) of each time of `text`, a sentence of `source` as read, that read_times wrote
    into French (FRENCH_WRITTEN; one the source wrote so, "21h30", too); none into another
    language or from one of the same clock."""
    if target != "fr" or source not in TWELVE_HOUR_LANGUAGES:
        return []
    return [time.span() for time in FRENCH_WRITTEN.finditer(text)]


def read_times(sentence: str, source: str, target: str) -> str:
    """`sentence` with each time of another clock than `target`'s written as `target` writes
    times: into German "H:MM" and its hour's word ("9 am" → "9:00 Uhr", "12 am" → "0:00 Uhr",
    "7:30pm" → "19:30"), into French french_time ("9 am" → "9h"), into English twelve_hour ("um 9
    Uhr" → "um 9am", "à 14h30" → "à 2:30pm"); a range as range_written has it; as it is where the
    clocks are the same, and a time (or range) of the 24-hour clock with a part of the day after it
    (PART_OF_DAY). An English time's half of the day may be named (NAMED_HALVES)."""
    pattern = RANGES.get(source)
    if pattern is None or (source in TWELVE_HOUR_LANGUAGES) == (target in TWELVE_HOUR_LANGUAGES):
        return sentence
    if source == "en":
        sentence = NAMED_HALVES.sub(named_half, sentence)

    def written(time: re.Match) -> str:
        if PART_OF_DAY.match(sentence, time.end()):
            return time.group()
        if time["start_hour"] is None:
            return written_alone(time)
        if (
            source == "fr"
            and not time["start_word"]
            and (
                not FRENCH_RANGE_BEFORE.search(sentence, 0, time.start())
                or FRENCH_DURATION_AFTER.match(sentence, time.end())
            )
        ):
            return time.group()  # "Comptez 2 à 3 heures", "entre 12 et 14 heures par jour": durations
        if DAY_BEFORE.search(sentence, 0, time.start()):  # "June 3 – 9 pm": a date's day, then a time
            return sentence[time.start() : time.start("hour")] + written_alone(time)
        if not time["start_word"] or time["joint"].strip().lower() not in LIST_JOINTS:
            return range_written(time, target)
        first = TIMES[source].match(sentence, time.start("start_hour"))  # "5 pm and 8 pm": two times
        if first is None:  # "entre 14h et 16h": not after "à", a time only as the range's first
            return range_written(time, target)
        listed = sentence[time.start() : first.start()]
        return listed + written_alone(first) + sentence[first.end() : time.start("hour")] + written_alone(time)

    def written_alone(time: re.Match) -> str:
        hour, minutes, space = day_hour(time), time["minutes"], time["space"]
        last = sentence_point(time)
        if target == "fr":
            return french_time(hour, minutes) + last
        if target not in TWELVE_HOUR_LANGUAGES:  # the hour's word after a space, none glued
            word = HOUR_WORDS.get(target)
            return f"{hour}:{minutes or '00'}" + (f"{space}{word}{last}" if space and word else last)
        return twelve_hour(hour, minutes)

    return pattern.sub(written, sentence)


def named_half(time: re.Match) -> str:
    """A time of NAMED_HALVES as the 12-hour clock writes it: "9 am", "11 pm"; at night the hours
    before 6 are the morning's, and 12 is noon only in the afternoon (midnight otherwise)."""
    hour, part = int(time["hour"]), time["part"].lower()
    if hour == 12:
        morning = not part.endswith("afternoon")
    else:
        morning = part.endswith("morning") or (part.endswith("night") and hour < 6)
    return f"{time['hour']}{':' + time['minutes'] if time['minutes'] else ''} {'am' if morning else 'pm'}"


def sentence_point(time: re.Match) -> str:
    """The sentence's point that a time's "p.m." ending it took in: "." or ""."""
    return "." if time.group().endswith(".") and time.end() == len(time.string) else ""


def french_time(hour: int, minutes: str | None) -> str:
    """Hour `hour` of the 24-hour clock as French typography writes it, "h" spaced ("21 h", "21 h
    30"): set aside from the search (time_spans), it is copied as it is; copied by the model, the
    glued "21h" had come through more often (docs/studies/TIME-FORMS.md)."""
    return f"{hour} h" if minutes is None else f"{hour} h {minutes}"


def twelve_hour(hour: int, minutes: str | None) -> str:
    """Hour `hour` of the 24-hour clock on the 12-hour clock, glued to its half ("9am", "7:30pm"):
    the form the shipped de-en model copied right most often on sentences of our own (`python -m
    benchmarks.time_forms --to en`, docs/studies/TIME-FORMS.md: 42 of 42 whole hours, 126 of 126
    with minutes; as "9 p.m." 35 and 91, "It should be p.m.", "today.m.")."""
    return f"{hour % 12 or 12}{':' + minutes if minutes else ''}{'am' if hour < 12 else 'pm'}"


def range_written(time: re.Match, target: str) -> str:
    """A range matched by a pattern of RANGES written as `target` writes times, its joint as it
    was, in the forms the shipped models copied right most often on sentences of our own (`python
    -m benchmarks.time_forms --to de`, and `--to fr`; docs/studies/TIME-FORMS.md): into German its
    hours bare and the hour's word after the last ("8 am to 3 pm" → "8 to 15 Uhr", "2-4pm" →
    "14-16 Uhr": 30 of 30 ranges, against 19 as single times are written, "8:00 Uhr to 15:00 Uhr";
    into a language without an hour's word here "14:00-16:00"), into French each as french_time
    writes it ("de 14 h à 16 h", both set aside), into English glued
    to their half, the first bare where its half is the last's and it had no half or hour's word
    of its own ("von 14 bis 16 Uhr" → "von 2 bis 4pm", "von 9 bis 17 Uhr" → "von 9am bis 5pm"; as
    "von 7 bis 8 p.m." the range's end had been lost: "from 7 to p.m."). Hours listed before the
    first are written as it is ("3, 4 or 5 pm" → "15, 16 or 17 Uhr")."""
    last, joint = day_hour(time), time["joint"]
    minutes = whole_hour(time["minutes"])
    twelve = "half" in time.re.groupindex  # the source's clock: its first hours take the last's half
    listed = LISTED_HOUR.sub(
        lambda item: (
            first_written(
                first_hour(int(item[1]), None, last if twelve else None), whole_hour(item[2]), False, last, target
            )
            + item[3]
        ),
        time["listed"] or "",
    )
    first = first_hour(int(time["start_hour"]), time["start_half"] if twelve else None, last if twelve else None)
    start = listed + first_written(first, whole_hour(time["start_minutes"]), bool(time["start_word"]), last, target)
    if target in TWELVE_HOUR_LANGUAGES:
        return start + joint + twelve_hour(last, minutes)
    stop = sentence_point(time)
    if target == "fr":
        return f"{start}{joint}{last} h{' ' + minutes if minutes else ''}{stop}"
    if target not in HOUR_WORDS:  # no hour's word to tell a time: its minutes do
        return f"{start}{joint}{last}:{minutes or '00'}{stop}"
    return f"{start}{joint}{last}{':' + minutes if minutes else ''}{time['space'] or ' '}{HOUR_WORDS[target]}{stop}"


def whole_hour(minutes: str | None) -> str | None:
    """A range's minutes, None for a whole hour: "8:00 AM - 6:00 PM" is read "8-18 Uhr" (as "8:00 -
    18:00 Uhr", the model had lost its end)."""
    return None if minutes in (None, "00") else minutes


def first_written(hour: int, minutes: str | None, own_word: bool, last: int, target: str) -> str:
    """A range's first time (or one listed before it), hour `hour` of the 24-hour clock, as
    range_written writes it before the range's `last` hour."""
    if target in TWELVE_HOUR_LANGUAGES:
        if own_word or (hour < 12) != (last < 12):
            return twelve_hour(hour, minutes)
        return f"{hour % 12 or 12}{':' + minutes if minutes else ''}"
    if target == "fr":
        return french_time(hour, minutes)
    if target not in HOUR_WORDS:
        return f"{hour}:{minutes or '00'}"
    return f"{hour}{':' + minutes if minutes else ''}"


def first_hour(hour: int, own_half: str | None, last: int | None) -> int:
    """The hour of the 24-hour clock of a range's first time, written `hour`: on the 24-hour clock
    (`last` None) as it is; on the 12-hour clock in its own half of the day, or the last's unless
    it would come after the last ("9-5 pm": 9 in the morning, "11-1 pm": 11), before 12 in the
    morning ("10-12 pm")."""
    if last is None:
        return hour
    if own_half:
        return hour % 12 + (12 if own_half.lower() == "p" else 0)
    if last % 12 == 0:  # "10-12 pm", "10, 11 and 12 am": the morning, to noon
        return hour % 12
    if hour % 12 <= last % 12:
        return hour % 12 + last - last % 12
    return (hour % 12 + last - last % 12 + 12) % 24


def day_hour(time: re.Match) -> int:
    """The hour of the 24-hour clock of a time found by a pattern of TIMES."""
    hour = int(time["hour"])
    if "half" not in time.re.groupindex:
        return hour
    return hour % 12 + (12 if time["half"].lower() == "p" else 0)
