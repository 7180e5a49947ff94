"""A person's name after their title is set aside from the search and comes through as written
(runtime/person_names.py)."""

import pytest

from attn.runtime.person_names import names_after_titles
from attn.runtime.set_aside import set_aside
from attn.runtime.titles import read_titles


def names(sentence: str, source: str, target: str) -> list[str]:
    read = read_titles(sentence, source, target)
    return [read[start:end] for start, end in names_after_titles(read, source, target)]


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, found",
    [
        ("Frau Schmidt hat gestern angerufen.", "de", "en", ["Schmidt"]),
        ("Mr. Baker met Mrs. Cook and Dr. Fox.", "en", "de", ["Baker", "Cook", "Fox"]),
        ("Mr. John Smith met Mrs. Mary Ann Miller.", "en", "fr", ["John Smith", "Mary Ann Miller"]),
        ("M. Jean-Pierre O'Brien-Dupont et Mme de Villepin", "fr", "en", ["Jean-Pierre O'Brien-Dupont", "de Villepin"]),
        ("Ich danke Frau von der Leyen.", "de", "en", ["von der Leyen"]),
        ("Prof. Dr. Müller kommt.", "de", "en", ["Müller"]),
        # a German sentence's nouns open with a capital too: one word of a name
        ("Ich werde Frau Schmidt Bescheid sagen.", "de", "en", ["Schmidt"]),
        ("Mr. Smith's car", "en", "de", ["Smith"]),  # the possessive is the sentence's
        (
            "Mr. George W. Bush met Mr. O'Neill and Herr Šefčovič.",
            "en",
            "de",
            ["George W. Bush", "O'Neill", "Šefčovič"],
        ),
        ("Frau Schairer und Herr Oberhauser", "de", "en", ["Schairer", "Oberhauser"]),  # no office inside
        # a capitalized word that is no name ends one: a pronoun, a day, title case's words
        ("Dear Mr Smith I am writing to Dr. Fox Tuesday.", "en", "fr", ["Smith", "Fox"]),
        ("Mr. Smith Goes To Washington", "en", "de", ["Smith"]),
        ("M. Le Pen et M. de La Fontaine", "fr", "en", ["Le Pen", "de La Fontaine"]),
        # an office, not a name; a noun after an article, which is no title; a pair not read
        ("Thank you, Mr. President, and Madam Speaker.", "en", "de", []),
        ("Herr Präsident, Frau Bundeskanzlerin!", "de", "en", []),
        ("Mr High Representative and Mr Foreign Minister", "en", "de", []),  # an office anywhere in the run
        ("Herr Hoher Vertreter, Frau Abgeordnete, Herr Ober!", "de", "en", []),
        ("Die Frau Namens Anna kam.", "de", "en", []),
        ("Mr. Smith", "en", "es", []),
    ],
)
def test_the_name_after_a_title_is_found(sentence, source, target, found):
    assert names(sentence, source, target) == found


@pytest.mark.unit
def test_a_name_is_set_aside_as_a_placeholder():
    read = read_titles("Frau Schmidt und Herr Müller kommen.", "de", "en")
    aside = set_aside(read, "de", names=names_after_titles(read, "de", "en"))
    assert aside.text == "Ms {0} und Mr {1} kommen." and aside.tokens == {"{0}": "Schmidt", "{1}": "Müller"}
    # an address that starts where a name does is set aside whole
    read = read_titles("Write to Mr John.Smith@example.com today.", "en", "de")
    aside = set_aside(read, "en", names=names_after_titles(read, "en", "de"))
    assert aside.tokens == {"{0}": "John.Smith@example.com"}


# Surnames that are words of the other language, which the shipped models had translated
# ("Frau Schmidt hat gestern angerufen." → "M's taste called yesterday.", "Herr Müller und Frau
# Wagner" → "Mr mill and Ms wagers", "Mrs. Cook" → "Madame Cuis")
NAMED = {
    ("de", "en"): ["Frau Schmidt hat gestern angerufen.", "Herr Müller und Frau Wagner sind da."],
    ("en", "de"): ["Mr. Baker met Mrs. Cook in the morning.", "Dr. Fox said that Ms. Young was right."],
    ("en", "fr"): ["Mr. Baker met Mrs. Cook in the morning.", "Please call Mr. John Miller tomorrow."],
    ("fr", "en"): ["M. Tremblay a démissionné début novembre.", "Selon Mme Boulanger, le plan va fonctionner."],
}


@pytest.mark.system
@pytest.mark.parametrize("pair", sorted(NAMED), ids="-".join)
def test_the_shipped_models_keep_the_names_after_titles(pair):
    import attn.runtime as api

    source, target = pair
    for sentence, translation in zip(NAMED[pair], api.translate(NAMED[pair], source=source, target=target)):
        assert all(name in translation for name in names(sentence, source, target)), translation
