"""Names of countries, regions and major cities read as the target language writes them, where the
model did not learn them.

The models had learned few of them: into French "Spain", "Mexico" and "Norway" stayed English
("Le président de Mexico a visité Spain."), from French "Norvège" and "Grèce" became "Norvenge" and
"Grèce". Written in the source as the target names the place ("visited Espagne"), the model
copies the name. A name the model learned is left as written: read, "Japan" had come out "l'apon"
where the model wrote "Japon" for it. Which it learned is asked of the model once for each name,
by its translation of a sentence of our own (PROBES: "They live in Japan."). Measured on the dev
rows that hold such a name in docs/studies/PLACE-NAMES.md. The names are CLDR's
(runtime/place_names.tsv, written by export/place_names.py); the alignment shows the words the
user wrote (runtime/alignment.py `restored`). After the search, a name the translation still
missed, left as it was or misspelled ("en Russia", "l'Iraël"), is written as the target names it
(places_written).

Not read either: a name beside another capitalized word, a part of a longer name ("New Mexico",
"Mexico City"); a name that is more often a person's, a state's or an adjective (AMBIGUOUS:
"Jordan", "Caribbean", French "Dominique"); from English or German, a name after the definite
article ("the United States", "die Schweiz"), which the models translated as they read it more
often than they copied it read (French writes an article before every country's name, and there
reading it helped); and between German and French, not measured (READ).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from difflib import SequenceMatcher
from pathlib import Path

import numpy as np

from .alignment import WordAlignment
from .constants import SHIPPED_DIRECTIONS
from .words import OPENING_MARKS, elided_head

PLACE_NAMES = Path(__file__).with_name("place_names.tsv")
PLACE_NAMES_LANGUAGES = ("en", "de", "fr")  # the table's languages, in the order export/place_names.py writes them
CITY = "city:"  # what opens a city's code in the table (export/place_names.py CITIES)
# The directions read, those measured (German–French is translated through English)
READ = SHIPPED_DIRECTIONS
# Names that are also a person's, a state's or an adjective more often than a place's
AMBIGUOUS = {
    "en": frozenset({"Jordan", "Georgia", "Chad", "Jersey", "Guernsey", "Caribbean", "Florence"}),
    "fr": frozenset({"Dominique", "Maurice"}),
}
# The definite articles after which a name is left as written
ARTICLES = {"en": frozenset({"the"}), "de": frozenset({"der", "die", "das", "den", "dem", "des"})}
# Capitalized words before a name that are no part of it: what opens a sentence or a phrase
OPENERS = {
    "en": frozenset("in on since until by from of and or the to for with at".split()),
    "de": frozenset("in nach aus von und der die das den dem mit für".split()),
    "fr": frozenset("en au aux de du des la le les et à dans pour".split()),
}
# The sentence in which the model is asked whether it learned a place's name
PROBES = {"en": "They live in {}.", "de": "Sie wohnen in {}.", "fr": "Ils habitent à {}."}
# How alike (difflib's ratio) a translation's word and a place's name are for the word to be a
# near miss of it ("Iraël" for "Israël", "Suèce" for "Suède", "Norvenge" for "Norvège")
NEAR_MISS = 0.8
CAPITALIZED = re.compile(r"[A-ZÄÖÜÀ-ÖØ-Þ][\w-]*")
CLOSING = ".,;:!?\"'”’»«)]}"  # marks after a word


@functools.cache
def place_names() -> dict[str, dict[str, list[str]]]:
    """language → place code → its names in that language, the one a translation writes first."""
    names: dict[str, dict[str, list[str]]] = {language: {} for language in PLACE_NAMES_LANGUAGES}
    for line in PLACE_NAMES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            code, language, name = line.split("\t")
            names[language].setdefault(code, []).append(name)
    return names


@functools.cache
def places_read(source: str, target: str) -> tuple[re.Pattern, dict[str, str]] | None:
    """A pattern of `source`'s place names that `target` writes otherwise, the longest first, and
    each name → the target's; None for a direction not READ."""
    if (source, target) not in READ:
        return None
    names = place_names()
    written = {
        name: names[target][code][0]
        for code, own in names[source].items()
        for name in own
        if name[0].isupper() and name not in AMBIGUOUS.get(source, ()) and name != names[target][code][0]
    }
    alternatives = "|".join(re.escape(name).replace("'", "['’]") for name in sorted(written, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])"), written


def part_of_longer_name(previous: str, following: str, source: str) -> bool:
    """Whether a place's name in `source` with the word `previous` before it (its opening marks
    stripped) and `following` after it ("" at an edge, or punctuation after the name) is part of a
    longer name: a capitalized word follows ("Mexico City") or one that opens no phrase stands
    before it ("New Mexico")."""
    if CAPITALIZED.fullmatch(following.strip(CLOSING)):
        return True
    return bool(
        CAPITALIZED.fullmatch(previous)
        and previous.lower() not in OPENERS[source]
        and not previous.endswith((".", ":"))
    )


def learned(name: str, target_name: str, source: str, translated: Callable[[str], str]) -> bool:
    """Whether the model's translation of PROBES' sentence around `name` (a place, in `source`),
    which `translated` gives, writes the place as the target does (`target_name`)."""
    return names_place(translated(PROBES[source].format(name)), target_name)


def names_place(text: str, name: str) -> bool:
    """Whether `text` holds the place's `name` as a word of its own ("Espagne", not "Espagnes")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def read_places(sentence: str, source: str, target: str, translated: Callable[[str], str]) -> str:
    """`sentence` (in `source`) with each place's name as `target` writes it ("visited Spain" →
    "visited Espagne" into French), but a name that is part of a longer one, that AMBIGUOUS lists,
    that follows a definite article of ARTICLES, or that the model learned (`learned`, asking
    `translated`: the model's translation of a sentence as written)."""
    read = places_read(source, target)
    if read is None:
        return sentence
    pattern, written = read

    def named(place: re.Match) -> str:
        before = sentence[: place.start()].split()
        after = sentence[place.end() :].split()
        previous = before[-1].lstrip(OPENING_MARKS) if before else ""
        if part_of_longer_name(previous, after[0] if after else "", source):
            return place.group()
        if previous.lower() in ARTICLES.get(source, ()):
            return place.group()  # "the United States"
        name = place.group().replace("’", "'")
        return place.group() if learned(name, written[name], source, translated) else written[name]

    return pattern.sub(named, sentence)


def places_written(
    alignment: WordAlignment, source: str, target: str, target_words: frozenset[str] | None = None
) -> WordAlignment:
    """`alignment` (a translation from `source` into `target`, weights (T, S)) with each place's
    name that the translation missed written as `target` names it: where a source word is a
    place's name that `target` writes otherwise (places_read), not part of a longer one
    (part_of_longer_name: "New Mexico"), and the translation nowhere holds the target's name, the
    target word most linked to it becomes the target's name when it is the source's name left as
    it was ("Russia" into French), the target's in small letters ("hungary") or, given
    `target_words` (the model's training words in `target`, in small letters), a near miss
    (NEAR_MISS) of either name that is no such word ("Iraël" for "Israël", "Spagne" for "Espagne"
    read so; not "Russian" or "russe", the people's word), capitalized and no place's name of
    either language. Its elided article and punctuation kept ("l'Iraël," → "l'Israël,"). One word
    for one: the weights are unchanged."""
    read = places_read(source, target)
    if read is None or alignment.weights.size == 0:
        return alignment
    written = read[1]
    words = list(alignment.target_words)
    text = " ".join(words)
    most_linked = np.argmax(alignment.weights, axis=0)  # (S,): each source word's target word
    sources = alignment.source_words
    for source_index, source_word in enumerate(sources):
        original = source_word.lstrip(OPENING_MARKS).rstrip(CLOSING).replace("’", "'")
        name = written.get(original)
        if name is None or names_place(text, name):
            continue
        # a mark before or after the name ends it: "(Belgium)" in "French (Belgium)", "Mexico," stands alone
        opened, closed = not source_word.startswith(original), not source_word.endswith(original)
        previous = "" if opened or not source_index else sources[source_index - 1].lstrip(OPENING_MARKS)
        following = "" if closed or source_index + 1 == len(sources) else sources[source_index + 1]
        if part_of_longer_name(previous, following, source):
            continue
        target_index = int(most_linked[source_index])
        word = words[target_index]
        head = elided_head(word, target)
        core = word[head:].lstrip(OPENING_MARKS).rstrip(CLOSING)
        near_miss = (
            target_words is not None
            and core[:1].isupper()
            and core.lower() not in target_words
            and core not in known_places(source, target)
            and max(alike(core, name), alike(core, original)) >= NEAR_MISS
        )
        if core in (original, name.lower()) or near_miss:
            start = word.index(core, head)
            words[target_index] = word[:start] + name + word[start + len(core) :]
    return alignment if words == alignment.target_words else replace(alignment, target_words=words)


@functools.cache
def known_places(*languages: str) -> frozenset[str]:
    """Every place's name the table has in `languages`."""
    return frozenset(name for language in languages for names in place_names()[language].values() for name in names)


def alike(word: str, name: str) -> float:
    """difflib's ratio between `word` and `name`, case aside ("Spagne" and "Espagne": 0.92; with
    case, 0.77, and "Je vis en Spagne." had been left so)."""
    return SequenceMatcher(None, word.lower(), name.lower()).ratio()
