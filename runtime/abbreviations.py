"""Abbreviations read as the models translate them right: written out ("ggf." as "gegebenenfalls",
"Kap." as "Kapitel", "p. ex." as "par exemple", "approx." as "approximately"), spaced ones closed up
("z. B." as "z.B."), English initials of countries and unions without their points ("U.S." as "US");
"S." and "p." as the page before a number, English "No." as the target's "Nr." or "n°", a day of the
week in a range, a list or before a time or date ("Mo.–Fr. 9–18 Uhr" as "Montag bis Freitag 9–18
Uhr", not "Fr. Schneider"), and a range of days' dash as the language's word.

The models read an abbreviation's letters and points as words and sentence ends: "d. h." became
"th." or "and h.", "sog." "soghy.", "ggf." stayed "ggf.", "inkl." became "in l.", "bzw." "and"
where it meant "or"; "z.B.", "d.h." and "usw." came out "e.g.", "i.e." and "etc." more often than
written out, and are left as they are. Initials with points: "The U.S. economy grew faster than
expected." → "L'économie U.S." (the rest lost), "The U.K. government …" → "Die Regierung …" (the
country lost); read without points, 32 and 23 of 32 sentences of ours named them right into French
and German, against 0 and 1 as written (`python -m benchmarks.acronym_forms --to fr|de`). Those of
letters, shops and manuals: "Kap. 4" → "cap. 4", "inkl. MwSt." → "MwSt St.", "du lun. au ven." →
"from the moon. in the coming.", "env. 2 kg" → "inv. 2 kg", "Fig. 4" → "Abbildung. 4"; read so,
103 of 124 given right on sentences a helper wrote after the readings were chosen, against 23 as
written (docs/studies/ABBREVIATIONS.md).
The sentence splitter cuts after none of them (runtime/sentences.py) but before a capital after one
that may end a sentence (MAY_END: "He moved to the U.S. The …"). An abbreviation whose point
ends the sentence too keeps it. The alignment shows the words the user wrote (runtime/alignment.py
`restored`). Measured on the dev rows whose source holds one: `python -m benchmarks.dev_readings
--rule abbreviations` (docs/hardening.md).
"""

from __future__ import annotations

import re

from .words import opens

# Each source language's abbreviations → how the model reads them; a space after a point inside one
# is optional ("z.B.", "z. B."), and one opening a sentence has a capital ("Z. B.", not "der Sog.")
READ = {
    "de": {
        "z. B.": "z.B.",
        "d. h.": "d.h.",
        "u. a.": "unter anderem",
        "z. T.": "zum Teil",
        "u. U.": "unter Umständen",
        "inkl.": "inklusive",
        "exkl.": "exklusive",
        "zzgl.": "zuzüglich",
        "bzw.": "beziehungsweise",
        "ggf.": "gegebenenfalls",
        "evtl.": "eventuell",
        "vgl.": "vergleiche",
        "bspw.": "beispielsweise",
        "sog.": "sogenannte",
        # a number's scale, whose point the models read as the sentence's end ("1,5 Mrd. Euro
        # Gewinn" → "1.5 Mrd.", the rest lost)
        "Mrd.": "Milliarden",
        "Mio.": "Millionen",
        "Tsd.": "Tausend",
        # those of letters, shops, manuals and laws ("Abb. 3" stayed, "Kap. 4" became "cap. 4",
        # "inkl. MwSt." "including MwSt.", "i. d. R." "i. d. R.", "o. Ä." "o. axes")
        "Abb.": "Fig.",  # "Abbildung" came out "education"
        "Kap.": "Kapitel",
        "Abschn.": "Abschnitt",
        # into English the tax's name (written out, "Mehrwertsteuer" had come out "multi-value tax")
        "MwSt.": {"en": "VAT"},
        "MWSt.": {"en": "VAT"},
        "Mwst.": {"en": "VAT"},
        "Tel.": "Telefon",
        "Nr.": "Nummer",
        "rd.": "rund",
        "Jh.": "Jahrhundert",
        "Std.": "Stunden",
        "max.": "maximal",
        "bzgl.": "bezüglich",
        "insb.": "insbesondere",
        "i. d. R.": "in der Regel",
        "o. Ä.": "oder Ähnliches",
        "o. ä.": "oder Ähnliches",
        "u. Ä.": "und Ähnliches",
        "u. ä.": "und Ähnliches",
        "Fa.": "Firma",
        "z. Zt.": "zurzeit",
    },
    # a country's or a union's initials with points, which the models read as words and sentence
    # ends ("The U.S. economy grew …" → "L'économie U.S.", the rest lost): without them ("US");
    # and those of letters and manuals ("Fig. 4" → "Abbildung. 4", "approx." stayed)
    "en": {
        "U.S.": "US",
        "U.S.A.": "USA",
        "U.K.": "UK",
        "U.N.": "UN",
        "E.U.": "EU",
        "U.A.E.": "UAE",
        "U.S.S.R.": "USSR",
        "D.C.": "DC",
        "approx.": "approximately",
        "Dept.": "Department",
    },
    # "p. ex." stayed, "c.-à-d." became "this.", "env." "inv.", "tél." "the remote.", "av. J.-C." stayed
    "fr": {
        "p. ex.": "par exemple",
        "c.-à-d.": "c'est-à-dire",
        "env.": "environ",
        "tél.": "téléphone",
        "av. J.-C.": "avant le Christ",  # "avant Jésus-Christ" came out "before Jésus-Christ"
        "apr. J.-C.": "après le Christ",
        "av. J-C.": "avant le Christ",
        "apr. J-C.": "après le Christ",
        "av.": "avenue",
    },
}
# Read so only before a number or a code ("S. 12", "no. A-2024-0815"); elsewhere another word
# ("Johann S. Bach"). English "No." as each target's own abbreviation: the models read it "nein" and
# "non" ("Room no. 12" → "Zimmer nein. 12"), and "Number" as a count ("Zahl", "nombre")
BEFORE_A_NUMBER = {
    "de": {"S.": "Seite", "Abs.": "Absatz"},  # "Abs.:" opening a letter's address is its sender
    "en": {"Ch.": "Chapter", "Chap.": "Chapter", "Fig.": "Figure", "No.": {"de": "Nr.", "fr": "n°"}},
    "fr": {"p.": "page", "fig.": "figure", "chap.": "chapitre"},  # "I ate a fig." is the fruit
}
# The days of the week, read so in a range or a list or before a time or a date ("Mo.–Fr. 9–18 Uhr",
# "du lun. au ven.", "Sa. 10–14 Uhr", "le jeu. 12 juin"); elsewhere another word ("Fr. Schneider")
DAYS = {
    "de": dict(
        zip(
            "Mo. Di. Mi. Do. Fr. Sa. So.".split(), "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag".split()
        )
    ),
    "en": dict(
        zip(
            "Mon. Tue. Tues. Wed. Thu. Thur. Thurs. Fri. Sat. Sun.".split(),
            "Monday Tuesday Tuesday Wednesday Thursday Thursday Thursday Friday Saturday Sunday".split(),
        )
    ),
    "fr": dict(
        zip("lun. mar. mer. jeu. ven. sam. dim.".split(), "lundi mardi mercredi jeudi vendredi samedi dimanche".split())
    ),
}
# What a day's abbreviation stands after in a range ("Mo. bis Fr.", "lun.-ven.", "Di./Do."), and in a
# list or after a preposition ("am Di.", "du lun.", "le sam.", "Di. und Mi."), where it is a day only
# with the sentence going on after it ("le jeu." ends many a sentence: "the game"); "und" and "oder"
# only after another day ("Herr und Fr. Weber" is "Frau")
_RANGE_BEFORE = [f"{word} " for word in "bis au to through".split()]
_LIST_BEFORE = [f"{word} " for word in "am ab jeden du le chaque on every from".split()]
_JOINING = "und oder et ou and or".split()
_GOES_ON = r"(?!\s*$|\s+[A-ZÀ-ÖØ-Þ])"
# before a time or a date, not a price ("Fr. 49.90" is Swiss francs)
_DAY_AFTER = r"\s*(?:[-–—/]|(?:bis|und|oder|au|et|ou|to|and|or|through)\b|\d(?!\d*[.,](?:\d\d\b|[–-])))"
# A range of days, its dash read as the language's word ("Montag–Freitag" had come out "Monday
# Montag–Freitag", "Monday–Friday" "Monday–Friday" in German)
RANGE_WORD = {"de": "bis", "en": "to", "fr": "au"}
DAY_RANGES = {
    language: re.compile(rf"\b({names})\s*[-–—]\s*({names})\b(?!-)")  # not "Montag-Freitag-Ticket"
    for language, days in DAYS.items()
    for names in ["|".join(dict.fromkeys(name for day in days.values() for name in (day, day.capitalize())))]
}
# READ's forms that also end a word, read as its ending ("Bestellnr." as "Bestellnummer"); not a
# street's "Str.", whose name an address keeps ("Berliner Str. 22" had become "Berliner road 22")
ENDINGS = {"de": ("Nr.",)}
# READ's readings that take the singular after the number 1 or "pro" ("1 Std." read "1 Stunden" had
# come out "1 hours", "pro Std." "pro Stunden")
SINGULAR = {"de": {"std.": "Stunde"}}
ONE_BEFORE = re.compile(r"(?:(?<![\d.,])1|\b[Pp]ro|\b[Jj]e)\s?\Z")
# What may follow an abbreviation that ends the sentence: closing quotation marks, nothing else (a
# stretch before a set-aside URL ends with a space: "inkl. https://…" ends no sentence)
NEAR = 64  # characters on each side of a position that abbreviation_ends reads
SENTENCE_END = re.compile(r"[\"'”’»]*$")


def _form(abbreviation: str) -> str:
    """A pattern of `abbreviation` with or without a space after each inner point, its first
    letter in either case."""
    first, *rest = abbreviation.replace(" ", "").split(".")
    return (
        r"\. ?".join([f"[{first[0].lower()}{first[0].upper()}]{re.escape(first[1:])}", *map(re.escape, rest[:-1])])
        + r"\."
    )


def key(abbreviation: str) -> str:
    """How READ's forms are looked up: without spaces, in small letters ("Z. B." → "z.b.")."""
    return abbreviation.replace(" ", "").lower()


# The readings that may end a sentence too: initials, "Jh.", "MwSt.", a day, "av. J.-C.", …
MAY_END = {
    language: frozenset(map(key, forms)) | frozenset(map(key, DAYS[language]))
    for language, forms in {
        "de": ("Jh.", "MwSt.", "o. Ä.", "u. Ä."),  # not those a noun follows: "1,5 Mrd. Euro", "max. Tempo"
        "en": ("U.S.", "U.S.A.", "U.K.", "U.N.", "E.U.", "U.A.E.", "U.S.S.R.", "D.C.", "Dept."),
        "fr": ("av. J.-C.", "apr. J.-C.", "av. J-C.", "apr. J-C."),
    }.items()
}


def _alternatives(forms) -> str:
    """A pattern of any of `forms` (_form), the longest first."""
    return "|".join(map(_form, sorted(forms, key=len, reverse=True)))


def _pattern(language: str) -> re.Pattern:
    """Every abbreviation `language` has a reading of: READ's anywhere, BEFORE_A_NUMBER's before a
    number, DAYS' beside a range's or list's word, a time or a date, ENDINGS' at a word's end."""
    kinds = [f"(?:{_alternatives(READ[language])})"]
    if language in BEFORE_A_NUMBER:
        kinds.append(rf"(?:{_alternatives(BEFORE_A_NUMBER[language])})(?=\s[\w-]*\d)")
    alone = rf"(?<![\w./@-])(?:{'|'.join(kinds)})(?![\w.@/])"
    days = ""
    if language in DAYS:
        # as written, or opening a sentence with a capital ("Lun."): "so." is no Sunday
        forms = "|".join(re.escape(form) for day in DAYS[language] for form in dict.fromkeys((day, day.capitalize())))

        def after(words: list[str]) -> str:
            return "|".join(rf"(?<=\b{re.escape(word)})" for word in words)

        joined = "|".join(f"(?<={re.escape(f'{day} {word} ')})" for day in DAYS[language] for word in _JOINING)
        days = (
            rf"|(?<![\w./@-])(?:{after(_RANGE_BEFORE)}|(?=(?:{forms}){_DAY_AFTER}))(?:{forms})(?![\w.@])"
            rf"|(?<![\w./@-])(?:{after(_LIST_BEFORE)}|{joined})(?:{forms}){_GOES_ON}(?![\w.@])"
            # the second day of a range written with a dash or a slash against the first ("Mo.-Fr.", "Di./Do.")
            rf"|(?<=\.[-–—/])(?:{forms})(?![\w.@])"
        )
    ending = ""
    if language in ENDINGS:
        ending = rf"|(?<=[a-zäöüß])(?P<ending>{_alternatives(ENDINGS[language])})(?![\w.@/])"
    return re.compile(f"{alone}{days}{ending}")


PATTERNS = {language: _pattern(language) for language in READ}
KEYS = {
    language: {
        key(form): read for table in (READ, BEFORE_A_NUMBER, DAYS) for form, read in table.get(language, {}).items()
    }
    for language in READ
}


def read_abbreviations(sentence: str, source: str, target: str) -> str:
    """`sentence` (in `source`) with each abbreviation it has a reading of (PATTERNS) as the model
    reads it, a capital where it opens the sentence (one elsewhere is another word: "der Sog."), a
    word's ending in small letters ("Bestellnummer"), its point kept where it ends the sentence
    (or may end one before a capital: MAY_END)."""
    if source not in PATTERNS:
        return sentence

    def read(found: re.Match) -> str:
        written = KEYS[source][key(found.group())]
        if key(found.group()) in SINGULAR.get(source, {}) and ONE_BEFORE.search(sentence, 0, found.start()):
            written = SINGULAR[source][key(found.group())]
        if isinstance(written, dict):  # a reading for each target, a capital opening the sentence
            if target not in written:
                return found.group()
            written = written[target]
            written = written[0].upper() + written[1:] if opens(sentence, found.start()) else written
        elif found.groupdict().get("ending"):
            written = written.lower()
        elif found.group()[0].isupper() and written[0].islower():  # initials are capitals anywhere
            if not opens(sentence, found.start()):
                return found.group()
            written = written[0].upper() + written[1:]
        ends = SENTENCE_END.fullmatch(sentence, found.end()) is not None or (
            key(found.group()) in MAY_END[source] and sentence[found.end() :].lstrip()[:1].isupper()
        )  # a sentence's end the splitter left ("inkl. MwSt. Versand …")
        ends = ends and not written.endswith(".")
        return written + "." if ends else written

    read_out = PATTERNS[source].sub(read, sentence)
    return DAY_RANGES[source].sub(rf"\1 {RANGE_WORD[source]} \2", read_out)


def abbreviation_ends(text: str, position: int, language: str) -> bool:
    """Whether an abbreviation the model is given a reading of (PATTERNS) ends at `position` of
    `text`, its point the last character before it, so that no sentence ends there; one that may
    end a sentence (MAY_END) ends it before a word with a capital ("He moved to the U.S. The
    company …")."""
    if language not in PATTERNS:
        return False
    start = max(0, position - NEAR)
    found = next(
        (
            found
            for found in PATTERNS[language].finditer(text[start : position + NEAR])
            if found.end() == position - start
        ),
        None,
    )
    if found is None:
        return False
    return key(found.group()) not in MAY_END[language] or not text[position:].lstrip()[:1].isupper()
