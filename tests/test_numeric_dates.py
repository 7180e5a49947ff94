"""Dates written in digits, day first, read with their month's name (runtime/numeric_dates.py)."""

import pytest

from attn.runtime.numeric_dates import read_numeric_dates


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, read",
    [
        ("Die Lieferung kommt am 24.12. um 9.30 Uhr.", "de", "Die Lieferung kommt am 24. Dezember um 9.30 Uhr."),
        (
            "Das Büro ist vom 23.12. bis 2.1. geschlossen.",
            "de",
            "Das Büro ist vom 23. Dezember bis 2. Januar geschlossen.",
        ),
        ("Anmeldung bis zum 15.03.2025.", "de", "Anmeldung bis zum 15. März 2025."),
        ("Der Kurs beginnt am Montag, 3.2., um 18 Uhr.", "de", "Der Kurs beginnt am Montag, 3. Februar, um 18 Uhr."),
        ("Geschlossen: 23.12.–2.1.", "de", "Geschlossen: 23. Dezember–2. Januar."),  # a range by a dash
        ("Wir kommen am 24.12.", "de", "Wir kommen am 24. Dezember."),  # the sentence's point kept
        ("Die Kita bleibt am Brückentag (30.5.) zu.", "de", "Die Kita bleibt am Brückentag (30. Mai) zu."),
        ("Le bureau est fermé du 23/12 au 2/1.", "fr", "Le bureau est fermé du 23 décembre au 2 janvier."),
        ("Inscription avant le 15/03/2025.", "fr", "Inscription avant le 15 mars 2025."),
        ("à partir du 1/5", "fr", "à partir du 1er mai"),
        ("samedi 1/4 à 10 h", "fr", "samedi 1er avril à 10 h"),  # a fraction's numbers after a weekday
        ("Wir treffen uns (am 24.12.)", "de", "Wir treffen uns (am 24. Dezember)"),  # no point in brackets
        ("14/07 : feu d'artifice", "fr", "14 juillet : feu d'artifice"),
        # not a date: a section's or a version's number, a time, a fraction, a score, no month
        ("Siehe Abschnitt 3.4. im Handbuch.", "de", "Siehe Abschnitt 3.4. im Handbuch."),
        ("Version 2.1. ist da.", "de", "Version 2.1. ist da."),
        ("Treffpunkt um 9.30 Uhr.", "de", "Treffpunkt um 9.30 Uhr."),
        ("les 3/4 du budget", "fr", "les 3/4 du budget"),
        ("le 3/14 du total", "fr", "le 3/14 du total"),
        ("am 1.5 Liter", "de", "am 1.5 Liter"),
        # a number before the word before it, a common fraction, a suffix
        ("Wir unterstützen die Versionen 1.8 bis 2.1.", "de", "Wir unterstützen die Versionen 1.8 bis 2.1."),
        ("Siehe Abschnitte 3.4. bis 3.6.", "de", "Siehe Abschnitte 3.4. bis 3.6."),
        ("Remplir le moule au 3/4.", "fr", "Remplir le moule au 3/4."),
        ("pour le 1/8 de finale", "fr", "pour le 1/8 de finale"),
        ("au 1/10e de seconde près", "fr", "au 1/10e de seconde près"),
    ],
)
def test_a_date_in_digits_is_read_with_its_months_name(sentence, source, read):
    assert read_numeric_dates(sentence, source, "en") == read


@pytest.mark.unit
def test_only_into_english():
    """English readers cannot tell the day from the month; German and French ones read digits right."""
    assert read_numeric_dates("le 24/12", "fr", "de") == "le 24/12"
    assert read_numeric_dates("on 12/24", "en", "de") == "on 12/24"


@pytest.mark.system
def test_the_shipped_models_write_dates_in_digits_as_english_writes_dates():
    """ "Die Lieferung kommt am 24.12." had become "The delivery comes on 24,12.", "du 23/12 au 2/1"
    "from 23/12 in 2/1"."""
    import attn.runtime as api

    german = api.translate(
        ["Die Lieferung kommt am 24.12. um 9.30 Uhr.", "Das Büro ist vom 23.12. bis 2.1. geschlossen."],
        source="de",
        target="en",
    )
    assert "December 24" in german[0] and "December 23" in german[1] and "January 2" in german[1], german
    # from French the date read is not set aside: its month's name, not its digits, whatever the model writes around it
    french = api.translate(["Le bureau est fermé du 23/12 au 2/1.", "Inscription avant le 15/03/2025."], "fr", "en")
    assert "December" in french[0] and "January" in french[0] and "March" in french[1], french
    assert not any(digits in " ".join(french) for digits in ("23/12", "2/1", "15/03")), french
