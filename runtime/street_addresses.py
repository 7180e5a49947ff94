"""A street and its house number ("Bahnhofstraße 12", "221B Baker Street", "15 rue de la Paix"), and
the postal line after it ("80331 München"), set aside from the search and written as read (as the
source writes them, but a major city's name, which runtime/place_names.py reads as the target
names it first: "80331 Munich").

An address is not translated: a letter is delivered to the street its sign names. The models
translated its words and lost its punctuation: "Thomas Koch wohnt in der Bahnhofstraße 12, 80331
München." → "Tomas cook lives in the station of 12. 80331 Munich." Set aside as a person's name after
a title is (runtime/set_aside.py: a placeholder the model copies, put back in its place), the street
comes through as written. A street is found by its type's word, as each language writes streets
(STREETS): in German a name ending in "-straße", "-weg", "-platz", … or a type after it ("Am Markt",
"Unter den Linden"), then a house number; in English a house number, words with capitals and a type
("Street", "Rd"); in French a house number, maybe "bis" or a comma, a type ("rue", "avenue") and the
name's words (capitals, and the particles between), or as Switzerland writes it, the number last
("Rue du Marché 4"). A British town and postcode are set aside wherever they stand ("London WC2B
6AA"); a number that may be a year ("By 2008, Wall Street …") only before a postal line. Chosen on sentences a helper wrote
(`python -m benchmarks.street_addresses`, docs/studies/STREET-ADDRESSES.md).
"""

from __future__ import annotations

import re

from .dates import YEAR

NUMBER = r"\d{1,4}(?: ?[a-zA-Z](?![\w-]))?"  # a house number, maybe with a letter ("5a", "221B")
CAPITALIZED = r"[A-ZÄÖÜÀ-Þ][\w'’-]*"  # a word of a street's name
# German streets' names end in a type (not "-tor", "-berg", "-markt", "-steig", which other words
# end in too: "Raptor 2", "Nürnberg 3", "Bahnsteig 3")
GERMAN_TYPES = "straße strasse str. weg gasse platz allee ring damm ufer chaussee pfad promenade".split()
# Places with a number that are no street: "Parkplatz 5", "Tabellenplatz 3", "Listenplatz 5"
NO_STREET = r"(?!(?:Park|Stell|Sitz|Tabellen|Listen|Arbeits|Start|Camping|Spiel|Sport|Ablage)platz )"
ENGLISH_TYPES = (
    "Street St Road Rd Avenue Ave Lane Ln Drive Dr Square Sq Close Way Place Pl Terrace Crescent Boulevard Blvd "
    "Court Ct Gardens Grove Hill Row Walk Mews Parade Gate"
).split()
FRENCH_TYPES = "rue avenue av. boulevard bd bd. place chemin impasse quai allée cours route square passage".split()
FRENCH_PARTICLES = r"(?:de la |de l'|de l’|du |des |de |d'|d’|l'|la |le |les )"


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


GERMAN_TYPE_WORDS = ["Straße", "Strasse", "Str.", "Weg", "Gasse", "Platz", "Allee", "Ring", "Damm", "Ufer"]
# An article or a preposition before a type is no street's name: "Die Straße 5 …", "Auf Platz 1"
ARTICLES = r"(?!(?:Die|Der|Das|Den|Dem|Des|Eine|Ein|Jede|Diese|Unsere|Auf|Im|Am|Zum|Vom|Beim|Ins|Nach|Von|Mit) )"
POSTCODE = r",? \d{5} "  # a German postcode after the number, as an address's second line writes it
# A British postcode ("SW1A 1AA", "M17 1AB"): an outward code and an inward one
UK_POSTCODE = r"(?<![\w-])[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}(?![\w-])"
TOWN = CAPITALIZED
YEAR_FIRST = re.compile(YEAR)  # a number that is a year's as often: "By 2008, Wall Street …"
STREETS = {
    "de": re.compile(
        rf"(?<![\w-]){NO_STREET}(?:[A-ZÄÖÜ][\w-]*(?:{_alternatives(GERMAN_TYPES)}|-(?:{_alternatives(GERMAN_TYPE_WORDS)}))"
        rf"|{ARTICLES}[A-ZÄÖÜ][\w-]* (?:{_alternatives(GERMAN_TYPE_WORDS)})"  # "Berliner Straße"
        rf"|(?:Am|An der|An den|Auf der|Auf dem|Im|In der|Unter den|Zum|Zur) {CAPITALIZED}(?= {NUMBER}{POSTCODE}))"
        rf" {NUMBER}(?:[-–]{NUMBER})?(?![\w.,]\d)"
    ),
    "en": re.compile(
        rf"(?<![\w-]){NUMBER} (?:{CAPITALIZED} ){{1,3}}(?:{_alternatives(ENGLISH_TYPES)})\b(?:\.(?=,| [a-z]))?"
        rf"|{TOWN} {UK_POSTCODE}"
    ),
    "fr": re.compile(
        rf"(?<![\w-]){NUMBER}(?: (?:bis|ter))?,? (?:{_alternatives(FRENCH_TYPES)}) "
        rf"(?:{FRENCH_PARTICLES}?{CAPITALIZED}(?: |(?=[\s,.;:)]|$)))+"
        # as Switzerland and Belgium write it, the number after the name: "Rue du Marché 4"
        rf"|(?<![\w-])(?:{_alternatives([t.capitalize() for t in FRENCH_TYPES])}) (?:{FRENCH_PARTICLES}?{CAPITALIZED} )+{NUMBER}(?!\w)"
    ),
}


# The postal line after a street: a German or French postcode and its town ("80331 München",
# "75002 Paris", Swiss "1003 Lausanne"), a British town and postcode, an American town, state and ZIP
# code; after a comma, a middle dot or a dash
POSTAL_LINE = re.compile(
    rf"(?:,| ·| –| -)? (?:\d{{4,5}} {TOWN}(?: (?:am|an der|im) {TOWN})?"
    rf"|{TOWN}(?: {TOWN})? {UK_POSTCODE}|{TOWN}(?: {TOWN})?, [A-Z]{{2}} \d{{5}}(?:-\d{{4}})?)(?![\w-])"
)


def street_spans(sentence: str, language: str) -> list[tuple[int, int]]:
    """(start, end) of each street with its house number in `sentence`, as `language` writes them
    (STREETS), with the postal line after it (POSTAL_LINE: the models had translated its town,
    "80335 München" → "80335 mill", "01067 Dresden" → "Dresdendendens"); none in another
    language."""
    pattern = STREETS.get(language)
    if pattern is None:
        return []
    spans: list[tuple[int, int]] = []
    for found in pattern.finditer(sentence):
        if spans and found.start() < spans[-1][1]:
            continue
        end = found.end()
        while end > found.start() and sentence[end - 1] in " ,":
            end -= 1
        postal = POSTAL_LINE.match(sentence, end)
        if postal is None and YEAR_FIRST.match(
            found.group()
        ):  # "In 1989, Tiananmen Square", "2019, place de la Concorde"
            continue
        spans.append((found.start(), postal.end() if postal else end))
    return spans
