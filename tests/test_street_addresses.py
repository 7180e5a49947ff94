"""A street with its house number, and the postal line after it, is set aside from the search
(runtime/street_addresses.py)."""

import pytest

from attn.runtime.street_addresses import street_spans


def streets(sentence: str, language: str) -> list[str]:
    return [sentence[start:end] for start, end in street_spans(sentence, language)]


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, language, found",
    [
        ("Er wohnt in der Bahnhofstraße 12, 80331 München.", "de", ["Bahnhofstraße 12, 80331 München"]),
        ("Kaiser-Wilhelm-Str. 2a · 10115 Berlin · Tel.", "de", ["Kaiser-Wilhelm-Str. 2a · 10115 Berlin"]),
        ("Das Büro ist in der Berliner Straße 14.", "de", ["Berliner Straße 14"]),
        ("Am Markt 5, 12345 Neustadt", "de", ["Am Markt 5, 12345 Neustadt"]),  # with a postcode after it
        ("Please send it to 221B Baker Street, London NW1 6XE.", "en", ["221B Baker Street, London NW1 6XE"]),
        ("Acme Ltd · 88 Kingsway · London WC2B 6AA", "en", ["London WC2B 6AA"]),  # a town and postcode alone
        ("Write to 350 Maple Ave, Springfield, IL 62704.", "en", ["350 Maple Ave, Springfield, IL 62704"]),
        ("Meet me at 5 Oak Rd. tomorrow.", "en", ["5 Oak Rd."]),
        ("Le cabinet est au 15 rue de la Paix, 75002 Paris.", "fr", ["15 rue de la Paix, 75002 Paris"]),
        ("Rendez-vous au 8, avenue Victor-Hugo.", "fr", ["8, avenue Victor-Hugo"]),
        ("Il habite 12 bis rue des Lilas depuis 2010.", "fr", ["12 bis rue des Lilas"]),
        ("La boulangerie de la Rue du Marché 4 est ouverte.", "fr", ["Rue du Marché 4"]),
        # no number, no street, an article before a street's word, a weekday
        ("Wir wohnen in der Goethestraße.", "de", []),
        ("Die Straße 5 ist gesperrt.", "de", []),
        ("Am Montag 5 Kinder", "de", []),
        ("The road to success is long.", "en", []),
        ("Room 12 is on the left.", "en", []),
        ("RDF-Syntaxbibliothek Raptor 2", "de", []),  # a word that ends as a street's name may
        ("80000 Menschen kamen.", "de", []),  # a postcode's digits, after no street
        # a year before a name with a type's word, a platform, a car park, a rank, a device
        ("By 2008, Wall Street had collapsed.", "en", []),
        ("In 1980 Mount St Helens erupted.", "en", []),
        ("Le 14 juillet 2019, place de la Concorde, il y avait foule.", "fr", []),
        ("Der Zug fährt von Bahnsteig 3 ab.", "de", []),
        ("Bitte parken Sie auf Parkplatz 5.", "de", []),
        ("Auf Platz 1 landete Bayern.", "de", []),
        ("a PS4 1TB and an M2 8GB", "en", []),
        ("La rue est calme.", "fr", []),
    ],
)
def test_a_street_with_its_number_is_found(sentence, language, found):
    assert streets(sentence, language) == found


# Streets the shipped models had translated ("in der Schulstraße 3" → "3 this year in school road",
# "15 rue de la Paix" → "15 rue of Paix", "Hafenstraße 102, 28217 Bremen" → "port Street is 102,
# 28217 Bremen")
ADDRESSED = {
    ("de", "en"): [
        "Das Sommerfest findet dieses Jahr in der Schulstraße 3 statt.",
        "Bitte schicken Sie die Unterlagen an die Hafenstraße 102, 28217 Bremen.",
    ],
    ("fr", "en"): [
        "Merci d'envoyer les documents à notre bureau, 15 rue de la Paix, 75002 Paris.",
        "La librairie a déménagé au 9, impasse des Tilleuls, juste derrière la gare.",
    ],
    ("en", "fr"): ["The restaurant is at 3 Wharf Road, near the cathedral."],
}


@pytest.mark.system
def test_the_shipped_models_keep_streets_as_written():
    """Set aside from the search, each street comes through as written; without that, fewer had."""
    from unittest import mock

    from .conftest import kept_by_the_installed_models

    kept, total = kept_by_the_installed_models(ADDRESSED, streets)
    assert total == sum(map(len, ADDRESSED.values())) and kept == total
    with mock.patch("attn.runtime.source_reading.street_spans", lambda *arguments: []):
        assert kept_by_the_installed_models(ADDRESSED, streets)[0] < total - 2
