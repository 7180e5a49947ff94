"""Sentences in capitals, and labels in capitals before a colon, read in small letters, their
translation written in capitals (runtime/capitals.py)."""

import json

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.capitals import a_sentence, as_written, in_capitals, opened_as_source, read_cased, written_back

from .test_cli import attn


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, shouted",
    [
        ("THE FILE COULD NOT BE OPENED.", True),
        ("- DIE DATEI IST WEG!", True),
        ("Please insert the USB stick.", False),  # a name in capitals
        ("WARNING: Do not open.", False),
        ("USB", False),  # one word: a name
        ("OK 200", False),
        ("3 PM", False),
    ],
)
def test_a_sentence_in_capitals_is_told_from_one_with_names_in_capitals(sentence, shouted):
    assert in_capitals(sentence) is shouted


@pytest.mark.unit
def test_it_is_read_as_a_sentence_is_written_each_word_as_the_vocabulary_has_it():
    """A word with its first letter a capital where the model reads that in fewer pieces (German
    nouns, names): in small letters, "Die datei" had lost the noun's capital."""
    vocabulary = {"Datei", "Brücke", "die", "über", "the", "file", "Größe", "class"}

    def pieces(word: str) -> int:  # a word the vocabulary holds is one piece, another one per letter
        return 1 if word in vocabulary else len(word)

    assert as_written("THE FILE COULD NOT BE OPENED.", pieces) == "The file could not be opened."
    assert as_written("- ÜBER DIE BRÜCKE UND DIE DATEI", pieces) == "- Über die Brücke und die Datei"
    assert as_written("DIE GRÖSSE DER CLASS", pieces) == "Die Größe der class"  # capitals write "ß" as "SS"
    # German's polite address keeps its capital ("PLEASE CHANGE THEIR PASSWORD." had been its translation)
    assert as_written("BITTE ÄNDERN SIE IHR KONTO.", pieces, "de") == "Bitte ändern Sie Ihr konto."
    assert as_written("BITTE ÄNDERN SIE IHR KONTO.", pieces, "en") == "Bitte ändern sie ihr konto."
    assert as_written("DIE KUNDIN HAT IHR KONTO.", pieces, "de") == "Die kundin hat ihr konto."  # no one addressed


def vocabulary_pieces(word: str) -> int:
    """A word of a small vocabulary is one piece, another one per letter."""
    return 1 if word.strip() in {"Warning", "note", "Achtung", "USB", "Important"} else len(word)


@pytest.mark.unit
@pytest.mark.parametrize(
    "written, read",
    [
        ("WARNING: Do not open the case.", "Warning: Do not open the case."),
        ("NOTE: the file is saved.", "Note: the file is saved."),  # a sentence's first letter a capital
        ("IMPORTANT NOTE: Read it.", "Important note: Read it."),
        ("ACHTUNG : Nicht öffnen.", "Achtung : Nicht öffnen."),
        ("USB: Connect the cable.", "USB: Connect the cable."),  # fewer pieces as written: a name
        ("WARNING: DO NOT OPEN.", "Warning: do not open."),  # in capitals whole
        ("Warning: Do not open.", "Warning: Do not open."),  # no label in capitals
        ("WARNING:Do not open.", "WARNING:Do not open."),  # no space after the colon
        ("THE FOUR WORDS LABEL: is long.", "THE FOUR WORDS LABEL: is long."),  # more than three words
        ("Call at 10:30 NOTE: today.", "Call at 10:30 NOTE: today."),  # a label opens the sentence
    ],
)
def test_a_label_in_capitals_is_read_as_the_vocabulary_cases_its_words(written, read):
    """ "WARNING: Do not open the case." had come back as "WARNING: Machen Sie …"."""
    assert read_cased(written, vocabulary_pieces) == read


@pytest.mark.unit
@pytest.mark.parametrize(
    "written, read, target, back",
    [
        ("WARNING: Do not open.", "Warning: Do not open.", "Warnung: Nicht öffnen.", "WARNUNG: Nicht öffnen."),
        ("NOTE: Read it.", "Note: Read it.", "Wichtiger Hinweis: Lesen.", "WICHTIGER HINWEIS: Lesen."),
        ("NOTE : Lisez.", "Note : Lisez.", "Remarque : Lisez.", "REMARQUE : Lisez."),
        ("NOTE: Read it.", "Note: Read it.", "Lesen Sie es.", "Lesen Sie es."),  # no colon: no label
        ("USB: Connect it.", "USB: Connect it.", "Usb: Verbinden.", "Usb: Verbinden."),  # read as written
        ("THE FILE IS GONE.", "The file is gone.", "Die Datei ist weg.", "DIE DATEI IST WEG."),
    ],
)
def test_the_translation_of_capitals_is_written_in_capitals_as_far_as_its_source_was(written, read, target, back):
    words = target.split()
    alignment = WordAlignment(written.split(), words, np.zeros((len(words), len(written.split())), np.float32))
    assert " ".join(written_back(alignment, written, read).target_words) == back


@pytest.mark.unit
@pytest.mark.parametrize(
    "source, target, opened",
    [
        ("Danke für deine Bestellung 😊", "thanks for your order 😊", "Thanks for your order 😊"),  # a placeholder
        ("😊 Danke!", "😊 thanks!", "😊 Thanks!"),  # the first word with a letter
        ("3 Katzen schlafen.", "3 cats sleep.", "3 cats sleep."),  # a digit opens it: as it is
        ("iPhone users", "iPhone-Nutzer", "iPhone-Nutzer"),  # the source opens in small letters
        ("Das Programm pkexec startet.", "pkexec starts.", "pkexec starts."),  # a name written so in the source
        ("Die mRNA-Impfstoffe sind sicher.", "mRNA vaccines are safe.", "mRNA vaccines are safe."),  # mixed case
    ],
)
def test_a_translation_opens_with_a_capital_where_its_source_does(source, target, opened):
    """The model writes small letters next to a placeholder and after an abbreviation."""
    words = target.split()
    alignment = WordAlignment(source.split(), words, np.zeros((len(words), len(source.split())), np.float32))
    assert opened_as_source(alignment).target_words == opened.split()


@pytest.mark.unit
def test_a_sentence_ends_with_its_mark_and_a_title_without_one():
    assert a_sentence("Zimmer 204 ist frei.".split()) and a_sentence(["Wirklich?«"]) and a_sentence(["So…"])
    assert not a_sentence("Polish data files for fortune".split()) and not a_sentence([])


@pytest.mark.system
def test_a_sentence_whose_source_opens_with_a_capital_opens_with_one():
    """ "Zimmer 204 ist frei." had come out "room 204 is free.": the model writes a noun as it would
    inside a sentence."""
    import attn.runtime as api

    for sentence in ("Zimmer 204 ist frei.", "Ihre Buchungsnummer lautet XKZ-77812.", "Lieferung in 3 Tagen."):
        translation = api.translate(sentence, source="de", target="en")
        assert translation[:1].isupper(), translation


@pytest.mark.system
def test_capitals_translate_as_small_letters_do_and_come_back_in_capitals():
    """ "THE FILE COULD NOT BE OPENED." had become "DIE FÜCK ZINEN NICHT BE OPENED NICHT."."""
    shouted = json.loads(attn("translate", "-f", "jsonl", "THE FILE COULD NOT BE OPENED.").stdout)
    ordinary = attn("translate", "The file could not be opened.").stdout.decode().strip()
    assert shouted["translation"] == ordinary.upper()
    assert shouted["source_words"] == "THE FILE COULD NOT BE OPENED.".split()  # the words as written
    assert shouted["words"] == [word.upper() for word in shouted["words"]]


@pytest.mark.system
def test_a_label_in_capitals_translates_as_in_ordinary_case_and_comes_back_in_capitals():
    """ "ACHTUNG: Das Gerät nicht öffnen." had come back as "ACHTUNG: the device not open."."""
    import attn.runtime as api

    shouted = api.translate("ACHTUNG: Das Gerät nicht öffnen.", source="de", target="en")
    label, rest = api.translate("Achtung: Das Gerät nicht öffnen.", source="de", target="en").split(":", 1)
    assert shouted == f"{label.upper()}:{rest}"
