"""Dates read as the target language writes them, which the models translate right.

The models lost dates between languages: into French "on June 3" stayed "sur June 3" (1 of 96 dates
of our own given right), from French "le 3 juin" became "the 3 juin" (32 of 96), from German "am
3. Juni" became "on June 3,." or "on May 1st May" (72 of 96). Written as the target language writes
dates, with the word before them where that helped ("le 3 juin" in an English sentence into
French, "on June 3" in a German one into English), the same sentences came out right far more
often (57, 84 and 90 of 96; `python -m benchmarks.date_forms`, docs/studies/DATE-FORMS.md, which
found English dates into German right as they are written, but for ranges: "from March 3 to March
10" came out "vom 3 bis zum 10. März", and is read "from 3 March to 10 March"; a German day the
model wrote without its point gets it: day_points). Between English and French a month's
name alone had stayed as written ("Le temps commence dans March", "published in février"): it is
read in the target's words (60 of 60 right from French, against 28), and from French a weekday's
name ("The meeting is gamedi": 28 of 28, against 14). Into French a weekday's name is read in French
too, and every date, month and weekday read in French is set aside from the search, which copies
it (read_spans: "Je vous verrai aujourd'hui." had been written for "I will see you on Tuesday."), as
is a date read in English from German ("on June 3pm" had been written for "am 3. Juni um 15 Uhr").
Into German a date is read in German and set aside too: beside a time the model had run them
together ("on Tuesday, March 5th at 3:30 pm" → "am Dienstag, 15. März um 15:30 Uhr"), but one
that opens the sentence, which the model put before its verb only as written. From German a time
after a date is set aside with it ("on June 3 at 3pm": time_at_date), which the model had written
"by 3pm" ("until"). Into French and
German the word before a date is the target's with its article ("since March 5" → "seit dem 5.
März", "depuis le 5 mars"; "from … to …" → "vom … bis zum …", "du … au …"), which the model had
left out ("seit 5. März", "depuis 5 mars"). Into English it is English's, "on" or none (French
"le": english_before; "depuis le" → "since", "bis zum" → "until"), where the models had written "the"
("signed the August 15", "since the May 5", "by the January 1"). The alignment shows the words the
user wrote (runtime/alignment.py `restored`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .alignment import WordAlignment
from .words import opens

# Each language's month names, January first, and the short forms it writes (with or without a point)
MONTH_NAMES = {
    "en": "January February March April May June July August September October November December".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
}
SHORT_MONTHS = {
    "en": {"Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "Jun": 6, "Jul": 7, "Aug": 8, "Sep": 9, "Sept": 9, "Oct": 10}
    | {"Nov": 11, "Dec": 12},
    "de": {"Jän": 1, "Jänner": 1, "Jan": 1, "Feb": 2, "Mär": 3, "Apr": 4, "Jun": 6, "Jul": 7, "Aug": 8, "Sep": 9}
    | {"Sept": 9, "Okt": 10, "Nov": 11, "Dez": 12},
    "fr": {"janv": 1, "févr": 2, "avr": 4, "juil": 7, "sept": 9, "oct": 10, "nov": 11, "déc": 12},
}
# Every month's name and short form in small letters: a number after one is a date's day
MONTHS = frozenset(
    name.lower() for language in MONTH_NAMES for name in [*MONTH_NAMES[language], *SHORT_MONTHS[language]]
)


# Each language's month names and short forms in small letters → the month (1–12)
MONTH_NUMBERS = {
    language: {written.lower(): number for number, written in enumerate(MONTH_NAMES[language], 1)}
    | {written.lower(): number for written, number in SHORT_MONTHS[language].items()}
    for language in MONTH_NAMES
}


def month_number(name: str, language: str) -> int:
    """The month (1–12) that `name` (a name or short form of `language`, any case) stands for."""
    return MONTH_NUMBERS[language][name.lower()]


def _month(language: str) -> str:
    """A pattern of `language`'s month names, the longest first; English and German write them with
    a capital ("may" is a verb), French in small letters or, opening a sentence, a capital."""
    names = sorted([*MONTH_NAMES[language], *SHORT_MONTHS[language]], key=len, reverse=True)
    if language == "fr":
        names = [form for name in names for form in (name, name.capitalize())]
    return "|".join(names)


# The source and target languages whose dates are read otherwise, and the word before the date that
# the target's replaces (None: kept; "": left out)
READ = {
    ("en", "fr"): {"on": "le", "by": "d'ici le", "until": "jusqu'au", "till": "jusqu'au", "since": "depuis le"}
    | {"before": "avant le", "after": "après le", "from": "du", "to": "au", "through": "au"},
    # from German an article before a date left out or read with its preposition: "Montag, den 4.
    # Februar" had come back "Monday, the February 4", "für den 10. Februar" "for the February 10",
    # "bis zum 1. Januar" "by the January 1" (english_before)
    ("de", "en"): {"am": "on", "den": "", "der": "", "dem": "", "zum": "as of", "bis zum": "until"}
    | {"seit dem": "since", "vor dem": "before", "nach dem": "after", "ab dem": "from", "vom": "from"},
    # from French "le" before a date is "on" or nothing, a preposition's article read with it
    # (english_before): "signé le 15 août" had come back "signed the August 15", "depuis le 5 mai"
    # "since the May 5"
    ("fr", "en"): {"le": "on", "depuis le": "since", "avant le": "before", "après le": "after"}
    | {"d'ici le": "by", "jusqu'au": "until", "à partir du": "from", "à compter du": "from"}
    | {"en date du": "dated", "au": "to", "du": "from"},
    # into German a preposition and its article, in the dative a day's date takes ("seit dem 5. März")
    ("en", "de"): {"on": "am", "by": "bis zum", "until": "bis zum", "till": "bis zum", "since": "seit dem"}
    | {"before": "vor dem", "after": "nach dem", "from": "vom", "to": "bis zum", "through": "bis zum"},
}
# From German and French, a range's second date after its first ("vom 14. Juli auf den 21. Juli
# verschoben", "du 3 au 5 mars"): "vom" or "du" before the first is "from", and "of" before a date
# that opens no range ("Ihr Schreiben vom 3. März", "l'assemblée du 18 juin" had come back "of the
# June 18"; "le concert du 3 mars au Zénith" opens none)
RANGE_AFTER = {
    "de": re.compile(r" (?:bis(?: zum)?|auf(?: den)?) (?:[^\W\d_]+,? )?\d"),
    "fr": re.compile(r" (?:au|jusqu['’]au) (?:[^\W\d_]+ )?\d"),
}
OPENING_A_RANGE = frozenset({"vom", "du"})
# From German, the words before a date that stay as written where they open the sentence: read in
# English and set aside with the date, the model took the date for the subject ("Seit dem 3. März
# ist das Museum geschlossen." → "Since March 3 is the museum.")
GERMAN_OPENING_KEPT = frozenset({"seit dem", "vor dem", "nach dem", "ab dem", "bis zum", "zum", "vom"})
# "from" before a date that no second one follows ("open from May 1"): the target's word for a start
FROM_ALONE = {("en", "fr"): "à partir du", ("en", "de"): "ab dem"}


def _before(language: str) -> str:
    """A pattern of the words that stand before a date in `language` that READ reads otherwise or
    writes (FROM_ALONE's too), each opening in either case, the longest first."""
    words = {word for (source, _), read in READ.items() if source == language for word in read}
    words |= {word for (_, target), read in READ.items() if target == language for word in read.values() if word}
    words |= {word for (_, target), word in FROM_ALONE.items() if target == language}
    alternatives = sorted(words, key=len, reverse=True)
    return "|".join(f"[{word[0]}{word[0].upper()}]{re.escape(word[1:])}" for word in alternatives).replace("'", "['’]")


def _key(before: str) -> str:
    """The words before a date as READ holds them: in small letters, a typographic apostrophe
    straight ("jusqu’au" → "jusqu'au")."""
    return before.strip().lower().replace("’", "'")


DAY = r"(?P<day>3[01]|[12]\d|0?[1-9])"
YEAR = r"(?P<year>(?:1[89]|2[01])\d\d)(?!\d)"
# A date as each source language writes it, with the word before it that a target replaces; an
# English date with its day first has its groups named first_day, first_month and first_year
DATES = {
    "en": re.compile(
        rf"(?P<before>\b(?:{_before('en')}) )?(?:(?P<month>{_month('en')})\.? {DAY}(?:st|nd|rd|th)?(?![\d:.,]\d)(?:,? {YEAR})?"
        rf"|(?:\bthe )?(?<![\w.,]){DAY.replace('day', 'first_day')}(?:st|nd|rd|th)? (?:of )?"
        rf"(?P<first_month>{_month('en')})\b\.?(?:,? {YEAR.replace('year', 'first_year')})?)(?!\w)"
    ),
    "de": re.compile(
        rf"(?P<before>\b(?:{_before('de')}) )?(?<![\w.]){DAY}\. ?(?P<month>{_month('de')})\b\.?(?: {YEAR})?(?!\w)"
    ),
    "fr": re.compile(
        rf"(?P<before>\b(?:{_before('fr')}) )?(?<![\w.,]){DAY}(?:er)? (?P<month>{_month('fr')})\b\.?(?: {YEAR})?(?!\w)"
    ),
}
# A month's full name with no day after it (a day before it is a date's, read first): English
# writes it with a capital, French in small letters ("Mars" is the planet)
MONTH_ALONE = {
    "en": re.compile(rf"(?<![\w.]){'(?:' + '|'.join(MONTH_NAMES['en']) + ')'}\b(?!\.?,? \d{{1,2}}\b)"),
    "fr": re.compile(rf"(?<![\w.]){'(?:' + '|'.join(MONTH_NAMES['fr']) + ')'}\b(?![\w-])"),
}
NAME_AFTER = re.compile(r" [A-Z][a-z]")  # a capitalized word right after a month's name
# Capitalized words before a month's name that are no name's part: what opens a sentence about a time
OPENERS = frozenset(
    "in on since until till by from last next this early late mid during before after of and or the".split()
)
# The directions whose models left a month's name alone untranslated ("dans March", "in février"):
# 12 and 7 of 60 right into French, without and with a year, as written, 40 and 47 in French
# (benchmarks/date_forms.py --direction en-fr)
MONTHS_ALONE_READ = frozenset({("en", "fr"), ("fr", "en")})
WEEKDAY_NAMES = {
    "en": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(),
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche".split(),
}
# A French weekday's name and "le" before it
FRENCH_LE_WEEKDAY = re.compile(rf"(?<![\w-])(?:(?P<le>[Ll]e) )?(?P<day>{'|'.join(WEEKDAY_NAMES['fr'])})(?![\w-])")
# After a French weekday, the words that make "le" before it English's "the" ("le lundi suivant",
# "le dimanche le plus chaud", "le samedi où il est parti", "le lundi de Pâques")
RELATIVE_AFTER = re.compile(
    r" (?:suivant|précédent|prochain|dernier|d['’]après|d['’]avant|le plus|où|qui|que|de|d['’])(?![\w-])"
)
# The directions whose model garbled a weekday's name: from French 11 of 35 right as written
# ("The meeting is gamedi", "We get married at the station"), 21 in English (benchmarks/date_forms.py)
WEEKDAYS_READ = frozenset({("fr", "en")})
# The directions whose dates, months and weekdays, read in the target's words, are set aside from
# the search (runtime/set_aside.py: the model copies "{0}"): into French the model wrote a weekday's
# name as another word ("I will see you on Tuesday." → "Je vous verrai aujourd'hui."), a date read
# in French right in 44 of 96 frames, a month alone "dans mars" or "dans les maris"; set aside, 84 of
# 84, 60 of 96 (the rest the frame's other words) and 50 of 60. From German a date read in English
# ran into a time beside it ("am 3. Juni um 15 Uhr" → "on June 3pm"): 91 → 96 of 96. Not from French:
# set aside, the frames' other words suffered (with "le" read "on" everywhere, 78 → 72 of 96;
# docs/studies/DATE-FORMS.md, "Dates set aside" and "The word before a date into English").
# Into German a date beside a time had run into it ("am Dienstag, 15. März um 15:30 Uhr"): set aside,
# 108 → 128 of 144 (docs/studies/DATE-FORMS.md, "Into German, and the word before a date")
SET_ASIDE_READ = frozenset({("en", "fr"), ("de", "en"), ("en", "de")})
# An English weekday's name, and "on", "last" or "next" before it
ON_WEEKDAY = re.compile(
    rf"(?<![\w-])(?:[Oo]n |(?P<when>[Ll]ast|[Nn]ext) )?(?P<day>{'|'.join(WEEKDAY_NAMES['en'])})(?![\w-])"
)
AFTER_FRENCH_WEEKDAY = {"last": "dernier", "next": "prochain"}  # "last Friday": "vendredi dernier"
# A French weekday's name as french_weekdays writes it ("dernier" or "prochain" after it)
FRENCH_WEEKDAY = re.compile(
    rf"(?<![\w-])(?:{'|'.join(WEEKDAY_NAMES['fr'])})(?: {'| '.join(AFTER_FRENCH_WEEKDAY.values())})?(?![\w-])"
)
# "in" before a month's name read in French ("in juin": "en juin")
IN_FRENCH_MONTH = re.compile(rf"\b([Ii]n) ((?:{'|'.join(MONTH_NAMES['fr'])})\b)")
# A month alone read in French, "en" before it and its year after it ("en juin 2024")
FRENCH_MONTH = re.compile(rf"(?<![\w.])(?:[Ee]n )?(?:{'|'.join(MONTH_NAMES['fr'])})(?: {YEAR})?(?![\w-])")
SENTENCE_AFTER = re.compile(r"\s+[^\W\d_]*[A-ZÄÖÜÀ-Þ]")  # a word opening with a capital
# The targets whose models wrote a sentence's verb second after a date that opens it only as
# written: set aside, "On 14 September 2010 a Chinese company copyrighted …" had become "Am 14.
# September 2010 eine chinesische Firma hat …"
KEEPS_ITS_OPENING_DATE = frozenset({"de"})
# A range's second date: "to" and "through" before it are replaced right after a first date read
# with "from" ("from June 3 to June 5"), as written otherwise; a range's link after its first date
RANGE_ENDS = ("to ", "through ")
RANGE_LINK = re.compile(r"\s*(?:to|until|till|through|[-–—])\s")


# A range of two dates in an English sentence, month first ("from March 3 to March 10, 2025",
# "from March 3 to 10", "between June 5 and June 8", "June 5-8"): a month's name and a day, each date
# maybe with its year; the second's month may be left out where RANGE_END follows. "to", "until",
# "till" and "through" link the dates after "from" or where both have a month; "and" after
# "between"; a dash always.
_LINK = r"(?P<link>[-–—]| [-–—] | (?:to|until|till|through|and) )"
# What may follow a range linked by a word or a spaced dash whose second date has neither month nor
# year of its own: the sentence's end, punctuation,
# or a word that opens what comes next ("from March 3 to 10 in Berlin"); not a noun or a unit
# ("from March 3 to 10 people", "to 10%", "to 5 pm", "to 10 June")
RANGE_END = re.compile(
    r"\s*(?:$|[.,;:!?()\[\]\"'”’»]|(?:and|at|in|for|on|with|while|when|before|after|until|so|but|or|from|to|the)\b)"
)
RANGE = re.compile(
    rf"(?P<opening>\b(?:[Ff]rom|[Bb]etween) )?(?<![\w.])(?P<month>{_month('en')})\.? {DAY}(?:st|nd|rd|th)?"
    rf"(?:,? {YEAR.replace('year', 'first_year')},?)?{_LINK}(?:(?P<second_month>{_month('en')})\.? )?"
    rf"{DAY.replace('day', 'second_day')}(?:st|nd|rd|th)?(?![\d:.,]\d|:)(?:,? {YEAR})?(?!\w)"
)
# The directions whose model garbled a range of dates written month first ("vom 3 bis zum 10. März",
# "zwischen 5 und Juni 8. Juni") and wrote it right day first, each date whole ("from 3 March to 10
# March": benchmarks/date_forms.py --direction en-de)
RANGES_READ = frozenset({("en", "de")})


# From German, a time after a date, both read in English ("am 3. Juni um 15 Uhr" read "on June 3
# um 3pm"): the model had written "at on June 3 3pm" for the two set aside apart; "um" is read
# "at" and the time set aside with the date ("on June 3 at 3pm")
TIMES_AT_DATES = frozenset({("de", "en")})
TIME_AFTER = re.compile(r"(?P<word>,? um | at )(?P<time>\d{1,2}(?::\d{2})?(?:am|pm))(?![\w:])")


def day_first_ranges(sentence: str) -> str:
    """`sentence` (English) with each range of dates (RANGE) written day first, each date whole: "from
    3 March to 10 March 2025", "between 5 June and 8 June"; a dash read "to" ("and" after "between")."""

    def written(found: re.Match) -> str:
        link = found["link"].strip()
        opening = (found["opening"] or "").lower().strip()
        spaced = found["link"] != link  # " to ", " - ": not "5-8", which is a range whatever follows
        if spaced and not (found["second_month"] or found["year"]) and not RANGE_END.match(found.string, found.end()):
            return found.group()  # "from March 3 to 10 people", "On March 3 - 5 people died"
        if link in ("-", "–", "—"):
            link = "and" if opening == "between" else "to"
        elif (link == "and") != (opening == "between") or (not opening and not found["second_month"]):
            return found.group()  # "on June 5 and 6 more", "By March 3 to 5"
        month = found["month"]
        second = found["second_month"] or month
        first_year = f" {found['first_year']}" if found["first_year"] else ""
        year = f" {found['year']}" if found["year"] else ""
        names = [MONTH_NAMES["en"][month_number(name, "en") - 1] for name in (month, second)]
        before = found["opening"] or ""
        return f"{before}{found['day']} {names[0]}{first_year} {link} {found['second_day']} {names[1]}{year}"

    return RANGE.sub(written, sentence)


# A French date as read_dates reads it from French: a weekday's name may stand between the word
# before it and the day ("le samedi 12 juin")
FRENCH_SOURCE_DATE = re.compile(
    DATES["fr"].pattern.replace(
        r"(?<![\w.,])",
        rf"(?:(?P<weekday>{'|'.join(f'[{day[0]}{day[0].upper()}]{day[1:]}' for day in WEEKDAY_NAMES['fr'])}) )?(?<![\w.,])",
        1,
    )
)
# From French, "le" before a date is left out after these words (a preposition or a conjunction:
# "pour le 3 mars", "entre le 3 et le 5 mars") and where a clause opens with the date: read "on"
# there, it was French's pronoun ("Le 7 février, …" → "We February 7, …", "La veille, le 20
# décembre" → "Will, you December 20"); "on" otherwise
FRENCH_LE_LEFT_OUT_AFTER = frozenset(
    "pour dès vers entre sur par pendant durant que et ou avant après depuis sauf hormis".split()
)
CLAUSE_MARKS = ",;:("


def opens_clause(sentence: str, position: int) -> bool:
    """Whether `position` of `sentence` opens it (words.opens) or follows a mark of CLAUSE_MARKS."""
    return opens(sentence, position) or sentence[:position].rstrip().endswith(tuple(CLAUSE_MARKS))


def french_le(sentence: str, position: int) -> str:
    """What French "le" before the date or the weekday at `position` of `sentence` is read as into
    English: "on" after a verb or a noun, none where a clause opens with it or after a word of
    FRENCH_LE_LEFT_OUT_AFTER ("Il est né le 3 mars" → "Il est né on March 3", "Le 3 mars, …" →
    "March 3, …")."""
    words = sentence[:position].split()
    left_out = opens_clause(sentence, position) or not words or words[-1].lower() in FRENCH_LE_LEFT_OUT_AFTER
    return "" if left_out else "on"


def english_before(sentence: str, date: re.Match, source: str, word: str | None) -> str | None:
    """What the word before a German or French `date` in `sentence` is read as into English, READ's
    `word` but: French "le" as french_le says; "du" and "vom" "from" before a range's second date (RANGE_AFTER) and
    "of" otherwise; French "au" "as of" where a clause opens with it ("Au 31 décembre, la société
    comptait …"); German GERMAN_OPENING_KEPT's words as written where they open the sentence."""
    if word is None:
        return None
    key, clause = _key(date["before"]), opens_clause(sentence, date.start())
    if source == "fr" and key == "le":
        return french_le(sentence, date.start())
    if key in OPENING_A_RANGE:
        return "from" if RANGE_AFTER[source].match(sentence, date.end()) else "of"
    if source == "fr" and key == "au" and clause:
        return "as of"
    if source == "de" and key in GERMAN_OPENING_KEPT and opens(sentence, date.start()):
        return None
    return word


def read_dates(sentence: str, source: str, target: str) -> str:
    """`sentence` with each date (a day and a month's name, and its year) written as `target`
    writes dates where that was measured to help (READ): into French "3 juin 2024", into English
    "June 3, 2024", the word before it replaced as READ says ("on June 3" → "le 3 juin"); into German
    a range of dates day first (RANGES_READ, day_first_ranges); and
    between English and French a month's name alone in the target's words (months_alone), and a
    weekday's (weekdays, french_weekdays); into French all of these, and from German a date, then
    set aside from the search (read_spans); as it is otherwise."""
    if (source, target) in RANGES_READ:
        sentence = day_first_ranges(sentence)
    replaced = READ.get((source, target))
    if replaced is None:
        return sentence

    range_start = {"end": None}  # where a range's first date read with "from" ends (-1: kept as written)

    def written(date: re.Match) -> str:
        before = date["before"] or ""
        # a date that opens the sentence, and a range's end after a first date so kept
        range_end_kept = before.lower() in RANGE_ENDS and range_start["end"] == -1
        if target in KEEPS_ITS_OPENING_DATE and (opens(sentence, date.start()) or range_end_kept):
            range_start["end"] = -1 if before.lower() == "from " else None
            return date.group()
        found = date.groupdict()  # an English date has its day first or its month first
        day, month = int(found["day"] or found["first_day"]), found["month"] or found["first_month"]
        year, number = found["year"] or found.get("first_year"), month_number(month, source)
        word = replaced.get(_key(before))
        word = english_before(sentence, date, source, word) if target == "en" and before else word
        if before.lower() in RANGE_ENDS and range_start["end"] != date.start() - 1:
            word = None  # "to" after a range's first date only: "moved to March 5", "heard from Anna … to May 5"
        elif before.lower() == "from " and not RANGE_LINK.match(sentence, date.end()):
            word = FROM_ALONE[source, target]
        range_start["end"] = date.end() if before.lower() == "from " else None
        if word is not None:
            before = (word.capitalize() if before[0].isupper() else word) + " " if word else ""
        if target == "fr":
            text = f"{'1er' if day == 1 else day} {MONTH_NAMES['fr'][number - 1]}" + (f" {year}" if year else "")
        elif target == "de":
            text = f"{day}. {MONTH_NAMES['de'][number - 1]}" + (f" {year}" if year else "")
        else:
            text = f"{MONTH_NAMES['en'][number - 1]} {day}" + (f", {year}" if year else "")
        if found.get("weekday"):  # from French: "le samedi 12 juin" → "on Saturday, June 12"
            text = f"{WEEKDAY_NAMES[target][WEEKDAY_NAMES[source].index(found['weekday'].lower())]}, {text}"
        # a point after the month is the sentence's where it ends there or a sentence follows
        # ("3 Jan. Then …"), or after a name written whole
        whole = month.lower() in (name.lower() for name in MONTH_NAMES[source])
        ends = date.end() == len(sentence) or SENTENCE_AFTER.match(sentence, date.end()) is not None
        point = "." if date.group().endswith(".") and (ends or whole) else ""
        return before + text + point

    read = (FRENCH_SOURCE_DATE if source == "fr" else DATES[source]).sub(written, sentence)
    read = time_at_date(read) if (source, target) in TIMES_AT_DATES else read
    read = months_alone(read, source, target) if (source, target) in MONTHS_ALONE_READ else read
    read = french_weekdays(read) if (source, target) == ("en", "fr") else read
    return weekdays(read, source, target) if (source, target) in WEEKDAYS_READ else read


def time_at_date(sentence: str) -> str:
    """`sentence`, read in part in English, with "um" between a date read so and a time read so
    written "at" ("on June 3 um 3pm" → "on June 3 at 3pm"), the two then set aside as one
    (read_spans)."""
    read, position = "", 0
    for date in DATES["en"].finditer(sentence):
        end = date.end() - date.group().endswith(".")
        time = TIME_AFTER.match(sentence, end)
        if time is not None and time["word"].endswith(" um "):  # "am 3. Juni, um 15 Uhr" too
            read += sentence[position:end] + " at " + time["time"]
            position = time.end()
    return read + sentence[position:]


def french_weekdays(sentence: str) -> str:
    """An English `sentence` with each weekday's name in French, "on" before it left out ("The
    meeting is on Tuesday." → "The meeting is mardi."), "last" and "next" written after it ("mardi
    dernier"); not one after a name's word ("Black Friday", "Super Tuesday": name_before). Set aside,
    it is given a capital where it opens the translation of a sentence that opened with one
    (runtime/capitals.py opened_as_source)."""

    def named(found: re.Match) -> str:
        if name_before(sentence[: found.start()].rstrip(" ")):
            return found.group()
        name = WEEKDAY_NAMES["fr"][WEEKDAY_NAMES["en"].index(found["day"])]
        return name + (" " + AFTER_FRENCH_WEEKDAY[found["when"].lower()] if found["when"] else "")

    return ON_WEEKDAY.sub(named, sentence)


def read_spans(text: str, source: str, target: str) -> list[tuple[int, int]]:
    """(start, end) of each date that read_dates wrote in the target's words in `text`, a sentence
    of `source` as read, where the direction sets them aside (SET_ASIDE_READ), and into French each
    month alone and weekday's name: a date with the word before it ("le", "on"), not the point
    after a month's full name, which is the sentence's; none in other directions."""
    if (source, target) not in SET_ASIDE_READ:
        return []
    if target == "en":  # "on June 3, 2024", and a time after it time_at_date wrote ("on June 3 at 3pm")
        spans = []
        for date in DATES["en"].finditer(text):
            end = date.end() - date.group().endswith(".")
            time = TIME_AFTER.match(text, end) if (source, target) in TIMES_AT_DATES else None
            spans.append((date.start(), time.end() if time is not None and time["word"] == " at " else end))
        return spans
    spans = []
    for date in DATES[target].finditer(text):
        whole = date["month"].lower() in (name.lower() for name in MONTH_NAMES[target])
        spans.append((date.start(), date.end() - (whole and date.group().endswith("."))))
    for pattern in (FRENCH_MONTH, FRENCH_WEEKDAY) if target == "fr" else ():  # a month's name in a date is the date's
        spans += [
            found.span()
            for found in pattern.finditer(text)
            if not any(a < found.end() and found.start() < b for a, b in spans)
        ]
    return sorted(spans)


def weekdays(sentence: str, source: str, target: str) -> str:
    """`sentence`, French (WEEKDAYS_READ), with each weekday's name (FRENCH_LE_WEEKDAY) in `target`'s
    words ("mardi" → "Tuesday") and "le" before it read as before a date (french_le: "ouvert le
    samedi" → "ouvert on Saturday"; it had come back "open the Saturday")."""

    def named(found: re.Match) -> str:
        name = WEEKDAY_NAMES[target][WEEKDAY_NAMES[source].index(found["day"])]
        article = found["le"]
        if article and RELATIVE_AFTER.match(sentence, found.end()):
            return f"{article} {name}"  # "le lundi suivant" is "the following Monday"
        word = french_le(sentence, found.start()) if article else ""
        return f"{word.capitalize() if article[0].isupper() else word} {name}" if word else name

    return FRENCH_LE_WEEKDAY.sub(named, sentence)


def name_before(before: str) -> bool:
    """Whether `before` ends with a capitalized word that is no OPENERS word: a name's part."""
    last = before.split()[-1].lstrip("\"'“‘„«(") if before.split() else ""  # '"Black Friday
    return last[:1].isupper() and last[1:].islower() and last.lower() not in OPENERS


def months_alone(sentence: str, source: str, target: str) -> str:
    """`sentence` with each month's name that has no day (MONTH_ALONE: "in March", "in September
    2025") written as `target` names it ("in juin"; into French "en juin", as French writes it); not
    a sentence's first word "May" (a verb), nor one beside a capitalized word, a name's part
    ("April Jones", "Theresa May")."""

    def named(month: re.Match) -> str:
        before = sentence[: month.start()].rstrip(" ")
        number = month_number(month.group(), source)
        if (
            (month.group() == "May" and not before.strip("\"'“‘("))
            or (source == "en" and NAME_AFTER.match(sentence, month.end()))  # "April Jones"
            or (source == "en" and before != sentence[: month.start()] and name_before(before))  # "Theresa May"
        ):
            return month.group()
        name = MONTH_NAMES[target][number - 1]
        return name.capitalize() if month.group()[0].isupper() and target == "en" else name

    read = MONTH_ALONE[source].sub(named, sentence)
    return (
        IN_FRENCH_MONTH.sub(lambda found: ("En " if found[1] == "In" else "en ") + found[2], read)
        if target == "fr"
        else read
    )


def year_comma(alignment: WordAlignment, language: str) -> WordAlignment:
    """`alignment` (a translation into `language`) with an English date's comma before its year
    where the model wrote a German ordinal's point ("June 3. 2024" for "on June 3, 2024", read from
    "am 3. Juni 2024")."""
    if language != "en":
        return alignment
    words = list(alignment.target_words)
    for index in range(len(words) - 2):
        if (
            words[index] in MONTH_NAMES["en"]
            and DAY_POINT.fullmatch(words[index + 1])
            and YEAR_WORD.match(words[index + 2])
        ):
            words[index + 1] = words[index + 1][:-1] + ","
    return alignment if words == alignment.target_words else replace(alignment, target_words=words)


def day_points(alignment: WordAlignment, language: str) -> WordAlignment:
    """`alignment` (a translation into `language`) with a German date's day given its ordinal's point
    where the model left it out: before a month's name ("10 März" → "10. März") and as a range's first
    day before "bis" or "und" and a day with its point ("vom 3 bis zum 10. März", "am 5 und 6. Juni")."""
    if language != "de":
        return alignment
    words = list(alignment.target_words)
    for index, word in enumerate(words[:-1]):
        if not DAY_WORD.fullmatch(word):
            continue
        after = words[index + 1 :]
        if german_month(after[0]):
            words[index] = word + "."
        elif after[0] in RANGE_WORDS_DE:
            rest = after[2:] if len(after) > 2 and after[1] in ("zum", "zur") else after[1:]
            if len(rest) >= 2 and DAY_POINT.fullmatch(rest[0]) and german_month(rest[1]):
                words[index] = word + "."
    return alignment if words == alignment.target_words else replace(alignment, target_words=words)


def german_month(word: str) -> bool:
    """Whether `word` is a German month's name, maybe with the punctuation after it ("März.")."""
    return word.rstrip('.,;:!?)"“”»«') in MONTH_NAMES["de"]


RANGE_WORDS_DE = ("bis", "und")
DAY_WORD = re.compile(r"3[01]|[12]\d|[1-9]")
DAY_POINT = re.compile(rf"(?:{DAY_WORD.pattern})\.")
YEAR_WORD = re.compile(r"(?:1[89]|2[01])\d\d(?!\d)")
