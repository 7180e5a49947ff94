"""Numbers whose thousands a space parts, read whole into English (runtime/spaced_numbers.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.spaced_numbers import grouped_as_english, read_spaced_numbers


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, read",
    [
        ("La ville compte 12 500 habitants.", "fr", "La ville compte 12500 habitants."),
        ("La facture s'élève à 1 250,50 euros.", "fr", "La facture s'élève à 1250,50 euros."),
        ("Il y avait 3 000 personnes et 1 200 000 euros.", "fr", "Il y avait 3000 personnes et 1200000 euros."),
        ("Die Stadt hat 12\u00a0500 Einwohner.", "de", "Die Stadt hat 12500 Einwohner."),  # a no-break space
        # not a telephone's groups, a year before a number, a version's digits
        ("Appelez le +33 1 234 567 89.", "fr", "Appelez le +33 1 234 567 89."),
        ("Tél. 01 234 567", "fr", "Tél. 01 234 567"),
        ("En 2012 500 personnes sont venues.", "fr", "En 2012 500 personnes sont venues."),
        ("Version 1.2 500", "de", "Version 1.2 500"),
        # an identifier's or a telephone's digits after the word that names them
        ("RCS Paris 732 829 320, n° 123 456", "fr", "RCS Paris 732 829 320, n° 123 456"),
        ("Rufen Sie uns an unter Tel. 123 456.", "de", "Rufen Sie uns an unter Tel. 123 456."),
        ("Un budget de 732 829 320 euros.", "fr", "Un budget de 732829320 euros."),
    ],
)
def test_a_number_whose_thousands_spaces_part_is_read_whole_into_english(sentence, source, read):
    """Read in parts, "12 500 habitants" had come back "12 500 habits"."""
    assert read_spaced_numbers(sentence, source, "en") == read


@pytest.mark.unit
def test_only_into_english():
    assert read_spaced_numbers("12 500 habitants", "fr", "de") == "12 500 habitants"
    assert read_spaced_numbers("12 500 people", "en", "de") == "12 500 people"


@pytest.mark.unit
def test_the_translation_writes_such_a_number_as_english_does():
    source = "Elle coûte 1 250,50 euros, soit 12 500 au total , et 1720".split()
    target = "It costs 1250.50 euros, or 12500, in all and 1720".split()
    alignment = WordAlignment(source, target, np.full((len(target), len(source)), 0.1, np.float32))
    written = grouped_as_english(alignment, "fr", "en").target_words
    assert written == "It costs 1,250.50 euros, or 12,500, in all and 1720".split()  # "1720" was no spaced number
    assert grouped_as_english(alignment, "fr", "de") is alignment
    # a German price grouped with points that the translation copied ungrouped ("€55000"), not the
    # same digits the source writes ungrouped too
    source = "Eine Strafe von 55.000 € , 1.299,00 € ; 6800 und 6.800 HUF".split()
    target = "A fine of €55000, €1299.00; 6800 and 6800 HUF".split()
    alignment = WordAlignment(source, target, np.full((len(target), len(source)), 0.1, np.float32))
    written = grouped_as_english(alignment, "de", "en").target_words
    assert written == "A fine of €55,000, €1,299.00; 6800 and 6800 HUF".split()


@pytest.mark.system
def test_spaced_numbers_come_through_with_the_shipped_models():
    """Their digits kept, written with English commas."""
    import attn.runtime as api

    assert "12,500" in api.translate("La ville compte 12 500 habitants.", source="fr", target="en")
    assert "1,250.50" in api.translate("Die Rechnung beträgt 1 250,50 Euro.", source="de", target="en")
