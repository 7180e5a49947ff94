"""The Python API (runtime/api.py) used as docs/python.md shows it, on the shipped models."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import attn.runtime as attn

from .test_cli import attn as attn_command

pytestmark = pytest.mark.system


def cli_record(*arguments: str) -> dict:
    """The first jsonl record `attn translate` prints."""
    return json.loads(attn_command("translate", "-f", "jsonl", *arguments).stdout.decode().splitlines()[0])


def test_a_result_is_what_the_command_line_prints():
    translator = attn.load("en-de")
    result = translator.translate("The file could not be opened.", beam=5, n_best=3)
    record = cli_record("-n", "3", "The file could not be opened.")
    assert result.text == record["translation"] and result.score == pytest.approx(record["score"], abs=1e-5)
    assert [t.text for t in result.n_best] == [best["text"] for best in record["n_best"]]
    assert result.alignment.pharaoh() == record["pharaoh"]
    assert (result.source, result.target) == ("en", "de")
    np.testing.assert_allclose(result.alignment.weights.sum(axis=1), 1.0, atol=1e-5)


def test_lists_keep_their_order_and_each_text_is_detected():
    texts = ["Ich bin müde.", "Je suis fatigué.", "I am tired.", ""]
    results = attn.load().translate(texts, target="en")
    assert [r.source for r in results[:3]] == ["de", "fr", "en"]
    assert results[0].text == attn_command("translate", "-s", "de", "Ich bin müde.").stdout.decode().strip()
    assert results[1].text == attn_command("translate", "-s", "fr", "Je suis fatigué.").stdout.decode().strip()
    assert results[2].text == "I am tired." and results[3].text == ""
    assert attn.translate(texts[:2], target="en") == [results[0].text, results[1].text]


def test_a_short_text_is_read_as_english_unless_the_identifier_is_sure_of_another():
    """By its likeliest language, "Open File." was German at 0.48 (given back untranslated) and
    "Hi Thomas," French ("Hi Tomas,"); the command line read them as English, as the API now does.
    A source "auto" is detection, as on the command line and the server."""
    translator = attn.load()
    results = translator.translate(["Open File.", "Hi Thomas,", "Ich bin heute sehr müde."])
    assert [(r.source, r.target) for r in results] == [("en", "de"), ("en", "de"), ("de", "en")]
    assert "Thomas" in results[1].text and results[1].text != "Hi Thomas,"
    assert translator.translate("Open File.", source="auto", target="fr").source == "en"
    # a short text the identifier is sure of, whose words in small letters (if any) read so too, is
    # read so, as the server read it ("Das ist gut." had been read as English into French:
    # "L'habitude."); not one whose name alone is German
    texts = [
        "Das ist gut.",
        "Speichern unter",
        "Frohe Weihnachten",
        "C'est bien.",
        "Kind regards, Hans-Jürgen Großmann",
    ]
    assert [r.source for r in translator.translate(texts, target="fr")] == ["de", "de", "de", "fr", "en"]


def test_a_source_auto_without_a_target_is_what_from_auto_prints():
    """`source="auto"` had been None: "Die Datei ist offen." (two words in small letters, read as
    English) came back unchanged, where `attn translate --from auto` translates it from German."""
    texts = ["Die Datei ist offen.", "Open File."]
    printed = attn_command("translate", "--from", "auto", *texts).stdout.decode().splitlines()
    results = attn.load().translate(texts, source="auto")
    assert [result.text for result in results] == printed and results[0].source == "de"


def test_german_to_french_goes_through_english_with_a_composed_alignment():
    result = attn.load().translate("Guten Morgen, wie geht es dir?", source="de", target="fr")
    english = attn.translate("Guten Morgen, wie geht es dir?", source="de", target="en")
    assert result.text == attn.translate(english, source="en", target="fr")
    assert result.alignment.source_words == "Guten Morgen, wie geht es dir?".split()
    assert result.alignment.target_words == result.text.split()
    np.testing.assert_allclose(result.alignment.weights.sum(axis=1), 1.0, atol=1e-5)


def test_summaries_and_wrong_settings():
    article = (
        "The city council approved a new budget on Tuesday that doubles spending on public transport. "
        "The plan adds three bus lines and extends the tram network to the airport by 2028."
    )
    assert attn.summarize(article) == attn_command("summarize", stdin=article).stdout.decode().strip()
    assert (
        attn.summarize(article, headline=True)
        == attn_command("summarize", "--headline", stdin=article).stdout.decode().strip()
    )
    one = attn.load("summarize").summarize(article, sentences=1)
    assert len(one.sentences) == 1 and one.sentences[0] in article
    with pytest.raises(ValueError, match="sentences"):
        attn.load("summarize").summarize(article, sentences=0)
    with pytest.raises(ValueError, match="beam"):
        attn.load("en-de").translate("Hello.", beam=0)
    # a value out of range is named by its keyword, not the command line's option ("length-penalty")
    with pytest.raises(ValueError, match=r"^length_penalty must be a number"):
        attn.load("en-de").translate("Hello.", length_penalty=float("nan"))
    with pytest.raises(ValueError, match=r"^n_best must be an integer"):
        attn.load("summarize").summarize(article, n_best=0)
    with pytest.raises(ValueError, match="sample=True gives one output per text: n_best=3"):
        attn.load("en-de").translate("Hello.", sample=True, n_best=3)  # had given one, said only to the logger
    sampled = attn.load("summarize").summarize(article, sample=True, seed=1)  # had been a TypeError from inside
    assert sampled.text and len(sampled.n_best) == 1
    with pytest.raises(TypeError, match="unknown setting 'lenght_penalty'; did you mean 'length_penalty'"):
        attn.load("en-de").translate("Hello.", lenght_penalty=1.0)  # it named SearchOptions.__init__
    with pytest.raises(TypeError, match="summarize.. got an unknown setting 'beams'"):
        attn.load("summarize").summarize(article, beams=2)
    # a division by zero, a device that failed only at the first translation, an int "not iterable"
    with pytest.raises(ValueError, match="batch_size"):
        attn.load("en-de").translate("Hello.", batch_size=0)
    with pytest.raises(ValueError, match="batch_size"):
        attn.load("summarize").summarize(article, batch_size=-2)
    with pytest.raises(ValueError, match="threads"):
        attn.load("en-de", threads=-1)
    with pytest.raises(ValueError, match="device"):
        attn.load("en-de", device="tpu")
    with pytest.raises(TypeError, match="texts must be a str or a list of str"):
        attn.load("en-de").translate(5)
    with pytest.raises(TypeError, match=r"texts\[1\] must be a str, got NoneType"):
        attn.load("en-de").translate(["Hello.", None])
    with pytest.raises(TypeError, match="a language is a code or a name such as 'de' or 'German', got int"):
        attn.translate("Hello.", target=5)  # had failed on a missing `strip`
    # the one-call functions return text: settings they cannot show were dropped without a word
    with pytest.raises(ValueError, match="n-best"):
        attn.translate("Hello.", n_best=3)
    with pytest.raises(ValueError, match="translate_html writes one text per input"):
        attn.translate_html("<b>Hi</b> there.", n_best=2)  # had dropped it
    with pytest.raises(ValueError, match="translate_document writes one text per input"):
        attn.load("en-de").translate_document("film.srt", b"1\n00:00:01,000 --> 00:00:02,000\nHi.\n", n_best=2)
    with pytest.raises(TypeError, match=r"translate_html\(\) got an unknown setting 'nbest'"):
        attn.translate_html("<b>Hi</b> there.", nbest=2)  # had named translate()
    with pytest.raises(TypeError, match="translate_document takes the file's bytes, got str"):
        attn.translate_document("film.srt", "1\n00:00:01,000 --> 00:00:02,000\nHi.\n")
    assert attn.translate("Hello.", batch_size=4) and attn.translate_html("<b>Hi</b>.", batch_size=4)
    with pytest.raises(ValueError, match="batch_size must be an integer of at least 1"):
        attn.translate_html("<b>Hi</b>.", batch_size=0)
    with pytest.raises(ValueError, match="target is empty"):  # had said "a catalog of de …, not of "
        attn.load("en-de").translate_document("a.po", b'msgid ""\nmsgstr "Language: de\\n"\n', target=" ")
    for empty in ("", "  "):  # had said "no model here translates any language into any language"
        with pytest.raises(ValueError, match="source is empty: name a language"):
            attn.translate("Hello.", source=empty)
        with pytest.raises(ValueError, match="target is empty: name a language"):
            attn.load("en-de").translate("Hello.", target=empty)
    with pytest.raises(ValueError, match="sentences or headline"):
        attn.summarize(article, headline=True, sentences=3)


def test_a_direction_no_model_reaches_is_a_value_error():
    """It gave the text back unchanged, with a note that named no language."""
    with pytest.raises(ValueError, match=r"translates en into fr \(en→de\)"):
        attn.load("en-de").translate("Hello.", target="fr")
    with pytest.raises(ValueError, match="into xx"):
        attn.translate("Hello.", target="xx")
    assert attn.load("en-de").translate("Hello.", target="en").text == "Hello."  # already there
    with pytest.raises(ValueError, match="source and target are both de"):  # the text was given back
        attn.translate("Hallo.", source="de", target="German")


def test_the_command_line_does_not_import_the_api():
    loaded = subprocess.run(
        [sys.executable, "-c", "import attn.cli.app, sys; print('attn.runtime.api' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "False"


def test_a_document_goes_through_the_api_as_docs_python_shows(tmp_path):
    pytest.importorskip("docx")
    import docx

    from attn.runtime import load
    from attn.runtime.documents import read_document

    source = docx.Document()
    source.add_paragraph("The file could not be opened.")
    source.save(tmp_path / "report.docx")
    translator = load("en-de")
    document = read_document("report.docx", (tmp_path / "report.docx").read_bytes())
    translated = document.written(translator.translate(document.texts(), target="de"), language="de")
    (tmp_path / "report.de.docx").write_bytes(translated)
    [paragraph] = docx.Document(tmp_path / "report.de.docx").paragraphs
    assert paragraph.text == translator.translate("The file could not be opened.", target="de").text
    # in one call, and what written() refuses: a short list left a subtitle file half translated,
    # plain strings failed on an attribute, text for bytes too
    one_call = attn.translate_document("report.docx", (tmp_path / "report.docx").read_bytes(), target="de")
    assert read_document("report.docx", one_call).texts() == [paragraph.text]
    with pytest.raises(ValueError, match="1 texts, 0 translations"):
        document.written([])
    with pytest.raises(TypeError, match="not str"):
        document.written([paragraph.text])
    with pytest.raises(TypeError, match="the file's bytes"):
        read_document("film.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello.\n")
    # a catalog goes into its Language header's language (it was filled with German), as on the command line
    french = b'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "Save the file"\nmsgstr ""\n'
    [entry] = [
        entry for entry in read_document("fr.po", attn.translate_document("fr.po", french)).catalog if entry.msgid
    ]
    assert entry.msgstr == attn.translate("Save the file", target="fr")
    with pytest.raises(ValueError, match="a catalog of fr"):
        attn.translate_document("fr.po", french, target="de")


def test_html_comes_back_as_attn_translate_html_prints_it():
    """translate_html: one string per text, the tags placed as the command line places them."""
    lines = ['Click <b>Save</b> to keep your <a href="/h">changes</a>.', "<p>Opening hours<br>Monday to Friday</p>"]
    printed = attn_command("translate", "--html", "--from", "en", "--to", "fr", *lines).stdout.decode().splitlines()
    assert attn.translate_html(lines, "en", "fr") == printed
    single = attn.load("en-de").translate_html(lines[0])
    assert isinstance(single, str) and single.count("<b>") == 1 and '<a href="/h">' in single
    assert attn.translate_html('<p lang="en">The file could not be opened.</p>').startswith('<p lang="de">')


def test_html_inputs_are_each_read_in_one_language_as_translate_html_reads_them():
    """`attn translate --html` without --from had translated a German or French fragment as English
    (garbled: "Je ne Peux-Pas Ouvrir lecker-Parce-Löser"), and with --to read each text on its own,
    where a plain line and translate_html read the fragment's language."""
    lines = [
        "<p>Guten Morgen, wie geht es <i>dir</i> heute?</p>",
        "<p>The file could not be <b>opened</b>.</p>",
        "<p>Je suis très content de vous voir aujourd'hui.</p>",
    ]
    expected = attn.translate_html(lines, target="de")
    assert expected[0] == lines[0] and "<b>" in expected[1] and "Je suis" not in expected[2]
    for options in ((), ("--to", "de")):
        result = attn_command("translate", "--html", *options, *lines)
        assert result.stdout.decode().splitlines() == expected
        notes = result.stderr.decode()
        assert "input 1 reads as German (de), not English (en): the target language: written back" in notes
        assert "input 3 reads as French (fr), not English (en): translated from it" in notes and "input 2" not in notes
    # into English, which two languages reach, each line is still read as one: a German page of
    # four paragraphs had been read text by text, one of them as French (a review)
    page = "<p>Guten Morgen, wie geht es dir heute?</p><p>Vielen Dank für die Antwort.</p><p>Bonjour</p>"
    into_english = attn_command("translate", "--html", "--from", "auto", "--to", "en", *lines, page)
    assert into_english.stdout.decode().splitlines() == attn.translate_html([*lines, page], target="en")
    assert "Hello" not in into_english.stdout.decode().splitlines()[-1]  # "Bonjour" read as the page's German


def test_a_documents_texts_are_read_in_one_language_as_the_command_line_reads_them():
    """Each text was detected on its own: a cell or a line of a word or two read as German or French
    ("OK" put into English) and the page kept its `lang`; the notes numbered each language's
    inputs from 1."""
    page = '<html lang="en"><body><h1>Prices</h1><p>See you tomorrow at the station.</p><p>OK</p></body></html>'
    translated = attn.translate_html(page)
    assert translated.startswith('<html lang="de">') and "tomorrow" not in translated
    assert attn.translate_document("page.html", page.encode(), target="en") == page.encode()  # already English
    # a line's indentation comes back before its translation, its trailing spaces after it ("Hallo,"
    # for "Hello, " had run a text put together from parts into the next); a document's texts are
    # placed by their format
    assert attn.translate("   See you tomorrow.").startswith("   ") and not attn.translate("   See you.").startswith(
        "    "
    )
    lines = attn.translate("Hello.\n  Thank you.  \nBye").split("\n")
    assert attn.translate("Hello, \t").endswith(", \t") and lines[1].startswith("  ") and lines[1].endswith(".  ")
    markdown = attn.translate_document("a.md", b"   ![logo](logo.png) Welcome to our website.\n").decode()
    assert markdown.startswith("   ![") and not markdown.startswith("    ")  # four spaces: a code block
    with pytest.raises(ValueError, match="both de"):
        attn.translate_html("<p>Hallo</p>", source="de", target="German")
    notes = []
    translator = attn.load(notify=notes.append)
    translator.translate(["Ich bin müde.", "Je suis fatigué.", "The cat sleeps.", "I am tired."], target="en")
    assert [note for note in notes if "already in en" in note] == [
        "input 3: already in en: written out unchanged",
        "input 4: already in en: written out unchanged",
    ]


def test_a_control_character_is_read_as_a_space():
    """Read as the model's bytes, "The\\0file" had become "Dieabyte Datei" (a NUL in a server's JSON)."""
    spaced = attn.translate("The file could not be opened.", source="en", target="de")
    assert attn.translate("The\x00file could not be opened.", source="en", target="de") == spaced
    assert attn.translate("The\x07file could not be opened.", source="en", target="de") == spaced
    assert (
        attn.translate("The \x1b[31mfile\x1b[0m could not be opened.", source="en", target="de") == spaced
    )  # a colour


def test_a_no_break_space_is_read_as_a_space():
    """Read as bytes, "6\u00a0shekels" had come out "6\u00adshekels" (a soft hyphen inside)."""
    spaced = attn.translate("Le trajet coûte 6 shekels.", source="fr", target="en")
    assert attn.translate("Le trajet coûte 6\u00a0shekels.", source="fr", target="en") == spaced
    result = attn.load("fr-en").translate("Prix\u202f: 6\u00a0shekels.", source="fr", target="en")
    assert result.alignment.source_words == ["Prix", ":", "6", "shekels."]  # the words as written
