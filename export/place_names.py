"""The runtime's table of place names (runtime/place_names.tsv), written from the Unicode CLDR's
names of countries, territories and regions in English, German and French, as Babel ships them,
and from CITIES, major cities whose names the three languages write otherwise, and committed: the runtime reads the table, not Babel (loading Babel's locales cost each `attn
translate` about 50 ms).

    python -m attn.export.place_names      # rewrites runtime/place_names.tsv (Babel: pip install babel)

Kept: each two-letter territory and each numbered region but LEFT_OUT, by the name CLDR gives it
(not a name with brackets or " - ", which a sentence does not write so: "Congo - Kinshasa"; an
English "&" written "and"), and the names people write where CLDR's differ (COMMON_NAMES: "Turkey"
beside "Türkiye"); a place without a name in each language is left out.
"""

from __future__ import annotations

import re

from attn.runtime.place_names import CITY, PLACE_NAMES, PLACE_NAMES_LANGUAGES

UNWRITTEN = re.compile(r"[()&]| - ")  # brackets, "&" (an English one is first written "and"), " - "
# Left out: the world; the Americas, whose German name "Amerika" names America too; CLDR's codes of
# no place (an unknown region, the pseudo-locales' "Pseudo-Accents" and "Pseudo-Bidi")
LEFT_OUT = frozenset({"001", "019", "ZZ", "XA", "XB"})
# Names in more common use than CLDR's (English news writes "Turkey", not "Türkiye"), or for a
# place whose CLDR name a sentence does not write ("Hong Kong SAR China", "Myanmar (Burma)"):
# listed first, the name a translation into the language writes; CLDR's is read too
COMMON_NAMES = {
    "en": {
        "TR": ["Turkey"],
        "CZ": ["Czech Republic"],
        "CI": ["Ivory Coast"],
        "CD": ["Democratic Republic of the Congo"],
        "CG": ["Republic of the Congo"],
        "MM": ["Myanmar"],
        "HK": ["Hong Kong"],
        "MO": ["Macao"],
    },
    "de": {"HK": ["Hongkong"], "MO": ["Macau"]},
    "fr": {"MM": ["Birmanie"], "HK": ["Hong Kong"], "MO": ["Macao"]},
}


# Major cities, which CLDR does not name (ours): those English, German and French write otherwise
# ("München" had come out "coins", "Köln" "coln" into English), then some each writes the same,
# for the word French writes before a city's name (runtime/country_articles.py); keyed by the
# English name; one that English writes as a person's name too is AMBIGUOUS in the runtime
CITIES = [
    ("Munich", "München", "Munich"),
    ("Cologne", "Köln", "Cologne"),
    ("Nuremberg", "Nürnberg", "Nuremberg"),
    ("Frankfurt", "Frankfurt", "Francfort"),
    ("Hamburg", "Hamburg", "Hambourg"),
    ("Hanover", "Hannover", "Hanovre"),
    ("Dresden", "Dresden", "Dresde"),
    ("Aachen", "Aachen", "Aix-la-Chapelle"),
    ("Vienna", "Wien", "Vienne"),
    ("Zurich", "Zürich", "Zurich"),
    ("Geneva", "Genf", "Genève"),
    ("Basel", "Basel", "Bâle"),
    ("Bern", "Bern", "Berne"),
    ("Lucerne", "Luzern", "Lucerne"),
    ("Brussels", "Brüssel", "Bruxelles"),
    ("Antwerp", "Antwerpen", "Anvers"),
    ("Strasbourg", "Straßburg", "Strasbourg"),
    ("Dunkirk", "Dünkirchen", "Dunkerque"),
    ("Prague", "Prag", "Prague"),
    ("Warsaw", "Warschau", "Varsovie"),
    ("Krakow", "Krakau", "Cracovie"),
    ("Moscow", "Moskau", "Moscou"),
    ("Saint Petersburg", "Sankt Petersburg", "Saint-Pétersbourg"),
    ("Rome", "Rom", "Rome"),
    ("Milan", "Mailand", "Milan"),
    ("Venice", "Venedig", "Venise"),
    ("Florence", "Florenz", "Florence"),
    ("Naples", "Neapel", "Naples"),
    ("Genoa", "Genua", "Gênes"),
    ("Lisbon", "Lissabon", "Lisbonne"),
    ("Seville", "Sevilla", "Séville"),
    ("Athens", "Athen", "Athènes"),
    ("Copenhagen", "Kopenhagen", "Copenhague"),
    ("Gothenburg", "Göteborg", "Göteborg"),
    ("London", "London", "Londres"),
    ("Edinburgh", "Edinburgh", "Édimbourg"),
    ("Belgrade", "Belgrad", "Belgrade"),
    ("Bucharest", "Bukarest", "Bucarest"),
    ("Jerusalem", "Jerusalem", "Jérusalem"),
    ("Beijing", "Peking", "Pékin"),
    ("Montreal", "Montreal", "Montréal"),
    # the same in each: for the word French writes before a city's name ("en Berlin" → "à Berlin")
    ("Berlin", "Berlin", "Berlin"),
    ("Paris", "Paris", "Paris"),
    ("Madrid", "Madrid", "Madrid"),
    ("Amsterdam", "Amsterdam", "Amsterdam"),
    ("Stockholm", "Stockholm", "Stockholm"),
    ("Oslo", "Oslo", "Oslo"),
    ("Helsinki", "Helsinki", "Helsinki"),
    ("Dublin", "Dublin", "Dublin"),
    ("Budapest", "Budapest", "Budapest"),
    ("Tokyo", "Tokio", "Tokyo"),
    ("Toronto", "Toronto", "Toronto"),
    ("Chicago", "Chicago", "Chicago"),
    ("Lyon", "Lyon", "Lyon"),
    ("Marseille", "Marseille", "Marseille"),
    ("Toulouse", "Toulouse", "Toulouse"),
    ("Stuttgart", "Stuttgart", "Stuttgart"),
    ("Leipzig", "Leipzig", "Leipzig"),
    ("Düsseldorf", "Düsseldorf", "Düsseldorf"),
]


def city_rows() -> list[tuple[str, str, str]]:
    """(code, language, name) of each of CITIES, its code CITY and its English name."""
    return [
        (f"{CITY}{names[0]}", language, name)
        for names in CITIES
        for language, name in zip(PLACE_NAMES_LANGUAGES, names)
    ]


def place_name_rows() -> list[tuple[str, str, str]]:
    """(code, language, name) of each place in CLDR as Babel has it, each language's names in the
    order the runtime prefers them (COMMON_NAMES, then CLDR's); apostrophes written "'"."""
    from babel import Locale

    names = {language: Locale(language).territories for language in PLACE_NAMES_LANGUAGES}
    rows = []
    for code in sorted(names["en"]):
        if code in LEFT_OUT or not (len(code) == 2 and code.isalpha() or code.isdigit()):
            continue
        written = {}
        for language in PLACE_NAMES_LANGUAGES:
            common = COMMON_NAMES[language].get(code, [])
            cldr = names[language].get(code, "").replace("’", "'")
            if language == "en":
                cldr = cldr.replace(" & ", " and ")  # "Trinidad & Tobago": a sentence writes "and"
            written[language] = [name for name in [*common, cldr] if name and not UNWRITTEN.search(name)]
        if all(written.values()):
            rows += [(code, language, name) for language in PLACE_NAMES_LANGUAGES for name in written[language]]
    return rows


def write_place_names() -> None:
    from babel import __version__

    lines = [
        f"# Places by their CLDR code: names in {', '.join(PLACE_NAMES_LANGUAGES)} from the Unicode CLDR "
        f'(Unicode License v3) as Babel {__version__} has them, then cities by "city:" and their English '
        "name, ours; written by export/place_names.py",
        *("\t".join(row) for row in [*place_name_rows(), *city_rows()]),
    ]
    PLACE_NAMES.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_place_names()
