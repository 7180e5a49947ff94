"""Names of countries and regions read as the target language writes them (runtime/place_names.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.place_names import PLACE_NAMES, places_written, read_places


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        ("The president of Mexico visited Spain.", "en", "fr", "The president of Mexique visited Espagne."),
        ("Norway's five million people", "en", "fr", "Norvège's five million people"),
        ("Prices rose in Turkey and Czechia.", "en", "fr", "Prices rose in Turquie and Tchéquie."),  # a common name too
        ("Il a voyagé en Norvège et en Grèce.", "fr", "en", "Il a voyagé en Norway et en Greece."),
        ("Les touristes d'Israël et d’Égypte", "fr", "en", "Les touristes d'Israel et d’Egypt"),  # either apostrophe
        ("Il vit en Turquie.", "fr", "en", "Il vit en Turkey."),  # into English, the name English news writes
        ("Er reiste nach Norwegen.", "de", "en", "Er reiste nach Norway."),
        ("He travelled to Norway and Hungary.", "en", "de", "He travelled to Norwegen and Ungarn."),
        ("In Africa and Asia", "en", "fr", "In Afrique and Asie"),  # regions too
        # a part of a longer name, a person's or a state's name, or after "the": as written
        ("He lives in Mexico City, not in New Mexico.", "en", "fr", "He lives in Mexico City, not in New Mexico."),
        ("(Mexico City) and (New Mexico)", "en", "fr", "(Mexico City) and (New Mexico)"),
        ("Dominique de Villepin et Maurice", "fr", "en", "Dominique de Villepin et Maurice"),
        ("Trinidad and Tobago and Hong Kong", "en", "fr", "Trinité-et-Tobago and Hong Kong"),
        ("Michael Jordan was born in Georgia.", "en", "fr", "Michael Jordan was born in Georgia."),
        (
            "Trade with the United States and the Netherlands",
            "en",
            "fr",
            "Trade with the United States and the Netherlands",
        ),
        ("Die Schweiz und die Türkei", "de", "en", "Die Schweiz und die Türkei"),
        # French reads a name after its article ("la Norvège")
        ("La Norvège et les Pays-Bas", "fr", "en", "La Norway et les Netherlands"),
        # a name spelled alike in both languages, or a direction without a table
        ("He lives in Canada.", "en", "fr", "He lives in Canada."),
        ("He lives in Spain.", "en", "sym", "He lives in Spain."),
        ("Er lebt in Spanien.", "de", "fr", "Er lebt in Spanien."),  # not measured: German–French goes through English
    ],
)
def test_a_place_is_read_as_the_target_language_names_it(sentence, source, target, read):
    """Into French "Spain" and "Norway" had stayed English, from French "Norvège" became "Norvenge"
    (docs/studies/PLACE-NAMES.md). Here the model learned none of them."""
    assert read_places(sentence, source, target, lambda probe: "") == read


@pytest.mark.unit
def test_a_place_the_model_learned_is_left_as_written():
    """Read, "Japan" had come out "l'apon" where the model wrote "Japon" for it."""
    asked = []

    def translated(probe: str) -> str:
        asked.append(probe)
        return {"They live in Japan.": "Ils vivent au Japon.", "They live in Norway.": "Ils vivent en Norway."}[probe]

    assert read_places("Calls to Japan and Norway", "en", "fr", translated) == "Calls to Japan and Norvège"
    assert asked == ["They live in Japan.", "They live in Norway."]
    # a name is asked about only where it would be read
    assert read_places("the United States", "en", "fr", translated) == "the United States" and len(asked) == 2


@pytest.mark.unit
def test_the_table_is_what_export_writes_from_cldr():
    """runtime/place_names.tsv is the generator's output, for the Babel its header names: CLDR's
    places, then the cities."""
    babel = pytest.importorskip("babel")
    from attn.export.place_names import city_rows, place_name_rows

    lines = PLACE_NAMES.read_text(encoding="utf-8").splitlines()
    if f"Babel {babel.__version__} " not in lines[0]:
        pytest.skip(f"the table was written with another Babel than {babel.__version__}: {lines[0]}")
    assert lines[1:] == ["\t".join(row) for row in [*place_name_rows(), *city_rows()]]


@pytest.mark.system
def test_a_place_comes_through_with_the_shipped_models_and_the_alignment_shows_the_users_words():
    import attn.runtime as api

    translator = api.load()
    into_french = translator.translate("They live in Norway and in Greece.", source="en", target="fr")
    assert "Norvège" in into_french.text and "Grèce" in into_french.text
    assert into_french.alignment.source_words[3] == "Norway"
    assert "Norway" in translator.translate("Il a voyagé en Norvège.", source="fr", target="en").text
    # a name the model learned is read as written: read, "Japan" had come out "l'apon"
    assert "Japon" in translator.translate("How can I make a telephone call to Japan?", source="en", target="fr").text


# The target language's training words a model folder lists (runtime/loaded_model.py language_words)
TARGET_WORDS = frozenset({"russian", "russe", "espagnol", "mexikos", "he", "comes", "from", "lives", "in"})


def linked(source: str, target: str, pairs: list[tuple[int, int]]) -> WordAlignment:
    """An alignment of `source`'s and `target`'s words (space-separated), each (source index, target
    index) of `pairs` a link of weight 1, the other target words linked to the first source word."""
    source_words, target_words = source.split(), target.split()
    weights = np.zeros((len(target_words), len(source_words)), np.float32)
    weights[:, 0] = 1
    for source_index, target_index in pairs:
        weights[target_index] = 0
        weights[target_index, source_index] = 1
    return WordAlignment(source_words, target_words, weights)


@pytest.mark.unit
@pytest.mark.parametrize(
    "source, target, languages, pairs, expected",
    [
        # a near miss of the target's name, its elided article and punctuation kept
        ("When you go to Israel, relax.", "Lorsque vous allez à l'Iraël, relax.", ("en", "fr"), [(4, 4)], "l'Israël,"),
        (
            "cities in Russia.",
            "villes en Russia.",
            ("en", "fr"),
            [(2, 2)],
            "Russie.",
        ),  # the source's name left as it was
        (
            "Er kommt aus Ungarn.",
            "He comes from Ungarned.",
            ("de", "en"),
            [(3, 3)],
            "Hungary.",
        ),  # a near miss of the source's
        ("Il vit en Norvège.", "He lives in Norvenge.", ("fr", "en"), [(3, 3)], "Norway."),
        ("I live in Spain.", "Je vis en Spagne.", ("en", "fr"), [(3, 3)], "Espagne."),  # alike, case aside
        ("Er kommt aus Ungarn.", "He comes from hungary.", ("de", "en"), [(3, 3)], "Hungary."),  # in small letters
        # in brackets a name stands alone, beside a capitalized word
        (
            "French (Belgium), French (Canada)",
            "Französisch (Belgium), Französisch (Kanada)",
            ("en", "de"),
            [(1, 1)],
            "(Belgien),",
        ),
    ],
)
def test_a_place_the_translation_missed_is_written_as_the_target_names_it(source, target, languages, pairs, expected):
    alignment = places_written(linked(source, target, pairs), *languages, TARGET_WORDS)
    assert alignment.target_words[pairs[0][1]] == expected
    assert alignment.weights.shape == (len(target.split()), len(source.split()))


@pytest.mark.unit
@pytest.mark.parametrize(
    "source, target, languages, pairs",
    [
        ("visitors from Russia and Ukraine", "visiteurs de Russie et Ukraine", ("en", "fr"), [(2, 2)]),  # held already
        (
            "exports from Austria rose",
            "exportations de Australie ont augmenté",
            ("en", "fr"),
            [(2, 2)],
        ),  # another place
        ("the Russian and Russia", "le russe et russe", ("en", "fr"), [(3, 3)]),  # not capitalized: a word of its own
        ("He lives in Spain.", "Er lebt in Spanien.", ("en", "sym"), [(3, 3)]),  # a direction without a table
        ("They met in Poland.", "Ils se sont rencontrés à Varsovie.", ("en", "fr"), [(3, 5)]),  # unlike either name
        ("the capital of Mexico", "die Hauptstadt Mexikos", ("en", "de"), [(3, 2)]),  # a German word: a genitive
        ("flights to New Mexico today", "vols vers New Mexico aujourd'hui", ("en", "fr"), [(3, 3)]),  # a longer name
        ("in Mexico City now", "à Mexico City maintenant", ("en", "fr"), [(1, 1)]),
    ],
)
def test_other_words_for_a_place_are_left_as_written(source, target, languages, pairs):
    alignment = linked(source, target, pairs)
    assert places_written(alignment, *languages, TARGET_WORDS) is alignment


@pytest.mark.unit
def test_a_near_miss_that_is_a_word_of_the_target_language_or_without_its_words_is_left():
    gas = linked("le gaz de Russie", "Russian gas", [(3, 0)])
    assert places_written(gas, "fr", "en", TARGET_WORDS) is gas  # the people's word, not a misspelling
    missed = linked("When you go to Israel, relax.", "Lorsque vous allez à l'Iraël, relax.", [(4, 4)])
    assert places_written(missed, "en", "fr", None) is missed  # no list of the target's words: copies only
    copied = linked("cities in Russia.", "villes en Russia.", [(2, 2)])
    assert places_written(copied, "en", "fr", None).target_words[2] == "Russie."


@pytest.mark.system
def test_a_place_the_shipped_model_misspells_or_leaves_is_written_as_french_names_it():
    """Israel and Russia the model learned in the probe's sentence ("They live in Israel."), so
    they are not read; in these it wrote "l'Ira…" and "en Russia" (places_written off)."""
    import attn.runtime as api

    translator = api.load("fr-en")
    travel = "When you travel to Israel, don't worry about your poor Hebrew: about a third of the people there speak English."
    workers = "Each year, millions of workers come to Moscow, St. Petersburg and other cities in Russia."
    assert "Israël" in translator.translate(travel, source="en", target="fr").text
    into_french = translator.translate(workers, source="en", target="fr").text
    assert "Russie" in into_french and "Russia" not in into_french, into_french


@pytest.mark.system
def test_a_city_comes_through_and_takes_a_in_french():
    """Cities were not in the table: "Ich wohne in München." → "I live in coins.", "Er arbeitet
    in Köln." → "He works in coln."; into French "Je vis en Berlin.", "en Genève"."""
    import attn.runtime as api

    into_english = api.translate(["Ich wohne in München.", "Er arbeitet in Köln."], source="de", target="en")
    assert "Munich" in into_english[0] and "Cologne" in into_english[1]
    into_french = api.translate(["He lives in Berlin.", "She studied in Geneva."], source="en", target="fr")
    # (the article rule corrects what the model wrote before the name; another CPU may write another word)
    assert "Berlin" in into_french[0] and "en Berlin" not in into_french[0] and "au Berlin" not in into_french[0]
    assert "Genève" in into_french[1] and "en Genève" not in into_french[1]
