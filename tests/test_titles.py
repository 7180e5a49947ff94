"""Persons' titles read as the target language writes them (runtime/titles.py)."""

import pytest

from attn.runtime.titles import read_titles


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        ("Mr. Smith and Mrs. Jones met Ms Brown.", "en", "de", "Herr Smith and Frau Jones met Frau Brown."),
        ("Mr. Smith met Mrs Jones.", "en", "fr", "M. Smith met Madame Jones."),
        ("Herr Müller traf Herrn Weber.", "de", "en", "Mr Müller traf Mr Weber."),
        ("Frau Dr. Schmidt kam.", "de", "en", "Dr. Schmidt kam."),  # English names a doctor by that title alone
        ("M. Dupont et Mme Martin.", "fr", "en", "Mr Dupont et Ms Martin."),
        ("Mr. and Mrs. Smith arrived.", "en", "de", "Herr and Frau Smith arrived."),  # a couple's titles
        # no title: a noun ("eine Frau Namens Anna"), no name after it, a language pair not read so
        ("Eine Frau Namens Anna kam.", "de", "en", "Eine Frau Namens Anna kam."),
        ("Monsieur le Directeur", "fr", "en", "Monsieur le Directeur"),
        ("I Miss You", "en", "de", "I Miss You"),  # title case writes the verb so
        ("Le rapport de Jean M. Dupont est clair.", "fr", "en", "Le rapport de Jean M. Dupont est clair."),
        ("the MS drive", "en", "de", "the MS drive"),
        ("Mrs. Jones", "en", "es", "Mrs. Jones"),
    ],
)
def test_a_title_is_read_as_the_target_writes_it(sentence, source, target, read):
    """'Mrs. Jones called.' had become 'Herrs. Jones nannten…', 'Mme Martin' 'Mm Martin'
    (benchmarks/person_titles.py)."""
    assert read_titles(sentence, source, target) == read


@pytest.mark.system
def test_the_shipped_models_give_titles_in_the_target_language():
    import attn.runtime as api

    assert "Frau Jones" in api.translate("Mrs. Jones called the office.", source="en", target="de")
    assert "Ms Martin" in api.translate("Mme Martin a appelé.", source="fr", target="en")
    found = api.load(notify=lambda note: None).translate(["Mr. Smith arrived yesterday."], "en", "de")[0]
    assert "Herr Smith" in found.text and found.alignment.source_words[0] == "Mr."  # the user's words
