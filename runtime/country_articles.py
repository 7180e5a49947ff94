"""The article or preposition French writes before a country's name, where a translation wrote
another: "né en Canada" → "né au Canada", "à Portugal" → "au Portugal", "le Norvège" → "la
Norvège", "de Mexique" → "du Mexique".

French gives most countries an article, by gender and number, and the preposition of place
follows it: a feminine name, or one that opens with a vowel, takes "la"/"l'", "en" and "de"/"d'"
("la France", "en France", "l'Iran", "en Iran"); a masculine one "le", "au" and "du" ("le
Canada"); a plural one "les", "aux" and "des" ("les États-Unis"). A name ending in "e" is
feminine but for a few (MASCULINE). Names whose use varies are left as written
(WITHOUT_ARTICLE: islands, city states and organisations, "à Cuba", "en Israël", "la
Jamaïque"), as is a word that may mean "to" rather than "in" ("au" or "aux" before a feminine
name: "merci au Norvège" wants "à la Norvège"). The names are CLDR's French
(runtime/place_names.tsv); the models, which learned few countries' names, wrote "en Mexique",
"à Portugal" and "le Norvège" for what they read (docs/studies/COUNTRY-ARTICLES.md measures the
rule on news-dev). Only the word before the name changes, but for "à" or "de" and an article
that join ("à la Canada" → "au Canada"). Where the source put a place's name after "in" ("in
Spain", "in the Ukraine", German "in Spanien", "im Iran"), "dans" and an article before it in the
translation become the preposition of place ("dans l'Espagne" → "en Espagne", "dans Moscou" → "à
Moscou"): 44 rows of news-dev's 3,000 (`python -m benchmarks.country_articles --only-in`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from .alignment import WordAlignment
from .place_names import CITY, place_names
from .words import word_spans

# The exceptions to the rule of the ending: names whose first word ends in "e" but is masculine
# ("le Royaume-Uni"), a feminine one whose does not
MASCULINE = frozenset({"Mexique", "Cambodge", "Mozambique", "Zimbabwe", "Belize", "Suriname", "Royaume", "Territoire"})
FEMININE = frozenset({"Sierra Leone"})
# Singular names that end in "s"
SINGULAR_IN_S = frozenset({"Laos", "Honduras"})
# The first words of the names of islands, city states, places whose article varies ("à la" or
# "en Jamaïque") or is their own ("La Réunion"), and organisations: left as written
WITHOUT_ARTICLE = frozenset(
    "Andorre Anguilla Antigua Aruba Bahreïn Barbade Brunei Ceuta Chypre Cuba Curaçao Djibouti "
    "Dominique Fidji Gibraltar Grenade Guadeloupe Guam Guernesey Haïti Hong Israël Jamaïque Jersey Kiribati "
    "La Macao Madagascar Malte Martinique Maurice Mayotte Monaco Montserrat Nauru Niue Oman Palaos Porto "
    "Saint Sainte Samoa Sao Singapour Svalbard Taïwan Tokelau Tonga Trinité Tristan Tuvalu Union "
    "Nations Vanuatu Wallis État Diego Île R.A.S.".split()
)
# Names of a city too, after "à" or "de" left as written ("situé à Luxembourg", "la ville de
# Panama"), and of a person too, after any word but "à" ("les paroles du Suisse": the Swiss's)
CITY_TOO = frozenset({"Luxembourg", "Panama", "Koweït", "Guatemala"})
PERSON_TOO = frozenset({"Suisse"})
# Words after which "de" and a name is a name, not a place ("sous le nom de Cambodge")
NAMING = frozenset({"nom", "noms"})
# The words that may stand before a country's or a city's name, by what they are: an article, a
# preposition of place, "of"; each as a masculine, feminine, elided and plural name takes it, and a
# city's (city_class); None: left as written (a city takes no article, and before one opening
# with an H "de" or "d'" is as written: "de Hambourg" but "d'Helsinki")
BEFORE = {
    "article": {"masculine": "le", "feminine": "la", "elided": "l'", "plural": "les"}
    | {"city": None, "elided city": None, "h city": None},
    "place": {"masculine": "au", "feminine": "en", "elided": "en", "plural": "aux"}
    | {"city": "à", "elided city": "à", "h city": "à"},
    "of": {"masculine": "du", "feminine": "de", "elided": "d'", "plural": "des"}
    | {"city": "de", "elided city": "d'", "h city": None},
}
# Each such word, in small letters (with either apostrophe) → what it is
KIND_OF_WORD = {word: kind for kind, forms in BEFORE.items() for word in forms.values() if word} | {
    "à": "place",
    "d’": "of",
    "l’": "article",
}
# "à" and "de" with the article "le" or "les": one word
CONTRACTED = {"à": {"le": "au", "les": "aux"}, "de": {"le": "du", "les": "des"}}
TRAILING = ".,;:!?…\"'”’»)]}"  # marks after a name's last word
# The preposition "in" of each source language, with the articles that may stand between it and a
# place's name: what "dans" before the name translated
IN_PLACE = {"en": r"[Ii]n(?: the)?", "de": r"(?:[Ii]n(?: de[rnm])?|[Ii]m)"}


def name_class(name: str) -> str | None:
    """How `name` (a country's French name) takes an article: "masculine", "feminine", "elided"
    (l', a name opening with a vowel), "plural", or None (left as written)."""
    head = name.split()[0].split("-")[0]
    if not name[0].isupper() or head in WITHOUT_ARTICLE:
        return None
    plural = head.endswith("s") and head not in SINGULAR_IN_S
    if plural:
        return "plural"
    if head[0] in "AEIOUÉÈÊÎÔÛ":
        return "elided"  # a name opening with H takes no elision in French ("la Hongrie", "le Honduras")
    feminine = name in FEMININE or (head.endswith("e") and head not in MASCULINE)
    return "feminine" if feminine else "masculine"


@functools.cache
def longest_name() -> int:
    """How many words the longest name of country_classes has."""
    return max(len(words) for words in country_classes())


@functools.cache
def country_classes() -> dict[tuple[str, ...], str]:
    """The words of each French place name that takes an article or is a city's → its class
    (name_class, city_class)."""
    classes = {}
    for code, names in place_names()["fr"].items():
        for name in names:
            found = city_class(name) if code.startswith(CITY) else name_class(name)
            if found is not None:
                classes[tuple(name[start:end] for start, end in word_spans(name, "fr"))] = found
    return classes


def city_class(name: str) -> str:
    """How a city's French name takes the words before it: "à" and "de", "d'" before a vowel
    ("à Vienne", "d'Anvers"; "en Vienne", "au Munich" had been written), "de" or "d'" as written
    before an H."""
    return "elided city" if name[0] in "AEIOUÉÈÊÎÔÛ" else "h city" if name[0] == "H" else "city"


def agreed_before_countries(alignment: WordAlignment, language: str, source: str | None = None) -> WordAlignment:
    """`alignment` (a translation from `source` into `language`: weights (T, S)) with "dans" and an
    article before a place's name made the preposition of place where the source put the name after
    "in" (placed_in: "dans l'Espagne" → "en Espagne"), then the article, preposition
    of place or "de" before each French country's name as the name takes it (BEFORE), written in
    capitals or with a capital as it was; an article after "à" or "de" that becomes "le" or "les"
    joins it ("à la Canada" → "au Canada": the two words one, its row of the weights the mean of
    theirs, so (T − joined, S)). Left as written where left_as_written says, and before a name
    that a capitalized word follows, a part of a longer name ("du Canada Goose")."""
    if language != "fr":
        return alignment
    alignment = placed_in(alignment, source)
    classes, longest = country_classes(), longest_name()
    words = list(alignment.target_words)
    joined = []  # the index of each word that joined the word before it
    for index in range(1, len(words)):
        written = words[index - 1]
        kind = KIND_OF_WORD.get(written.lower())
        name = country_name(words, index, classes, longest) if kind else None
        if name is None:
            continue
        taken = classes[name]
        before = words[index - 2].lower() if index >= 2 else ""
        if left_as_written(written.lower(), " ".join(name), taken, before):
            continue
        if BEFORE[kind][taken] is None:
            continue
        wanted = BEFORE[kind][taken].replace("'", "’" if "’" in written else "'")
        words[index - 1] = cased_as(wanted, written)
        if kind == "article" and before in CONTRACTED and wanted in CONTRACTED[before]:
            words[index - 2] = cased_as(CONTRACTED[before][wanted], words[index - 2])
            joined.append(index - 1)
    return joined_words(alignment, words, joined)


def joined_words(alignment: WordAlignment, words: list[str], joined: list[int]) -> WordAlignment:
    """`alignment` with `words` (as many as its target words) for its target words, each word whose
    index `joined` holds joined to the word before it (dropped, that word's row of the weights the
    mean of the two: (T − len(joined), S))."""
    if words == alignment.target_words:
        return alignment
    weights = alignment.weights.copy()
    for index in joined:
        weights[index - 1] = (weights[index - 1] + weights[index]) / 2
    kept = [index for index in range(len(words)) if index not in joined]
    return replace(alignment, target_words=[words[index] for index in kept], weights=weights[kept])


def placed_in(alignment: WordAlignment, source: str | None) -> WordAlignment:
    """`alignment` (a translation into French from `source`, weights (T, S)) with "dans" before a
    place's name (a country's or a city's of country_classes), an article between them or not,
    made the preposition of place the name takes (BEFORE["place"]: "en", "au", "aux", "à"), the
    article joined to it (joined_words), where the source holds one of the place's names in
    `source` after "in" (IN_PLACE) and "dans" is linked most to that "in" (translates_in): "chiefs
    in Pakistan" → "dans Pakistan" → "au Pakistan",
    "in Germany" → "dans l'Allemagne" → "en Allemagne". Where the source says otherwise ("in
    Franco's Spain" → "dans l'Espagne de Franco"), as written."""
    if source not in IN_PLACE:
        return alignment
    classes, longest = country_classes(), longest_name()
    source_text = " ".join(alignment.source_words)
    words = list(alignment.target_words)
    joined = []
    for index in range(1, len(words)):
        has_article = KIND_OF_WORD.get(words[index - 1].lower()) == "article"
        before = index - 2 if has_article else index - 1
        if before < 0 or words[before].lower() != "dans":
            continue
        name = country_name(words, index, classes, longest)
        if name is None or not named_after_in(source_text, " ".join(name), source):
            continue
        if not translates_in(alignment, before, source):  # "marched into Paris" → "dans Paris"
            continue
        words[before] = cased_as(BEFORE["place"][classes[name]], words[before])
        if has_article:
            joined.append(index - 1)
    return joined_words(alignment, words, joined)


def translates_in(alignment: WordAlignment, index: int, source: str) -> bool:
    """Whether target word `index` ("dans") is linked most to a source word of IN_PLACE ("in",
    "im", or the article after "in"), or to none (an alignment without weights)."""
    row = alignment.weights[index] if alignment.weights.size else None
    if row is None or not row.any():
        return True
    word = alignment.source_words[int(row.argmax())].strip(TRAILING).lower()
    return re.fullmatch(IN_PLACE[source].replace("[Ii]", "i"), word) is not None or word in ("the", "der", "den", "dem")


def named_after_in(text: str, name: str, source: str) -> bool:
    """Whether `text` (in `source`) holds, after "in" (IN_PLACE), a name of the place the French
    `name` names."""
    names = source_names(source).get(name, ())
    return any(re.search(rf"(?<!\w){IN_PLACE[source]} {re.escape(own)}(?![\w-])", text) for own in names)


@functools.cache
def source_names(source: str) -> dict[str, frozenset[str]]:
    """Each French place name of the table → the names in `source` of the places it names."""
    names, found = place_names(), {}
    for code, frenches in names["fr"].items():
        for french in frenches:
            found[french] = found.get(french, frozenset()) | frozenset(names[source].get(code, ()))
    return found


def left_as_written(written: str, name: str, taken: str, before: str) -> bool:
    """Whether the word `written` (in small letters) before the country's `name`, which takes an
    article as `taken` says, is left as written, `before` the word before it: "au" or "aux"
    before a feminine or elided name (it may mean "to": "à la Norvège"), "à" or "de" before a
    name of a city too (CITY_TOO), any word but "à" before a name of a person too (PERSON_TOO),
    "de" after a word of NAMING."""
    if written in ("au", "aux"):
        return taken in ("feminine", "elided")
    if name in PERSON_TOO:
        return written != "à"
    if written == "à" or KIND_OF_WORD.get(written) == "of":
        return name in CITY_TOO or (written != "à" and before in NAMING)
    return False


def cased_as(word: str, written: str) -> str:
    """`word` in capitals where `written` (a word of more than one letter) was, with a capital
    where `written` had one, else as it is."""
    if len(written) > 1 and written.isupper():
        return word.upper()
    return word.capitalize() if written[:1].isupper() else word


def country_name(
    words: list[str], index: int, classes: dict[tuple[str, ...], str], longest: int
) -> tuple[str, ...] | None:
    """The words of the country's name (a key of `classes`) that opens at `words[index]`,
    the longest that does, its last word maybe with marks after it; None where none does, or
    where a capitalized word follows it."""
    for length in range(min(longest, len(words) - index), 0, -1):
        last = words[index + length - 1]
        name = tuple(word.replace("’", "'") for word in (*words[index : index + length - 1], last.rstrip(TRAILING)))
        if name in classes:
            after = words[index + length] if index + length < len(words) else ""
            return None if after[:1].isupper() and name[-1] == last else name
    return None
