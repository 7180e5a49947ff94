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
# heures du soir": 20:00, which "8 a.m." had made a morning), or joins it to another ("3-5 pm", "3
# and 5 pm": the first would stay a morning hour): such a time is left as it is
PART_OF_DAY = re.compile(
    r"\s+(?:(?:morgens|früh|vormittags|mittags|nachmittags|abends|nachts)\b|(?:am|in der) (?:Morgen|Vormittag|"
    r"Nachmittag|Abend|Nacht)\b|(?:du|de l'|de l’)\s*(?:matin|après-midi|soir)\b)",
    re.I,
)
RANGE_BEFORE = re.compile(
    r"(?<![\d:.,/])(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s*(?:[-–—]|to|and|or|until|till|bis|und|oder|et|ou)\s*$", re.I
)


def read_times(sentence: str, source: str, target: str) -> str:
    """`sentence` with each time of another clock than `target`'s written as `target` writes
    times, in as many words: into a language of the 24-hour clock "H:MM" and its hour's word ("9
    am" → "9:00 Uhr" into German, "9:00 h" into French, "12 am" → "0:00 Uhr", "7:30pm" → "19:30"), into English the 12-hour clock's ("um 9 Uhr" → "um 9
    a.m.", "à 14h30" → "à 2:30pm"); as it is where the clocks are the same, and a time with a part
    of the day after it or a range's end (PART_OF_DAY, RANGE_BEFORE)."""
    pattern = TIMES.get(source)
    if pattern is None or (source in TWELVE_HOUR_LANGUAGES) == (target in TWELVE_HOUR_LANGUAGES):
        return sentence

    def written(time: re.Match) -> str:
        if PART_OF_DAY.match(sentence, time.end()) or RANGE_BEFORE.search(sentence[: time.start()]):
            return time.group()
        hour, minutes, space = day_hour(time), time["minutes"], time["space"]
        if target not in TWELVE_HOUR_LANGUAGES:  # the hour's word after a space, none glued
            end = "." if time.group().endswith(".") and time.end() == len(sentence) else ""  # "p.m." ending it
            return f"{hour}:{minutes or '00'}" + (f"{space}{HOUR_WORDS.get(target, 'h')}{end}" if space else end)
        half = ("a.m" if hour < 12 else "p.m") if space else ("am" if hour < 12 else "pm")
        end = "" if not space or sentence[time.end() : time.end() + 1] == "." else "."  # "um 9 Uhr." → "um 9 a.m."
        return f"{hour % 12 or 12}{':' + minutes if minutes else ''}{space}{half}{end}"

    return pattern.sub(written, sentence)


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
