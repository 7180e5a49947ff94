"""A translation that ran to the length limit in a loop is searched again with no 4-gram of
pieces repeated (runtime/second_searches.py ran_to_the_limit)."""

from unittest import mock

import pytest

from attn.runtime.second_searches import SecondSearches, placeholder_remains, repeats_an_ngram

from .conftest import installed_translator

LOOPING = "Patients at the Victor-Gadbois palliative care home all suffer from cancer."  # a news-dev row


@pytest.mark.system
def test_a_translation_that_loops_to_the_length_limit_is_searched_again_without_the_loop():
    """It had come out "Die Patienten am Victor-Gadbois-Gadbois-Gadbois-…-Pall", cut in a word."""
    model = installed_translator(("en", "de"))
    found, ran_to_the_limit = [], SecondSearches.ran_to_the_limit

    def spied(self, parts, translated, whole, options):
        found.append([i for i in whole if self.at_the_limit(parts[i], translated[i][0], options)])
        return ran_to_the_limit(self, parts, translated, whole, options)

    with mock.patch.object(SecondSearches, "ran_to_the_limit", lambda *_: []):
        [[looped]] = model.translate([LOOPING])
    with mock.patch.object(SecondSearches, "ran_to_the_limit", spied):
        [[translated]] = model.translate([LOOPING])
    if found != [[0]]:
        pytest.skip("the model does not loop on this sentence on this machine")
    assert translated.text.count("Gadbois") < looped.text.count("Gadbois")
    assert repeats_an_ngram(looped.tokens, 4) and "Pall" in looped.text.split("-")[-1]
    found.clear()
    with mock.patch.object(SecondSearches, "ran_to_the_limit", spied):  # a sentence that ends: not at the limit
        model.translate(["The meeting was moved to Thursday afternoon."])
    assert found == [[]]


@pytest.mark.unit
def test_the_remains_of_a_placeholder_the_source_lacks_are_told():
    """A search that may not repeat a 4-gram had written "… in some kind of {0." (news-dev, fr→en)."""
    assert placeholder_remains("les grandes forces de la nature", "in some kind of {0.")
    assert placeholder_remains("Use {0} with `ls` here.", "Nutzen Sie {0} mit {1.")  # the source's {0} aside
    assert not placeholder_remains("Format {0} and {1}.", "Formatieren Sie {0} und {1}.")
    assert not placeholder_remains("the great forces", "the great forces of nature.")


@pytest.mark.unit
def test_an_ngram_repeated_is_told():
    assert repeats_an_ngram([1, 2, 3, 4, 1, 2, 3, 4], 4) and not repeats_an_ngram([1, 2, 3, 4, 5, 1, 2, 3], 4)
