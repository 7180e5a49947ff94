"""The article or preposition before a country's name in French (runtime/country_articles.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.country_articles import agreed_before_countries, name_class
from attn.runtime.words import join_words, word_spans


def agreed(text: str, language: str = "fr") -> WordAlignment:
    """`text`'s words, each aligned to a source word of its own, through the rule."""
    words = [text[start:end] for start, end in word_spans(text, language)]
    return agreed_before_countries(WordAlignment(list(words), words, np.eye(len(words))), language)


@pytest.mark.unit
@pytest.mark.parametrize(
    "written, expected",
    [
        ("Il est né en Canada.", "Il est né au Canada."),
        ("Elle a déménagé à Portugal et à Norvège.", "Elle a déménagé au Portugal et en Norvège."),
        ("IL EST NÉ EN Canada… aux Canada", "IL EST NÉ AU Canada… au Canada"),  # in capitals as written
        ("à Côte d’Ivoire et en Europe de l’Est", "en Côte d’Ivoire et en Europe de l’Est"),  # either apostrophe
        ("En Mexique, les prix ont augmenté.", "Au Mexique, les prix ont augmenté."),  # its capital kept
        ("le Norvège et la Canada", "la Norvège et le Canada"),
        ("le président de Mexique", "le président du Mexique"),
        ("les exportations de Iran", "les exportations d'Iran"),  # elided: one word with the name
        ("la Allemagne", "l'Allemagne"),
        (
            "de la Suisse et de Autriche, la Norvège et l’Allemagne",
            "de la Suisse et d'Autriche, la Norvège et l’Allemagne",
        ),
        ("l’Norvège", "la Norvège"),
        ("le Mexique et le Suisse, au Suisse", "le Mexique et le Suisse, au Suisse"),  # the Swiss: a person
        ("en Suisse et à Suisse", "en Suisse et en Suisse"),
        ("situé à Luxembourg, une ville en Luxembourg", "situé à Luxembourg, une ville au Luxembourg"),  # a city too
        ("la ville de Panama, sous le nom de Cambodge", "la ville de Panama, sous le nom de Cambodge"),
        ("merci au Norvège", "merci au Norvège"),  # "au" may mean "to" ("à la Norvège")
        ("en États-Unis et à Pays-Bas", "aux États-Unis et aux Pays-Bas"),
        ("en Royaume-Uni", "au Royaume-Uni"),  # a masculine first word ending in "e"
        ("en Corée du Sud et de Afrique du Sud", "en Corée du Sud et d'Afrique du Sud"),  # names of several words
        # as French writes them already, or names that take no article: as written
        (
            "en France, au Japon, aux Philippines, en Iran, du Mexique",
            "en France, au Japon, aux Philippines, en Iran, du Mexique",
        ),
        ("à Singapour, à Cuba, en Israël", "à Singapour, à Cuba, en Israël"),
        ("de Canada Goose", "de Canada Goose"),  # a part of a longer name
        ("en canada", "en canada"),
    ],
)
def test_the_word_before_a_country_is_as_its_name_takes_it(written, expected):
    assert join_words(agreed(written).target_words, "fr") == expected


@pytest.mark.unit
def test_an_article_after_a_or_de_joins_it_and_the_alignment_keeps_a_row_per_word():
    alignment = agreed("Contrairement à la Canada, ils votent.")
    assert join_words(alignment.target_words, "fr") == "Contrairement au Canada, ils votent."
    assert alignment.weights.shape == (5, 6)  # "à" and "la" one word, aligned to both
    np.testing.assert_allclose(alignment.weights[1], [0, 0.5, 0.5, 0, 0, 0])
    np.testing.assert_allclose(alignment.weights.sum(axis=1), 1)
    assert join_words(agreed("loin de les États-Unis").target_words, "fr") == "loin des États-Unis"
    assert join_words(agreed("à la Norvège").target_words, "fr") == "à la Norvège"


def placed(source: str, translation: str, language: str = "en") -> str:
    """`translation` (French) of `source` (in `language`) through the rule."""
    words = [translation[start:end] for start, end in word_spans(translation, "fr")]
    source_words = source.split()
    alignment = WordAlignment(source_words, words, np.zeros((len(words), len(source_words))))
    return join_words(agreed_before_countries(alignment, "fr", language).target_words, "fr")


@pytest.mark.unit
@pytest.mark.parametrize(
    "source, translation, expected",
    [
        ("She works in Spain.", "Elle travaille dans l'Espagne.", "Elle travaille en Espagne."),
        ("In Germany, it is better.", "Dans l’Allemagne, c'est mieux.", "En Allemagne, c'est mieux."),
        ("chiefs in Pakistan", "chefs dans Pakistan", "chefs au Pakistan"),
        ("cases in the United States", "cas dans les États-Unis", "cas aux États-Unis"),
        ("consultants in Moscow", "consultants dans Moscou", "consultants à Moscou"),  # a city's
        ("Sie wohnt in der Schweiz.", "Elle vit dans la Suisse.", "Elle vit en Suisse."),
        ("Er war im Iran.", "Il était dans l'Iran.", "Il était en Iran."),
        # the source has no "in" before the place: as written
        ("in Franco's Spain", "dans l'Espagne de Franco", "dans l'Espagne de Franco"),
        ("in rural France", "dans la France rurale", "dans la France rurale"),
        ("She works in Spain.", "Elle travaille dans l'Italie.", "Elle travaille dans l'Italie."),
        ("in Israel", "dans Israël", "dans Israël"),  # a name whose preposition varies
    ],
)
def test_dans_before_a_place_the_source_put_after_in_becomes_its_preposition(source, translation, expected):
    language = "de" if source.startswith(("Sie", "Er")) else "en"
    assert placed(source, translation, language) == expected


@pytest.mark.unit
def test_dans_and_its_article_become_one_word_aligned_to_both():
    words = ["Elle", "vit", "dans", "la", "Suisse."]
    alignment = WordAlignment(["She", "lives", "in", "Switzerland."], words, np.eye(5, 4))
    placed_in = agreed_before_countries(alignment, "fr", "en")
    assert placed_in.target_words == ["Elle", "vit", "en", "Suisse."]
    np.testing.assert_allclose(placed_in.weights[2], [0, 0, 0.5, 0.5])  # the mean of their rows


@pytest.mark.unit
def test_dans_linked_to_another_word_than_in_stays():
    """ "marched into Paris, and life in Paris" had made the first "dans Paris" "à Paris"."""
    source = "They marched into Paris , and life in Paris changed .".split()
    words = "Ils marchèrent dans Paris , et la vie dans Paris changea .".split()
    weights = np.zeros((len(words), len(source)))
    for target, linked in enumerate([0, 1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10]):  # "dans" to "into", then to "in"
        weights[target, linked] = 1
    placed = agreed_before_countries(WordAlignment(source, words, weights), "fr", "en")
    assert " ".join(placed.target_words) == "Ils marchèrent dans Paris , et la vie à Paris changea ."


@pytest.mark.unit
def test_other_languages_are_left_as_written():
    alignment = agreed("Er wohnt in der Canada.", "de")
    assert join_words(alignment.target_words, "de") == "Er wohnt in der Canada."


@pytest.mark.unit
@pytest.mark.parametrize(
    "name, expected",
    [
        ("France", "feminine"),
        ("Mexique", "masculine"),  # the exceptions to the rule of the ending
        ("Royaume-Uni", "masculine"),
        ("Sierra Leone", "feminine"),
        ("Canada", "masculine"),
        ("Équateur", "elided"),
        ("Hongrie", "feminine"),  # an H takes no elision
        ("Honduras", "masculine"),
        ("Laos", "masculine"),
        ("États-Unis", "plural"),
        ("Îles Cook", "plural"),
        ("Singapour", None),
        ("Trinité-et-Tobago", None),
        ("zone euro", None),
    ],
)
def test_names_take_their_class(name, expected):
    assert name_class(name) == expected


@pytest.mark.system
def test_a_country_into_french_takes_its_preposition_with_the_shipped_model():
    import attn.runtime as api

    translator = api.load("fr-en")
    text = translator.translate("He was born in Canada but lives in Mexico.", source="en", target="fr").text
    assert "Canada" in text and "Mexique" in text, text
    assert " en Canada" not in text and " en Mexique" not in text, text
