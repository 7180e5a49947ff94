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

A name after a given name ("Thomas Koch", "Robert King", "Luc Fontaine") had been translated as
the words it spells: "Ich habe mit Thomas Koch gesprochen." → "I talked to Thomas cook.", "Robert
King" → "Robert roi", "Luc Fontaine a appelé hier." → "The Fontaine called yesterday." Such a name
(names_after_given_names: a given name of the table runtime/person_names.tsv, its middle names or
initials, then a surname of the table or a word the model never learned; in German a surname that
is a noun too not after a verb, "Gestern hat Tom Ball gespielt.") is searched again set aside
where the translation lost it (runtime/second_searches.py names_lost), as names the model never learned are
(docs/studies/GIVEN-NAMES.md). The table holds the given names and surnames of Faker's English,
German and French locales, less those that a sentence writes as something else more often than as
a name (export/person_names.py: measured on the training corpora).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .roman import ROMAN
from .titles import PARTICLE, READ, WRITTEN
from .unlearned_names import LETTERS, opens_sentence
from .verbatim import EDGE_PUNCTUATION

if TYPE_CHECKING:
    from .alignment import WordAlignment

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


PERSON_NAMES = Path(__file__).with_name("person_names.tsv")
# The table's kinds of name (export/person_names.py writes it): a given name, one that is a word
# too in small letters ("Claire", "Mark": a name within a sentence, not at its opening), a surname,
# one that is a German noun too ("Koch", "Glück", "Ball": see GERMAN_NAME_BEFORE)
GIVEN, GIVEN_WORD, SURNAME, SURNAME_WORD = "given", "given-word", "surname", "surname-word"
KINDS = (GIVEN, GIVEN_WORD, SURNAME, SURNAME_WORD)
# In German, whose nouns open with a capital, a surname that is a noun too follows a given name that
# opens the sentence, that a capital's word, a mark or one of these words comes before ("mit Thomas
# Koch", "Anna und Klaus Richter"), not one after another word, a verb's ("Gestern hat Tom Ball
# gespielt.", "Heute hatte Paul Glück.")
GERMAN_NAME_BEFORE = frozenset(
    "mit an von vom für bei beim zu zum zur nach durch gegen ohne um über unter vor hinter neben zwischen "
    "laut gemäß seit ab wie als und oder sowie bzw sondern aber dass".split()
)
# The definite articles before which a given name opens no person's name ("the Robert Koch
# Institute", "le refuge de la Pierre Blanche")
ARTICLES = frozenset("the der die das den dem des le la les".split())
MIDDLE_NAMES = 2  # the most given names or initials after the first ("Mary Anne Smith", "George W. Bush")
SURNAME_WORDS = 2  # the most words of a surname ("Díaz Chávez")
# A language that joins words into one, whose nouns a model may not have learned whole: an
# unlearned word there is no surname where it ends with a learned word ("Bettina Frühdienst")
COMPOUNDING = frozenset({"de"})
COMPOUND_PART = 4  # the fewest letters of a compound's head and of what comes before it ("mendes" ends with "des")
INITIAL = re.compile(r"[A-Z]\.")
OPENING = "\"'“„«‘(["  # what may stand right before a name


def read_person_names(path: Path = PERSON_NAMES) -> dict[str, frozenset[str]]:
    """The table's names by kind (KINDS): its rows "KIND<TAB>NAME", "#" opening a comment."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return {kind: frozenset(name for row_kind, name in rows if row_kind == kind) for kind in KINDS}


NAMES = read_person_names()


class FullName(NamedTuple):
    """A person's name in a sentence: where it starts, where its surname starts, where it ends."""

    start: int
    surname: int
    end: int


def is_given(word: str, names: dict[str, frozenset[str]]) -> bool:
    """Whether `word` is a given name of `names`, a word too or not."""
    return word in names[GIVEN] or word in names[GIVEN_WORD]


class Surnames(NamedTuple):
    """What may follow a given name as its surname (is_surname): the words the model learned
    (None: a surname of the table alone), and whether a surname that is a German noun too may."""

    known: frozenset[str] | None
    nouns: bool


def is_surname(word: str, source: str, surnames: Surnames, names: dict[str, frozenset[str]]) -> bool:
    """Whether `word`, after a given name in a sentence of `source`, is a surname: one of the table
    (`names`; in capitals alone too, "DUPONT"; one that is a German noun too where `surnames`
    allows it), or a word none of whose runs of letters the model learned (`surnames.known`,
    lower-cased; None: the table alone) and no compound of a learned word where the language makes
    them (COMPOUNDING); not a word that ends a name (NAME_ENDS), a title, an office or a Roman
    number ("Louis XIV"), nor in German a given name that is no surname of the table ("Kennt Tom
    Maria?", but "Andrea Wolf")."""
    if not word[0].isupper() or len(word) < 2 or word in TITLE_WORDS or word.casefold() in NAME_ENDS:
        return False
    if re.fullmatch(ROMAN, word):
        return False
    listed = word.capitalize() if word.isupper() else word
    if listed in names[SURNAME] or (listed in names[SURNAME_WORD] and (source != "de" or surnames.nouns)):
        return not is_office(word, source)
    if is_office(word, source) or (source == "de" and is_given(word, names)) or listed in names[SURNAME_WORD]:
        return False
    known = surnames.known
    if known is None or any(run.lower() in known for run in LETTERS.findall(word)):
        return False
    return not (source in COMPOUNDING and compound(word.lower(), known))


def compound(word: str, known: frozenset[str]) -> bool:
    """Whether `word` (in small letters) ends with a word of `known` of COMPOUND_PART letters or more
    after COMPOUND_PART letters or more: a compound the model did not learn whole ("frühdienst")."""
    return any(word[start:] in known for start in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1))


def _next_word(sentence: str, position: int) -> re.Match | None:
    """The name word after a single space at `position` of `sentence`, its particles passed over."""
    if sentence[position : position + 1] != " " or sentence[position + 1 : position + 2] == " ":
        return None
    return NAME_WORD.match(sentence, PARTICLES_BEFORE.match(sentence, position + 1).end())


def _surnames_after(
    sentence: str, given: re.Match, source: str, known: frozenset[str] | None, names: dict[str, frozenset[str]]
) -> Surnames | None:
    """What may follow the word `given` of `sentence` as a surname where it is a given name that may
    open a person's name there: a surname of the table alone after a given name that is a word too
    at the sentence's opening ("Claire Chevalier a appelé." but not "Claire Sicht"); a German noun
    where the given name opens the sentence or follows a mark, a capital's word or a word of
    GERMAN_NAME_BEFORE; None where it opens no name."""
    start, word = given.start(), given.group()
    if not is_given(word, names) or (start and not (sentence[start - 1].isspace() or sentence[start - 1] in OPENING)):
        return None
    previous = sentence[:start].rstrip().rpartition(" ")[2]
    if previous.lower() in ARTICLES:
        return None
    opening = opens_sentence(sentence, start, source)
    word_too = word in names[GIVEN_WORD] and opening
    noun_before = opening or not previous[-1:].isalpha() or previous[:1].isupper()
    nouns = noun_before or previous.lower().rstrip(".") in GERMAN_NAME_BEFORE
    return Surnames(None if word_too else known, nouns)


def names_after_given_names(
    sentence: str, source: str, known: frozenset[str] | None, names: dict[str, frozenset[str]] = NAMES
) -> list[FullName]:
    """Each person's name of `sentence` (in `source`) that opens with a given name of `names`
    (not within another word: "Marie-Claire" is one given name, not "Claire" after "Marie"; not
    after a definite article, ARTICLES; one that is a word too at the sentence's opening only before
    a surname of the table): up to MIDDLE_NAMES given names or initials, the particles before the
    surname ("Ursula von der Leyen"), then up to SURNAME_WORDS surnames (is_surname). Not a name
    that a word with a capital follows, part of a longer proper name ("the Robert Koch Institute",
    "James Webb Space Telescope")."""
    found: list[FullName] = []
    for given in NAME_WORD.finditer(sentence):
        surnames = _surnames_after(sentence, given, source, known, names)
        if surnames is None or (found and given.start() < found[-1].end):
            continue
        position = given.end()
        for _ in range(MIDDLE_NAMES):
            middle = _next_word(sentence, position)
            if middle is None or not (INITIAL.fullmatch(middle.group()) or is_given(middle.group(), names)):
                break
            after = _next_word(sentence, middle.end())
            if after is None or not is_surname(after.group(), source, surnames, names):
                break
            position = middle.end()
        surname, end = None, None
        for _ in range(SURNAME_WORDS):
            word = _next_word(sentence, position if end is None else end)
            if word is None or not is_surname(word.group(), source, surnames, names):
                break
            surname = word.start() if surname is None else surname
            end = word.end()
        if surname is None or end is None:
            continue
        following = _next_word(sentence, end)
        if following is not None and following.group()[0].isupper():
            continue
        found.append(FullName(given.start(), surname, end))
    return found


def given_names_as_written(alignment: WordAlignment) -> WordAlignment:
    """The alignment with each target word in small letters that is, letter for letter, a given
    name of the source (of the table's GIVEN: a name and no word, "Paul") written as the source
    writes it: de→en had written "paul" for "Paul" (a letter's signature on a line of its own).
    One word for one: the weights are unchanged."""
    given = {
        core.lower(): core for word in alignment.source_words if (core := word.strip(EDGE_PUNCTUATION)) in NAMES[GIVEN]
    }
    if not given:
        return alignment
    words = [
        word.replace(core, given[core], 1) if (core := word.strip(EDGE_PUNCTUATION)) in given else word
        for word in alignment.target_words
    ]
    return alignment if words == alignment.target_words else replace(alignment, target_words=words)
