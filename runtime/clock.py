"""Times read as the target language writes them, which the models copy right.

The models got the hour of a time wrong when it went from one clock to the other: into German,
"9 am" became "21 Uhr" and "2 pm" "2 Uhr"; into French "6 pm" stayed and "10 a.m." was lost ("à
10, demain"); from German, "um 9 Uhr" and "um 14 Uhr" became "at 9pm", from French "à 20 heures"
"at 20 o'clock". Written as the target language writes times ("9:00 Uhr", "18:00 Uhr" into German,
"18:00 h" into French, "9 a.m.", "2:30 p.m." into English), the same sentences came out right ("um
9:00 Uhr", "à 18:00 h", "at 9 a.m.", "at 2:30 p.m."). So the model reads a time so, in as many words as it was
written (but French minutes after a space: "à 18 h 30" → "à 6:30 p.m."), and the words of the
alignment are the user's again (`restored`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .alignment import WordAlignment
from .words import word_spans

# The languages whose speakers write times on the 12-hour clock; the others write the 24-hour clock
TWELVE_HOUR_LANGUAGES = frozenset({"en"})
# A time as each source language writes it; groups: hour, minutes, the space before the hour's
# word or mark, and the 12-hour clock's half
TIMES = {
    # "9 am", "7:30pm", "10 a.m.", "3 P.M." (its last dot is the sentence's when nothing follows)
    "en": re.compile(
        r"(?<![\w:.,])(?P<hour>1[0-2]|0?[1-9])(?::(?P<minutes>[0-5]\d))?(?P<space>\s?)(?P<half>[ap])\.?m\.?(?!\w)", re.I
    ),
    # "9 Uhr", "14.30 Uhr"
    "de": re.compile(r"(?<![\w:.,])(?P<hour>[01]?\d|2[0-3])(?:[:.](?P<minutes>[0-5]\d))?(?P<space>\s?)Uhr(?!\w)"),
    # after "à": "à 9 h", "à 14h30", "à 14 h 30" (read a word shorter: "2:30 p.m."; the model had lost
    # the hour of "à 18 h 30"), "à 20 heures"; not "à 2 heures de Paris" (a distance)
    "fr": re.compile(
        r"(?<=\b[àÀ] )(?P<hour>[01]?\d|2[0-3])(?P<space>\s?)(?:h|heures?(?!\s*(?:de\b|d'|d’)))"
        r"(?:\s?(?P<minutes>[0-5]\d))?(?!\w)(?!\s*\d)"
    ),
}
# The word after a time of the 24-hour clock ("19:10 Uhr"; "19:10 h" had been copied into German
# as "h" at times)
HOUR_WORDS = {"de": "Uhr", "fr": "h"}
# What tells the half of the day of a time of the 24-hour clock read on it ("um 8 Uhr abends", "à 8
# heures du soir": 20:00, which "8 a.m." had made a morning): such a time is left as it is
PART_OF_DAY = re.compile(
    r"\s+(?:(?:morgens|früh|vormittags|mittags|nachmittags|abends|nachts)\b|(?:am|in der) (?:Morgen|Vormittag|"
    r"Nachmittag|Abend|Nacht)\b|(?:du|de l'|de l’)\s*(?:matin|après-midi|soir)\b)",
    re.I,
)
# A range's first time, whose clock or half of the day its end tells ("2-4 pm", "von 14 bis 16 Uhr",
# "de 14 h à 16 h"; left as it was, "2-4 pm" had become "2-4 Uhr" and "von 14 bis 16 Uhr" "from 14
# to 4pm"), and the words joining the two; groups: start_hour, start_minutes, start_word (its
# hour's word, in French)
RANGE_STARTS = {
    "en": r"(?P<start_hour>1[0-2]|0?[1-9])(?::(?P<start_minutes>[0-5]\d))?(?P<start_word>)",
    "de": r"(?P<start_hour>[01]?\d|2[0-3])(?:[:.](?P<start_minutes>[0-5]\d))?(?P<start_word>)",
    "fr": r"(?P<start_hour>[01]?\d|2[0-3])(?P<start_word>\s?h(?:\s?(?P<start_minutes>[0-5]\d))?)?",
}
JOINTS = {"en": "to|until|till|through|and|or", "de": "bis|und|oder", "fr": "à|et|ou"}
# A month's name before a number: the day of a date ("June 3 – 9 pm", "le 3 mai – 9 h"), not a
# range's first time
DAY_BEFORE = re.compile(
    r"\b(?:jan|feb|febr|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|janv|févr|avr|mai|juin|juil|déc|jän|mär|okt|dez)"
    r"[a-zäéû]*\.?\s+$|\b(?:le|am|den)\s+$",
    re.I,
)
RANGES = {
    language: re.compile(
        rf"(?:(?<![\w:.,/]){start}(?P<joint>\s*[-–—]\s*|\s+(?:{JOINTS[language]})\s+))?{TIMES[language].pattern}",
        TIMES[language].flags,
    )
    for language, start in RANGE_STARTS.items()
}


def read_times(sentence: str, source: str, target: str) -> str:
    """`sentence` with each time of another clock than `target`'s written as `target` writes
    times, in as many words: into a language of the 24-hour clock "H:MM" and its hour's word ("9
    am" → "9:00 Uhr" into German, "9:00 h" into French, "12 am" → "0:00 Uhr", "7:30pm" → "19:30"),
    into English the 12-hour clock's ("um 9 Uhr" → "um 9 a.m.", "à 14h30" → "à 2:30pm"); a range
    as range_written has it; as it is where the clocks are the same, and a time (or range) with a
    part of the day after it (PART_OF_DAY)."""
    pattern = RANGES.get(source)
    if pattern is None or (source in TWELVE_HOUR_LANGUAGES) == (target in TWELVE_HOUR_LANGUAGES):
        return sentence

    def written(time: re.Match) -> str:
        if PART_OF_DAY.match(sentence, time.end()):
            return time.group()
        if time["start_hour"] is not None:
            if not DAY_BEFORE.search(sentence, 0, time.start()):
                return range_written(time, target)
            return sentence[time.start() : time.start("hour")] + written_alone(time)  # "June 3 – 9 pm"
        return written_alone(time)

    def written_alone(time: re.Match) -> str:
        hour, minutes, space = day_hour(time), time["minutes"], time["space"]
        if target not in TWELVE_HOUR_LANGUAGES:  # the hour's word after a space, none glued
            last = "." if time.group().endswith(".") and time.end() == len(sentence) else ""  # "p.m." ending it
            return f"{hour}:{minutes or '00'}" + (f"{space}{HOUR_WORDS.get(target, 'h')}{last}" if space else last)
        last = "" if not space or sentence[time.end() : time.end() + 1] == "." else "."  # "um 9 Uhr." → "um 9 a.m."
        return twelve_hour(hour, minutes, space) + last

    return pattern.sub(written, sentence)


def twelve_hour(hour: int, minutes: str | None, space: str) -> str:
    """Hour `hour` of the 24-hour clock on the 12-hour clock: "9 a.m" after a space (the caller
    writes its last dot), "9am" glued."""
    half = ("a.m" if hour < 12 else "p.m") if space else ("am" if hour < 12 else "pm")
    return f"{hour % 12 or 12}{':' + minutes if minutes else ''}{space}{half}"


def range_written(time: re.Match, target: str) -> str:
    """A range matched by a pattern of RANGES written as `target` writes times, its joint as it
    was. Into German its hours bare and the hour's word after the last ("2-4 pm" → "14-16 Uhr",
    "from 9:30 to 5 pm" → "from 9:30 to 17 Uhr"), into French glued to "h" ("de 14h à 16h30"),
    into English glued to their half, the first bare where its half is the last's and it had no
    hour's word ("von 14 bis 16 Uhr" → "von 2 bis 4pm", "von 9 bis 17 Uhr" → "von 9am bis 5pm").
    Written as the single times are ("14:00-16:00 Uhr", "von 7 bis 8 p.m."), the shipped models
    had lost the range's end ("from 7 to p.m."), moved its half ("from 11am to 10 today.m.") or
    written a minute twice."""
    first, last = start_hour(time), day_hour(time)
    first_minutes, minutes, space, joint = time["start_minutes"], time["minutes"], time["space"], time["joint"]
    if target in TWELVE_HOUR_LANGUAGES:
        start = f"{first % 12 or 12}{':' + first_minutes if first_minutes else ''}"
        if time["start_word"] or (first < 12) != (last < 12):
            start = twelve_hour(first, first_minutes, "")
        return start + joint + twelve_hour(last, minutes, "")
    stop = "." if time.group().endswith(".") and time.end() == len(time.string) else ""  # "p.m." ending it
    if target == "fr":
        return f"{first}h{first_minutes or ''}{joint}{last}h{minutes or ''}{stop}"
    word = f"{space}{HOUR_WORDS.get(target, 'h')}" if space else ""
    start = f"{first}{':' + first_minutes if first_minutes else ''}"
    return f"{start}{joint}{last}{':' + minutes if minutes else ''}{word}{stop}"


def start_hour(time: re.Match) -> int:
    """The hour of the 24-hour clock of a range's first time: on the 12-hour clock, in the end's
    half of the day unless it would come after the end ("9-5 pm": 9 in the morning, "11-1 pm": 11)."""
    hour = int(time["start_hour"])
    if "half" not in time.re.groupindex:
        return hour
    end = day_hour(time)
    if hour % 12 <= end % 12:
        return hour % 12 + end - end % 12
    return (hour % 12 + end - end % 12 + 12) % 24


def day_hour(time: re.Match) -> int:
    """The hour of the 24-hour clock of a time found by a pattern of TIMES."""
    hour = int(time["hour"])
    if "half" not in time.re.groupindex:
        return hour
    return hour % 12 + (12 if time["half"].lower() == "p" else 0)


def restored(alignment: WordAlignment, read: str, written: str, language: str) -> WordAlignment:
    """`alignment`, of a translation of `read` (read_times of `written`), with the source words
    as `written` has them, where its words are those of `read` whole (not a part of a long
    sentence's)."""
    if read == written:
        return alignment
    words = [read[start:end] for start, end in word_spans(read, language)]
    own = [written[start:end] for start, end in word_spans(written, language)]
    if list(alignment.source_words) != words or len(own) != len(words):
        return alignment
    return replace(alignment, source_words=own)
