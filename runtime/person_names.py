"""A person's name after their title ("Frau Schmidt", "Mr. Baker", "Dr. Fischer") is set aside
from the search (runtime/set_aside.py) and comes through as written.

Surnames that are words of the other language were translated: "Frau Schmidt hat gestern
angerufen." → "M's taste called yesterday.", "Herr Müller und Frau Wagner" → "Mr mill and Ms
wagers", "Mrs. Cook" → "Madame Cuis", "M. Tremblay" → "Mr Tre assembly". After a title, as
runtime/titles.py writes it for the target (the title checked there: not German's noun after an
article), or after "Dr" or "Prof", the words that open with a capital are a name: one in a German
sentence, whose nouns open with one too ("Frau Schmidt Bescheid sagen"), up to three in English
and French ("Mr. John Smith"), with the particles between ("Frau von der Leyen", "M. de Gaulle").
Not an office ("Mr President", "Herr Präsident", "Madam Speaker"): OFFICES.
"""

from __future__ import annotations

import re

from .titles import PARTICLE, READ, WRITTEN

ACADEMIC_TITLES = ("Dr.", "Dr", "Prof.", "Prof")
# A word of a name: a capital first, parts joined by a hyphen ("Jean-Pierre", "Müller-Lüdenscheid")
# or an apostrophe before a capital ("O'Brien"), not a possessive's ("Smith's": the sentence's)
NAME_WORD = re.compile(r"[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:(?:-|['’](?=[A-ZÀ-ÖØ-Þ]))[^\W\d_]+)*")
NAME_WORDS = {"de": 1}  # the most words of a name, by the source's language; 3 otherwise
# What a title names a person by instead of a name, in the three languages: words that begin
# with one of these (or hold one, in a German compound: "Ratspräsidentin", "Bundeskanzler")
OFFICES = tuple(
    (
        "president präsident présiden speaker chair commissioner kommissar commissaire minister ministre "
        "secretary sekretär secrétaire ambassador botschafter ambassad mayor bürgermeister maire governor "
        "gouverneur vice deputy député prime premier première chief justice director direktor directeur "
        "directrice professor professeur doctor doktor docteur rapporteur berichterstatter chancellor "
        "kanzler chancel senator sénat abgeordnet kolleg vorsitzend judge juge officer councillor councilor"
    ).split()
)


def _title_pattern(target: str) -> re.Pattern:
    titles = sorted((WRITTEN[target].values()), key=len, reverse=True) + list(ACADEMIC_TITLES)
    alternatives = "|".join(re.escape(title) + ("" if title.endswith(".") else r"(?!\w)") for title in titles)
    return re.compile(rf"(?<![\w.])(?:{alternatives}) ")


TITLES_BEFORE = {target: _title_pattern(target) for target in WRITTEN}
TITLE_WORDS = frozenset(title.rstrip(".") for title in ACADEMIC_TITLES) | {
    title.rstrip(".") for titles in WRITTEN.values() for title in titles.values()
}
PARTICLES_BEFORE = re.compile(PARTICLE)


def is_office(word: str, source: str) -> bool:
    """Whether `word` names an office (OFFICES), inside a compound where `source` is German."""
    folded = word.casefold()
    return any((office in folded) if source == "de" else folded.startswith(office) for office in OFFICES)


def _name_end(sentence: str, position: int, source: str) -> int | None:
    """Where the name that begins at `position` of `sentence` ends (NAME_WORDS of its words, the
    particles between them); None where no name begins there (an office, another title)."""
    end = None
    for _ in range(NAME_WORDS.get(source, 3)):
        word = NAME_WORD.match(sentence, PARTICLES_BEFORE.match(sentence, position).end())
        if word is None or word.group() in TITLE_WORDS or is_office(word.group(), source):
            break
        end = word.end()
        if sentence[end : end + 1] != " ":
            break
        position = end + 1
    return end


def names_after_titles(sentence: str, source: str, target: str) -> list[tuple[int, int]]:
    """(start, end) of each person's name after a title in `sentence`, a sentence in `source` as
    read for `target` (its titles written as runtime/titles.py writes them), where titles are
    read (READ); none otherwise."""
    if (source, target) not in READ:
        return []
    spans = []
    for title in TITLES_BEFORE[target].finditer(sentence):
        end = _name_end(sentence, title.end(), source)
        if end is not None:
            spans.append((title.end(), end))
    return spans
