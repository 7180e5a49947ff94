"""German abbreviations and English initials read as the models translate them right (runtime/abbreviations.py)."""

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
        ("Er machte 1,5 Mrd. Euro Gewinn, 3 Mio. Umsatz.", "Er machte 1,5 Milliarden Euro Gewinn, 3 Millionen Umsatz."),
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
def test_other_abbreviations_are_read_as_written():
    assert read_abbreviations("Fruit, e.g. apples, i.e. food.", "en", "de") == "Fruit, e.g. apples, i.e. food."
    assert read_abbreviations("Des fruits, p. ex. des pommes.", "fr", "en") == "Des fruits, p. ex. des pommes."


@pytest.mark.unit
def test_initials_with_points_are_read_without_them():
    """ "The U.S. economy grew faster than expected." had become "L'économie U.S." (the rest lost)."""
    assert read_abbreviations("The U.S. economy and the U.K. government.", "en", "fr") == (
        "The US economy and the UK government."
    )
    assert read_abbreviations("He moved to the U.S.", "en", "de") == "He moved to the US."  # the sentence's point
    assert read_abbreviations("The U.S.-led talks in Washington, D.C. and the U.S.A.", "en", "de") == (
        "The US-led talks in Washington, DC and the USA."
    )
    assert read_abbreviations("J.R. Smith met A.B. at www.u.s.example.com", "en", "de") == (
        "J.R. Smith met A.B. at www.u.s.example.com"  # a person's initials, an address
    )


@pytest.mark.system
def test_an_abbreviation_comes_through_with_the_shipped_models():
    import attn.runtime as api

    result = api.load().translate("Das Paket kommt ggf. morgen.", source="de", target="en")
    assert "ggf" not in result.text, result.text
    assert "ggf." in result.alignment.source_words  # the alignment shows the words the user wrote
    into_french = api.load().translate("The U.S. economy grew faster than expected.", source="en", target="fr")
    assert "U.S." not in into_french.text and "U.S." in into_french.alignment.source_words, into_french.text
