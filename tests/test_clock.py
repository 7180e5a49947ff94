"""Times read as the target language writes them (runtime/clock.py)."""

import json

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment, restored
from attn.runtime.clock import read_times, time_spans

from .test_cli import attn


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        (
            "The shop opens at 9 am and closes at 6 pm.",
            "en",
            "de",
            "The shop opens at 9:00 Uhr and closes at 18:00 Uhr.",
        ),
        ("The webinar begins at 3 p.m.", "en", "de", "The webinar begins at 15:00 Uhr."),
        ("at 7:30pm sharp", "en", "de", "at 19:30 sharp"),
        ("It starts at 7.30 pm.", "en", "de", "It starts at 19:30 Uhr."),  # British: had become "7.30 Uhr"
        ("It starts at 7.30pm.", "en", "de", "It starts at 19:30."),  # had become "19,30 Uhr"
        ("The price is 7.30 euros.", "en", "de", "The price is 7.30 euros."),
        # no time, or one the target writes as the source does, or a duration
        ("The shop opens at 9 am.", "en", "en", "The shop opens at 9 am."),
        ("Il a 3 heures de retard.", "fr", "en", "Il a 3 heures de retard."),
        ("Après 3 heures de route, on arrive.", "fr", "en", "Après 3 heures de route, on arrive."),
        (
            "Après 2 heures, il est parti, après 20 h de voyage.",
            "fr",
            "en",
            "Après 2 heures, il est parti, après 20 h de voyage.",
        ),
        ("Version 1.5 am Montag", "en", "de", "Version 1.5 am Montag"),
        ("Es ist 25 Uhr.", "de", "en", "Es ist 25 Uhr."),
        ("Lyon est à 2 heures de Paris.", "fr", "en", "Lyon est à 2 heures de Paris."),  # a distance
        ("Call 555-1234 or come at 9 am.", "en", "de", "Call 555-1234 or come at 9:00 Uhr."),  # no range
        # a part of the day after it: "8 a.m." had made an evening a morning
        ("Wir essen um 8 Uhr abends.", "de", "en", "Wir essen um 8 Uhr abends."),
        ("On dîne à 8 heures du soir.", "fr", "en", "On dîne à 8 heures du soir."),
        ("Von 8 bis 10 Uhr abends.", "de", "en", "Von 8 bis 10 Uhr abends."),
    ],
)
def test_a_time_is_read_as_the_target_language_writes_it_in_as_many_words(sentence, source, target, read):
    assert read_times(sentence, source, target) == read
    assert len(read.split()) == len(sentence.split())


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, read",
    [
        ("Der Laden öffnet um 9 Uhr.", "de", "Der Laden öffnet um 9am."),
        ("Treffen um 14.30 Uhr, danach um 17:45 Uhr", "de", "Treffen um 2:30pm, danach um 5:45pm"),
        ("La réunion est à 14h30 et le dîner à 20 heures.", "fr", "La réunion est à 2:30pm et le dîner à 8pm."),
        ("Le train part à 20 h de la gare.", "fr", "Le train part à 8pm de la gare."),  # a time, not a distance
    ],
)
def test_a_time_is_read_into_english_glued_to_its_half(sentence, source, read):
    """Read as "9 p.m.", the model had written "It should be p.m." and "today.m." (benchmarks/time_forms.py)."""
    assert read_times(sentence, source, "en") == read


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, target, read",
    [
        ("The shop opens at 9 o'clock in the morning.", "de", "The shop opens at 9:00 Uhr."),
        ("We eat at 8 in the evening.", "de", "We eat at 20:00 Uhr."),
        ("The meeting is at 3:30 in the afternoon.", "fr", "The meeting is at 15 h 30."),
        ("He came home at 11 o’clock at night.", "de", "He came home at 23:00 Uhr."),
        ("The baby woke at 2 at night.", "de", "The baby woke at 2:00 Uhr."),  # the small hours
        (
            "Lunch is at 12 in the afternoon, the fireworks at 12 at night.",
            "de",
            "Lunch is at 12:00 Uhr, the fireworks at 0:00 Uhr.",
        ),
        ("It is open from 9 to 11 in the morning.", "de", "It is open from 9 to 11 Uhr."),  # a range's end
        # a bare number is an hour only after a word that puts a time: these are a dose, a
        # chapter, a date's day and a count (read as times, "June 3" had become "June 15:00 Uhr")
        ("Take 2 in the morning and 1 at night.", "de", "Take 2 in the morning and 1 at night."),
        ("Read chapter 9 in the morning paper.", "de", "Read chapter 9 in the morning paper."),
        ("Meet me on June 3 in the evening.", "de", "Meet me on June 3 in the evening."),
        ("I read 3 in the evening papers.", "fr", "I read 3 in the evening papers."),
        # the sentence's point after "am" stays ("9 am.)" had lost it)
        ("(We open at 9 in the morning.)", "de", "(We open at 9:00 Uhr.)"),
        ("(We open at 9 am.)", "de", "(We open at 9:00 Uhr.)"),
    ],
)
def test_an_hours_half_of_the_day_in_words_is_read_as_its_hour(sentence, target, read):
    """Into German "9 o'clock in the morning" had become "21 Uhr morgens" (5 of 6 frames) and a
    time written so was often written twice; French had kept the 12-hour clock's hour ("à 2
    heures dans l'après-midi"). Read as "9 am", "8 pm" (runtime/clock.py NAMED_HALVES), each is
    what any such time becomes: `python -m benchmarks.time_forms --to de --as-written`."""
    assert read_times(sentence, "en", target) == read


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        (
            "Open 3-5 pm daily, from 9 am to 5 pm on Sundays.",
            "en",
            "de",
            "Open 15-17 Uhr daily, from 9 to 17 Uhr on Sundays.",
        ),
        ("Office hours are 2:30 to 4 p.m.", "en", "de", "Office hours are 14:30 to 16 Uhr."),
        ("Closed between 11 and 1 pm.", "en", "de", "Closed between 11 and 13 Uhr."),  # 11 in the morning
        ("Monday to Friday, 8 am to 3 pm.", "en", "de", "Monday to Friday, 8 to 15 Uhr."),  # each its own half
        ("From 9:30 am to 5 pm.", "en", "fr", "From 9 h 30 to 17 h."),
        ("Von 9 Uhr bis 17 Uhr.", "de", "en", "Von 9am bis 5pm."),
        ("From 9-5pm.", "en", "de", "From 9-17 Uhr."),  # the hour's word, glued or not
        ("The meeting is from 2 to 4 pm.", "en", "fr", "The meeting is from 14 h to 16 h."),
        ("Meet at 9 pm or 2-4 pm.", "en", "es", "Meet at 21:00 or 14:00-16:00."),  # an imported model's target
        ("Die Sprechstunde ist von 14 bis 16 Uhr.", "de", "en", "Die Sprechstunde ist von 2 bis 4pm."),
        ("Das Büro ist 9-17 Uhr geöffnet.", "de", "en", "Das Büro ist 9am-5pm geöffnet."),
        ("Ouvert de 9 h à 17 h 30.", "fr", "en", "Ouvert de 9am à 5:30pm."),
        ("de 14h à 16h", "fr", "en", "de 2pm à 4pm"),
        ("The fair opens on June 3 - 9 pm.", "en", "de", "The fair opens on June 3 - 21:00 Uhr."),  # a date's day
        ("Scheduled maintenance 2-4 pm.", "en", "de", "Scheduled maintenance 14-16 Uhr."),  # no month's prefix
        ("Markt 8-13 Uhr.", "de", "en", "Markt 8am-1pm."),
        ("Classes at 3, 4 or 5 pm.", "en", "de", "Classes at 15, 16 or 17 Uhr."),  # hours listed before it
        ("Um 14, 15 und 16 Uhr.", "de", "en", "Um 2, 3 und 4pm."),
        ("Open 10-12 pm.", "en", "de", "Open 10-12 Uhr."),  # the morning, to noon
        ("Séances à 14h et 16h.", "fr", "en", "Séances à 2pm et 4pm."),
        # after "avant", "après", "vers", "dès" too ("avant 18 h" had stayed "before 18 h")
        ("Il part dès 9 h, avant 18 h 30 ou vers 20 heures.", "fr", "en", "Il part dès 9am, avant 6:30pm ou vers 8pm."),
        ("Appelez-nous entre 14h et 16h.", "fr", "en", "Appelez-nous entre 2pm et 4pm."),  # not after "à"
        ("Our hours are 8:00 AM - 6:00 PM.", "en", "de", "Our hours are 8 - 18 Uhr."),  # "8:00 - 18:00" lost its end
        ("Comptez 2 à 3 heures pour la visite.", "fr", "en", "Comptez 2 à 3 heures pour la visite."),  # a duration
        ("Ils trimaient entre 12 et 14 heures par jour.", "fr", "en", "Ils trimaient entre 12 et 14 heures par jour."),
        ("Ouvert de 9 à 18 heures.", "fr", "en", "Ouvert de 9am à 6pm."),  # opening hours, no duration
        ("Showings at 5 pm, 6:45 pm and 8 pm.", "en", "de", "Showings at 17:00 Uhr, 18:45 Uhr and 20:00 Uhr."),
    ],
)
def test_a_range_is_read_whole(sentence, source, target, read):
    """Its first time takes its clock or half of the day from its last: left as written, "2-4 pm"
    had become "2-4 Uhr" and "von 14 bis 16 Uhr" "from 14 to 4pm"."""
    assert read_times(sentence, source, target) == read


@pytest.mark.unit
def test_a_time_is_read_into_french_as_french_writes_it():
    """Read as "21:00 h" and "21:30 h", the model had written "21:00 huit" and "21:30 h 30 h 30"
    (benchmarks/time_forms.py)."""
    assert read_times("We open at 8am, lunch at 12 pm, close at 12 a.m.", "en", "fr") == (
        "We open at 8 h, lunch at 12 h, close at 0 h."
    )
    assert read_times("Dinner at 9:30 p.m.", "en", "fr") == "Dinner at 21 h 30."


@pytest.mark.unit
def test_french_spaced_minutes_are_read_a_word_shorter():
    """ "à 18 h 30" had lost its hour ("close to 30"); read as "6:30pm", two words shorter, its
    alignment keeps the words read (restored cannot pair them)."""
    assert read_times("Rendez-vous à 14 h 30 demain.", "fr", "en") == "Rendez-vous à 2:30pm demain."


@pytest.mark.unit
def test_the_alignment_has_the_words_the_user_wrote():
    written, read = "Opens at 9 am.", "Opens at 9:00 h."
    alignment = WordAlignment(
        read.split(), ["Öffnet", "um", "9:00", "Uhr."], [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    )
    assert restored(alignment, read, written, "en").source_words == written.split()
    part = WordAlignment(["Opens", "at"], ["Öffnet", "um"], [[1, 0], [0, 1]])  # a part of a long sentence: as it is
    assert restored(part, read, written, "en") is part


@pytest.mark.unit
def test_words_read_otherwise_share_the_attention_they_received():
    """ "3:45 pm" read "15 h 45": the table and JSON had shown "15 h 45", not the user's words."""
    written, read = "at 3:45 pm .", "at 15 h 45 ."
    weights = np.array([[0.1, 0.2, 0.3, 0.4, 0.0], [0.5, 0.0, 0.0, 0.0, 0.5]], np.float32)
    alignment = restored(WordAlignment(read.split(), ["à", "15h45"], weights), read, written, "en")
    assert alignment.source_words == written.split()
    np.testing.assert_allclose(alignment.weights, [[0.1, 0.45, 0.45, 0.0], [0.5, 0.0, 0.0, 0.5]])
    # read words the user did not write give their attention to the next word written
    alignment = restored(WordAlignment(["a", "b", "c"], ["x"], np.array([[0.2, 0.3, 0.5]])), "a b c", "a c", "en")
    assert alignment.source_words == ["a", "c"]
    np.testing.assert_allclose(alignment.weights, [[0.2, 0.8]])


@pytest.mark.system
def test_times_keep_their_hour_with_the_shipped_models():
    """ "9 am" had become "21 Uhr", "um 9 Uhr" "at 9pm" and "um 14 Uhr" "at 9pm"; a range's first
    time had kept its clock."""
    into_german = attn("translate", "-f", "jsonl", "The shop opens at 9 am and closes at 6 pm.").stdout.decode()
    record = json.loads(into_german)
    assert "9:00" in record["translation"] and "18:00" in record["translation"] and "21" not in record["translation"]
    assert record["source_words"] == "The shop opens at 9 am and closes at 6 pm.".split()
    into_english = attn("translate", "-s", "de", "Der Laden öffnet um 9 Uhr und schließt um 14 Uhr.").stdout.decode()
    assert "9am" in into_english and "2pm" in into_english
    ranges = attn("translate", "Office hours are 2-4 pm.").stdout.decode()  # "2-4 Uhr" before
    assert "14" in ranges and "16" in ranges
    ranges = attn("translate", "-s", "de", "Das Büro ist von 9 bis 17 Uhr geöffnet.").stdout.decode()
    assert "9am" in ranges and "5pm" in ranges


@pytest.mark.unit
def test_times_read_into_french_are_set_aside_from_english_only():
    """ "at 7:45 p.m." read "à 19 h 45" had come out "à 19, 45"; set aside, it is copied whole."""
    read = read_times("The bus leaves at 7:45 p.m. and at 9 pm, or 10-11 am.", "en", "fr")
    assert [read[a:b] for a, b in time_spans(read, "en", "fr")] == ["19 h 45", "21 h", "10 h", "11 h"]
    written = "Open at 21h30, not at 21:30 or 2 heures."
    assert [written[a:b] for a, b in time_spans(written, "en", "fr")] == ["21h30"]
    assert time_spans("Der Zug fährt um 9 h.", "de", "fr") == [] and time_spans("at 9h", "en", "de") == []


@pytest.mark.system
def test_a_time_read_into_french_keeps_its_minutes_with_the_shipped_model():
    translation = attn("translate", "-t", "fr", "The bus leaves at 7:45 p.m.").stdout.decode()
    assert "19 h 45" in translation
