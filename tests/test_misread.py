"""Inputs in another language than the one assumed (runtime/misread.py): German given to the
default English → German model came back as German with words repeated, without a word said."""

from types import SimpleNamespace

import pytest

import attn.runtime.misread as misread_module
from attn.runtime.misread import MisreadInputs, copied_share

from .test_cli import attn


def translations(*texts: str) -> list:
    """Stand-ins for Translations: the check reads their text only."""
    return [SimpleNamespace(text=text) for text in texts]


@pytest.mark.unit
def test_the_share_of_words_a_translation_copied():
    assert copied_share("Ich habe heute keine Zeit.", "Ich habe heute keine Zeit mehr.") == 1.0
    assert copied_share("The file could not be opened.", "Die Datei konnte nicht geöffnet werden.") == 0.0
    assert copied_share("Hallo Welt", "Hallo Welt") == 0.0  # too few words in small letters to tell
    # names, URLs and a noun German capitalizes are copied from any language: they had English named as German
    assert copied_share("Kind regards, Hans-Jürgen Großmann", "Kind regards, Hans-Jürgen Großmann") == 0.0
    visit = "Visit https://www.spiegel.de/wirtschaft/unternehmen for more."
    assert copied_share(visit, "Besuchen Sie https://www.spiegel.de/wirtschaft/unternehmen für mehr.") == 0.0
    assert copied_share("Je n'ai pas le temps.", "Je N'ai-Pas Le Temps.") == 1.0  # capitalized, copied all the same


@pytest.mark.unit
def test_inputs_copied_and_read_as_another_language_are_named_once_then_counted():
    notes = []
    check = MisreadInputs("en", ["en", "de", "fr"], notes.append, lambda code: f"--from {code}")
    german = "Ich habe heute keine Zeit, weil ich arbeiten muss."
    check.check(
        [german, "Intelligent Auto Imports.", "The file could not be opened."],
        translations(german, "Intelligent Auto Imports.", "Die Datei konnte nicht geöffnet werden."),
        [1, 2, 3],
    )
    assert notes == ["input 1 reads as German (de), not English (en): --from de"]  # a copied name is English
    french = "Je n'ai pas le temps aujourd'hui, je dois travailler."
    check.check([german, french, german], translations(german, french, german), [4, 5, 6])
    assert notes[1:] == ["input 5 reads as French (fr), not English (en): --from fr"]
    check.close()
    assert notes[2:] == ["in all, 3 inputs read as German (de)"]


@pytest.mark.unit
def test_the_identifier_reads_only_inputs_their_translation_copied(monkeypatch):
    """The identifier's load costs about a second: a translation that copied little never pays it,
    nor a sentence in another script, given back as it is with a note of its own."""

    def refused(*_):
        raise AssertionError("the identifier was asked")

    monkeypatch.setattr(misread_module, "detect_language", refused)
    monkeypatch.setattr(misread_module, "known_languages", refused)
    notes = []
    check = MisreadInputs("en", ["en", "de"], notes.append, str)
    check.check(["she is eating a green apple"], translations("Sie isst einen grünen Apfel"), [1])
    check.check(["Москва большая и старая."], translations("Москва большая и старая."), [2])
    assert notes == []


@pytest.mark.unit
def test_a_language_the_identifier_does_not_know_is_compared_with_nothing():
    notes = []
    MisreadInputs("xx", ["xx", "de"], notes.append, str).check(
        ["Ich habe heute keine Zeit."], translations("Ich habe heute keine Zeit."), [1]
    )
    assert notes == []


@pytest.mark.system
def test_german_and_french_given_to_the_default_model_are_named_and_translated_from_their_language():
    """The shipped en→de model copies what it cannot read: German came back as German with words
    repeated, French as garbled French, unsaid. Such inputs are named and translated as --from auto
    would (German into German: given back). English lines, and any line with --from given, go as
    they went."""
    lines = [
        "Ich habe heute keine Zeit, weil ich arbeiten muss.",
        "she is eating a green apple",
        "Wir haben gestern Abend zusammen gegessen und viel gelacht.",
        "Je n'ai pas le temps aujourd'hui, je dois travailler.",
    ]
    run = attn("translate", stdin="\n".join(lines) + "\n")
    german, english, more_german, french = run.stdout.decode().splitlines()
    assert (german, more_german) == (lines[0], lines[2])
    assert english == attn("translate", "-s", "en", lines[1]).stdout.decode().strip()
    assert french == attn("translate", "-s", "fr", "-t", "de", lines[3]).stdout.decode().strip()
    assert run.stderr.decode().splitlines() == [
        "attn: inputs 1, 3 read as German (de), not English (en): translated from it, as --from de or --from auto would",
        "attn: input 4 reads as French (fr), not English (en): translated from it, as --from fr or --from auto would",
        "attn: input 1: already in de: written out unchanged",
        "attn: input 3: already in de: written out unchanged",
    ]
    assert attn("translate", "-s", "en", stdin=lines[0] + "\n").stderr == b""


@pytest.mark.system
def test_the_python_api_notes_them_when_its_models_read_one_language():
    import attn.runtime as attn_api

    notes = []
    translator = attn_api.load("en-de", notify=notes.append)
    translator.translate(["she is eating a green apple", "Ich habe heute keine Zeit, weil ich arbeiten muss."])
    assert [note for note in notes if "reads as" in note] == [
        "input 2 reads as German (de), not English (en): attn.load() loads every installed model and detects "
        "each text's language"
    ]
