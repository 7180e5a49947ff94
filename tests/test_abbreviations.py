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
        (
            "Siehe Abb. 3 und Kap. 4, inkl. MwSt., i. d. R. 10 Std.",
            "Siehe Fig. 3 und Kapitel 4, inklusive VAT, in der Regel 10 Stunden.",
        ),
        # the singular after 1 and "pro" ("1 Stunden" had come out "1 hours")
        ("Etwa 1 Std., 1,5 Std. oder 2 € pro Std.", "Etwa 1 Stunde, 1,5 Stunden oder 2 € pro Stunde."),
        (
            "Ihre Bestellnr. 48213, Bahnhofstr. 14.",
            "Ihre Bestellnummer 48213, Bahnhofstr. 14.",
        ),  # a word's ending; a street's kept
        # before a number, "Seite"; a name's initial else
        ("Johann S. Bach, siehe S. 12.", "Johann S. Bach, siehe Seite 12."),
        # a day in a range or a list, before a time or a date; "Frau" before a name
        (
            "Mo.–Fr. 9–18 Uhr, Sa. 10–14 Uhr, So. und feiertags zu.",
            "Montag bis Freitag 9–18 Uhr, Samstag 10–14 Uhr, Sonntag und feiertags zu.",
        ),
        (
            "Fr. Schneider kommt am Di. und Mi., jeden Do. 8 Uhr.",
            "Fr. Schneider kommt am Dienstag und Mittwoch, jeden Donnerstag 8 Uhr.",
        ),
        ("Geöffnet Montag–Freitag.", "Geöffnet Montag bis Freitag."),  # a range of days written out too
        ("Geöffnet Mo.-Fr., Di./Do. nachmittags.", "Geöffnet Montag bis Freitag, Dienstag/Donnerstag nachmittags."),
        (
            "Der Preis beträgt Fr. 49.90, Herr und Fr. Weber.",
            "Der Preis beträgt Fr. 49.90, Herr und Fr. Weber.",
        ),  # francs, Frau
        # as written: those the models translate right, another word, an abbreviation in a name or address
        (
            "Licht, Wärme usw., z.B. heute, d.h. morgen, ca. 20 Leute.",
            "Licht, Wärme usw., z.B. heute, d.h. morgen, ca. 20 Leute.",
        ),
        ("Er spürte den Sog.", "Er spürte den Sog."),  # a noun, not "sog." opening the sentence
        ("Sie blieben für eine Weile so.", "Sie blieben für eine Weile so."),  # a word, not Sunday
        ("Siehe www.bzw.de oder a.b@ggf.org, ggf.x", "Siehe www.bzw.de oder a.b@ggf.org, ggf.x"),
    ],
)
def test_an_abbreviation_is_read_as_the_models_translate_it(sentence, read):
    """ "d. h." had become "th.", "ggf." had stayed, "inkl." had become "in l."."""
    assert read_abbreviations(sentence, "de", "en") == read


@pytest.mark.unit
def test_english_and_french_abbreviations_of_letters_and_manuals_are_written_out():
    assert read_abbreviations("See Fig. 4 and Ch. 3, approx. 3 kg, Mon.–Fri.", "en", "de") == (
        "See Figure 4 and Chapter 3, approximately 3 kg, Monday to Friday."
    )
    assert read_abbreviations("Des fruits, p. ex. des pommes, c.-à-d. env. 2 kg, voir p. 12.", "fr", "en") == (
        "Des fruits, par exemple des pommes, c'est-à-dire environ 2 kg, voir page 12."
    )
    assert read_abbreviations("Fondée en 600 av. J.-C., au 12, av. Foch, ouvert du lun. au ven.", "fr", "en") == (
        "Fondée en 600 avant le Christ, au 12, avenue Foch, ouvert du lundi au vendredi."
    )
    # a day only with the sentence going on after it: "le jeu." is "the game"
    assert read_abbreviations("Le client a quitté le jeu. Voir le jeu. 12 juin, en 70 av. J-C.", "fr", "en") == (
        "Le client a quitté le jeu. Voir le jeudi 12 juin, en 70 avant le Christ."
    )


@pytest.mark.unit
def test_an_english_number_sign_is_read_as_each_target_writes_it():
    """ "Room no. 12" had become "Zimmer nein. 12", "Number" "Zahl" or "nombre"."""
    sentence = "Order no. A-2024-0815 and room No. 12."
    assert read_abbreviations(sentence, "en", "de") == "Order Nr. A-2024-0815 and room Nr. 12."
    assert read_abbreviations(sentence, "en", "fr") == "Order n° A-2024-0815 and room n° 12."
    assert read_abbreviations("No. 10 is there. No, thanks.", "en", "fr") == "N° 10 is there. No, thanks."


@pytest.mark.unit
def test_other_abbreviations_are_read_as_written():
    assert (
        read_abbreviations("Fruit, e.g. apples, i.e. food, vs. Tel. 5.", "en", "de")
        == "Fruit, e.g. apples, i.e. food, vs. Tel. 5."
    )
    assert read_abbreviations("I ate a fig. What a lovely chap.", "en", "de") == "I ate a fig. What a lovely chap."


@pytest.mark.unit
def test_no_sentence_ends_after_an_abbreviation_the_model_reads():
    """ "See Chap. 7 for tips." had been cut after "Chap." and come out "Siehe Kapitel. 7 …"."""
    from attn.runtime.sentences import split_sentences

    assert split_sentences("See Chap. 7 for tips. It weighs approx. 3 kg.", "en") == [
        "See Chap. 7 for tips.",
        "It weighs approx. 3 kg.",
    ]
    assert split_sentences("Die Fa. Berger liefert insb. Holz. Gut.", "de") == [
        "Die Fa. Berger liefert insb. Holz.",
        "Gut.",
    ]
    # one that may end a sentence ends it before a capital
    assert split_sentences("He moved to the U.S. The firm followed.", "en") == [
        "He moved to the U.S.",
        "The firm followed.",
    ]


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
    # one sentence, not cut after the abbreviation ("Siehe Kapitel. 7 …")
    for sentence, source, target, written in [
        ("Die Tabelle auf S. 27 zeigt die Ergebnisse.", "de", "en", "S."),
        ("Le colis pèse env. 2 kg et arrive demain.", "fr", "en", "env."),
        ("See Chap. 7 for a list of error codes.", "en", "de", "Chap."),
    ]:
        result = api.load().translate(sentence, source=source, target=target)
        assert written not in result.text and written in result.alignment.source_words, result.text
