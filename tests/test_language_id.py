"""Language identification for `--from auto` and /detect, and picking a model by its languages."""

import pytest

from attn.runtime.errors import UsageError
from attn.runtime.language_id import detect_language

from .test_cli import attn


@pytest.mark.unit
@pytest.mark.parametrize(
    "text, language",
    [
        ("The file could not be opened.", "en"),
        ("Die Datei konnte nicht geöffnet werden.", "de"),
        ("Le fichier n'a pas pu être ouvert.", "fr"),
    ],
)
def test_detects_the_languages_of_the_models(text, language):
    detected, probability = detect_language(text, {"en", "de", "fr"})
    assert detected == language and 0.5 < probability <= 1.0


@pytest.mark.unit
def test_a_short_text_in_another_script_is_not_read_as_one_of_latin_languages():
    """The identifier gives "这是一个测试。" zh at 0.75 and "Это тест." ru at 0.47, below the open
    set's bar: they were detected as German and translated into U+FFFD."""
    assert detect_language("这是一个测试。", {"en", "de", "fr"})[0] == "zh"
    assert detect_language("Это тест.", {"en", "de", "fr"})[0] == "ru"
    assert detect_language("Москва is big, and it is old.", {"en", "de"})[0] == "en"


@pytest.mark.unit
def test_a_text_without_words_is_in_no_language():
    """A blank string in an auto-detected request was given a language at 33 %."""
    assert detect_language("  ", {"en", "de", "fr"}) == ("de", 0.0)
    assert detect_language("?!", {"en", "fr"})[1] == 0.0


@pytest.mark.unit
def test_a_detection_among_some_languages_leaves_the_others_known():
    assert detect_language("Das ist gut.", {"en", "de"})[0] == "de"
    assert detect_language("Le fichier est ouvert.", {"en", "fr"})[0] == "fr"  # was "en" at 100 %


@pytest.mark.unit
@pytest.mark.parametrize(
    "text, language",
    [
        ("Questo file non esiste.", "it"),
        ("Le fichier n'a pas pu être ouvert.", "fr"),
        ("Guten Morgen", "de"),
        ("Hallo", "en"),
    ],
)
def test_a_clear_other_language_is_named_and_an_unclear_text_stays_among_the_candidates(text, language):
    """Short or ambiguous text was given a language at any confidence."""
    assert detect_language(text, {"en", "de"})[0] == language  # "Hallo": no language is likely, so en or de


@pytest.mark.unit
def test_a_language_the_detector_does_not_know_is_refused():
    with pytest.raises(UsageError, match="knows none of sym"):
        detect_language("a0 b1", {"sym"})


@pytest.mark.system
def test_from_auto_says_what_it_detected():
    import attn.runtime as api

    def by_hand(text: str, source: str, target: str) -> bytes:  # the line as the languages given take it
        return (api.translate(text, source=source, target=target) + "\n").encode()

    detected = attn("translate", "--from", "auto", "The package contains the documentation.")
    assert detected.stdout == by_hand("The package contains the documentation.", "en", "de")
    assert detected.stderr.decode().startswith("attn: detected en (")
    german = attn("translate", "--from", "auto", "Das Paket enthält die Dokumentation.")
    assert german.stderr.decode().startswith("attn: detected de (")
    assert german.stdout == by_hand("Das Paket enthält die Dokumentation.", "de", "en")
    french = attn("translate", "--from", "auto", "Le fichier n'a pas pu être ouvert.")
    assert french.stderr.decode().startswith("attn: detected fr (")
    assert french.stdout == by_hand("Le fichier n'a pas pu être ouvert.", "fr", "en")
    into_french = attn("translate", "--from", "auto", "--to", "fr", "The package contains the documentation.")
    assert into_french.stdout == by_hand("The package contains the documentation.", "en", "fr")
    # German has no model into French: the line goes through English, as --from de --to fr takes it
    german_into_french = attn("translate", "--from", "auto", "--to", "fr", "Das Paket enthält die Dokumentation.")
    assert german_into_french.stdout == by_hand("Das Paket enthält die Dokumentation.", "de", "fr")
    assert "paquet" in german_into_french.stdout.decode().lower()
    # a line no model can take to the target is written out unchanged, with a note (each line is detected alone)
    italian = attn("translate", "--from", "auto", "Questo file non esiste.")
    assert (
        italian.stdout.decode() == "Questo file non esiste.\n"
        and "detected it, which no model here" in italian.stderr.decode()
        and "(they read de, en, fr)" in italian.stderr.decode()  # the note names the languages served
    )


@pytest.mark.system
def test_a_source_language_alone_picks_the_one_model_that_fits():
    assert (
        attn("translate", "--from", "en", "The file could not be opened.").stdout
        == attn("translate", "The file could not be opened.").stdout
    )
    english = attn("translate", "--from", "de", "Das Paket enthält die Dokumentation.").stdout.decode()
    assert "package" in english.lower() and "documentation" in english.lower()
    from_french = attn("translate", "--from", "fr", "Cliquez sur le bouton pour enregistrer vos modifications.").stdout
    assert "button" in from_french.decode().lower()
    assert "no installed translate model into xx" in attn("translate", "--to", "xx", "a", check_rc=2).stderr.decode()


@pytest.mark.system
def test_a_missing_direction_that_two_installed_ones_chain_into_is_translated_through_english():
    """de→fr is not installed, de→en and en→fr are: `attn translate` goes through English; a
    command of one model (align) says so in its one-line error; a language no model reads gets
    no such hint."""
    through = attn("translate", "--from", "de", "--to", "fr", "Das Paket enthält die Dokumentation.").stdout
    english = attn("translate", "--from", "de", "--to", "en", "Das Paket enthält die Dokumentation.").stdout
    assert through == attn("translate", "--from", "en", "--to", "fr", english.decode().strip()).stdout
    error = attn("align", "--from", "de", "--to", "fr", "Hallo", "Bonjour", check_rc=2).stderr.decode()
    assert error.count("\n") == 1 and "no installed translate model from de into fr" in error
    assert "`attn translate --from de --to fr` translates through en" in error
    assert "through" not in attn("translate", "--from", "xx", "--to", "fr", "a", check_rc=2).stderr.decode()


@pytest.mark.system
def test_from_auto_on_no_input_says_nothing_and_text_already_in_the_target_comes_back():
    """`--from auto` said "detected de (33 % likely)" for an empty input, and English asked into
    English was refused with advice to pipe en→de→en."""
    nothing = attn("translate", "--from", "auto", stdin=b"")
    assert nothing.stdout == b"" and nothing.stderr == b""
    english = attn("translate", "--from", "auto", "--to", "en", "The file could not be opened.")
    assert english.stdout.decode() == "The file could not be opened.\n"
    assert "already in en" in english.stderr.decode() and "|" not in english.stderr.decode()


@pytest.mark.system
def test_a_document_without_from_is_read_in_the_language_it_is_written_in(tmp_path):
    """The default en→de model read a German page as English ("direkt am See See"): without --from
    and --to, a document of thirty words or more is read in the language its text is in, with a
    note when that is not the default direction's; a short one, or one given --to, as before."""
    german = tmp_path / "seite.html"
    german.write_text(
        "<p>Das Hotel liegt direkt am See und bietet helle Zimmer mit einem Balkon. Im Sommer kann man im "
        "See baden, im Winter wandern die Gäste durch den Wald. Das Frühstück wird jeden Morgen auf der "
        "Terrasse serviert.</p>"
    )
    read = attn("translate", "-i", str(german), "-o", str(tmp_path / "out.html"))
    assert read.stderr.decode() == f"attn: {german} reads as German (de): --from sets the language\n"
    import attn.runtime as api

    def by_hand(target: str) -> bytes:  # the page as --from de takes it
        return api.translate_document(german.name, german.read_bytes(), source="de", target=target)

    assert (tmp_path / "out.html").read_bytes() == by_hand("en")
    # with --to alone too, the whole text says the language: read text by text, a greeting stayed English
    into_french = attn("translate", "-t", "fr", "-i", str(german), "-o", str(tmp_path / "out.fr.html"))
    assert into_french.stderr.decode() == f"attn: {german} reads as German (de): --from sets the language\n"
    assert (tmp_path / "out.fr.html").read_bytes() == by_hand("fr")
    short = tmp_path / "laden.html"  # nineteen words: it had been read as English, unsaid
    short.write_text(
        "<p>Unser Geschäft ist von Montag bis Freitag geöffnet, und am Samstag sind wir bis zum Mittag für Sie da.</p>"
    )
    read_short = attn("translate", "-i", str(short), "-o", str(tmp_path / "laden.out.html"))
    assert read_short.stderr.decode() == f"attn: {short} reads as German (de): --from sets the language\n"
    shorter = tmp_path / "rechnung.md"  # six words in small letters: it had been "translated" from English
    shorter.write_text(
        "Vielen Dank für Ihre Nachricht. Die Rechnung ist im Anhang.\n\nKönnen Sie mir die Rechnung schicken?\n"
    )
    read_shorter = attn("translate", "-i", str(shorter), "-o", str(tmp_path / "rechnung.en.md"))
    assert read_shorter.stderr.decode() == f"attn: {shorter} reads as German (de): --from sets the language\n"
    three = tmp_path / "anruf.html"  # three words in small letters: German all the same
    three.write_text("<p>Bitte rufen Sie mich an.</p>")
    read_three = attn("translate", "-i", str(three), "-o", str(tmp_path / "anruf.en.html"))
    assert read_three.stderr.decode() == f"attn: {three} reads as German (de): --from sets the language\n"
    dishes = tmp_path / "menu.html"  # words in small letters of two languages: the identifier is unsure
    dishes.write_text("<p>Croissants, pain au chocolat and café au lait every morning.</p>")
    assert not attn("translate", "-i", str(dishes), "-o", str(tmp_path / "menu.de.html")).stderr
    names = tmp_path / "team.html"  # few words, and names: the default direction
    names.write_text(
        "<p>Our team: Stefan Braun, Jürgen Vogel, Günter Hoffmann, Sabine Krüger. Office: Königsallee 12.</p>"
    )
    assert not attn("translate", "-i", str(names), "-o", str(tmp_path / "team.de.html")).stderr
    english = tmp_path / "page.html"
    english.write_text(
        "<p>" + " ".join(["The hotel is right on the lake and offers bright rooms with a balcony."] * 3) + "</p>"
    )
    assert not attn("translate", "-i", str(english), "-o", str(tmp_path / "de.html")).stderr  # no note: the default
    catalog = tmp_path / "labels.po"  # a catalog's messages are in its source language, however they read
    catalog.write_text(
        "".join(
            f'msgid "{word} Status Server Export"\nmsgstr ""\n\n'
            for word in ["Name", "Admin", "Start", "Stop", "Login", "Konto", "Hilfe", "Ende"]
        )
    )
    assert not attn("translate", "-i", str(catalog), "-o", str(tmp_path / "labels.de.po")).stderr


@pytest.mark.system
def test_a_short_html_text_is_read_in_its_language_as_its_words_alone_would_be():
    """`attn translate --html -t fr "Je suis <b>fatigué</b>."` had come out in English ("I'm
    <b>tired</b>."), and a German fragment into German had been "translated" from English ("Es ist
    <i>sehr</i> gut."): read all together as a document at the document's sureness, a fragment of
    a few words had been read in the usual source; now as its words would be on a line."""
    french = attn("translate", "--html", "-t", "fr", "Je suis <b>fatigué</b>.", "Il fait froid.")
    assert french.stdout.decode() == "Je suis <b>fatigué</b>.\nIl fait froid.\n"
    german = attn("translate", "--html", "<p>Das ist <i>sehr</i> gut.</p>")
    assert german.stdout.decode() == "<p>Das ist <i>sehr</i> gut.</p>\n"
    assert "reads as German (de)" in german.stderr.decode()
    from_german = attn("translate", "--html", "-t", "fr", "Ich bin <b>müde</b>.").stdout.decode()
    assert "<b>" in from_german and "bin" not in from_german and "Ich" not in from_german
    english = attn("translate", "--html", "<p>Open <b>File</b>.</p>")  # short English stays English
    assert "Open" not in english.stdout.decode() and not english.stderr
    from attn.runtime.misread import document_language

    # a page of several texts, and one of names alone, as before: the usual source unless surely another
    for page in (["Hôtel de la Gare", "Book now."], ["Stefan Braun, Jürgen Vogel, Sabine Krüger. Königsallee 12"]):
        assert document_language(page, ["en", "de", "fr"], "en") == "en", page


@pytest.mark.system
def test_to_alone_into_french_detects_german_and_keeps_short_english_as_english():
    """`--help` said "--to alone detects the source", but only --to en did: German given with -t fr
    was read as English ("… le tre de Zeit für d'as Treffen.")."""
    run = attn("translate", "-t", "fr", "Ich habe heute leider keine Zeit für das Treffen.", "Save")
    assert run.stderr.decode() == "attn: detected de (1 input), en (1 input)\n"
    german, english = run.stdout.decode().splitlines()
    assert "Zeit" not in german and english == attn("translate", "-s", "en", "-t", "fr", "Save").stdout.decode().strip()


@pytest.mark.system
def test_align_reads_the_source_language_as_translate_reads_a_line():
    """`attn align -s auto` had said "no installed translate model from auto" and `--to en` alone
    "several installed translate models fit", though their help promises detection (a newcomer's
    trial): the pair is now read from the source sentence, as a line's."""
    import json

    for options, source, target, pair in (
        (["-s", "auto"], "Ich bin müde.", "I am tired.", ("de", "en")),
        (["--to", "en"], "Je suis fatigué.", "I'm tired.", ("fr", "en")),
        (["--to", "fr"], "She is eating.", "Elle mange.", ("en", "fr")),
    ):
        record = json.loads(attn("align", *options, "-f", "jsonl", source, target).stdout)
        given = json.loads(attn("align", "-s", pair[0], "-t", pair[1], "-f", "jsonl", source, target).stdout)
        assert record == given
    # with --model, among the languages it reads (a German sentence had been read as German for fr-en)
    record = json.loads(
        attn("align", "-m", "fr-en", "-s", "auto", "-f", "jsonl", "Je suis fatigué.", "I'm tired.").stdout
    )
    assert record == json.loads(
        attn("align", "-s", "fr", "-t", "en", "-f", "jsonl", "Je suis fatigué.", "I'm tired.").stdout
    )
