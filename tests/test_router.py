"""The router (runtime/router.py): which directions take a text to its target, and how a
translation through English is joined into one."""

from __future__ import annotations

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.router import Router, Routes, compose
from attn.runtime.translation import Translation

SHIPPED_PAIRS = [("de", "en"), ("en", "de"), ("fr", "en"), ("en", "fr")]


@pytest.mark.unit
def test_a_direct_model_first_then_english_in_the_middle():
    routes = Routes(SHIPPED_PAIRS)
    assert routes.hops("en", "de") == [("en", "de")]
    assert routes.hops("de", "fr") == [("de", "en"), ("en", "fr")]
    assert routes.hops("fr", "de") == [("fr", "en"), ("en", "de")]
    assert routes.hops("de", "de") == [] and routes.hops("it", "de") is None and routes.hops("de", "it") is None
    assert sorted(routes.pivoted()) == [("de", "fr"), ("fr", "de")]
    assert routes.sources_into("fr") == {"en", "de"}
    # a direct model wins over a way through English; without English, another middle language serves
    assert Routes([("de", "fr"), *SHIPPED_PAIRS]).hops("de", "fr") == [("de", "fr")]
    assert Routes([("de", "es"), ("es", "fr")]).hops("de", "fr") == [("de", "es"), ("es", "fr")]


def translation(text: str, source_words: list[str], weights, score: float) -> Translation:
    return Translation(
        text,
        [],
        score,
        np.zeros((0, 0), np.float32),
        WordAlignment(source_words, text.split(), np.asarray(weights, np.float32)),
    )


@pytest.mark.unit
def test_a_composed_translation_aligns_its_words_to_the_first_source():
    into_english = translation("good morning", ["guten", "Morgen"], [[1, 0], [0.2, 0.8]], -0.5)
    into_french = translation("bon matin !", ["good", "morning"], [[0.9, 0.1], [0, 1], [0.5, 0.5]], -1.0)
    composed = compose(into_english, into_french)
    assert composed.text == "bon matin !" and composed.score == pytest.approx(-1.5)
    assert composed.alignment.source_words == ["guten", "Morgen"]
    assert composed.alignment.target_words == ["bon", "matin", "!"]
    np.testing.assert_allclose(composed.alignment.weights, [[0.92, 0.08], [0.2, 0.8], [0.6, 0.4]], atol=1e-6)
    np.testing.assert_allclose(composed.alignment.weights.sum(axis=1), 1.0, atol=1e-6)
    assert composed.alignment.pharaoh() == "0-0 1-1 0-2"


@pytest.mark.unit
def test_the_router_chains_the_hops_and_asks_the_first_for_its_best_only():
    asked = []

    class Upper:
        """Writes its input in capitals (en) or reversed (fr), each word aligned to itself."""

        def __init__(self, pair, last):
            self.pair, self.last = pair, last

        def translate(self, texts, options, batch_size, first_number, text_options):
            asked.append((self.pair, self.last, list(texts)))
            out = [text.upper() if self.pair[1] == "en" else text[::-1] for text in texts]
            return [[translation(o, t.split(), np.eye(len(t.split())), -1.0)] for t, o in zip(texts, out)]

    router = Router(SHIPPED_PAIRS, lambda pair, last: (Upper(pair, last), None), lambda note: None)
    [[result]] = router.translate(["ab cd"], "de", "fr")
    assert result.text == "DC BA" and result.score == -2.0
    assert asked == [(("de", "en"), False, ["ab cd"]), (("en", "fr"), True, ["AB CD"])]
    assert result.alignment.source_words == ["ab", "cd"]


@pytest.mark.unit
def test_notes_name_each_input_by_its_own_number_when_languages_part_them():
    """The inputs of one language were numbered from the call's first in the notes of their model
    ("input 1" for the third input), and the Python API numbered each language's from 1."""
    numbered = []

    class Numbering:
        def translate(self, texts, options, batch_size, first_number, text_options):
            numbered.append(list(first_number))
            return [[translation(text, text.split(), np.eye(len(text.split())), -1.0)] for text in texts]

    notes = []
    router = Router(SHIPPED_PAIRS, lambda pair, last: (Numbering(), None), notes.append)
    router.detect = lambda texts: ["fr", "en", "de", "de"]
    router.translate(["a", "b", "c", "d"], None, "en", first_number=5)
    assert sorted(numbered) == [[5], [7, 8]] and notes == ["input 6: already in en: written out unchanged"]


@pytest.mark.unit
def test_an_assumed_language_gives_way_only_to_a_language_the_identifier_is_sure_of():
    """Into French only English goes directly: `attn translate -t fr` reads an input as English
    unless it is clearly German ("Save" and "OK" are English; the likeliest language of a short
    English chat line is German or French for 3 % of them, none at the probability needed)."""
    router = Router(SHIPPED_PAIRS, lambda pair, last: None, lambda note: None, assumed="en")
    texts = ["Save", "OK", "Ich habe heute leider keine Zeit für das Treffen.", "The meeting is cancelled."]
    assert router.detect(texts) == ["en", "en", "de", "en"]
    # names and a URL tell no language: read whole, these were German at 0.99, and -t de gave them back
    named = ["Kind regards, Hans-Jürgen Großmann", "Visit https://www.spiegel.de/wirtschaft/unternehmen for more."]
    assert router.detect(named) == ["en", "en"]
    likeliest = Router(SHIPPED_PAIRS, lambda pair, last: None, lambda note: None)
    assert likeliest.detect(["Ich habe heute leider keine Zeit für das Treffen."]) == ["de"]
