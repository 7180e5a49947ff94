"""Copy through attention (`--replace-unk`): put back source tokens the model mangled.

A byte-level model never emits <unk>, but it can misspell what it should have copied: versions,
paths, package names, numbers. For each target word, take its strongest source word (the hard
alignment); when that source word looks verbatim (a digit, or one of / _ . % : = @ + - inside,
or capitals after its first letter) and the target word is a near miss of it (difflib ratio >= 0.6 between the
two after trimming edge punctuation), the source word's core replaces the target word's core; the
target word's edge punctuation stays. A format placeholder the model translated ("{Benutzer}"
for "{user}") is the source's again (kept_placeholders).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter

import numpy as np

from .alignment import WordAlignment
from .constants import LIST_MARKS
from .roman import ROMAN_ORDINAL, roman_value

EDGE_PUNCTUATION = "\"'`()[]{}<>.,;:!?«»„“”‘’"
VERBATIM = re.compile(r"\d|[/_%:=@+]|.[.-].|^.+[A-Z]")
SIMILARITY = 0.6
# A media type's first parts and common second parts ("text/html", "application/json"), codes to copy
MEDIA_TYPES = frozenset("application audio font image message model multipart text video".split())
MEDIA_SUBTYPES = frozenset(
    "json xml html xhtml plain css csv javascript pdf png jpeg jpg gif svg webp zip gzip".split()
)
MEDIA_TYPE = re.compile(
    rf"(?<![\w/.])(?i:{'|'.join(sorted(MEDIA_TYPES))})/(?i:{'|'.join(sorted(MEDIA_SUBTYPES))})(?![\w/])"
)  # set aside from the search too (runtime/set_aside.py): "Anwendungs/json" was no near miss
WORDS_JOINED = re.compile(r"[^\W\d_]+(?:/[^\W\d_]+)+")  # words of letters joined by slashes
NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
SIGN = "%"  # written against a number, kept with it
SET_ASIDE_SIGN = re.compile(r"\{\d+\}")  # what runtime/set_aside.py puts in a set-aside token's place
SET_ASIDE_SIGN_END = re.compile(r"\{\d+\}\Z")
DATE = re.compile(r"\d{1,2}([./])\d{1,2}\1\d{2,4}|\d{4}-\d{2}-\d{2}")  # a date: copied as written
NUMBER_SIMILARITY = 0.5  # of the digits alone
# Only a path, an address, a URL or a time is read across several target words, and more strictly: a
# hyphenated compound the model translated in two words ("IDO-Modul" → "IDO module") is no copy.
SPLIT_TOKEN = re.compile(r"[/\\@]")
TIME = re.compile(r"\d{1,2}:\d{2}")  # so is a time the model wrote in two words ("18 :15")
JOINED_SIMILARITY = 0.8
# A hashtag or a mention: the words linked to it are its copy, whatever they read ("#AcmeHilfe" had
# come out as "#AcmeHilfe Help": the model's "#Acme Help" repaired, its translated half kept)
HASHTAG = re.compile(r"[#@][^\W_][\w-]*")
# An e-mail address or a URL is never translated: a run of target words linked to one that holds
# an @ or a / and matches it in nothing ("support@example.com" → "Unterstützung von@beispiel.com",
# its parts translated) is replaced whole, however little it resembles it.
# Each pattern starts only where its first run starts (the lookbehinds): tried at every
# position of a long word, "[\w.+-]+@" took time growing with its square (benchmarks/regex_growth.py).
ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://|www\.)\S+")
# A named or numbered format placeholder ("{name}", "{0}", "{{title}}", "%(name)s") is never translated: the
# models learned few of them and write "{Benutzer}" for "{user}", "{Name}" for "{name}".
PLACEHOLDER = re.compile(r"(?<!\{)\{+[\w.]*\}+|%\(\w+\)[a-z]")  # "{{title}}" too, and one that lost a brace
# What a check of the output counts: those, printf's ("%s", "%1$d", "%.2f") and Qt's ("%1")
FORMAT_PLACEHOLDER = re.compile(
    rf"{PLACEHOLDER.pattern}|%(?:\d+\$)?[-#0+]*(?:[1-9]\d*)?(?:\.\d+)?[sdifeEgGxXcu](?![^\W\d_])|%\d+"
)  # a conversion before a letter is a percentage's word ("20%ige", "5%saving"), not one


def slashes_closed(alignment: WordAlignment) -> WordAlignment:
    """The alignment with the words of a translation written apart at a slash ("Person/ Nacht" for
    "person/night") one word again, where both are linked to one source word of words joined by
    slashes (WORDS_JOINED); its rows averaged."""
    if not any("/" in word for word in alignment.target_words):  # most translations: nothing to do
        return alignment
    strongest = alignment.weights.argmax(axis=1) if alignment.weights.size else []
    words, rows, linked = [], [], []
    for word, row, source in zip(alignment.target_words, alignment.weights, strongest):
        if (
            words
            and (words[-1].endswith("/") or word.startswith("/"))
            and linked[-1] == source
            and WORDS_JOINED.fullmatch(_split_edges(alignment.source_words[source])[1])
        ):
            words[-1], rows[-1] = words[-1] + word, (rows[-1] + row) / 2
            continue
        words.append(word)
        rows.append(row)
        linked.append(source)
    if len(words) == len(alignment.target_words):
        return alignment
    return WordAlignment(alignment.source_words, words, np.array(rows, np.float32).reshape(len(words), -1))


def kept_list_mark(alignment: WordAlignment) -> WordAlignment:
    """The alignment with the source's opening mark (LIST_MARKS: a list item's, a dialogue
    line's) opening the target too: its first word made the mark where it is another (the model
    learned to write "‒" for the "- " of software strings from their German translations), put
    before it where the model left the mark out ("- Where is my coat?" → "Où est mon manteau ?"),
    linked to the source's."""
    source, target = alignment.source_words, alignment.target_words
    if not (source and target and source[0] in LIST_MARKS) or target[0] == source[0]:
        return alignment
    if target[0] in LIST_MARKS:
        return WordAlignment(source, [source[0], *target[1:]], alignment.weights)
    if target[0][:1] in LIST_MARKS:  # the mark written against the word ("-Où"): as it is
        return alignment
    mark = np.eye(1, len(source), 0, dtype=alignment.weights.dtype)
    return WordAlignment(
        source, [source[0], *target], np.concatenate([mark, alignment.weights.reshape(-1, len(source))])
    )


def kept_placeholders(alignment: WordAlignment) -> WordAlignment:
    """The alignment with each placeholder the model wrote that the source lacks ("{Benutzer}")
    made one of the source's that the output lacks ("{user}"), the pairs linked most strongly by
    attention first. A placeholder the model dropped is not put back (there is no place for it)."""
    source = [
        (index, found) for index, word in enumerate(alignment.source_words) for found in PLACEHOLDER.findall(word)
    ]
    if not source:
        return alignment
    written = [
        (index, found) for index, word in enumerate(alignment.target_words) for found in PLACEHOLDER.findall(word)
    ]
    missing = Counter(found for _, found in source)
    foreign = [(index, found) for index, found in written if found not in missing]  # before the subtraction adds them
    missing.subtract(found for _, found in written)
    if not foreign or not +missing:
        return alignment
    words = list(alignment.target_words)
    pairings = sorted(  # the strongest links first, whatever the order of the words
        (alignment.weights[foreign[number][0], source[given][0]], number, given)
        for number in range(len(foreign))
        for given in range(len(source))
    )[::-1]
    placed = set()
    for _, number, given in pairings:
        found = source[given][1]
        if number not in placed and missing[found] > 0:
            placed.add(number)
            missing[found] -= 1
            target, translated = foreign[number]
            words[target] = words[target].replace(translated, found, 1)
    return WordAlignment(alignment.source_words, words, alignment.weights)


def changed_placeholders(source: str, translation: str) -> tuple[list[str], list[str]]:
    """The format placeholders (FORMAT_PLACEHOLDER) `translation` lost from `source` and those it
    wrote beyond them, one for each copy, in order: a message with either breaks the program that
    fills it ("Saved %s." → "%s hat %s abgesichert." reads an argument no one gives)."""
    given, written = Counter(FORMAT_PLACEHOLDER.findall(source)), Counter(FORMAT_PLACEHOLDER.findall(translation))
    return list((given - written).elements()), list((written - given).elements())


# What the check below reads in a translation beyond NUMBER: French thousands groups parted by
# spaces ("1 250 000", also the no-break and narrow no-break spaces)
SPACED_THOUSANDS = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d)")
CLOCK_12H = re.compile(r"\s?[ap]\.?m\.?(?!\w)", re.I)  # "3 p.m." → "15 Uhr" is the reading, not a loss
HOUR = re.compile(r"\s?(?:Uhr|h|heures?)(?!\w)")  # "16 Uhr", "16 h": an hour of a 24-hour clock
CLOCK_TIME = re.compile(r"\d{1,2}(?::\d{2})?")  # a time before a.m./p.m. ("9", "9:15"; not "25 000 am Abend")
# A source's number, its thousands spaced as French writes them ("1 299,00") or not
SOURCE_NUMBER = re.compile(rf"(?<!\d){SPACED_THOUSANDS.pattern}(?:,\d+)?|{NUMBER.pattern}")
FRENCH_TIME = re.compile(
    r"\b([01]?\d|2[0-3]) ?h ?([0-5]\d)\b(?!\s*min)"
)  # "à 14h30": read as "14:30" ("14, 30" had been lost)


def lost_numbers(source: str, translation: str) -> list[str]:
    """The numbers of `source` of two digits or more (leading zeros aside) whose digits no number
    of `translation` has, separators aside ("1,250,000" → "1.250.000" or "1 250 000" keeps it). Not
    lost: a time before a.m./p.m. given on the 24-hour clock ("10 p.m." → "22 Uhr"); an hour of a 24-hour clock given back 12 less ("19:10" →
    "7:10pm", "16 Uhr" → "4pm", "13:00" → "1 p.m." or "13 Uhr"); a date whose year is there
    ("3.10.1990" → "3 October 1990"). How often it flags the shipped models' outputs
    and the references: docs/alignments.md (`python -m benchmarks.number_check`)."""
    # "14h30", "14 h 30": a time's hour and minutes ("2:30pm", "14:30"), in the source or the translation
    source, translation = (FRENCH_TIME.sub(r"\1:\2", text) for text in (source, translation))
    written = {
        digits_of(match.group()) for pattern in (NUMBER, SPACED_THOUSANDS) for match in pattern.finditer(translation)
    }
    # a Roman ordinal's value ("XIXème siècle" holds the 19 of "19th century")
    written |= {str(roman_value(found[1])) for found in ROMAN_ORDINAL.finditer(translation)}
    # a date's year ("3.10.1990" holds the 1990 of "3 October 1990"; not its day or month, which
    # would hide the loss of another number: "The 10 ministers met on 3.10.1990")
    written |= {digits_of(year) for date in DATE.finditer(translation) for year in re.findall(r"\d{4}", date.group())}
    lost = []
    for match in SOURCE_NUMBER.finditer(source):
        number = match.group()
        if len(digits_of(number)) < 2:
            continue
        groups = NUMBER.findall(number)  # "1 299,00": whole ("€1299.00") or group by group ("0800 123 456")
        if digits_of(number) in written or (len(groups) > 1 and all(digits_of(group) in written for group in groups)):
            continue
        hour = HOUR.match(source, match.end()) is not None
        meridiem = CLOCK_12H.match(source, match.end())
        if not any(digits in written for digits in readings(number, hour, meridiem and meridiem.group())):
            lost.append(number)
    return lost


def added_numbers(source: str, translation: str) -> list[str]:
    """The numbers of `translation` of two digits or more whose digits no number of `source` has
    (lost_numbers read the other way, with the same readings of times and dates): what the model
    made up ("Der Umsatz stieg um 8,5 Prozent auf 4,2 Milliarden Euro." → "… 8.5 percent on 4.5
    percent on 4.2 billion"; `python -m benchmarks.number_check`)."""
    return lost_numbers(translation, source)


def readings(number: str, hour: bool, meridiem: str | None = None) -> list[str]:
    """The digits under which a translation may write `number` (digits_of): its own; for a time
    (H:MM, or an hour before "Uhr"), those of the hour 12 less past noon and without ":00"; for a
    time of the 12-hour clock (before `meridiem`, a.m. or p.m.), those of the 24-hour clock ("7:45
    pm" → "19:45", "12:30 am" → "0:30"; "9:15 a.m." → "9 heures" loses its minutes; not a number of
    thousands before "heures", "25 000 heures", which had ended the translation in a traceback); for a date
    (D.M.YYYY), those of its year."""
    found = [digits_of(number)]
    parts = re.split(r"[.,:/]", number)
    if meridiem and CLOCK_TIME.fullmatch(number) and 1 <= int(parts[0]) <= 12:
        afternoon = meridiem.strip()[:1].lower() == "p"
        hours = [int(parts[0]), int(parts[0]) % 12 + 12 * afternoon]
        minutes = parts[1] if len(parts) == 2 else "00"
        found += [digits_of(f"{h}{minutes}") or "0" for h in hours] + (
            [str(h) for h in hours] if minutes == "00" else []
        )
    elif (hour and len(parts[0]) <= 2 and all(part.isdigit() for part in parts)) or (len(parts) == 2 and ":" in number):
        hours = [int(parts[0])] + ([int(parts[0]) - 12] if 12 < int(parts[0]) < 24 else [])
        minutes = parts[1] if len(parts) == 2 else "00"
        found += [digits_of(f"{h}{minutes}") for h in hours] + ([str(h) for h in hours] if minutes == "00" else [])
    if len(parts) == 3 and len(parts[2]) == 4 and all(len(part) <= 2 for part in parts[:2]):
        found.append(digits_of(parts[2]))
    return found


def digits_of(number: str) -> str:
    """A number's digits, its separators and leading zeros aside ("1,250,000" → "1250000"), those
    of another script as ASCII's ("१२३" → "123", as the runtime reads them: runtime/words.py)."""
    digits = re.sub(r"\D", "", number)
    if not digits.isascii():  # read for each hypothesis a search keeps: the common case costs nothing more
        digits = "".join(str(unicodedata.decimal(digit)) for digit in digits)
    return digits.lstrip("0")


def looks_verbatim(word: str) -> bool:
    """Whether `word` is one to copy (VERBATIM); words joined by slashes ("and/or",
    "person/night", "audio/video") are language, which the model translates ("und/oder": it had
    been put back as "and/or"), unless one of them is to copy ("TCP/IP"; "gif/jpg/png" is not) or
    it is a media type (MEDIA_TYPE: "application/json", "text/html"; not "audio/video")."""
    if WORDS_JOINED.fullmatch(word):
        return MEDIA_TYPE.fullmatch(word) is not None or any(VERBATIM.search(part) for part in word.split("/"))
    return bool(VERBATIM.search(word))


def _split_edges(word: str) -> tuple[str, str, str]:
    """(leading punctuation, core, trailing punctuation); code in backquotes is all core, and a
    format placeholder is the core of its word ("{user.name}'s": "{user.name}", then "'s"), but for
    a numbered one right before a number, a sign set aside (runtime/set_aside.py), which leads it
    ("{0}12,500": "€12,500")."""
    if len(word) > 2 and word[0] == word[-1] == "`":
        return "`", word[1:-1], "`"
    if placeholder := PLACEHOLDER.search(word):
        before, after = word[: placeholder.start()], word[placeholder.end() :]
        if SET_ASIDE_SIGN.fullmatch(placeholder.group()) and after[:1].isdigit():  # "{0}12,500": "€" set aside
            lead, core, trail = _split_edges(after)
            return before + placeholder.group() + lead, core, trail
        return before, placeholder.group(), after
    core = word.strip(EDGE_PUNCTUATION)
    if not core:
        return word, "", ""
    start = word.index(core)
    end = start + len(core)
    for opening, closing in ("()", "[]"):  # "%(count)" keeps the ")" that closes its "("
        while core.count(opening) > core.count(closing) and word[end : end + 1] == closing:
            core, end = core + closing, end + 1
    return word[:start], core, word[end:]


# How each language writes a number's thousands and decimal marks (French groups with a narrow
# no-break space, one word)
NUMBER_MARKS = {"en": (",", "."), "de": (".", ","), "fr": ("\u202f", ",")}


def _number_parts(number: str, language: str) -> tuple[str, str] | None:
    """(integer digits, decimal digits) of `number` as `language` writes numbers, or None when it
    does not write it so ("1,250,50": grouped twice, then two digits)."""
    if language not in NUMBER_MARKS:
        return None
    thousands, decimal = map(re.escape, NUMBER_MARKS[language])
    found = re.fullmatch(rf"(\d{{1,3}}(?:{thousands}\d{{3}})+|\d+)(?:{decimal}(\d+))?", number)
    return (re.sub(r"\D", "", found[1]), found[2] or "") if found else None


def localized(written: str, source: str, languages: tuple[str, str] | None) -> str:
    """`written`, a copy of the source's number `source` with the same digits, or the source's
    number as the target writes it where the copy reads as another number in the target language
    and the source grouped its thousands ("1,299 euros" copied into German, where "1,299" is
    one and a bit: "1299"; "1.299,99 Euro" into English: "1299.99"), or a decimal comma the target
    does not write ("1,5" into English: "1.5"), or where neither language writes it so ("1,250,50"
    for "1,250.50" into German, which the models wrote in a sentence with an address in it:
    "1250,50"). A decimal point without a thousands mark is left as written ("2.4", a version,
    into German). `languages`: (source, target); None, or a language NUMBER_MARKS does not know,
    leaves `written` as it is."""
    if languages is None or not set(languages) <= set(NUMBER_MARKS):  # an imported model's other language
        return written
    parts = _number_parts(source, languages[0])
    if parts is None or _number_parts(written, languages[1]) == parts:
        return written
    integer, decimals = parts
    neither = all(_number_parts(written, language) is None for language in languages)
    grouped = re.search(rf"\d{re.escape(NUMBER_MARKS[languages[0]][0])}\d{{3}}", source)
    decimal_comma = decimals and NUMBER_MARKS[languages[0]][1] == "," and _number_parts(written, languages[1]) is None
    if not (neither or grouped or decimal_comma):  # "2.4", a version, stays: no version has a decimal comma
        return written
    return number_written(integer, decimals, languages[1])


def number_written(integer: str, decimals: str, language: str) -> str:
    """A number of `integer` digits and `decimals` as `language` writes it (NUMBER_MARKS): its
    thousands grouped where it has five digits or more ("12 500", "1299")."""
    thousands, decimal = NUMBER_MARKS[language]
    grouped = f"{int(integer):,}".replace(",", thousands) if len(integer) > 4 else integer
    return grouped + (decimal + decimals if decimals else "")


def as_copied(written: str, source: str, languages: tuple[str, str] | None) -> str:
    """What a near-miss copy `written` of the verbatim source token `source` becomes: the source
    token, or where both are a number with the same digits, that number as `localized` writes it,
    with the sign the model wrote against it: "2.2%" had been put back over the model's right
    "2,2%" into German, and "10" over "10%" for French "10 %". Where the digits differ, the
    source's number as the target writes it ("1,299.99" for the model's "1,299,99,99" into German:
    "1299,99"). A number written against a sign the source writes apart stays ("3%" for "3 %")."""
    lead, number, sign = signs_apart(written)
    source_lead, source_number, source_sign = signs_apart(source)
    if DATE.fullmatch(source):  # "12.03.2025" had become "1203.2025", "3/4/2024" "3.4.2024" (which day?)
        return source
    if NUMBER.fullmatch(number) and not any(character.isdigit() for character in source):
        return written  # a number written against a sign the source writes apart: "3%" for "3 %", not "%"
    if NUMBER.fullmatch(number) and re.sub(r"\D", "", number) == re.sub(r"\D", "", source_number):
        return lead + localized(number, source_number, languages) + sign
    if NUMBER.fullmatch(source_number):  # another number: the source's, as the target writes it
        return source_lead + localized(source_number, source_number, languages) + source_sign
    return source


def signs_apart(token: str) -> tuple[str, str, str]:
    """A token's currency signs before it, the rest, and its currency signs or percent sign after
    it ("$12,500": "$", "12,500", ""; "10%": "", "10", "%"), a sign set aside from the search being
    its placeholder ("{0}12,500": runtime/set_aside.py sets "€" aside): "$12,500" had kept its
    English thousands comma into French, where it reads as twelve and a half."""
    start, end = 0, len(token)
    while start < end:
        placeholder = SET_ASIDE_SIGN.match(token, start)
        if placeholder is None and unicodedata.category(token[start]) != "Sc":
            break
        start = placeholder.end() if placeholder else start + 1
    while end > start:
        placeholder = SET_ASIDE_SIGN_END.search(token, start, end)
        if placeholder is None and token[end - 1] != SIGN and unicodedata.category(token[end - 1]) != "Sc":
            break
        end = placeholder.start() if placeholder else end - 1
    return token[:start], token[start:end], token[end:]


def written_in_parts(number: str, following: list[str]) -> bool:
    """Whether the target words `following` a near miss of `number` open with it written in parts:
    as French writes a time ("10 h 30" for "10:30": copied over the "10", it had become "10:30 h
    30"), or its thousands parted by spaces ("5 000" for "5,000": copied over the "000", it had
    become "5 5000")."""
    opening = FRENCH_TIME.match(" ".join(following)) or spaced_thousands(following)
    return opening is not None and digits_of(opening.group()) == digits_of(number)


def spaced_thousands(words: list[str]) -> re.Match | None:
    """The number that `words` open with, written in more than one word as thousands parted by
    spaces ("5 000", "1 250 000"; SPACED_THOUSANDS), or None."""
    found = SPACED_THOUSANDS.match(" ".join(words))
    return found if found and " " in found.group() else None


def copy_verbatim(alignment: WordAlignment, languages: tuple[str, str] | None = None) -> WordAlignment:
    """The alignment with near-miss copies of verbatim source words repaired. A model may also
    split a path, address or URL it should have copied over several words ("https://example.org/
    reports/jahr.pdf.pdf"): the consecutive target words whose strongest source word is that
    token are read joined, and the best-matching run of them becomes the one copy (its alignment
    rows averaged into one). Each verbatim source word is copied once: into the word or run that
    matches it best; another near miss of a path, address or URL right beside it (the token
    written twice) is dropped. An address or URL whose parts the model translated is put back in
    place of the run linked to it (ADDRESS). A list or dialogue mark opening the source opens the
    translation as it was (kept_list_mark); a placeholder the model translated is the
    source's again (kept_placeholders); words it wrote apart at a slash are one (slashes_closed). A number copied with its digits in a form the target
    language does not write is written as it does (localized; `languages`: source and target); a
    time the target wrote in parts ("10 h 30"), or a number with its thousands parted by spaces
    ("5 000"), is left so (written_in_parts)."""
    alignment = slashes_closed(kept_placeholders(kept_list_mark(alignment)))
    words = list(alignment.target_words)
    verbatim = {
        index: core
        for index, word in enumerate(alignment.source_words)
        if (core := _split_edges(word)[1]) and looks_verbatim(core)
    }
    if not verbatim:
        return alignment
    best: dict[
        int, tuple[float, int, int, int]
    ] = {}  # source index → (similarity, −(words − 1), first, last target index)
    runs = _linked_runs(alignment, verbatim)
    for source_index, first, last in runs:
        for start in range(first, last + 1):
            split = (
                SPLIT_TOKEN.search(verbatim[source_index])
                or TIME.fullmatch(verbatim[source_index])
                or spaced_thousands(words[start : last + 1])
            )
            for end in range(start, last + 1 if split else start + 1):
                similarity = _similarity(verbatim[source_index], words[start : end + 1])
                found = (similarity, start - end, start, end)  # the fewest words of the best match
                needed = SIMILARITY if start == end else JOINED_SIMILARITY
                if similarity >= needed and found[:2] > best.get(source_index, (0.0, -len(words), 0, 0))[:2]:
                    best[source_index] = found
    for source_index, first, last in runs:
        if (
            source_index not in best
            and ADDRESS.fullmatch(verbatim[source_index])
            and any(SPLIT_TOKEN.search(word) for word in words[first : last + 1])
        ):
            best[source_index] = (0.0, first - last, first, last)
    for source_index, first, last in runs:  # a hashtag the model split, a part translated: "#Acme Help"
        if HASHTAG.fullmatch(verbatim[source_index]) and first <= best.get(source_index, (0, 0, -1))[2] <= last:
            best[source_index] = (best[source_index][0], first - last, first, last)
    if not best:
        return alignment
    rows = [[index] for index in range(len(words))]
    for source_index, first, last in runs:  # a path, address or URL written twice in a row: the other copy goes
        if (
            source_index in best
            and first <= best[source_index][2] <= last
            and SPLIT_TOKEN.search(verbatim[source_index])
        ):
            for index in set(range(first, last + 1)) - set(range(best[source_index][2], best[source_index][3] + 1)):
                if _similarity(verbatim[source_index], [words[index]]) >= SIMILARITY:
                    rows[index] = []
    for source_index, (_, _, start, end) in best.items():
        if written_in_parts(verbatim[source_index], words[start:]):
            continue
        before, written, _ = _split_edges("".join(words[start : end + 1]))
        _, _, after = _split_edges(words[end])
        copied = as_copied(written, verbatim[source_index], languages)
        repaired = written != verbatim[source_index]  # an exact copy keeps its point ("am 1. Mai")
        if (
            repaired
            and after == "."
            and end < len(words) - 1
            and not _split_edges(alignment.source_words[source_index])[2]
        ):
            after = ""  # the model's "1,299,99,99." before "EUR.": no point of the source's, in mid-sentence
        words[start] = _joined(before, copied, after)
        rows[start] = list(range(start, end + 1))
        for dropped in range(start + 1, end + 1):
            rows[dropped] = []
    kept = [index for index, merged in enumerate(rows) if merged]
    weights = np.stack([alignment.weights[rows[index]].mean(axis=0) for index in kept]) if kept else alignment.weights
    return WordAlignment(alignment.source_words, [words[index] for index in kept], weights)


def _joined(before: str, core: str, after: str) -> str:
    """before + core + after, less the punctuation the core already holds at its edges
    ("»" + "read_config()" + "()«" → "»read_config()«")."""
    while before and core.startswith(before[-1]):
        before = before[:-1]
    for length in range(len(after), 0, -1):
        if core.endswith(after[:length]):
            return before + core + after[length:]
    return before + core + after


def _linked_runs(alignment: WordAlignment, verbatim: dict[int, str]) -> list[tuple[int, int, int]]:
    """(source index, first, last target index) of each run of consecutive target words whose
    strongest source word is the same verbatim word."""
    runs: list[list[int]] = []
    for source_index, target_index in sorted(alignment.hard_links(), key=lambda link: link[1]):
        if source_index not in verbatim:
            continue
        if runs and runs[-1][0] == source_index and runs[-1][2] == target_index - 1:
            runs[-1][2] = target_index
        else:
            runs.append([source_index, target_index, target_index])
    return [tuple(run) for run in runs]


def _similarity(source_core: str, target_words: list[str]) -> float:
    """difflib's ratio between the source word's core and the target words joined, edges trimmed.
    A number written for a number is a copy when its digits are the source's (the separators may
    be the target language's: 3.5 → 3,5, kept), and a near miss when half its digits match
    (2025 → 825, 10:30 → 22.30: the source's number is the better reading); another number
    ("15 Uhr" for "3 p.m.") is left alone."""
    joined = "".join(target_words)
    core = _split_edges(joined)[1] or joined
    if NUMBER.fullmatch(source_core) and NUMBER.fullmatch(core):
        source_digits, digits = re.sub(r"\D", "", source_core), re.sub(r"\D", "", core)
        if digits == source_digits:
            return 1.0
        return SIMILARITY if difflib.SequenceMatcher(None, source_digits, digits).ratio() >= NUMBER_SIMILARITY else 0.0
    return 1.0 if core == source_core else difflib.SequenceMatcher(None, source_core, core).ratio()
