"""Dates read as the target language writes them (runtime/dates.py)."""

import re

import pytest

from attn.runtime.dates import MONTHS, day_points, month_number, read_dates, read_spans, year_comma


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        # into French: the day first, the French month, "on" read "le"
        ("He was born on June 3.", "en", "fr", "He was born le 3 juin."),
        ("On the 3rd of June 2024 we met.", "en", "fr", "Le 3 juin 2024 we met."),
        ("Shipped Oct. 5, 2024.", "en", "fr", "Shipped 5 octobre 2024."),
        ("We met on 3 June. Then we left", "en", "fr", "We met le 3 juin. Then we left"),  # a sentence's point kept
        ("Due by Sept. 30", "en", "fr", "Due d'ici le 30 septembre"),  # a preposition and its article
        ("Paid on the 3rd of June, 2024.", "en", "fr", "Paid le 3 juin 2024."),
        ("We left on 3 Jan. Then we came back.", "en", "fr", "We left le 3 janvier. Then we came back."),
        ("Room 101 June", "en", "fr", "Room 101 juin"),  # a number's digits are no day: the month alone
        ("Version 2.01 June", "en", "fr", "Version 2.01 juin"),
        ("Modèle A3 mai", "fr", "en", "Modèle A3 May"),
        # from German: the English month first, "am" read "on"
        ("Die Messe beginnt am 3. Juni in Berlin.", "de", "en", "Die Messe beginnt on June 3 in Berlin."),
        ("Am 24. Dezember 2024 ist Weihnachten.", "de", "en", "On December 24, 2024 ist Weihnachten."),
        # an article before it left out, "vom" "from" before a range and "of" otherwise
        ("Bitte bis zum 3. Okt.", "de", "en", "Bitte until October 3."),
        ("Zwischen dem 3. und dem 5. Mai, seit dem 2. Juni.", "de", "en", "Zwischen dem 3. und May 5, since June 2."),
        (
            "Vom 3. Mai bis 5. Mai, vom 14. Juli auf den 21. Juli",
            "de",
            "en",
            "From May 3 bis May 5, from July 14 auf July 21",
        ),
        ("Ihr Schreiben vom 3. März liegt vor.", "de", "en", "Ihr Schreiben of March 3 liegt vor."),
        # from French: the English month first, "le" read "on" or left out (english_before), a weekday
        # with its date, a preposition's article left out
        ("Il est né le 1er mai 2024.", "fr", "en", "Il est né on May 1, 2024."),
        # not where a clause opens with it: "on" was French's pronoun ("We February 7")
        ("Le 3 juin, la foire ouvre.", "fr", "en", "June 3, la foire ouvre."),
        ("La veille, le 20 décembre, il neigeait.", "fr", "en", "La veille, December 20, il neigeait."),
        ("Pour le 3 mai et le 5 mai.", "fr", "en", "Pour May 3 et May 5."),
        ("Elle vient le samedi 12 juin.", "fr", "en", "Elle vient on Saturday, June 12."),
        ("Depuis le 2 mai, jusqu'au 3 juin, d'ici le 4 juillet.", "fr", "en", "Since May 2, until June 3, by July 4."),
        ("Fermé du 28 février au 2 mars.", "fr", "en", "Fermé from February 28 to March 2."),
        ("L'assemblée du 18 juin a voté.", "fr", "en", "L'assemblée of June 18 a voté."),
        ("Le concert du 3 mars au Zénith.", "fr", "en", "Le concert of March 3 au Zénith."),  # no range
        ("Du 3 mars jusqu’au 5 mars.", "fr", "en", "From March 3 until March 5."),  # a typographic apostrophe
        ("Au 31 décembre, à compter du 2 mai.", "fr", "en", "As of December 31, from May 2."),
        ("Samedi 12 juin, il pleut.", "fr", "en", "Saturday, June 12, il pleut."),
        # from German, a preposition opening the sentence stays (the model took the date for the subject)
        ("Seit dem 3. März ist es zu.", "de", "en", "Seit dem March 3 ist es zu."),
        ("Die Kündigung zum 31. März gilt.", "de", "en", "Die Kündigung as of March 31 gilt."),
        # no date, or a direction the models translate dates right in as written
        ("May I come on Friday?", "en", "fr", "May I come vendredi?"),  # "May" a verb, no date
        ("It weighs 3 march tons.", "en", "fr", "It weighs 3 march tons."),  # an English month has a capital
        ("Version 1.5 am Montag", "de", "en", "Version 1.5 am Montag"),
        ("um 3.5 Mai", "de", "en", "um 3.5 Mai"),
        ("Mars est une planète.", "fr", "en", "Mars est une planète."),
        ("It starts on June 3.", "en", "de", "It starts am 3. Juni."),
        (
            "Open since May 1, until June 3, from July 5.",
            "en",
            "de",
            "Open seit dem 1. Mai, bis zum 3. Juni, ab dem 5. Juli.",
        ),
        (
            "Open since May 1, until June 3, from July 5.",
            "en",
            "fr",
            "Open depuis le 1er mai, jusqu'au 3 juin, à partir du 5 juillet.",
        ),
        ("On May 3 the museum opens.", "en", "de", "On May 3 the museum opens."),  # opening the sentence: as written
        ("Il est né le 32 mai.", "fr", "en", "Il est né le 32 May."),  # no such day: the month alone
        # a month's name alone, between English and French, in the target's words
        (
            "Prices rose in January and fell in October 2012.",
            "en",
            "fr",
            "Prices rose en janvier and fell en octobre 2012.",
        ),
        ("May I come in May?", "en", "fr", "May I come en mai?"),  # a sentence's first "May": a verb
        ("It closes in March, on August 3 and in June.", "en", "fr", "It closes en mars, le 3 août and en juin."),
        ("April Jones met Theresa May in April.", "en", "fr", "April Jones met Theresa May en avril."),  # names
        ("Le cours commence en mars.", "fr", "en", "Le cours commence en March."),
        ("Mars est une planète.", "fr", "en", "Mars est une planète."),
        ("Der Kurs beginnt im März.", "de", "en", "Der Kurs beginnt im März."),  # from German right as written
        # from French, a weekday's name in English ("The meeting is gamedi")
        ("Le colis arrive jeudi après-midi.", "fr", "en", "Le colis arrive Thursday après-midi."),
        # "le" before it read as before a date, but before "suivant" and the like ("the following Monday")
        ("Ouvert le samedi, fermé sauf le mardi.", "fr", "en", "Ouvert on Saturday, fermé sauf Tuesday."),
        ("Le dimanche, il pleut le lundi suivant.", "fr", "en", "Sunday, il pleut le Monday suivant."),
        ("C'était le dimanche le plus chaud.", "fr", "en", "C'était le Sunday le plus chaud."),
        ("C'est mardi-gras.", "fr", "en", "C'est mardi-gras."),
        # into French in French, "on" left out, "last" and "next" after it; not after a name's word
        ("The shop is closed on Friday.", "en", "fr", "The shop is closed vendredi."),
        ("On Monday we go home, last Sunday too.", "en", "fr", "lundi we go home, dimanche dernier too."),
        ("See you next Tuesday at Black Friday.", "en", "fr", "See you mardi prochain at Black Friday."),
        ("Tuesdays are busy.", "en", "fr", "Tuesdays are busy."),
        ('Sales on "Black Friday" rose.', "en", "fr", 'Sales on "Black Friday" rose.'),  # a name's, quoted
        ('Die Kassen am "Black Friday".', "de", "en", 'Die Kassen am "Black Friday".'),  # into French only
        # into German, a range of dates day first, each date whole, in German but one opening the sentence
        ("Open from March 3 to 10, 2025.", "en", "de", "Open vom 3. März bis zum 10. März 2025."),
        (
            "Closed from Dec. 24, 2024, until Jan. 2, 2025.",
            "en",
            "de",
            "Closed vom 24. Dezember 2024 bis zum 2. Januar 2025.",
        ),
        ("It runs between June 5 and 8.", "en", "de", "It runs between 5. Juni and 8. Juni."),
        (
            "It runs June 5-8 and Aug. 21 – Sept. 3.",
            "en",
            "de",
            "It runs 5. Juni to 8. Juni and 21. August to 3. September.",
        ),
        ("It runs between Aug. 21-Sept. 3.", "en", "de", "It runs between 21. August and 3. September."),
        ("It runs June 28 through July 4.", "en", "de", "It runs 28. Juni through 4. Juli."),
        ("He was born on June 3, 2024.", "en", "de", "He was born am 3. Juni 2024."),
        # no range: two days without "between", a number after "to" without "from", a time after a dash
        ("On June 5 and 6 more people came.", "en", "de", "On June 5 and 6 more people came."),
        ("By March 3 to 5 people had left.", "en", "de", "By March 3 to 5 people had left."),
        ("Sent on March 15, 2007 - 16:42.", "en", "de", "Sent am 15. März 2007 - 16:42."),
        ("On March 3 - 5 people died.", "en", "de", "On March 3 - 5 people died."),
        # a second date without its month only before what ends the range, not a noun or a unit
        ("From March 3 to 10 people applied.", "en", "de", "From March 3 to 10 people applied."),
        (
            "It rose from March 3 to 10% and from May 1 to 5 pm.",
            "en",
            "de",
            "It rose vom 3. März to 10% and vom 1. Mai to 5 pm.",
        ),
        ("Open from March 3 to 10 in Berlin.", "en", "de", "Open vom 3. März bis zum 10. März in Berlin."),
        # a dash without spaces, or a year after the second day, makes a range whatever follows
        ("Sales for June 5-8 were higher.", "en", "de", "Sales for 5. Juni to 8. Juni were higher."),
        (
            "From March 3 to 10, 2025 we are away.",
            "en",
            "de",
            "From 3 March to 10 March 2025 we are away.",
        ),  # opening: whole
        ("It was moved from Monday to March 3.", "en", "de", "It was moved from Monday to 3. März."),  # no range
        ("Write to anna@example.com by March 5.", "en", "de", "Write to anna@example.com bis zum 5. März."),
    ],
)
def test_a_date_is_read_as_the_target_language_writes_it(sentence, source, target, read):
    """ "on June 3" had stayed "sur June 3" in French, "le 3 juin" had become "the 3 juin", "am 3.
    Juni." "on June 3,." (benchmarks/date_forms.py)."""
    assert read_dates(sentence, source, target) == read


@pytest.mark.unit
def test_month_names_and_short_forms_have_their_number():
    assert [month_number(name, "en") for name in ("January", "sept", "DEC")] == [1, 9, 12]
    assert [month_number(name, "de") for name in ("März", "Jänner", "okt")] == [3, 1, 10]
    assert [month_number(name, "fr") for name in ("août", "févr", "Décembre")] == [8, 2, 12]
    assert {"june", "juni", "juin", "okt", "déc"} <= MONTHS


@pytest.mark.unit
def test_a_dates_punctuation_is_the_target_languages():
    """From "am 3. Juni 2024", read "on June 3, 2024", the model had written "June 3. 2024"; into
    German it had left out a day's point ("am 10 Oktober", "vom 3 bis zum 10. März")."""
    import numpy as np

    from attn.runtime.alignment import WordAlignment

    def written(text: str, language: str = "en") -> str:
        words = text.split()
        alignment = WordAlignment(words, words, np.eye(len(words)))
        return " ".join(day_points(year_comma(alignment, language), language).target_words)

    assert written("It ends on June 3. 2024.") == "It ends on June 3, 2024."
    assert written("Read chapter 3. 2024 was a good year.") == "Read chapter 3. 2024 was a good year."  # no month
    assert written("Il finit le June 3. 2024.", "fr") == "Il finit le June 3. 2024."
    # into German, a day's ordinal point before its month and as a range's first day
    assert written("Er kam am 10 Oktober 1958.", "de") == "Er kam am 10. Oktober 1958."
    assert written("Es läuft vom 3 bis zum 10. März.", "de") == "Es läuft vom 3. bis zum 10. März."
    assert written("Es ist am 5 und 6. Juni zu.", "de") == "Es ist am 5. und 6. Juni zu."
    assert (
        written("Seite 3 bis 10 lesen, 40 März, 3 bis 10 Leute.", "de")
        == "Seite 3 bis 10 lesen, 40 März, 3 bis 10 Leute."
    )


@pytest.mark.system
def test_dates_come_through_with_the_shipped_models():
    """Each direction READ names keeps a date of our own with its day, month and year."""
    import attn.runtime as api

    assert "3 juin 2024" in api.translate("He was born on June 3, 2024.", source="en", target="fr")
    assert "June 3, 2024" in api.translate("Il est né le 3 juin 2024.", source="fr", target="en")
    # into English no "the" before a date written month first ("signed the August 15, 2019")
    for sentence, source in [
        ("L'accord a été signé le 15 août 2019.", "fr"),
        ("Le musée est fermé depuis le 5 mai.", "fr"),
        ("Bitte antworten Sie bis zum 1. Januar.", "de"),
    ]:
        english = api.translate(sentence, source=source, target="en")
        assert re.search(r"(?:August 15|May 5|January 1)\b", english), english
        assert not re.search(r"\bthe (?:August|May|January)\b", english), english
    from_german = api.translate("Er wurde am 24. Dezember 2024 geboren.", source="de", target="en")
    assert "December 24, 2024" in from_german and ",." not in from_german
    assert "June 3, 2024" in api.translate("Die Frist endet am 3. Juni 2024.", source="de", target="en")
    # set aside, a date no longer runs into the time after it ("on June 3pm")
    met = api.translate("Wir treffen uns am 3. Juni um 15 Uhr.", source="de", target="en")
    assert "June 3" in met and "June 3pm" not in met
    # into German a date beside a time, set aside, keeps its day ("am Dienstag, 15. März um 15:30 Uhr")
    meeting = api.translate("The meeting with Anna is on Tuesday, March 5th at 3:30 pm.", source="en", target="de")
    assert re.search(r"(?<!\d)5\. März", meeting) and "15" in meeting, meeting
    # the word before a date as the target writes it ("depuis 5 mars", "seit 5. März")
    assert "depuis le 5 mars" in api.translate("We have been here since March 5.", source="en", target="fr")
    assert "seit dem 5. März" in api.translate("We have been here since March 5.", source="en", target="de")
    # into German a range as written had lost its first month ("vom 3 bis zum 10. März 2025")
    into_german = api.translate("The exhibition runs from March 3 to March 10, 2025.", source="en", target="de")
    assert re.search(r"(?<!\d)3\.", into_german) and "10. März" in into_german


@pytest.mark.unit
def test_the_dates_months_and_weekdays_read_into_french_are_set_aside():
    read = read_dates("On Monday we go home, last Sunday too.", "en", "fr")
    assert [read[start:end] for start, end in read_spans(read, "en", "fr")] == ["lundi", "dimanche dernier"]
    read = read_dates("Born on June 3, 2024, it opens in March 2025 and on August 3.", "en", "fr")
    spans = read_spans(read, "en", "fr")
    assert [read[start:end] for start, end in spans] == ["le 3 juin 2024", "en mars 2025", "le 3 août"]
    assert read_spans("Le colis arrive Thursday.", "fr", "en") == []  # read in place from French
    read = read_dates("The meeting is on Tuesday, March 5th at 3:30 pm, since May 1.", "en", "de")
    assert [read[start:end] for start, end in read_spans(read, "en", "de")] == ["5. März", "seit dem 1. Mai"]
    read = read_dates("Wir treffen uns am 3. Juni um 15 Uhr.", "de", "en")  # from German, dates only
    assert [read[start:end] for start, end in read_spans(read, "de", "en")] == ["on June 3"]


@pytest.mark.system
def test_a_weekday_comes_through_into_french():
    """Read as written, the model wrote "aujourd'hui" for a weekday ("I will see you on Tuesday." →
    "Je vous verrai aujourd'hui.") in 20 of 84 sentences of our own; set aside in French, it is
    copied. Frames other than those it was chosen on."""
    import attn.runtime as api

    frames = ["Can you come on {}?", "My flight leaves on {} evening.", "The doctor is away until {}."]
    for english, french in zip(["Monday", "Wednesday", "Saturday"], ["lundi", "mercredi", "samedi"]):
        for frame in frames:
            translation = api.translate(frame.format(english), source="en", target="fr")
            assert french in translation.lower() and "aujourd" not in translation, translation
    # a text that is only what is set aside is given as read (it had been given back in English)
    alone = ["Monday", "June 3, 2024", "Friday, June 3", "in March 2025"]
    assert api.translate(alone, source="en", target="fr") == [
        "Lundi",
        "3 juin 2024",
        "Vendredi, 3 juin",
        "en mars 2025",
    ]
    assert api.translate(["3. Juni 2024", "SUPPORT@EXAMPLE.COM"], source="de", target="en") == [
        "June 3, 2024",
        "SUPPORT@EXAMPLE.COM",  # all set aside but nothing read in the target's words: as written
    ]
    # a small letter after a token set aside ("bob@example.com Lundi" had been written)
    assert "lundi" in api.translate("Write to bob@example.com on Monday.", source="en", target="fr")


@pytest.mark.unit
def test_a_time_after_a_german_date_is_read_at_it_and_set_aside_with_it():
    """ "am 3. Juni um 15 Uhr" had come back "on June 3 by 3pm" ("by": "bis") or "at on June 3 3pm"."""
    read = read_dates("Wir treffen uns am 3. Juni um 3pm am Bahnhof.", "de", "en")  # the time as read_times reads it
    assert read == "Wir treffen uns on June 3 at 3pm am Bahnhof."
    assert [read[start:end] for start, end in read_spans(read, "de", "en")] == ["on June 3 at 3pm"]
    # no time after the date, or not after "um": the date alone
    read = read_dates("Am 3. Juni ist das Museum um 3pm zu.", "de", "en")
    assert [read[start:end] for start, end in read_spans(read, "de", "en")] == ["On June 3"]


@pytest.mark.unit
def test_den_and_der_before_a_german_date_are_left_out_into_english():
    """ "Montag, den 4. Februar" had come back "Monday, the February 4"."""
    assert read_dates("für Montag, den 4. Februar", "de", "en") == "für Montag, February 4"
    assert read_dates("Der 3. Mai ist frei.", "de", "en") == "May 3 ist frei."
    assert read_dates("am 3. Mai", "de", "en") == "on May 3"


@pytest.mark.unit
def test_a_time_after_a_comma_after_a_german_date_is_read_at_it_too():
    read = read_dates("Am 3. Juni, um 3pm, beginnt es.", "de", "en")
    assert read == "On June 3 at 3pm, beginnt es."
    assert [read[start:end] for start, end in read_spans(read, "de", "en")] == ["On June 3 at 3pm"]
