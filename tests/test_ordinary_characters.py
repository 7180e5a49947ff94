"""Other forms of ordinary letters and digits (ligatures, full-width forms, other scripts' digits,
decomposed letters) read as the ordinary characters, and invisible characters read as nothing
(runtime/words.py ordinary_characters)."""

import pytest

from attn.runtime.words import ordinary_characters

from .conftest import installed_translator


@pytest.mark.unit
def test_other_forms_of_letters_and_digits_are_read_as_the_ordinary_ones():
    assert ordinary_characters("The ﬁle, the oﬃce, ﬂach") == "The file, the office, flach"
    assert ordinary_characters("Room １２３ (ＡＢＣ) and ١٢٣, १२३, ໑໒໓") == "Room 123 (ABC) and 123, 123, 123"
    assert ordinary_characters("Gru\u0308ße aus Mu\u0308nchen") == "Grüße aus München"  # decomposed, as macOS writes
    # what has a meaning of its own stays: superscripts, fractions, symbols, other letters
    kept = "5 m² ½ Liter ™ µm Ω 日本語 привет α"
    assert ordinary_characters(kept) == kept
    # what shows nothing and only says where a word may break or join is read as nothing; a
    # zero-width joiner between emoji joins them ("👩‍💻", a woman technologist) and stays
    assert ordinary_characters("docu\u00admen\u200btation\u2060s, pack\u200dage\ufeff") == "documentations, package"
    assert ordinary_characters("I code 👩\u200d💻.") == "I code 👩\u200d💻."
    kept = "می\u200cخواهم क्\u200dष"  # Persian and Devanagari spell words with them
    assert ordinary_characters(kept) == kept


@pytest.mark.system
@pytest.mark.parametrize(
    ("pair", "written", "ordinary"),
    [
        (("en", "de"), "The ﬁle could not be opened.", "The file could not be opened."),
        (("en", "de"), "Room १२३ is free.", "Room 123 is free."),
        (("en", "fr"), "Call him at ٠٥٥١٢٣.", "Call him at 055123."),
        (("fr", "en"), "Le prix est １２３ euros.", "Le prix est 123 euros."),
        (("de", "en"), "Gru\u0308ße aus Mu\u0308nchen.", "Grüße aus München."),
        (("en", "de"), "Ｔｈｅ ｆｉｌｅ ｉｓ ｏｐｅｎ．", "The file is open."),  # had been given back as another script
        # invisible: "Die docu\u00admentation", "Die Datei öffnen die Datei.", "Das Paket\u200dage"
        (("en", "de"), "The docu\u00admentation is ready.", "The documentation is ready."),
        (("en", "de"), "Open\ufeff the file.", "Open the file."),
        (("en", "de"), "The pack\u200dage contains the fi\u200ble.", "The package contains the file."),
    ],
)
def test_a_sentence_with_other_forms_of_letters_and_digits_translates_as_with_the_ordinary_ones(
    pair, written, ordinary
):
    """The shipped models read a ligature, a full-width or another script's digit, and a decomposed
    letter as the ordinary character (they had written "Das �le", "Raum ōkyŋ", "Greetings from
    coins"); a sentence in another script is still given back as it is."""
    model = installed_translator(pair)
    [[as_written], [as_ordinary]] = model.translate([written, ordinary])
    assert as_written.text == as_ordinary.text
    assert "\ufffd" not in as_written.text
    foreign = "日本語のテキスト１２３です。"
    assert model.translate([foreign])[0][0].text == foreign


@pytest.mark.system
def test_the_alignment_shows_the_words_as_written_and_a_url_keeps_its_characters():
    """The sentence is read so, not rewritten: its alignment's source words are the user's, and a
    URL or code keeps every character (a path names the same file only so)."""
    model = installed_translator(("en", "de"))
    [[translated]] = model.translate(["The ﬁle could not be opened."])
    assert translated.alignment.source_words[1] == "ﬁle"
    url = "https://example.com/ﬁle?id=１２"
    assert url in model.translate([f"See {url} for details."])[0][0].text


@pytest.mark.system
def test_runs_of_spaces_between_words_are_read_as_one_outside_code():
    """Read as the model's space pieces, "she  is   eating" had become "sie ätzlich" (a newcomer's
    trial); code keeps its spacing."""
    model = installed_translator(("en", "de"))
    [[spaced], [single]] = model.translate(["The   file  could not   be opened.", "The file could not be opened."])
    assert spaced.text == single.text
    assert "`ls  -la`" in model.translate(["Run `ls  -la` in the folder."])[0][0].text
    beside_code = model.translate(["Run   `ls -la`   in the folder."])[0][0].text  # had been "Führt `ls -la` {0"
    assert "`ls -la`" in beside_code and "{" not in beside_code.replace("`ls -la`", "")
