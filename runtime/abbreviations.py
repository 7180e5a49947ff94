"""German abbreviations read as the models translate them right: written out ("ggf." as
"gegebenenfalls") or, spaced, closed up ("z. B." as "z.B."); English initials of countries and
unions without their points ("U.S." as "US").

The models read an abbreviation's letters and points as words and sentence ends: "d. h." became
"th." or "and h.", "sog." "soghy.", "ggf." stayed "ggf.", "inkl." became "in l.", "bzw." "and"
where it meant "or"; "z.B.", "d.h." and "usw." came out "e.g.", "i.e." and "etc.", as the dev
files' references write them, and are left as they are. English and French abbreviations ("e.g.",
"p. ex.") came out right as written, but initials with points: "The U.S. economy grew faster than
expected." → "L'économie U.S." (the rest lost), "The U.K. government …" → "Die Regierung …" (the
country lost); read without points, 32 and 23 of 32 sentences of ours named them right into French
and German, against 0 and 1 as written (`python -m benchmarks.acronym_forms --to fr|de`). An abbreviation whose
point ends the sentence too keeps it.
The alignment shows the words the user wrote (runtime/alignment.py `restored`). Measured on the
dev rows whose source holds one: `python -m benchmarks.dev_readings --rule abbreviations`
(docs/hardening.md).
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
    },
    # a country's or a union's initials with points, which the models read as words and sentence
    # ends ("The U.S. economy grew …" → "L'économie U.S.", the rest lost): without them ("US")
    "en": {
        "U.S.": "US",
        "U.S.A.": "USA",
        "U.K.": "UK",
        "U.N.": "UN",
        "E.U.": "EU",
        "U.A.E.": "UAE",
        "U.S.S.R.": "USSR",
        "D.C.": "DC",
    },
}
# What may follow an abbreviation that ends the sentence: closing quotation marks, nothing else (a
# stretch before a set-aside URL ends with a space: "inkl. https://…" ends no sentence)
SENTENCE_END = re.compile(r"[\"'”’»]*$")


def _form(abbreviation: str) -> str:
    """A pattern of `abbreviation` with or without a space after each inner point, its first
    letter in either case."""
    first, *rest = abbreviation.replace(" ", "").split(".")
    return r"\. ?".join([f"[{first[0]}{first[0].upper()}]{re.escape(first[1:])}", *map(re.escape, rest[:-1])]) + r"\."


def key(abbreviation: str) -> str:
    """How READ's forms are looked up: without spaces, in small letters ("Z. B." → "z.b.")."""
    return abbreviation.replace(" ", "").lower()


PATTERNS = {
    language: re.compile(rf"(?<![\w./@-])(?:{'|'.join(map(_form, sorted(forms, key=len, reverse=True)))})(?![\w.@/])")
    for language, forms in READ.items()
}
KEYS = {language: {key(form): read for form, read in forms.items()} for language, forms in READ.items()}


def read_abbreviations(sentence: str, source: str, target: str) -> str:
    """`sentence` (in `source`) with each abbreviation of READ as the model reads it, a capital
    where it opens the sentence (one elsewhere is another word: "der Sog."), its point kept where it
    ends the sentence."""
    if source not in PATTERNS:
        return sentence

    def read(found: re.Match) -> str:
        written = KEYS[source][key(found.group())]
        if found.group()[0].isupper() and written[0].islower():  # initials are capitals anywhere
            if not opens(sentence, found.start()):
                return found.group()
            written = written[0].upper() + written[1:]
        ends = not written.endswith(".") and SENTENCE_END.fullmatch(sentence, found.end()) is not None
        return written + "." if ends else written

    return PATTERNS[source].sub(read, sentence)
