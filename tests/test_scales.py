"""The words of a number's scale given as the target language counts them (runtime/scales.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.scales import number_before, scales_given

from .test_cli import attn


def given(source: str, target: str, strongest: list[int], languages: tuple[str, str]) -> str:
    """`target` after scales_given, target word t attending to source word strongest[t]."""
    s, t = source.split(), target.split()
    weights = np.full((len(t), len(s)), 0.01, np.float32)
    weights[np.arange(len(t)), strongest] = 1.0
    return " ".join(scales_given(WordAlignment(s, t, weights), *languages).target_words)


@pytest.mark.unit
def test_a_scale_word_of_another_value_becomes_the_targets_word_of_the_sources():
    """ "2,8 milliards d'euros" had become "2.8 million d'euros", "$3 billion" "3 billions de dollars"
    (a French billion is a million million)."""
    assert given("2,8 milliards d'euros", "2.8 million euros", [0, 1, 2], ("fr", "en")) == "2.8 billion euros"
    assert given("$3 billion", "3 billions de dollars", [0, 1, 1, 1], ("en", "fr")) == "3 milliards de dollars"
    assert given("1.5 billion", "1,5 billion", [0, 1], ("en", "fr")) == "1,5 milliard"  # French: several from two
    assert given("1,5 Mrd. Euro", "1.5 Mrd. euros", [0, 1, 2], ("de", "en")) == "1.5 billion euros"
    assert given("two billion euros", "zwei Millionen Euro", [0, 1, 2], ("en", "de")) == "zwei Milliarden Euro"
    assert given("3 Billionen Dollar", "3 billion dollars", [0, 1, 2], ("de", "en")) == "3 trillion dollars"
    assert given("sells billions of portions", "vend des millions de portions", [0, 1, 1, 2, 3], ("en", "fr")) == (
        "vend des milliards de portions"
    )
    assert given("saved a billion.", "spart eine Milliarde.", [0, 1, 2], ("en", "de")) == "spart eine Milliarde."
    assert given("Billions of people", "Billions de personnes", [0, 1, 2], ("en", "fr")) == "Milliards de personnes"
    # "billiard", a thousand million million, for a billion: "un record de 112 $ billiard" (a newcomer trial)
    assert given("a record of $112 billion.", "un record de 112 $ billiard.", [0, 1, 2, 3, 3, 4], ("en", "fr")) == (
        "un record de 112 $ milliards."
    )
    # the right value in the wrong number
    assert given("Zwei Milliarden Menschen", "Two billions people", [0, 1, 2], ("de", "en")) == "Two billion people"
    assert given("3 millions de personnes", "3 Million Menschen", [0, 1, 3], ("fr", "de")) == "3 Millionen Menschen"


@pytest.mark.unit
def test_a_scale_word_that_is_another_ones_translation_stays():
    """ "2 million and 3 billion": a word of the million's value linked to the billion is the
    million's, never made a second billion's ("2 milliards et 3 milliards")."""
    assert given("2 million and 3 billion", "2 millions et 3 millions", [0, 3, 2, 3, 3], ("en", "fr")) == (
        "2 millions et 3 millions"
    )


@pytest.mark.unit
def test_the_same_value_another_word_and_other_languages_stay():
    assert given("3 million people", "3 millions de personnes", [0, 1, 1, 2], ("en", "fr")) == (
        "3 millions de personnes"
    )
    assert given("3 billion dollars", "3 Milliarden Dollar", [0, 1, 2], ("en", "de")) == "3 Milliarden Dollar"
    assert given("a billion stars", "viele Sterne", [1, 2], ("en", "de")) == "viele Sterne"
    assert given("bn, ca, cs", "bn, ca, cs", [0, 1, 2], ("en", "de")) == "bn, ca, cs"  # a language's code
    assert given("3 billion", "3 billion", [0, 1], ("en", "it")) == "3 billion"


@pytest.mark.unit
def test_the_number_before_a_scale_word():
    values = [number_before(word) for word in ["2,8", "1.5", "$3", "12,500", "2.000", "une", "deux", "de"]]
    assert values == [2.8, 1.5, 3.0, 12500.0, 2000.0, 1.0, 2.0, None]


@pytest.mark.system
def test_a_billion_keeps_its_value_with_the_shipped_models():
    """No scale word of another value, whatever else the model writes ("1.5 million", "3 billions")."""
    into_english = attn("translate", "-s", "fr", "-t", "en", "Les investissements dépassent 1,5 milliard de dollars.")
    assert "million" not in into_english.stdout.decode(), into_english.stdout.decode()
    into_french = attn("translate", "-t", "fr", "The company earned $3 billion last year.").stdout.decode()
    assert "billion" not in into_french and "million" not in into_french, into_french
