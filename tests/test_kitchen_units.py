"""Spoons of a recipe read as the target writes them and set aside (runtime/kitchen_units.py)."""

import re

import pytest

from attn.runtime.kitchen_units import read_spoons, spoon_spans
from attn.runtime.sentences import split_sentences


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        ("2 EL Zucker und 1 TL Salz hinzufügen.", "de", "en", "2 tbsp Zucker und 1 tsp Salz hinzufügen."),
        ("1,5 Essl. Öl", "de", "en", "1.5 tbsp Öl"),  # the number as the target writes it
        ("Add 2 tbsp sugar and 1/2 teaspoon salt.", "en", "de", "Add 2 EL sugar and 1/2 TL salt."),
        # into French joined to its ingredient by "of" ("de"), unless it is already or has none
        ("Add 1.5 tbsp. honey.", "en", "fr", "Add 1,5 c. à soupe of honey."),
        ("1 tbsp of butter, 2 tsp.", "en", "fr", "1 c. à soupe of butter, 2 c. à café"),
        (
            "Add 2 tbsp to the pan, 1 tsp or 2 tsp. Stir.",
            "en",
            "fr",
            "Add 2 c. à soupe to the pan, 1 c. à café or 2 c. à café Stir.",
        ),
        ("Ajoutez 2 c. à soupe de sucre et 1 c.à.c de sel.", "fr", "en", "Ajoutez 2 tbsp de sucre et 1 tsp de sel."),
        # no number before it, another word, the same language, a language without a table
        ("Der EL ist voll.", "de", "en", "Der EL ist voll."),
        ("2 ELF Spieler", "de", "en", "2 ELF Spieler"),
        ("2 EL Zucker", "de", "de", "2 EL Zucker"),
        ("2 EL Zucker", "de", "es", "2 EL Zucker"),
    ],
)
def test_a_spoon_is_read_as_the_target_writes_it(sentence, source, target, read):
    assert read_spoons(sentence, source, target) == read


@pytest.mark.unit
def test_a_spoon_read_is_set_aside_and_its_points_end_no_sentence():
    read = read_spoons("2 EL Zucker und 1 TL Salz", "de", "en")
    assert [read[start:end] for start, end in spoon_spans(read, "de", "en")] == ["2 tbsp", "1 tsp"]
    assert split_sentences("Ajoutez 2 c. à soupe de sucre et 1 c. à café de sel.", "fr") == [
        "Ajoutez 2 c. à soupe de sucre et 1 c. à café de sel."
    ]
    assert split_sentences("Add 2 tbsp. sugar. Then stir.", "en") == ["Add 2 tbsp. sugar.", "Then stir."]
    assert split_sentences("Add 1 tsp. Then stir.", "en") == ["Add 1 tsp.", "Then stir."]


@pytest.mark.system
def test_the_shipped_models_write_spoons_as_the_target_does():
    """ "2 EL Zucker und 1 TL Salz hinzufügen." had become "2 EL sugar and 1 TL salt.", "Ajoutez 2 c.
    à soupe de sucre" "Add 2 c. to sugar"."""
    import attn.runtime as api

    assert all(
        part in api.translate("2 EL Zucker und 1 TL Salz hinzufügen.", "de", "en") for part in ("2 tbsp", "1 tsp")
    )
    assert "2 tbsp" in api.translate("Ajoutez 2 c. à soupe de sucre.", "fr", "en")
    assert "2 EL" in api.translate("Add 2 tbsp sugar.", "en", "de")
    # the ingredient kept (read as "{0} sugar" it had been lost: "1 tbsp sugar" → "1 c. à soupe")
    assert "sucre" in re.findall(r"\w+", api.translate("Add 2 tbsp sugar.", "en", "fr"))  # "… de sucre."
    assert "sel" in re.findall(r"\w+", api.translate("Add 2 tbsp sugar and 1 tsp salt.", "en", "fr"))
