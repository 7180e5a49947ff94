"""Sentences in capitals read in small letters, their translation written in capitals
(runtime/capitals.py)."""

import json

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.capitals import as_written, in_capitals, opened_as_source

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


@pytest.mark.unit
@pytest.mark.parametrize(
    "source, target, opened",
    [
        ("Danke für deine Bestellung 😊", "thanks for your order 😊", "Thanks for your order 😊"),  # a placeholder
        ("😊 Danke!", "😊 thanks!", "😊 Thanks!"),  # the first word with a letter
        ("3 Katzen schlafen.", "3 cats sleep.", "3 cats sleep."),  # a digit opens it: as it is
        ("iPhone users", "iPhone-Nutzer", "iPhone-Nutzer"),  # the source opens in small letters
    ],
)
def test_a_translation_opens_with_a_capital_where_its_source_does(source, target, opened):
    """The model writes small letters next to a placeholder and after an abbreviation."""
    words = target.split()
    alignment = WordAlignment(source.split(), words, np.zeros((len(words), len(source.split())), np.float32))
    assert opened_as_source(alignment).target_words == opened.split()


@pytest.mark.system
def test_capitals_translate_as_small_letters_do_and_come_back_in_capitals():
    """ "THE FILE COULD NOT BE OPENED." had become "DIE FÜCK ZINEN NICHT BE OPENED NICHT."."""
    shouted = json.loads(attn("translate", "-f", "jsonl", "THE FILE COULD NOT BE OPENED.").stdout)
    ordinary = attn("translate", "The file could not be opened.").stdout.decode().strip()
    assert shouted["translation"] == ordinary.upper()
    assert shouted["source_words"] == "THE FILE COULD NOT BE OPENED.".split()  # the words as written
    assert shouted["words"] == [word.upper() for word in shouted["words"]]
