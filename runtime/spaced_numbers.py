"""Numbers whose thousands a space parts ("12 500", "1 250,50"), as French and German write them,
read as one number ("12500", "1250,50") into English, and written in the translation as English
writes numbers ("12,500", "1,250.50": grouped_as_english), as is a German number grouped with
points that the translation copied ungrouped (a price read sign first, "55.000 €" → "€55000").

Read in parts, a number's second group began a word of its own, and the model lost the words after
it: "La ville compte 12 500 habitants." → "The city has 12 500 habits.", "Plus de 12 500 personnes
ont manifesté" → "More than 12 500 people missed"; read whole, "12500 inhabitants". Not a number
that a digit and a space stand before ("+33 1 234 567"), one whose first group opens with a zero
("01 234 567"), one more groups of digits follow ("06 12 345 678 90"), nor one after a word that
numbers something (NUMBERING: "Tel. 123 456", "RCS Paris 732 829 320", "n° 123 456"). Measured
on the news rows of `general-train` that the shipped models never learned from
(docs/studies/NUMBER-FORMS.md, "Thousands parted by spaces").
"""

from __future__ import annotations

import re
from dataclasses import replace

from .alignment import WordAlignment

READ = frozenset({("fr", "en"), ("de", "en")})
SPACES = "[ \u00a0\u202f]"
SPACED = re.compile(rf"(?<![\d.,])(?<!\d{SPACES})(?!0)\d{{1,3}}(?:{SPACES}\d{{3}})+(?:,\d+)?(?!\d|[.,]\d|{SPACES}\d)")
# The words after which digits parted by spaces are an identifier's or a telephone's, not a number
NUMBERING = re.compile(
    r"(?:\b(?:[Tt][ée]l(?:efon|éphone)?|[Ff]ax|[Nn]r|[Nn]uméro|[Nn]ummer|SIREN|SIRET|RCS(?: [A-Z][\w-]*)?)\.?|n°|Nº)"
    r"\s*:?\s*\Z"
)
# A German number whose thousands points group ("55.000", "1.299,00")
POINT_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?:,\d+)?(?!\d|[.,]\d)")
# A number of digits alone, which the source wrote ungrouped: its copy stays so
UNGROUPED = re.compile(r"(?<![\d.,])\d+(?!\d|[.,]\d)")
# A translation's word that is a number copied whole: what is before it, its digits, its decimals
# (after either mark), what is after it
COPIED = re.compile(r"(?P<before>\W*)(?P<whole>\d+)(?:[.,](?P<decimals>\d+))?(?P<after>\W*)")


def spaced_numbers(text: str) -> list[re.Match]:
    """The numbers of `text` whose thousands spaces part (SPACED), but after a word of NUMBERING."""
    return [number for number in SPACED.finditer(text) if not NUMBERING.search(text, 0, number.start())]


def grouped_numbers(text: str, source: str) -> list[re.Match]:
    """The numbers of `text` (in `source`) whose thousands are grouped: its spaced_numbers, and in
    German those grouped with points (POINT_GROUPED)."""
    return spaced_numbers(text) + (list(POINT_GROUPED.finditer(text)) if source == "de" else [])


def read_spaced_numbers(sentence: str, source: str, target: str) -> str:
    """`sentence` with each of its spaced_numbers written without its spaces, where the direction
    reads so (READ); as it is otherwise."""
    if (source, target) not in READ:
        return sentence
    read, position = "", 0
    for number in spaced_numbers(sentence):
        read += sentence[position : number.start()] + re.sub(SPACES, "", number.group())
        position = number.end()
    return read + sentence[position:]


def grouped_as_english(alignment: WordAlignment, source: str, target: str) -> WordAlignment:
    """The alignment with each word of the translation that copies a number its source wrote with
    spaced thousands, or German points between them (its digits and decimals, ungrouped: "1720",
    "1250.50"), written with English commas ("1,720", "1,250.50"), where the direction reads so
    (READ); not where the source writes the same digits ungrouped too."""
    if (source, target) not in READ:
        return alignment
    written = " ".join(alignment.source_words)
    numbers = set()
    for number in grouped_numbers(written, source):
        whole, _, decimals = re.sub(rf"{SPACES}|\.", "", number.group()).partition(",")
        numbers.add((whole, decimals))
    numbers -= {(found.group(), "") for found in UNGROUPED.finditer(written)}  # "In 6800 … 6.800 HUF"
    if not numbers:
        return alignment
    words = []
    for word in alignment.target_words:
        copied = COPIED.fullmatch(word)
        if copied and (copied["whole"], copied["decimals"] or "") in numbers:
            decimals = "." + copied["decimals"] if copied["decimals"] else ""
            word = f"{copied['before']}{int(copied['whole']):,}{decimals}{copied['after']}"
        words.append(word)
    return replace(alignment, target_words=words) if words != alignment.target_words else alignment
