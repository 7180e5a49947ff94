"""A person's name after their title is set aside from the search and comes through as written
(runtime/person_names.py)."""

import pytest

from attn.runtime.person_names import names_after_given_names, names_after_titles
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


def full_names(sentence: str, source: str, known: frozenset[str] | None = None) -> list[str]:
    return [sentence[name.start : name.end] for name in names_after_given_names(sentence, source, known)]


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, found",
    [
        ("Ich habe mit Thomas Koch gesprochen.", "de", ["Thomas Koch"]),
        ("Gestern haben Monika Bauer und Klaus Richter eröffnet.", "de", ["Klaus Richter"]),  # see below
        # a surname that is a German noun too ("Bauer": farmer) after a given name that opens the
        # sentence or follows a preposition, a conjunction, a mark or a noun, not a verb
        ("Monika Bauer und Klaus Richter haben eröffnet.", "de", ["Monika Bauer", "Klaus Richter"]),
        (
            "Wir danken Trainerin Petra Fischer, Anna Koch und mit Paul Vogel.",
            "de",
            ["Petra Fischer", "Anna Koch", "Paul Vogel"],
        ),
        ("Gestern hat Tom Ball gespielt.", "de", []),
        ("Heute hatte Paul Glück im Spiel.", "de", []),
        ("Yesterday Tom Ball called.", "en", ["Tom Ball"]),  # no noun's capital in English
        ("George W. Bush met Mary Anne Smith.", "en", ["George W. Bush", "Mary Anne Smith"]),
        ("Anouk van den Berg sprach am Mittwoch.", "de", ["Anouk van den Berg"]),
        ("Marie-Claire Dupont a appelé.", "fr", ["Marie-Claire Dupont"]),  # one given name, hyphenated
        ("Jean DUPONT a signé.", "fr", ["Jean DUPONT"]),  # a surname in capitals, as French signs
        # German nouns open with a capital: not a surname after a given name ("Is Tom hungry?"), nor
        # another given name ("Does Tom know Mary?")
        ("Hat Tom Hunger?", "de", []),
        ("Kennt Tom Maria?", "de", []),
        # a longer proper name, a name after an article, a ruler's number
        ("The Robert Koch Institute said so.", "en", []),
        ("Ils ont atteint le refuge de la Pierre Blanche.", "fr", []),
        ("Sous le règne de Louis XIV.", "fr", []),
        # a given name that is a word too ("claire": clear) at the sentence's opening: before a
        # surname of the table only
        ("J'ai vu Claire Marchand hier.", "fr", ["Claire Marchand"]),
        ("Claire Marchand arrive.", "fr", ["Claire Marchand"]),
        # no given name before it, or none at all
        ("Koch und Bauer sind Berufe.", "de", []),
    ],
)
def test_the_name_after_a_given_name_is_found(sentence, source, found):
    assert full_names(sentence, source) == found


@pytest.mark.unit
def test_a_word_the_model_never_learned_is_a_surname_after_a_given_name():
    """A surname the table does not hold is one where the model learned none of its words."""
    sentence = "Die Kosmonautin Swetlana Sawizkaja flog zweimal."
    assert full_names(sentence, "de") == []  # the table alone: "Sawizkaja" is in none of Faker's lists
    assert full_names(sentence, "de", frozenset({"die", "flog"})) == ["Swetlana Sawizkaja"]
    assert full_names(sentence, "de", frozenset({"sawizkaja"})) == []
    # not after a given name that is a word too ("summer") at the sentence's opening
    assert full_names("We met Summer Kowalczyk.", "en", frozenset({"we", "met"})) == ["Summer Kowalczyk"]
    assert full_names("Summer Kowalczyk arrived.", "en", frozenset({"arrived"})) == []


@pytest.mark.unit
def test_the_table_holds_names_of_each_kind_and_no_places():
    from attn.export.person_names import NAME, other_words
    from attn.runtime.person_names import KINDS, PERSON_NAMES, read_person_names

    rows = [line.split("\t") for line in PERSON_NAMES.read_text(encoding="utf-8").splitlines()[1:]]
    assert {kind for kind, _ in rows} == set(KINDS) and all(NAME.fullmatch(name) for _, name in rows)
    names = read_person_names()
    assert "Thomas" in names["given"] and "Müller" in names["surname"] and "Claire" in names["given-word"]
    assert "Koch" in names["surname-word"] and not names["surname"] & names["surname-word"]
    given = names["given"] | names["given-word"]
    assert not given & other_words() and not names["given"] & names["given-word"]


# Surnames that are words, which the shipped models had translated ("Ich habe mit Sabine Bauer
# gesprochen." → "I spoke with Sabine farmer.", "Robert King" → "Robert roi", "Luc Fontaine a appelé
# hier." → "The Fontaine called yesterday.")
GIVEN_NAMED = {
    ("de", "en"): [
        "Ich habe mit Sabine Bauer gesprochen.",
        "Petra Richter hat gestern angerufen.",
        "Ich habe mit Lisa Vogel gesprochen.",
        "Anna Müller hat gestern angerufen.",
    ],
    ("en", "fr"): ["Robert King called yesterday.", "Paul White called yesterday."],
    ("fr", "en"): ["Luc Fontaine a appelé hier.", "Isabelle Meunier a appelé hier."],
}


@pytest.mark.system
def test_the_shipped_models_keep_the_names_after_given_names():
    """Searched again set aside where a translation lost them, the names come through as written;
    without that, fewer had. Room for one that another CPU's rounding decides otherwise (a
    translation searched again is taken only where it leaves out no more words)."""
    from unittest import mock

    from .conftest import kept_by_the_installed_models

    kept_with_the_rule, total = kept_by_the_installed_models(GIVEN_NAMED, full_names)
    assert total == sum(map(len, GIVEN_NAMED.values()))
    assert kept_with_the_rule >= total - 1
    with mock.patch("attn.runtime.second_searches.names_after_given_names", lambda *arguments: []):
        assert kept_by_the_installed_models(GIVEN_NAMED, full_names)[0] < kept_with_the_rule - 2


@pytest.mark.unit
def test_a_given_name_written_in_small_letters_is_written_as_the_source_does():
    """de→en wrote "paul" for "Paul" alone (a letter's signature line); a name that is a word too
    ("Mark", "Rose") or a word in small letters in the source is left to the model."""
    import numpy as np

    from attn.runtime.alignment import WordAlignment
    from attn.runtime.person_names import given_names_as_written

    def written(source: str, target: str) -> list[str]:
        s, t = source.split(), target.split()
        alignment = WordAlignment(s, t, np.full((len(t), len(s)), 1 / len(s), np.float32))
        return given_names_as_written(alignment).target_words

    assert written("Grüße, Paul", "Regards, paul.") == ["Regards,", "Paul."]
    assert written("Paul", "paul") == ["Paul"]
    assert written("Die Rose blüht", "the rose blooms") == ["the", "rose", "blooms"]


@pytest.mark.system
def test_a_given_name_alone_keeps_its_capital_with_the_shipped_model():
    import attn.runtime as api

    written = api.translate("Paul", source="de", target="en")
    assert "Paul" in written and "paul" not in written, written
