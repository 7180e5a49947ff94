"""A translation that ran to the length limit in a loop is searched again with no 4-gram of
pieces repeated (runtime/second_searches.py ran_to_the_limit)."""

from unittest import mock

import numpy as np
import pytest

from attn.runtime.second_searches import SecondSearches

from .conftest import installed_translator

LOOPING = "Patients at the Victor-Gadbois palliative care home all suffer from cancer."  # a news-dev row


def at_the_limit(model, sentence: str, translation) -> bool:
    """Whether `translation` of `sentence` holds as many pieces as the search allows."""
    source = model.source_ids(sentence)
    return len(translation.tokens) >= model.max_lengths(np.array([len(source)]), model.default_options())[0]


@pytest.mark.system
def test_a_translation_that_loops_to_the_length_limit_is_searched_again_without_the_loop():
    """It had come out "Die Patienten am Victor-Gadbois-Gadbois-Gadbois-…-Pall", cut in a word."""
    model = installed_translator(("en", "de"))
    with mock.patch.object(SecondSearches, "ran_to_the_limit", lambda *_: []):
        [[looped]] = model.translate([LOOPING])
    if not at_the_limit(model, LOOPING, looped):
        pytest.skip("the model does not loop on this sentence on this machine")
    [[translated]] = model.translate([LOOPING])
    assert not at_the_limit(model, LOOPING, translated)
    assert translated.text.count("Gadbois") < looped.text.count("Gadbois")
    # a sentence that ends is not searched again: the same translation either way
    ordinary = "The meeting was moved to Thursday afternoon."
    with mock.patch.object(SecondSearches, "ran_to_the_limit", lambda *_: []):
        [[before]] = model.translate([ordinary])
    assert model.translate([ordinary])[0][0].text == before.text


@pytest.mark.unit
def test_the_remains_of_a_placeholder_the_source_lacks_are_told():
    """A search that may not repeat a 4-gram had written "… in some kind of {0." (news-dev, fr→en)."""
    from attn.runtime.second_searches import placeholder_remains

    assert placeholder_remains("les grandes forces de la nature", "in some kind of {0.")
    assert not placeholder_remains("Format {0} and {1}.", "Formatieren Sie {0} und {1}.")
    assert not placeholder_remains("the great forces", "the great forces of nature.")
