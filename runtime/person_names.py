"""A person's name after their title ("Frau Schmidt", "Mr. Baker", "Dr. Fischer") is set aside
from the search (runtime/set_aside.py) and comes through as written.

Surnames that are words of the other language were translated: "Frau Schmidt hat gestern
angerufen." → "M's taste called yesterday.", "Herr Müller und Frau Wagner" → "Mr mill and Ms
wagers", "Mrs. Cook" → "Madame Cuis", "M. Tremblay" → "Mr Tre assembly". After a title, as
runtime/titles.py writes it for the target (the title checked there: not German's noun after an
article), or after "Dr" or "Prof", the words that open with a capital are a name: one in a German
sentence, whose nouns open with one too ("Frau Schmidt Bescheid sagen"), up to three in English
and French ("Mr. John Smith"), with the particles between ("Frau von der Leyen", "M. de Gaulle").
Not an office ("Mr President", "Herr Präsident", "Madam Speaker", "Mr High Representative"): is_office.
"""

from __future__ import annotations

import re

from .titles import PARTICLE, READ, WRITTEN

ACADEMIC_TITLES = ("Dr.", "Dr", "Prof.", "Prof")
# A word of a name: parts joined by a hyphen ("Jean-Pierre", "Müller-Lüdenscheid") or an
# apostrophe before a capital ("O'Brien"), not a possessive's ("Smith's": the sentence's); an
# initial with its point ("George W. Bush"). Its first letter a capital (_name_word).
NAME_WORD = re.compile(r"[^\W\d_](?:\.(?= )|[^\W\d_]*(?:(?:-|['’](?=[A-ZÀ-ÖØ-ÞĀ-Ž]))[^\W\d_]+)*)")
NAME_WORDS = {"de": 1}  # the most words of a name, by the source's language; 3 otherwise
# What a title names a person by instead of a name ("Mr President", "Mr High Representative",
# "Madame Présidente"): a run of words after a title that holds one is no name
OFFICES = frozenset(
    (
        "president speaker chairman chairwoman chairperson chair commissioner minister secretary ambassador "
        "mayor governor vice deputy prime chief justice director professor doctor rapporteur chancellor premier "
        "judge senator officer councillor councilor representative high foreign acting attorney general "
        "président présidente ministre maire directeur directrice professeur docteur rapporteure commissaire "
        "député députée juge sénateur sénatrice secrétaire ambassadeur ambassadrice gouverneur chancelier "
        "chancelière première"
    ).split()
)
# Capitalized words of English and French that end a name ("Dear Mr Smith I am…", "Dr. Fox
# Tuesday", title case's "Mr. Smith Goes To Washington")
NAME_ENDS = frozenset(
    (
        "i a an and but or the then to of in on at for with from by is was goes went says said "
        "monday tuesday wednesday thursday friday saturday sunday january february march april may june july "
        "august september october november december je il elle et le la les un une mais lundi mardi mercredi "
        "jeudi vendredi samedi dimanche janvier février mars avril mai juin juillet août septembre octobre "
        "novembre décembre"
    ).split()
)
# German offices, whole or ending a compound, in any of their forms ("Präsidentin",
# "Bundeskanzler", "Abgeordneter", "Hoher Vertreter"); "Herr Ober" calls a waiter
GERMAN_OFFICE = re.compile(
    r"(?:\w*(?:präsident|minister|kommissar|kanzler|sekretär|botschafter|bürgermeister|direktor|professor"
    r"|doktor|vorsitzend|abgeordnet|kolleg|berichterstatter|vertreter|staatsanwalt|general)"
    r"|hoh|ober|pfarrer)(?:in|innen|e|er|en|es|n)?"
)


def is_office(word: str, source: str) -> bool:
    """Whether `word` names an office (OFFICES; GERMAN_OFFICE where `source` is German)."""
    folded = word.casefold()
    return folded in OFFICES or (source == "de" and GERMAN_OFFICE.fullmatch(folded) is not None)


def _title_pattern(target: str) -> re.Pattern:
    titles = sorted(WRITTEN[target].values(), key=len, reverse=True) + list(ACADEMIC_TITLES)
    alternatives = "|".join(re.escape(title) + ("" if title.endswith(".") else r"(?!\w)") for title in titles)
    return re.compile(rf"(?<![\w.])(?:{alternatives}) ")


TITLES_BEFORE = {target: _title_pattern(target) for target in WRITTEN}
TITLE_WORDS = frozenset(title.rstrip(".") for title in ACADEMIC_TITLES) | {
    title.rstrip(".") for titles in WRITTEN.values() for title in titles.values()
}
PARTICLES_BEFORE = re.compile(PARTICLE)


def _name_end(sentence: str, position: int, source: str) -> int | None:
    """Where the name that begins at `position` of `sentence` ends (NAME_WORDS of its words, the
    particles between them, an initial's point), before a word that ends one (NAME_ENDS); None
    where no name begins there: another title, or a run of words one of which is an office
    (is_office: "Mr High Representative")."""
    end = None
    for _ in range(NAME_WORDS.get(source, 3)):
        word = NAME_WORD.match(sentence, PARTICLES_BEFORE.match(sentence, position).end())
        if word is None or not word.group()[0].isupper() or word.group() in TITLE_WORDS:
            break
        if end is not None and word.group().casefold() in NAME_ENDS:  # not a name's first ("M. Le Pen")
            break
        if is_office(word.group(), source):
            return None
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
