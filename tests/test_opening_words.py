"""A sentence's first word that its translation copied, searched again in small letters
(runtime/opening_words.py, runtime/second_searches.py openers_copied)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.capitals import opened_with_capital
from attn.runtime.opening_words import copied_opener, lowered_opener, opens_otherwise

from .test_cli import attn


def one_piece(*words: str):
    """A vocabulary that holds `words` whole (one piece each) and every other word in two."""
    return lambda word: 1 if word in words else 2


@pytest.mark.unit
def test_a_copied_first_word_that_the_vocabulary_holds_in_small_letters():
    pieces = one_piece("speed", "diet", "ben")
    assert copied_opener("Speed, the number of images, matters.", "Speed, die Anzahl …", pieces) == "Speed"
    assert copied_opener('"Diet"', '"Diet"', pieces) == "Diet"
    assert copied_opener("Speed matters.", "Geschwindigkeit zählt.", pieces) is None  # translated
    assert copied_opener("Ben Affleck came.", "Ben Affleck kam.", pieces) is None  # a name's first word
    assert copied_opener("Correa said so.", "Correa sagte das.", pieces) is None  # no word in small letters
    assert copied_opener("NASA said so.", "NASA sagte das.", pieces) is None  # in capitals


@pytest.mark.unit
def test_the_first_word_read_in_small_letters_and_the_translation_opened_with_a_capital():
    assert lowered_opener('"Available in three colours."') == '"available in three colours."'
    assert opens_otherwise("Available", "Disponible en trois couleurs.") == 1
    assert opens_otherwise("Available", "Available en trois couleurs.") == 0
    source, target = ["available", "in", "red."], ["disponible", "en", "rouge."]
    alignment = opened_with_capital(WordAlignment(source, target, np.eye(3, dtype=np.float32)))
    assert alignment.source_words[0] == "Available" and alignment.target_words[0] == "Disponible"


@pytest.mark.system
def test_a_copied_first_word_is_searched_again_in_small_letters_and_a_name_stays():
    """With the shipped en-de model, a first translation that copied "Speed" has its sentence
    searched again with "speed" (whatever the search then gives: a near tie may decide it); a name
    the target writes too stays ("Tom hates dogs." had become "Tombe déteste des chiens.")."""
    from attn.runtime.texts import TextTranslator
    from attn.runtime.translation import unchanged

    from .conftest import installed_translator

    translator = TextTranslator(installed_translator(("en", "de")))
    sentence = "Speed, the number of images per second, is also very important."
    first = unchanged("Speed, die Anzahl von Bildern pro Sekunde, ist auch sehr wichtig.")
    found = translator.again.openers_copied([(0, 0, None, None)], [first], {0: sentence}, None)
    (_, _, _, aside), opens = found[0]
    assert aside.lowered and aside.text.startswith("speed,") and opens(first[0].text) == 0
    for source, target, text in (("en", "fr", "Tom hates dogs."), ("fr", "en", "Tom déteste les chiens.")):
        output = attn("translate", "-s", source, "-t", target, text).stdout.decode()
        assert output.startswith("Tom "), output
