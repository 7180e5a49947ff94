"""Text as people have it: sentences within a line, paragraphs of wrapped lines."""

import json

import pytest

from attn.cli.paragraphs import BLANK, Paragraphs
from attn.runtime.sentences import mark_apart, split_sentences

from .conftest import installed_translator, pair_fixture_rows
from .test_cli import attn


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, parts",
    [
        ("- I think so.", ["-", "I think so."]),
        ("— Oui, dit-il.", ["—", "Oui, dit-il."]),
        ("-- I think so.", ["--", "I think so."]),
        ("•  Two spaces.", ["•", "Two spaces."]),
        ("-5 degrees", ["-5 degrees"]),  # no space: a minus, or a word
        ("—Oui.", ["—Oui."]),
        ("Well - no.", ["Well - no."]),
        ("* ", ["* "]),
    ],
)
def test_a_mark_that_opens_a_sentence_is_read_apart_from_it(sentence, parts):
    assert mark_apart(sentence) == parts


@pytest.mark.system
@pytest.mark.parametrize("pair", [("en", "de"), ("de", "en"), ("en", "fr"), ("fr", "en")])
def test_a_dialogue_line_is_translated_as_its_sentence_alone(pair):
    """Read with its dash, a sentence was translated otherwise than alone in a quarter of the
    everyday sentences: "- I think so." → "- ich denke das.", "- Il - Il a oublié ses clés…";
    now the dash opens the sentence's own translation (news-dev's dialogue lines: BLEU up in each
    direction, `python -m benchmarks.dev_readings --rule marks`)."""
    translator = installed_translator(pair)
    sources = [row.source for probe in ("everyday", "everyday2") for row in pair_fixture_rows(pair, probe + "-{}.tsv")]
    alone = translator.translate(sources)
    dashed = translator.translate(["- " + source for source in sources])
    for plain, marked in zip(alone, dashed):  # another CPU's rounding may decide a near tie otherwise
        assert marked[0].text == "- " + plain[0].text or marked[0].score == pytest.approx(plain[0].score, abs=1e-3)


@pytest.mark.unit
def test_sentences_keep_every_word_and_cut_only_between_words():
    text = "Click Tools - Options. The dialog opens, e.g. for version 1.2.3 of libfoo. See www.example.org now."
    sentences = split_sentences(text, "en")
    assert sentences == [
        "Click Tools - Options.",
        "The dialog opens, e.g. for version 1.2.3 of libfoo.",
        "See www.example.org now.",
    ]
    assert split_sentences("One sentence, no break", "en") == ["One sentence, no break"]
    assert split_sentences("Wie geht's? Gut, danke.", "de") == ["Wie geht's?", "Gut, danke."]
    for text in ["a.b.c. d", "  Spaces.   Around.  ", "…", "Version 2.0.1. Next."]:
        assert " ".join(split_sentences(text, "en")).split() == text.split()


@pytest.mark.unit
@pytest.mark.parametrize(
    "text, language",
    [
        ("Please contact Ms. Lee tomorrow.", "en"),  # "Ms." | "Lee tomorrow." had lost the name
        ("Battery life: approx. 10 hours, incl. standby.", "en"),
        ("Die Lieferung kostet inkl. Versand 5 Euro.", "de"),
        ("Am 3. Jan. 2025 beginnt der Kurs.", "de"),
        ("Der 2. Stock ist im 21. Jahrhundert gebaut.", "de"),  # ordinals after an article: "Der 2." | "Stock …"
        ("Heute ist mein 30. Geburtstag.", "de"),
        ("Das 3. und 4. Kapitel fehlen.", "de"),  # an ordinal after another and "und"
        ("Am 2. Tag besuchten wir den 1. Platz.", "de"),  # "am", "den" and an ordinal before a noun
        ("See Chap. 7 for the list.", "en"),  # an abbreviation the model is given a reading of
        ("Rendez-vous avec Mme. Dupont vers 10 heures.", "fr"),
        ("J'ai vu M. Dupont hier.", "fr"),
        ("It runs between Aug. 21-Sept. 3 in Berlin.", "en"),  # a month's short form before its day
        ("They met Dan J. Fogelman there.", "en"),  # an initial
    ],
)
def test_no_cut_after_an_abbreviation_or_a_day_before_its_month(text, language):
    assert split_sentences(text, language) == [text]
    assert split_sentences(f"{text} Then we left.", language) == [text, "Then we left."]


@pytest.mark.unit
def test_a_german_number_ends_its_sentence_after_another_word_or_am():
    assert split_sentences("Er kam im Jahr 2001. Dann ging er.", "de") == ["Er kam im Jahr 2001.", "Dann ging er."]
    assert split_sentences("Wir kamen am 2. Dann gingen wir.", "de") == ["Wir kamen am 2.", "Dann gingen wir."]
    assert split_sentences("Wir sehen uns am 3. Morgen schreibe ich.", "de") == [
        "Wir sehen uns am 3.",
        "Morgen schreibe ich.",
    ]
    assert split_sentences("Wir sehen uns Montag, den 2. Bis dann!", "de") == [
        "Wir sehen uns Montag, den 2.",
        "Bis dann!",
    ]


@pytest.mark.unit
def test_a_month_written_whole_ends_its_sentence_before_a_number():
    assert split_sentences("We met in March. 3 people came.", "en") == ["We met in March.", "3 people came."]
    assert split_sentences("Ils étaient sept. 3 sont partis.", "fr") == ["Ils étaient sept.", "3 sont partis."]


@pytest.mark.unit
def test_a_word_of_the_language_or_a_number_before_a_month_name_ends_its_sentence():
    """A list for all languages had held French "est" and "vol", and read "42. May" as a date."""
    assert split_sentences("Je sais où il est. Demain je pars.", "fr") == ["Je sais où il est.", "Demain je pars."]
    assert split_sentences("The answer is 42. May I ask why?", "en") == ["The answer is 42.", "May I ask why?"]


@pytest.mark.unit
def test_a_cut_inside_a_word_joins_only_its_two_pieces():
    """One cut inside a word ("file.Then") switched splitting off for the whole paragraph."""
    text = "Run the script. It reads config.{guess,sub} first. Then it writes the file.Then it stops. Done."
    assert split_sentences(text, "en") == [
        "Run the script.",
        "It reads config.{guess,sub} first.",
        "Then it writes the file.Then it stops.",
        "Done.",
    ]


@pytest.mark.unit
def test_paragraphs_unwrap_lines_and_keep_blank_lines():
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    items = list(grouper.feed(["", "first line", "  wrapped   here", "", "", "second", "  "])) + list(grouper.close())
    assert items == [BLANK, "first line wrapped here", BLANK, BLANK, "second", BLANK]
    grouper = Paragraphs(max_chars=1000)
    assert list(grouper.feed(["no blank line at the end"])) + list(grouper.close()) == ["no blank line at the end"]


@pytest.mark.unit
def test_a_list_an_address_and_a_signature_keep_their_lines():
    """--paragraphs had run them into one line ("Agenda: - Q1 results - Budget 1. Open the app")."""
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    lines = ["Agenda:", "- Q1 results", "- Budget 2025", "1. Open the app", "", "Thanks,", "Tom Miller", "ACME GmbH"]
    lines += ["", "Best regards,", "Tom Baker", "tom.baker@mailbox.org"]  # an address opens in small letters
    items = list(grouper.feed(lines)) + list(grouper.close())
    assert items == [
        "Agenda:",
        "- Q1 results",
        "- Budget 2025",
        "1. Open the app",
        BLANK,
        "Thanks,\nTom Miller",  # a closing and its name: one text of two lines (runtime/mail.py signed_names)
        "ACME GmbH",
        BLANK,
        "Best regards,\nTom Baker",
        "tom.baker@mailbox.org",
    ]
    # a German closing has no comma: "Mit freundlichen Grüßen Jürgen Müller" had become "Friendly Greetings"
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    assert list(grouper.feed(["Mit freundlichen Grüßen", "Jürgen Müller"])) + list(grouper.close()) == [
        "Mit freundlichen Grüßen\nJürgen Müller"
    ]
    # a signature's lines after a closing, a long one among them ("Abgesehen von Jane Doe Kundendienst Phone: …")
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    lines = ["See you on Monday, we will need the report for the audit then.", "Kind regards,", "Jane Doe"]
    lines += ["Customer Service", "Phone: +44 20 7946 0958"]
    assert list(grouper.feed(lines)) + list(grouper.close()) == [
        "See you on Monday, we will need the report for the audit then.",
        "Kind regards,\nJane Doe",
        "Customer Service",
        "Phone: +44 20 7946 0958",
    ]
    # a sentence wrapped around a line that reads as a closing stays one
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    lines = ["We would like to say a big", "thank you,", "to all the volunteers who came."]
    assert list(grouper.feed(lines)) + list(grouper.close()) == [" ".join(lines)]
    # a sentence wrapped over two short lines stays one ("Meeting moved to" / "Friday at 3 pm.")
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    assert list(grouper.feed(["Meeting moved to", "Friday at 3 pm."])) + list(grouper.close()) == [
        "Meeting moved to Friday at 3 pm."
    ]
    # an address after the line that introduces it with a colon: each a line ("… to this address:
    # Example GmbH Hauptstraße 5 10115 Berlin" had been one); a sentence wrapped after a colon, and
    # code whose lines end with colons, are not addresses
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    lines = ["Please send the parcel to this address:", "Example GmbH", "Hauptstraße 5", "10115 Berlin", ""]
    lines += ["The three options we discussed at the meeting are:", "red, green and blue, in that order", ""]
    lines += ["if ready:", "    start()", "else:", "    wait()"]
    assert list(grouper.feed(lines)) + list(grouper.close()) == [
        *lines[:4],
        BLANK,
        "The three options we discussed at the meeting are: red, green and blue, in that order",
        BLANK,
        "if ready: start() else: wait()",
    ]
    # a German date that opens the next line goes on its sentence; a list of dates stays a list
    grouper = Paragraphs(max_chars=1000, notify=pytest.fail)
    lines = ["Bitte überweisen Sie den offenen Betrag bis zum", "15. April auf unser Konto.", ""]
    lines += ["1. Januar: Neujahr", "6. Januar: Heilige Drei Könige"]
    assert list(grouper.feed(lines)) + list(grouper.close()) == [
        "Bitte überweisen Sie den offenen Betrag bis zum 15. April auf unser Konto.",
        BLANK,
        "1. Januar: Neujahr",
        "6. Januar: Heilige Drei Könige",
    ]


@pytest.mark.unit
def test_a_paragraph_without_end_is_closed_at_the_limit():
    notes = []
    grouper = Paragraphs(max_chars=10, notify=notes.append)
    items = list(grouper.feed(["abcdef", "ghijkl", "mn"])) + list(grouper.close())
    assert items == ["abcdef ghijkl", "mn"] and len(notes) == 1 and "line 2" in notes[0]


@pytest.mark.integration
def test_a_line_of_sentences_is_translated_sentence_by_sentence(reverse_model):
    from attn.runtime.loaded_model import LoadedModel
    from attn.runtime.translation import TextOptions

    translator = LoadedModel(reverse_model)
    line = "a0 b1. c2 d3 e0."
    [[joined]] = translator.translate([line])
    alone = [t[0] for t in translator.translate(["a0 b1.", "c2 d3 e0."], text_options=TextOptions(sentences=False))]
    assert joined.text == " ".join(t.text for t in alone)
    assert joined.alignment.source_words == line.split()
    blocks = [(row, column) for row, column, _ in joined.alignment.parts]
    assert blocks == [(0, 0), (len(alone[0].alignment.target_words), 2)]
    [[whole]] = translator.translate([line], text_options=TextOptions(sentences=False))
    assert len(whole.alignment.parts) == 1


@pytest.mark.integration
def test_a_text_of_several_lines_keeps_its_line_breaks(reverse_model):
    """A text with line breaks (LibreTranslate's q, the Python API's text, a catalog's message) came
    back as one run of sentences: each line is translated as it is alone, and the breaks, blank
    lines and lines without words stay where they were."""
    from attn.runtime.loaded_model import LoadedModel

    translator = LoadedModel(reverse_model)
    [[text]] = translator.translate(["a0 b1.\r\n\nc2 d3. e0 f1.\n---\ng2\n"])
    alone = [found[0].text for found in translator.translate(["a0 b1.", "c2 d3. e0 f1.", "g2"])]
    assert text.text == f"{alone[0]}\r\n\n{alone[1]}\n---\n{alone[2]}"  # each break as it was
    assert text.alignment.source_words == ["a0", "b1.", "c2", "d3.", "e0", "f1.", "---", "g2"]
    assert text.alignment.target_words == text.text.split()
    [[indented]] = translator.translate(["a0 b1.\n    c2 d3."])
    assert indented.text.split("\n")[1] == "    " + translator.translate(["c2 d3."])[0][0].text
    n_best = translator.default_options(beam=3, n_best=3)
    one_searched = translator.translate(["a0 b1.\n---"], n_best)[0]  # one searched part: its n-best
    assert [t.text for t in one_searched] == [f"{t.text}\n---" for t in translator.translate(["a0 b1."], n_best)[0]]


@pytest.mark.integration
def test_the_n_best_of_a_text_of_several_parts_are_choices_of_its_parts_translations(reverse_model):
    """A text of several sentences or lines had one translation however many were asked (`-n`,
    the server's `alternatives`): its n best are now distinct choices of one of each line's n-best,
    the first the best of each."""
    from attn.runtime.loaded_model import LoadedModel

    translator = LoadedModel(reverse_model)
    n_best = translator.default_options(beam=3, n_best=4)
    lines = ["a0 b1 c2.", "d3 e0 f1 g2."]
    [found] = translator.translate(["\n".join(lines)], n_best)
    each = [[t.text for t in alternatives] for alternatives in translator.translate(lines, n_best)]
    assert len(each[0]) * len(each[1]) >= 4 and len(found) == 4
    assert found[0].text.split("\n") == [each[0][0], each[1][0]]
    assert all(t.text.split("\n")[0] in each[0] and t.text.split("\n")[1] in each[1] for t in found)
    assert len({t.text for t in found}) == 4


@pytest.mark.integration
def test_paragraph_mode_keeps_paragraphs_and_blank_lines(reverse_model):
    text = "\na0 b1\nc2\n\n\nd3 e0.\nf1 g2.\n"
    out = attn("translate", "-m", str(reverse_model), "--paragraphs", stdin=text).stdout.decode()
    expected = attn("translate", "-m", str(reverse_model), "a0 b1 c2", "d3 e0. f1 g2.").stdout.decode().splitlines()
    assert out.split("\n") == ["", expected[0], "", "", expected[1], ""]
    pharaoh = attn("translate", "-m", str(reverse_model), "--paragraphs", "-f", "pharaoh", stdin=text).stdout.decode()
    assert [line.split(" ||| ")[0] for line in pharaoh.split("\n")] == out.split("\n")  # lines line up
    records = attn("translate", "-m", str(reverse_model), "--paragraphs", "-f", "jsonl", stdin=text).stdout.decode()
    records = [json.loads(line) for line in records.splitlines()]
    assert [r["source"] for r in records] == ["a0 b1 c2", "d3 e0. f1 g2."]
    assert records[1]["alignment"] is None and len(records[1]["alignment_parts"]) == 2
    # arguments' lines are lines too ("$(cat mail.txt)" had been one paragraph), each argument its own
    argued = attn("translate", "-m", str(reverse_model), "--paragraphs", text.strip("\n"), "a0").stdout.decode()
    alone = attn("translate", "-m", str(reverse_model), "a0").stdout.decode()
    assert argued == out.removeprefix("\n") + alone


@pytest.mark.unit
def test_a_heat_map_of_several_sentences_draws_their_blocks():
    import numpy as np

    from attn.cli.heatmap import MAX_DRAWN_WORDS, heatmap_alignment
    from attn.runtime.alignment import WordAlignment
    from attn.runtime.chunking import join_alignments

    first = WordAlignment(["a", "b"], ["x"], np.array([[0.25, 0.75]], np.float32))
    second = WordAlignment(["c"], ["y", "z"], np.array([[1.0], [1.0]], np.float32))
    drawn = heatmap_alignment(join_alignments([first, second]), 1, notify=pytest.fail)
    assert drawn.source_words == ["a", "b", "c"] and drawn.target_words == ["x", "y", "z"]
    assert drawn.weights.tolist() == [[0.25, 0.75, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    wide = WordAlignment(["w"] * MAX_DRAWN_WORDS, ["v"], np.full((1, MAX_DRAWN_WORDS), 1 / MAX_DRAWN_WORDS, np.float32))
    notes = []
    assert heatmap_alignment(join_alignments([wide, second]), 4, notes.append) is wide
    assert "input 4" in notes[0]


@pytest.mark.unit
def test_a_translation_of_several_lines_prints_on_one_line_without_double_spaces():
    from attn.cli.formats.text import one_line

    assert one_line("Bonjour !\n\nMerci.\n") == "Bonjour ! Merci."


@pytest.mark.integration
def test_an_argument_wrapped_inside_its_sentences_gets_a_hint_to_use_paragraphs(reverse_model):
    """Its lines are translated each on its own: "I have attached the updated / schedule …" lost a word."""
    wrapped = "a0 b1 c2 d3 e0 f1 g2 a0 b1 c2 d3\ne0 f1 g2."
    hint = attn("translate", "-m", str(reverse_model), wrapped).stderr.decode()
    assert "argument 1 has lines wrapped inside its sentences" in hint and "--paragraphs" in hint
    whole = "a0 b1 c2 d3 e0 f1 g2 a0 b1 c2 d3.\ne0 f1 g2."  # two sentences, a line each: no hint
    assert attn("translate", "-m", str(reverse_model), whole).stderr == b""
    assert attn("translate", "-m", str(reverse_model), "--paragraphs", wrapped).stderr == b""
