"""Source words a translation left untranslated are searched again with a word check
(runtime/untranslated.py, runtime/word_check.py `for_translations`, runtime/second_searches.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.constants import EOS
from attn.runtime.untranslated import better_translated, left_untranslated, names_within, untranslatable

ENGLISH = frozenset({"the", "voters", "bakery", "worked", "at", "she", "photo", "card", "de", "brennan"})
FRENCH = frozenset({"elle", "travaillait", "la", "les", "électeurs", "photo", "carte", "de", "brennan"})


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, words",
    [
        # an English word the French side never holds; "photo" is written alike in both
        ("She worked at the bakery with a photo card.", {"she", "worked", "the", "bakery", "card"}),
        # a name learned on both sides, one never learned (in neither list), a short word
        ("Brennan and Makelele at the door", {"the"}),
        # a word with a capital within the sentence is a name, copied or not: "Egypt" had been
        # spelled "Eg typographique" for the French list's "égypte"
        ("The Voters at the Bakery", {"the"}),
        ("Voters at the bakery", {"voters", "the", "bakery"}),
    ],
)
def test_a_word_is_untranslatable_where_the_source_side_holds_it_and_the_target_side_does_not(sentence, words):
    assert untranslatable(sentence, "en", ENGLISH, FRENCH) == words


@pytest.mark.unit
def test_in_german_a_capital_marks_no_name():
    """German writes every noun with a capital: its words are untranslatable all the same."""
    assert names_within("Die Wähler in der Bäckerei", "de") == []
    assert untranslatable("Die Wähler", "de", frozenset({"die", "wähler"}), frozenset({"die"})) == {"wähler"}


@pytest.mark.unit
def test_the_words_left_untranslated_are_counted_each_time_in_any_case():
    words = untranslatable("The voters at the bakery", "en", ENGLISH, FRENCH)
    assert left_untranslated("Les voters de la Bakery, les Voters", words) == ["voters", "bakery", "voters"]
    assert left_untranslated("Les électeurs de la boulangerie", words) == []


def translation(text: str, source: list[str], attention_to: dict[int, float] | None = None):
    from attn.runtime.translation import Translation

    words = text.split()
    weights = np.full((len(words), len(source)), 1.0, np.float32)
    for column, weight in (attention_to or {}).items():
        weights[:, column] = weight
    weights /= weights.sum(axis=1, keepdims=True)
    return Translation(text, [], 0.0, np.zeros((0, 0), np.float32), WordAlignment(source, words, weights))


@pytest.mark.unit
def test_a_translation_searched_again_is_taken_only_if_it_leaves_fewer_words_untranslated_and_loses_nothing():
    source = ["Her", "brother", "met", "the", "voters", "of", "Tremblay"]
    sentence, languages = " ".join(source), ("en", "fr")
    words = untranslatable(sentence, "en", ENGLISH | {"her", "brother", "met"}, FRENCH)
    assert names_within(sentence, "en") == ["Tremblay"]
    first = translation("Son frère a rencontré les voters de Tremblay", source)

    def taken(text: str, attention_to: dict[int, float] | None = None) -> bool:
        return better_translated(words, sentence, languages, translation(text, source, attention_to), first)

    assert taken("Son frère a rencontré les électeurs de Tremblay")
    assert not taken("Elle a rencontré les électeurs de Tremblay", {1: 0.001})  # the brother gone for it
    assert not taken("Son frère rencontre les voters de Tremblay")  # as many left untranslated
    # two words fewer: something left out that attention did not show ("these should be avoided")
    assert not taken("Son frère a vu électeurs Tremblay")
    assert not taken("Son frère a rencontré les électeurs de Tre assemblage")  # a name lost
    assert not taken("Son frère a rencontré les électeurs Russie de Tremblay")  # a name made up ("ha Russia")


@pytest.mark.unit
def test_a_translations_word_check_allows_the_targets_words_the_sources_others_and_any_number():
    """Each row's last word: one of the target language's, or of the sentence's own that it may
    copy, or one holding a digit ("1,5", "15h": a translation writes numbers its own way) ends as it
    is; a word that an allowed one begins may not end yet, and a row of one that none begins (a
    word the sentence may not copy, "voters") falls behind the others. A piece of letters that
    would spell what no allowed word begins is banned; digits never are."""
    from attn.runtime.loaded_model import LoadedModel
    from attn.runtime.word_check import WordCheck

    from .conftest import ROOT

    tokenizer = LoadedModel(ROOT / "models" / "fr-en", threads=1).tokenizer
    check = WordCheck(FRENCH, tokenizer).for_translations([frozenset({"makelele", "2010"})])
    vocabulary = np.arange(tokenizer.vocab_size)
    texts = ("Les électeurs", "Makelele", "1,5", "15h", "Les voters", "Les élect")
    banned = check.banned(vocabulary, [tokenizer.encode(t) for t in texts], np.zeros(len(texts), dtype=np.int64))
    got = dict(zip(texts, (set(columns) for columns in banned)))
    ending = set(check.check.ending)
    piece = tokenizer.pieces.index
    for allowed in ("Les électeurs", "Makelele", "1,5", "15h"):  # may end, go on with an allowed word or a number
        assert got[allowed].isdisjoint({EOS, piece("."), piece("Ġde"), piece("Ġ2")})
        assert piece("Ġx") in got[allowed]  # a word "x…"
    assert piece("s") in got["Les électeurs"] and piece("s") in got["Makelele"]  # "électeurss", "Makeleles"
    assert piece("h") not in got["1,5"]  # "1,5h": digits and what goes on with them are a number's
    assert ending <= got["Les élect"] and piece("eurs") not in got["Les élect"]  # on to "électeurs", no end
    assert len(got["Les voters"]) == len(vocabulary)  # begins no allowed word: falls behind the other rows


@pytest.mark.integration
def test_english_words_the_shipped_model_left_in_french_are_searched_again():
    """models/fr-en had left English words in French ("voters", "vitamin", "museums") on news;
    searched again, fewer stay, and a sentence without such words is translated as before."""
    from unittest import mock

    from attn.runtime.loaded_model import LoadedModel
    from attn.runtime.second_searches import SecondSearches

    from .conftest import ROOT

    model = LoadedModel(ROOT / "models" / "fr-en", threads=1).towards("en", "fr")
    sentences = [
        "The new election laws require voters to show a photo ID card and proof of US citizenship.",
        "Studies on vitamin E are contradictory, according to the SCC.",
        "This country has about 300 museums.",
        "She is eating a green apple.",
    ]
    source, target = model.language_words("en"), model.language_words("fr")

    def left(found) -> int:
        return sum(
            len(left_untranslated(t[0].text, untranslatable(s, "en", source, target))) for s, t in zip(sentences, found)
        )

    with_rule = model.translate(sentences)
    with mock.patch.object(SecondSearches, "words_copied", lambda *_: {}):
        without = model.translate(sentences)
    assert left(with_rule) < left(without)
    assert with_rule[-1][0].text == without[-1][0].text
