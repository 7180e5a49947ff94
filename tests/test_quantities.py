"""Quantities with a unit's symbol, kept with their digits and unit (runtime/quantities.py; the
second search of a sentence that lost one: runtime/second_searches.py quantities_lost)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.quantities import as_target_writes, in_target, kept, quantity_spans
from attn.runtime.set_aside import SetAside, put_back


def quantities(sentence: str, language: str) -> list[str]:
    return [sentence[start:end] for start, end in quantity_spans(sentence, language)]


@pytest.mark.unit
def test_a_quantity_is_a_number_or_a_dimension_then_a_units_symbol():
    assert quantities("Use a 12 V battery, a 3.5 mm drill and 1,500.5 kg of sand.", "en") == [
        "12 V",
        "3.5 mm",
        "1,500.5 kg",
    ]
    assert quantities("The table (120 x 60 x 75 cm) weighs 5kg; it goes at 30 km/h.", "en") == [
        "120 x 60 x 75 cm",
        "5kg",
        "30 km/h",
    ]
    assert quantities("Es wiegt 1.500,5 kg und misst 3,5 mm.", "de") == ["1.500,5 kg", "3,5 mm"]
    assert quantities("À 1 500 m, il fait 21 °C.", "fr") == ["1 500 m", "21 °C"]


@pytest.mark.unit
def test_no_quantity_within_a_price_a_word_a_path_or_a_longer_number():
    for sentence in [
        "See shop.example/1.5kg.",
        "make SIZE=1.5kg",
        "It raised $5m last year.",
        "3 Ltd and 4 Go",
        "version 1.2.3 mm",
        "5 mins",
        "2 lbsx",
        "v12 V",
        "Gaza's 1.7m people",
        "2h 9m",
    ]:
        assert quantities(sentence, "en") == [], sentence


@pytest.mark.unit
def test_a_quantity_as_the_target_writes_numbers():
    assert as_target_writes("12,500.5 kg", "en", "de") == "12.500,5 kg"
    assert as_target_writes("12,500.5 kg", "en", "fr") == "12\u202f500,5 kg"
    assert as_target_writes("1,500.5 kg", "en", "de") == "1500,5 kg"  # as runtime/verbatim.py writes numbers
    assert as_target_writes("2 x 1.5 m", "en", "fr") == "2 x 1,5 m"
    assert as_target_writes("3,5 mm", "de", "en") == "3.5 mm"
    assert as_target_writes("12 500 m", "fr", "en") == "12,500 m"
    assert as_target_writes("12 V", "en", "de") == "12 V"
    assert as_target_writes("1.5 m", "en", "es") == "1.5 m"  # an imported model's other language


@pytest.mark.unit
def test_a_quantity_is_kept_with_its_numbers_and_unit_not_run_into_a_word():
    assert kept("12 V", "de", "Verwenden Sie eine 12 V-Batterie.")
    assert kept("12 V", "de", "Ein 12-V-Netzteil.")
    assert kept("120 x 60 x 75 cm", "fr", "La table mesure 120 x 60 x 75 cm.")
    assert not kept("2 L", "de", "Eine 2 Lflasche Wasser.")
    assert not kept("3,5 mm", "fr", "un trou à 3,5 mmère")
    assert not kept("120 x 60 x 75 cm", "fr", "Dimensionnel : 120 x 75 cm")
    assert not kept("1,5 m", "de", "Es ist 11,5 m lang.")
    assert not kept("50 g", "en", "Add 50 girlfriend.")
    assert kept("12 V", "es", "Use una batería de 12 V.")  # an imported model's other language: as written


@pytest.mark.unit
def test_only_quantities_the_target_writes_otherwise_are_in_target():
    tokens = {"{0}": "1.5 m", "{1}": "12 V", "{2}": "a@b.com"}
    assert in_target(tokens, "en", "de") == {"{0}": "1,5 m"}
    assert in_target(tokens, "es", "en") == {}  # an imported model's other language: none, no error


@pytest.mark.unit
def test_a_quantity_set_aside_comes_back_as_the_target_writes_it_and_the_source_as_written():
    aside = SetAside("The cable is {0} long.", {"{0}": "1.5 m"}, in_target={"{0}": "1,5 m"})
    source, target = ["The", "cable", "is", "{0}", "long."], ["Das", "Kabel", "ist", "{0}", "lang."]
    alignment = put_back(WordAlignment(source, target, np.eye(5, dtype=np.float32)), aside, "en", "de")
    assert alignment.target_words == ["Das", "Kabel", "ist", "1,5", "m", "lang."]
    assert alignment.source_words == ["The", "cable", "is", "1.5", "m", "long."]


@pytest.mark.unit
def test_a_word_holding_a_tokens_word_and_another_is_linked_to_both():
    """ "{0}-Adapter": the adapter's attention is not all given to the token's "V" (a second
    search had been refused for leaving "adapter" out)."""
    aside = SetAside("You need a {0} adapter.", {"{0}": "12 V"})
    source, target = ["You", "need", "a", "{0}", "adapter."], ["Sie", "brauchen", "einen", "{0}-Adapter."]
    weights = np.array([[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0.5, 0.5]], np.float32)
    alignment = put_back(WordAlignment(source, target, weights), aside, "en", "de")
    assert alignment.target_words == ["Sie", "brauchen", "einen", "12", "V-Adapter."]
    assert alignment.weights[4, alignment.source_words.index("adapter.")] > 0.2


def lost_parts(pair: tuple[str, str], sentence: str, first: str):
    """What the shipped model of `pair` searches again for `sentence` whose first translation was
    `first` (runtime/second_searches.py quantities_lost): (the part's SetAside, how many a text keeps), or None."""
    from attn.runtime.texts import TextTranslator
    from attn.runtime.translation import unchanged

    from .conftest import installed_translator

    translator = TextTranslator(installed_translator(pair))
    found = translator.again.quantities_lost([(0, 0, None, None)], [unchanged(first)], {0: sentence}, None)
    return (found[0][0][3], found[0][1]) if found else None


@pytest.mark.system
def test_a_sentence_that_lost_a_quantity_is_searched_again_with_it_set_aside():
    """Whatever the search then gives (a near tie may decide it), the second search reads the
    quantity as a placeholder put back as the target writes numbers, and counts it kept."""
    aside, count = lost_parts(("en", "fr"), "The cable is 1.5 m long.", "Le câble est 1,5 de longue.")
    assert list(map(aside.written_in_target, aside.tokens)) == ["1,5 m"] and "1.5 m" not in aside.text
    assert count("Le câble mesure 1,5 m.") == 1 and count("Le câble est 1,5 de longue.") == 0
    assert lost_parts(("en", "fr"), "The cable is 1.5 m long.", "Le câble mesure 1,5 m.") is None  # kept
    aside, _ = lost_parts(("de", "en"), "Maße: 60 x 85 x 60 cm", "Miss: 60 x 85 x 85 x 60 cm")
    assert list(map(aside.written_in_target, aside.tokens)) == ["60 x 85 x 60 cm"]


@pytest.mark.system
def test_a_name_the_model_never_learned_is_set_aside_with_the_quantity():
    """The quantity's second search had undone the name's ("ZbignSONski … 12 V")."""
    sentence = "We called Zbigniewski about the 12 V battery."
    aside, count = lost_parts(("en", "fr"), sentence, "Nous avons appelé Zbigniewski sur la batterie 12.")
    assert sorted(aside.tokens.values()) == ["12 V", "Zbigniewski"]
    assert count("Nous avons appelé ZbignSONski sur la batterie 12 V.") == 1  # a name lost counts against it
    assert count("Nous avons appelé Zbigniewski sur la batterie 12 V.") == 2
