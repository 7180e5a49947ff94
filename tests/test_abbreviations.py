"""German abbreviations read as the models translate them right (runtime/abbreviations.py)."""

import pytest

from attn.runtime.abbreviations import read_abbreviations


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, read",
    [
        ("Die Armee bzw. das Militär, d. h. Waffen.", "Die Armee beziehungsweise das Militär, d.h. Waffen."),
        ("Bitte bringen Sie z. B. Ihren Ausweis mit.", "Bitte bringen Sie z.B. Ihren Ausweis mit."),  # closed up
        ("Das kostet 20 € inkl. Versand, ggf. mehr.", "Das kostet 20 € inklusive Versand, gegebenenfalls mehr."),
        ("Z. B. heute, u.a. morgen.", "Z.B. heute, unter anderem morgen."),  # opening the sentence: a capital
        ("„U. U. nicht“", "„Unter Umständen nicht“"),
        ("Das gilt ggf.", "Das gilt gegebenenfalls."),  # its point ends the sentence too
        ("(Versand ggf.) und mehr", "(Versand gegebenenfalls) und mehr"),
        # as written: those the models translate right, another word, an abbreviation in a name or address
        (
            "Licht, Wärme usw., z.B. heute, d.h. morgen, ca. 20 Leute.",
            "Licht, Wärme usw., z.B. heute, d.h. morgen, ca. 20 Leute.",
        ),
        ("Er spürte den Sog.", "Er spürte den Sog."),  # a noun, not "sog." opening the sentence
        ("Siehe www.bzw.de oder a.b@ggf.org, ggf.x", "Siehe www.bzw.de oder a.b@ggf.org, ggf.x"),
    ],
)
def test_an_abbreviation_is_read_as_the_models_translate_it(sentence, read):
    """ "d. h." had become "th.", "ggf." had stayed, "inkl." had become "in l."."""
    assert read_abbreviations(sentence, "de", "en") == read


@pytest.mark.unit
def test_other_languages_are_read_as_written():
    assert read_abbreviations("Fruit, e.g. apples, i.e. food.", "en", "de") == "Fruit, e.g. apples, i.e. food."


@pytest.mark.system
def test_an_abbreviation_comes_through_with_the_shipped_models():
    import attn.runtime as api

    result = api.load().translate("Das Paket kommt ggf. morgen.", source="de", target="en")
    assert "ggf" not in result.text, result.text
    assert "ggf." in result.alignment.source_words  # the alignment shows the words the user wrote
