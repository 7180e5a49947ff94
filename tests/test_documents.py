"""Documents in and out (runtime/documents): each format's texts, and the file written back with
their translations, everything else as it was; damaged and hostile files refused in one line. A
stand-in translator writes each text in capitals, each word aligned to itself, so that what moves
is the format's doing; the shipped model's turn is at the end."""

from __future__ import annotations

import html
import io
import subprocess
import xml.dom.minidom
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from attn.runtime.alignment import WordAlignment
from attn.runtime.documents import DocumentError, read_document
from attn.runtime.documents.subtitles import shared

from .forked_cli import run_attn
from .test_hardening import ATTN

docx = pytest.importorskip("docx")
srt = pytest.importorskip("srt")


@dataclass
class Capitals:
    text: str
    alignment: WordAlignment


def capitals(texts: list[str]) -> list[Capitals]:
    found = []
    for text in texts:
        words = text.split()
        found.append(Capitals(text.upper(), WordAlignment(words, [w.upper() for w in words], np.eye(len(words)))))
    return found


def round_trip(name: str, data: bytes, language: str | None = None) -> bytes:
    document = read_document(name, data)
    return document.written(capitals(document.texts()), language)


@pytest.mark.unit
def test_an_html_page_keeps_its_end_tags_as_it_wrote_them():
    """HTML's optional end tags: a page that left them out had come back with `</td></td>` before
    `</table>` and `</p></p>` before `</body>`; one that wrote them keeps them."""
    page = "<html><body>\n<p>one\n<p>two\n<table><tr><td>a<td>b</table>\n<ul><li>x</li><li>y</ul>\n</body></html>\n"
    written = round_trip("page.html", page.encode()).decode()
    assert (
        written
        == "<html><body>\n<p>ONE\n<p>TWO\n<table><tr><td>A<td>B</table>\n<ul><li>X</li><li>Y</ul>\n</body></html>\n"
    )


@pytest.mark.unit
def test_a_phrase_marked_as_another_language_is_given_back_as_it_was():
    """`<span lang="it">pasta al pomodoro</span>` in an English page had been translated and
    declared German; content of the page's own language is translated and declared anew."""
    page = (
        '<html lang="en"><body><p>We ate <span lang="it">pasta al pomodoro</span> daily.</p><p lang="en-GB">Colour.</p>'
        '<main lang="fr"><p>Bonjour.</p></main></body></html>'  # a block: translated, whichever it declares
    )
    written = round_trip("page.html", page.encode(), "de").decode()
    assert written == (
        '<html lang="de"><body><p>WE ATE <span lang="it">pasta al pomodoro</span> DAILY.</p><p lang="de">COLOUR.</p>'
        '<main lang="de"><p>BONJOUR.</p></main></body></html>'
    )


@pytest.mark.unit
def test_a_text_file_keeps_its_blank_lines_windows_line_ends_and_byte_order_mark():
    data = "\ufeffone line\r\n\r\nanother line\r\n".encode()
    assert round_trip("notes.txt", data) == "\ufeffONE LINE\r\n\r\nANOTHER LINE\r\n".encode()
    for encoding in ("utf-16-le", "utf-16-be"):  # Notepad's "Unicode": written back in it, with its mark
        assert round_trip(
            "notes.txt", data.decode().encode(encoding)
        ) == "\ufeffONE LINE\r\n\r\nANOTHER LINE\r\n".encode(encoding)
    indented = "   an indented line\n\tand a tab \n".encode()  # lost before the translation
    assert round_trip("notes.txt", indented) == "   AN INDENTED LINE\n\tAND A TAB \n".encode()


@pytest.mark.unit
def test_subtitles_keep_numbering_timing_and_tags_and_a_cue_is_one_text():
    data = b"7\n00:00:01,000 --> 00:00:03,500\nI think we should\nleave <i>now</i>.\n\n8\n00:00:04,000 --> 00:00:05,000\nGood night!\n\n"
    document = read_document("film.srt", data)
    assert document.texts() == ["I think we should leave now.", "Good night!"]
    written = list(srt.parse(document.written(capitals(document.texts())).decode()))
    assert [(s.index, s.start.total_seconds(), s.end.total_seconds()) for s in written] == [
        (7, 1.0, 3.5),
        (8, 4.0, 5.0),
    ]
    assert written[0].content == "I THINK WE SHOULD\nLEAVE <i>NOW</i>."  # the line break where its words went
    # a cue with no text keeps its one blank line (srt had written two)
    empty = b"1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\nBye.\n\n"
    assert round_trip("film.srt", empty) == empty.replace(b"Bye", b"BYE")
    vtt = b"WEBVTT\n\nintro\n00:00:01.000 --> 00:00:02.500 align:start\nHello <b>world</b>.\n\nNOTE kept\n\n00:00:03.000 --> 00:00:04.000\nBye.\n"
    assert round_trip("film.vtt", vtt).decode() == (
        "WEBVTT\n\nintro\n00:00:01.000 --> 00:00:02.500 align:start\nHELLO <b>WORLD</b>.\n\nNOTE kept\n\n"
        "00:00:03.000 --> 00:00:04.000\nBYE.\n"
    )
    short = b"WEBVTT\n\n00:01.000 --> 00:02.500 line:0\nHello.\n\n1:02:03.000 --> 1:02:04.000\nBye.\n"
    assert round_trip("film.vtt", short).decode() == (  # each timing as the file wrote it, not in full
        "WEBVTT\n\n00:01.000 --> 00:02.500 line:0\nHELLO.\n\n1:02:03.000 --> 1:02:04.000\nBYE.\n"
    )


def subrip(cues: list[tuple[str, str, str]]) -> bytes:
    """A SubRip file of `cues` (start, end, text), numbered from 1."""
    return "".join(f"{n}\n{start} --> {end}\n{text}\n\n" for n, (start, end, text) in enumerate(cues, 1)).encode()


@pytest.mark.unit
def test_a_sentence_over_two_cues_is_read_whole_and_parted_where_its_cues_ended():
    """ "I have never seen" and "such a beautiful building." read apart had come out as "Ich habe
    noch nie gesehen" and "So ein schönes Gebäude."; cues that end a sentence, start another
    speaker's line or come after a pause stay apart."""
    cues = [
        ("00:00:01,000", "00:00:02,000", "I have never seen"),
        ("00:00:02,100", "00:00:03,000", "such a <i>beautiful</i> building."),
        ("00:00:04,000", "00:00:05,000", "Where are you"),
        ("00:00:05,100", "00:00:06,000", "- Here!"),  # another speaker
        ("00:00:07,000", "00:00:08,000", "We waited"),
        ("00:00:12,000", "00:00:13,000", "Then we left."),  # after a pause of four seconds
    ]
    data = subrip(cues)
    document = read_document("film.srt", data)
    assert document.texts() == [
        "I have never seen such a beautiful building.",
        "Where are you",
        "- Here!",
        "We waited",
        "Then we left.",
    ]
    written = list(srt.parse(document.written(capitals(document.texts())).decode()))
    assert [cue.content for cue in written] == [
        "I HAVE NEVER SEEN",
        "SUCH A <i>BEAUTIFUL</i> BUILDING.",
        "WHERE ARE YOU",
        "- HERE!",
        "WE WAITED",
        "THEN WE LEFT.",
    ]
    # where the alignment left a cue without a word, the translation is shared by the cues' lengths
    assert shared("Ich habe noch nie so ein schönes Gebäude gesehen.", [17, 26]) == [
        "Ich habe noch nie",
        "so ein schönes Gebäude gesehen.",
    ]


@pytest.mark.unit
def test_cues_of_other_speakers_overlapping_or_of_one_word_stay_apart_and_wrapped_ones_keep_their_tags():
    """A sign on screen over the dialogue, a `<v>` speaker's change and "So" / "what?" had been read
    as one sentence; cues each in `<i>` had left their last empty."""
    cues = [
        ("00:00:01,000", "00:00:02,000", "<i>I have never seen</i>"),
        ("00:00:02,100", "00:00:03,000", "<i>such a beautiful building.</i>"),
        ("00:00:05,000", "00:00:06,000", "{\\an8}POLICE STATION"),
        ("00:00:05,500", "00:00:07,000", "Where are you going?"),  # over the sign
        ("00:00:08,000", "00:00:09,000", "So"),
        ("00:00:09,100", "00:00:10,000", "what?"),
    ]
    data = subrip(cues)
    document = read_document("film.srt", data)
    assert document.texts() == [
        "I have never seen such a beautiful building.",
        "POLICE STATION",
        "Where are you going?",
        "So",
        "what?",
    ]
    # a translation whose cue ends the alignment left at its edge: shared by length, each cue's tag kept
    first = Capitals("ICH HABE NOCH NIE SO EIN SCHÖNES GEBÄUDE GESEHEN.", WordAlignment(["x"], ["y"], np.eye(1)))
    written = list(srt.parse(document.written([first, *capitals(document.texts()[1:])]).decode()))
    assert [cue.content for cue in written[:2]] == [
        "<i>ICH HABE NOCH NIE</i>",
        "<i>SO EIN SCHÖNES GEBÄUDE GESEHEN.</i>",
    ]
    vtt = (
        b"WEBVTT\n\n00:01.000 --> 00:02.000\n<v Alice>I think that\n\n00:02.100 --> 00:03.000\n<v Bob>you are right.\n"
    )
    assert read_document("talk.vtt", vtt).texts() == ["I think that", "you are right."]


def word_document() -> bytes:
    document = docx.Document()
    document.add_heading("Getting started", level=1)
    paragraph = document.add_paragraph("Click ")
    paragraph.add_run("Save").bold = True
    paragraph.add_run(" to keep your changes.")
    styled = document.add_paragraph("The ")
    styled.add_run("much").italic = True
    styled.add_run(" faster").italic = True  # runs of the same formatting are one span
    styled.add_run(" version.")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Open the menu.", "Good morning!"
    broken = document.add_paragraph("Line one.")
    broken.add_run().add_break()
    broken.add_run("Line two.")
    tabbed = document.add_paragraph("Name:")
    tabbed.add_run().add_tab()
    tabbed.add_run("John Smith")
    document.sections[0].header.paragraphs[0].text = "Company report"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


WORD_NAMESPACE = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def with_notes(data: bytes) -> bytes:
    """The Word document `data` with a footnote and an endnote on its first paragraph, as Word
    writes them (python-docx writes no notes): the note's mark, then a space and its text."""
    parts = {}
    for kind in ("footnote", "endnote"):
        mark = f'<w:r><w:rPr><w:rStyle w:val="{kind.title()}Reference"/></w:rPr><w:{kind}Ref/></w:r>'
        parts[kind] = (
            f'<w:{kind}s xmlns:w="{WORD_NAMESPACE}"><w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/>'
            f'</w:r></w:p></w:{kind}><w:{kind} w:id="1"><w:p>{mark}<w:r><w:t xml:space="preserve"> The {kind} '
            f"text.</w:t></w:r></w:p></w:{kind}></w:{kind}s>"
        ).encode()
    added = {  # a member → (where in it, what goes before that): the notes' types, relations, references
        "[Content_Types].xml": (
            "</Types>",
            "".join(
                f'<Override PartName="/word/{kind}s.xml" ContentType="application/vnd.openxmlformats-'
                f'officedocument.wordprocessingml.{kind}s+xml"/>'
                for kind in parts
            ),
        ),
        "word/_rels/document.xml.rels": (
            "</Relationships>",
            "".join(
                f'<Relationship Id="rIdNotes{kind}" Target="{kind}s.xml" Type="http://schemas.openxmlformats'
                f'.org/officeDocument/2006/relationships/{kind}s"/>'
                for kind in parts
            ),
        ),
        "word/document.xml": ("</w:p>", "".join(f'<w:r><w:{kind}Reference w:id="1"/></w:r>' for kind in parts)),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as archive:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename in added:
                where, inserted = (text.encode() for text in added[item.filename])
                content = content.replace(where, inserted + where, 1)
            archive.writestr(item, content)
        for kind, xml in parts.items():
            archive.writestr(f"word/{kind}s.xml", xml)
    return out.getvalue()


@pytest.mark.unit
def test_footnotes_and_endnotes_are_translated_after_their_mark_and_its_space():
    """A report's notes stayed in the source language; a translation, which comes stripped, lost
    the space Word puts between a note's mark and its text."""
    document = read_document("report.docx", with_notes(word_document()))
    assert document.texts()[-2:] == [" The footnote text.", " The endnote text."]
    stripped = [Capitals(found.text.strip(), found.alignment) for found in capitals(document.texts())]
    with zipfile.ZipFile(io.BytesIO(document.written(stripped))) as written:
        for kind in ("footnote", "endnote"):
            notes = etree.fromstring(written.read(f"word/{kind}s.xml"))
            [note] = notes.findall(f"{{{WORD_NAMESPACE}}}{kind}[@{{{WORD_NAMESPACE}}}id='1']")
            runs = note.findall(f".//{{{WORD_NAMESPACE}}}r")
            assert runs[0].find(f"{{{WORD_NAMESPACE}}}{kind}Ref") is not None  # the mark first
            assert "".join(note.itertext()) == f" THE {kind.upper()} TEXT."
        body = written.read("word/document.xml")
        assert b"<w:footnoteReference " in body and b"<w:endnoteReference " in body


@pytest.mark.unit
def test_a_footnote_mark_raised_in_a_word_run_is_kept_as_it_is_not_read_as_text():
    """A raised run of "1" after "times." was read as text: the translation came back
    "heruntergeladen.¹.1.", "Mal²" for "times²", and two sentences joined at a mark between them
    (a newcomer trial); it is kept as it is against its word, as HTML's <sup>1</sup> is."""
    made = docx.Document()
    paragraph = made.add_paragraph()
    paragraph.add_run("It was downloaded 50,000 times.")
    paragraph.add_run("1").font.superscript = True
    paragraph.add_run(" Costs fell.")
    raised = made.add_paragraph()
    raised.add_run("Water is H")
    raised.add_run("two parts").font.superscript = True  # raised words are no mark: read as text
    out = io.BytesIO()
    made.save(out)
    document = read_document("r.docx", out.getvalue())
    assert document.texts() == ["It was downloaded 50,000 times. Costs fell.", "Water is Htwo parts"]
    written = docx.Document(io.BytesIO(round_trip("r.docx", out.getvalue())))
    runs = [(run.text, bool(run.font.superscript)) for run in written.paragraphs[0].runs]
    assert runs == [("IT WAS DOWNLOADED 50,000 TIMES.", False), ("1", True), (" COSTS FELL.", False)], runs


@pytest.mark.unit
def test_an_office_files_title_and_subject_are_translated_and_its_language_declared():
    """A translated report kept its English title and subject (what a file manager and a PDF made
    of it show) and declared English in its properties: Word, PowerPoint and OpenDocument."""
    pptx = pytest.importorskip("pptx")
    for name, made in (("r.docx", docx.Document()), ("s.pptx", pptx.Presentation())):
        if name.endswith(".docx"):
            made.add_paragraph("Open the file.")
        made.core_properties.title, made.core_properties.subject = "Quarterly report", "Sales"
        made.core_properties.keywords, made.core_properties.language = "q3, sales", "en-US"
        out = io.BytesIO()
        made.save(out)
        document = read_document(name, out.getvalue())
        assert document.texts()[-2:] == ["Quarterly report", "Sales"]
        reader = docx.Document if name.endswith(".docx") else pptx.Presentation
        written = reader(io.BytesIO(round_trip(name, out.getvalue(), "de"))).core_properties
        assert (written.title, written.subject, written.keywords, written.language) == (
            "QUARTERLY REPORT",
            "SALES",
            "q3, sales",
            "de",
        )
    from odf import dc, text
    from odf.opendocument import OpenDocumentText

    made = OpenDocumentText()
    made.text.addElement(text.P(text="Open the file."))
    for element in (dc.Title(text="Quarterly report"), dc.Subject(text="Sales"), dc.Language(text="en-US")):
        made.meta.addElement(element)
    out = io.BytesIO()
    made.save(out)
    assert read_document("r.odt", out.getvalue()).texts() == ["Open the file.", "Quarterly report", "Sales"]
    with zipfile.ZipFile(io.BytesIO(round_trip("r.odt", out.getvalue(), "de"))) as written:
        meta = written.read("meta.xml").decode()
    assert all(
        f"<dc:{name}>{value}</dc:{name}>" in meta
        for name, value in [("title", "QUARTERLY REPORT"), ("subject", "SALES"), ("language", "de")]
    )


@pytest.mark.unit
def test_a_word_document_keeps_styles_runs_tables_breaks_and_headers():
    written = docx.Document(io.BytesIO(round_trip("report.docx", word_document())))
    paragraphs = written.paragraphs
    assert [p.style.name for p in paragraphs] == ["Heading 1", "Normal", "Normal", "Normal", "Normal"]
    assert [(r.text, bool(r.bold)) for r in paragraphs[1].runs] == [
        ("CLICK ", False),
        ("SAVE", True),
        (" TO KEEP YOUR CHANGES.", False),
    ]
    assert [(r.text, bool(r.italic)) for r in paragraphs[2].runs if r.text.strip()] == [
        ("THE ", False),
        ("MUCH FASTER", True),
        (" VERSION.", False),
    ]
    assert [c.text for c in written.tables[0].rows[0].cells] == ["OPEN THE MENU.", "GOOD MORNING!"]
    # no space against a break or a tab ("werden. <w:br/>Versuchen", "Name: <w:tab/>John")
    assert paragraphs[3].text == "LINE ONE.\nLINE TWO." and paragraphs[4].text == "NAME:\tJOHN SMITH"
    assert written.sections[0].header.paragraphs[0].text == "COMPANY REPORT"


def zip_of(members: dict[str, bytes]) -> bytes:
    """A zip archive's bytes holding `members`, dated 1980-01-01 whenever it is made: made while
    the tests are collected, its bytes name a test, and two workers that collected them seconds
    apart had disagreed on the tests ("Different tests were collected between gw0 and gw1")."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, content in members.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), content)
    return out.getvalue()


@pytest.mark.unit
def test_a_webvtt_timing_that_webvtt_py_reads_is_read():
    """The check for a block that is no cue (test below) is webvtt-py's own: an arrow without
    spaces and short fields had been refused though a browser and webvtt-py read them."""
    for timing in ("00:01.000-->00:04.000", "0:01.5 --> 0:04.0", "00:00:01.000 --> 00:00:04.000 align:start"):
        assert read_document("a.vtt", f"WEBVTT\n\n1\n{timing}\nHello there.\n".encode()).texts() == ["Hello there."]


@pytest.mark.unit
@pytest.mark.parametrize(
    "name, data, message",
    [
        ("report.docx", b"not a zip", "not a Word document"),
        ("report.docx", b"PK\x03\x04 damaged", "not a Word document"),
        # the library's words, not its exception's name: it had been "not a Word document (KeyError)"
        (
            "report.docx",
            zip_of({"word/document.xml": b"<w/>"}),
            r"a damaged Word document \(it has no \[Content_Types\]",
        ),
        ("book.epub", zip_of({"mimetype": b"application/epub+zip"}), r"a damaged EPUB book \(it has no META-INF"),
        ("film.srt", b"1\n00:00:01,000 --> nonsense\nHello\n", r"not a SubRip file \(line 2 is not a cue's timing"),
        (
            "film.srt",
            b"oops\n00:00:01,000 --> 00:00:02,000\nHello\n",
            r"not a SubRip file \(line 1 is not a cue's number",
        ),
        ("film.vtt", b"no header\n", r"not a WebVTT file \(its first line is not WEBVTT"),
        ("film.vtt", b"", r"not a WebVTT file \(its first line"),
        # each had lost a cue: webvtt-py skips a block that is no cue without a word
        (
            "film.vtt",
            b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n\n00:00:03.000 -> 00:00:04.000\nBye.\n",
            r"not a WebVTT file \(line 6 is not a cue's timing",
        ),
        (
            "film.vtt",
            b"WEBVTT\n\nintro\n00:00:0X.000 --> 00:00:02.000\nHello.\n",
            r"not a WebVTT file \(line 4 is not a cue's timing",
        ),
        ("film.vtt", b"WEBVTT\n\nstray words\n", r"not a WebVTT file \(line 3 is not a cue's timing"),
        ("notes.txt", b"\xff\xfea\x00b", "not utf-16-le text, as its byte-order mark says"),
        ("page.html", '<meta charset="x-mine"><p>Café'.encode("latin-1"), "'x-mine', which it declares, is unknown"),
        ("page.html", '<meta charset="shift_jis"><p>\x82'.encode("latin-1"), "not shift_jis text, as it declares"),
        ("page.html", b"<b>" * 500 + b"deep", "deeper than"),
        ("sheet.xlsx", b"", "not a document format"),
        # a zip of another office format: it had been "not an OpenDocument file (KeyError)"
        (
            "report.odt",
            zip_of({"word/document.xml": b"<w/>"}),
            "it holds a .docx file; name it report.docx",
        ),
        (
            "report.docx",
            zip_of({"xl/workbook.xml": b"<x/>"}),
            "it holds a .xlsx file, a format attn",
        ),
        # told by their signature: each had been "not a zip archive" or "not UTF-8 text (byte 14)"
        ("report.docx", b"", "the file is empty"),
        ("report.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(50), "protected by a password, or one in the old"),
        ("page.html", zip_of({"word/document.xml": b"<w/>"}), "it holds a .docx file; name it page.docx"),
        ("notes.md", b"%PDF-1.7\n", "it is a PDF file, a format attn does not read"),
    ],
)
def test_damaged_and_hostile_files_are_refused_in_one_line(name, data, message):
    """The line names the file (a Word document's "not a zip archive" did not)."""
    with pytest.raises(DocumentError, match=message) as refused:
        read_document(name, data)
    assert "\n" not in str(refused.value) and str(refused.value).startswith(f"{name}: ")


def with_member(data: bytes, name: str, content: bytes) -> bytes:
    """A zip archive's bytes with its member `name` replaced by `content`."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as archive, zipfile.ZipFile(out, "w") as written:
        for item in archive.infolist():
            written.writestr(item, content if item.filename == name else archive.read(item.filename))
    return out.getvalue()


@pytest.mark.unit
def test_a_damaged_part_of_an_open_document_or_a_book_is_refused_not_read_past(capsys):
    """odfpy printed "SAX FAILED TO PARSE" to standard output and read on: a broken content.xml
    was written back as an empty document, exit 0; a broken chapter came back untranslated."""
    from odf import text
    from odf.opendocument import OpenDocumentText

    made, out = OpenDocumentText(), io.BytesIO()
    made.text.addElement(text.P(text="Open the file."))
    made.save(out)
    with pytest.raises(DocumentError, match="a damaged OpenDocument file"):
        read_document("r.odt", with_member(out.getvalue(), "content.xml", b"<office:document-content><broken"))
    assert capsys.readouterr().out == ""
    book = small_book("<html><body><p>Open the file.</p></body></html>")
    with pytest.raises(DocumentError, match="one.xhtml: not well-formed XHTML"):
        read_document("book.epub", with_member(book, "EPUB/one.xhtml", b"<html><body><p>Open <b>the file."))
    entities = with_member(book, "EPUB/one.xhtml", b"<html><body><p>Open&nbsp;the file.</p></body></html>")
    assert "Open the file." in read_document("book.epub", entities).texts()  # "Openthe file." had lost its entity
    capitals = with_member(book, "EPUB/one.xhtml", b"<html><body><p>Salt &AMP; pepper.</p></body></html>")
    assert "Salt & pepper." in read_document("book.epub", capitals).texts()  # HTML's "&AMP;" is "&", as a reference


@pytest.mark.unit
def test_a_document_with_a_password_is_refused_as_one():
    """Its library said "a damaged Word document (RuntimeError)"."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/document.xml", b"ciphertext")
    data = bytearray(out.getvalue())
    directory = data.index(b"PK\x01\x02")  # the member's central directory record: its flags at offset 8
    data[directory + 8] |= 0x1  # encrypted, as `zip -P` writes it
    with pytest.raises(DocumentError, match="report.docx: a Word document protected by a password"):
        read_document("report.docx", bytes(data))


@pytest.mark.unit
def test_a_zip_bomb_is_refused_before_it_is_opened(monkeypatch):
    from attn.runtime.documents import word

    monkeypatch.setattr(word, "MAX_UNPACKED", 1_000_000)
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"\0" * 2_000_000)
    with pytest.raises(DocumentError, match="unpacks to"):
        read_document("bomb.docx", bomb.getvalue())


@pytest.mark.integration
def test_the_command_line_writes_a_subtitle_file_with_every_cue_timed_as_it_was(reverse_model, tmp_path):
    source = tmp_path / "film.srt"
    source.write_text("1\n00:00:01,000 --> 00:00:02,000\na0 b1\nc2\n\n2\n00:01:00,500 --> 00:01:02,000\nd3 e0\n\n")
    out = tmp_path / "film.out.srt"
    run = run_attn(["translate", "-m", str(reverse_model), "-i", str(source), "-o", str(out)])
    assert run.returncode == 0, run.stderr
    cues = list(srt.parse(out.read_text()))
    assert [(c.index, str(c.start), str(c.end)) for c in cues] == [
        (1, "0:00:01", "0:00:02"),
        (2, "0:01:00.500000", "0:01:02"),
    ]
    same = run_attn(["translate", "-m", str(reverse_model), "-i", str(source), "-o", str(source)])
    assert same.returncode == 2 and b"is the input" in same.stderr and source.read_text().startswith("1\n")


@pytest.mark.system
def test_a_word_document_translated_by_the_shipped_model_reads_as_its_paragraphs_do():
    from attn.runtime import load

    translator = load("en-de")
    document = read_document("report.docx", word_document())
    found = translator.translate(document.texts())
    written = docx.Document(io.BytesIO(document.written(found)))
    paragraph = written.paragraphs[1]
    assert paragraph.text == found[1].text  # the same call's translation: no near tie between two calls
    assert [r.text for r in paragraph.runs if r.bold] and all(r.text.strip() for r in paragraph.runs if r.bold)


@pytest.mark.system
def test_a_word_document_is_summarized_from_its_text(tmp_path):
    path = tmp_path / "report.docx"
    path.write_bytes(word_document())
    run = run_attn(["summarize", "-q", str(path)], timeout=300)
    assert run.returncode == 0 and len(run.stdout.decode().splitlines()) == 1 and run.stdout.strip(), run.stderr


@pytest.mark.system
def test_a_page_piped_in_is_summarized_from_its_text_as_a_html_file_is(tmp_path):
    """Its markup had been summarized as words ("<!DOCTYPE html><html><head><title>…")."""
    page = (
        "<!DOCTYPE html>\n<html><head><title>Gazette</title><style>body{color:red}</style></head><body>"
        "<h1>Council approves bridge repair</h1><p>The city council voted on Tuesday to repair the old bridge."
        "</p><p>Work starts in spring and will take two years.</p></body></html>\n"
    )
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    piped = run_attn(["summarize", "-q"], input=page.encode(), timeout=300)
    assert piped.returncode == 0 and "<" not in piped.stdout.decode(), piped.stderr
    assert piped.stdout == run_attn(["summarize", "-q", str(path)], timeout=300).stdout
    # saved by a browser, its comment first, its text after 160,000 characters of style: the text
    # had been cut at --max-chars of markup, and nothing was left to summarize
    saved = "<!-- saved from url=(0014)about:internet -->\n" + page.replace(
        "body{color:red}", "p{color:red}\n" * 10_000
    )
    long_head = run_attn(["summarize", "-q"], input=saved.encode(), timeout=300)
    assert long_head.returncode == 0 and long_head.stdout == piped.stdout, long_head.stderr


@pytest.mark.unit
def test_a_presentation_keeps_its_runs_tables_and_notes():
    pptx = pytest.importorskip("pptx")
    from pptx.util import Inches

    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[1])
    slide.shapes.title.text = "The red car"
    body = slide.placeholders[1].text_frame
    body.text = "Click "
    bold = body.paragraphs[0].add_run()
    bold.text, bold.font.bold = "Save", True
    body.paragraphs[0].add_run().text = " now."
    slide.notes_slide.notes_text_frame.text = "Say hello."
    slide.shapes.add_table(1, 1, Inches(1), Inches(5), Inches(4), Inches(1)).table.cell(0, 0).text = "Open it."
    out = io.BytesIO()
    presentation.save(out)
    written = pptx.Presentation(io.BytesIO(round_trip("talk.pptx", out.getvalue()))).slides[0]
    assert written.shapes.title.text == "THE RED CAR"
    runs = written.placeholders[1].text_frame.paragraphs[0].runs
    assert [(r.text, bool(r.font.bold)) for r in runs] == [("CLICK ", False), ("SAVE", True), (" NOW.", False)]
    assert written.notes_slide.notes_text_frame.text == "SAY HELLO."
    assert [s.table.cell(0, 0).text for s in written.shapes if s.has_table] == ["OPEN IT."]


def small_book(chapter_content: str) -> bytes:
    """An EPUB of one chapter, one.xhtml, as EbookLib writes it."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("book-1")
    book.set_title("A book")
    book.set_language("en")
    chapter = epub.EpubHtml(title="One", file_name="one.xhtml", lang="en")
    chapter.content = chapter_content
    book.add_item(chapter)
    book.toc, book.spine = (chapter,), ["nav", chapter]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    out = io.BytesIO()
    epub.write_epub(out, book)
    return out.getvalue()


@pytest.mark.unit
def test_an_e_book_keeps_its_chapters_markup_and_metadata_and_translates_its_contents():
    """The tables of contents (EPUB 3's nav.xhtml, EPUB 2's toc.ncx) and the book's title and
    description (what a library lists) stayed in the source language beside translated chapters;
    a description written as HTML stays as it is."""
    ebooklib = pytest.importorskip("ebooklib")
    from ebooklib import epub

    data = small_book('<h1>The start</h1><p>Click <b>Save</b> now.<a id="end"/></p>')
    translated = round_trip("book.epub", data)
    assert read_document("book.epub", translated).texts()  # what attn writes, attn (and EbookLib) read again
    with zipfile.ZipFile(io.BytesIO(data)) as before, zipfile.ZipFile(io.BytesIO(translated)) as after:
        assert before.namelist() == after.namelist() and after.namelist()[0] == "mimetype"
        changed = ("one.xhtml", "nav.xhtml", "toc.ncx", "content.opf")
        unchanged = [name for name in before.namelist() if not name.endswith(changed)]
        assert all(before.read(name) == after.read(name) for name in unchanged)  # only these change
        assert '<a href="one.xhtml">ONE</a>' in after.read("EPUB/nav.xhtml").decode()
        assert "<text>ONE</text>" in after.read("EPUB/toc.ncx").decode()
        entries = {entry.filename: before.read(entry) for entry in before.infolist()}
    # an NCX with a document type and an author, and one that is not well-formed XML (EbookLib reads it)
    ncx = entries["EPUB/toc.ncx"].replace(
        b"<ncx ", b'<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "x.dtd">\n<ncx '
    )
    ncx = ncx.replace(b"</docTitle>", b"</docTitle><docAuthor><text>Ann Lee</text></docAuthor>")
    for changed_ncx, kept in (
        (ncx, [b"<!DOCTYPE ncx", b"<text>Ann Lee</text>"]),
        (ncx.replace(b"Ann Lee", b"Ann & Lee"), [b"Ann & Lee"]),
    ):
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as before, zipfile.ZipFile(out, "w") as book:
            for entry in before.infolist():
                book.writestr(entry, changed_ncx if entry.filename == "EPUB/toc.ncx" else before.read(entry))
        with zipfile.ZipFile(io.BytesIO(round_trip("book.epub", out.getvalue()))) as after:
            assert all(part in after.read("EPUB/toc.ncx") for part in kept)
    written = epub.read_epub(io.BytesIO(translated), options={"ignore_ncx": False})
    chapters = written.get_items_of_type(ebooklib.ITEM_DOCUMENT)
    [content] = [item.get_content().decode() for item in chapters if item.get_name() == "one.xhtml"]
    assert "<h1>THE START</h1>" in content and '<p>CLICK <b>SAVE</b> NOW.<a id="end"/></p>' in content
    # a chapter's attributes in the order it gave them (Beautiful Soup's XML formatter sorts them)
    ordered = with_member(
        data, "EPUB/one.xhtml", b'<html><body><p>See <a title="t" href="h">this</a>.</p></body></html>'
    )
    with zipfile.ZipFile(io.BytesIO(round_trip("book.epub", ordered))) as after:
        assert b'<a title="T" href="h">THIS</a>' in after.read("EPUB/one.xhtml")
    assert written.get_metadata("DC", "title")[0][0] == "A BOOK"
    package = entries["EPUB/content.opf"]
    for description, expected in (("A short story.", "A SHORT STORY."), ("<p>A story.</p>", "<p>A story.</p>")):
        described = package.replace(
            b"</dc:title>", f"</dc:title><dc:description>{html.escape(description)}</dc:description>".encode()
        )
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as before, zipfile.ZipFile(out, "w") as book:
            for entry in before.infolist():
                book.writestr(entry, described if entry.filename == "EPUB/content.opf" else before.read(entry))
        again = epub.read_epub(io.BytesIO(round_trip("book.epub", out.getvalue())), options={"ignore_ncx": False})
        assert again.get_metadata("DC", "description")[0][0] == expected


@pytest.mark.unit
def test_a_catalog_gets_its_untranslated_messages_flagged_fuzzy_and_keeps_the_rest():
    polib = pytest.importorskip("polib")
    catalog = (
        '# header comment\nmsgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: main.c:10\nmsgid "open the file"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "close it"\nmsgstr "schliessen"\n\n'
        'msgid "one file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
        'msgid "done"\nmsgstr "fertig"\n'
    )
    written = polib.pofile(round_trip("app.po", catalog.encode()).decode())
    by_id = {entry.msgid: entry for entry in written}
    assert by_id["open the file"].msgstr == "OPEN THE FILE" and by_id["open the file"].fuzzy
    assert by_id["open the file"].occurrences == [("main.c", "10")]
    assert by_id["one file"].msgstr_plural == {0: "ONE FILE", 1: "%D FILES"}
    assert by_id["close it"].msgstr == "schliessen" and by_id["done"].msgstr == "fertig" and not by_id["done"].fuzzy
    assert written.header == "header comment"
    assert "Language" not in written.metadata  # no language given
    assert polib.pofile(round_trip("app.po", catalog.encode(), "fr").decode()).metadata["Language"] == "fr"
    ended = read_document("end.po", b'msgid "done\\n"\nmsgstr ""\n')
    assert polib.pofile(ended.written(capitals(ended.texts())).decode())[0].msgstr == "DONE\n"  # msgfmt -c
    asked = read_document("app.po", catalog.encode(), fuzzy=True)  # `attn translate --fuzzy`
    again = {entry.msgid: entry for entry in polib.pofile(asked.written(capitals(asked.texts())).decode())}
    assert again["close it"].msgstr == "CLOSE IT" and again["close it"].fuzzy and again["done"].msgstr == "fertig"


def saved_message(plain: str, html_part: str | None = None, attachment: bytes | None = None) -> bytes:
    """A message as a mail program saves it: headers, a plain part (an HTML alternative), an attachment."""
    from email.message import EmailMessage

    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = (
        "Anna <anna@example.com>",
        "Bob <bob@example.com>",
        "Re: Office move",
    )
    message.set_content(plain)
    message["Content-Language"] = "en"
    if html_part is not None:
        message.add_alternative(html_part, subtype="html")
    if attachment is not None:
        message.add_attachment(attachment, maintype="application", subtype="pdf", filename="plan.pdf")
    return bytes(message)


@pytest.mark.unit
def test_a_saved_message_gets_its_subject_and_text_parts_translated_and_keeps_the_rest():
    """A wrapped paragraph is one text, wrapped again as wide; quoted lines keep their marks; the
    subject its "Re:"; the HTML part its tags; the attachment its bytes."""
    import email
    import email.policy

    plain = (
        "Hi Bob,\n\nThe office moves to the new building on Friday. Please pack your desks by\n"
        "Thursday evening, the movers arrive at seven.\n\n"
        "> When is the move? The new building has no parking, and I need to plan\n> how to get there.\n"
    )
    pdf = bytes(range(256))
    data = saved_message(plain, "<p>The office moves on <b>Friday</b>.</p>", pdf)
    document = read_document("move.eml", data)
    assert document.texts() == [
        "Office move",
        "Hi Bob,",
        "The office moves to the new building on Friday. Please pack your desks by Thursday evening, the movers "
        "arrive at seven.",
        "When is the move? The new building has no parking, and I need to plan how to get there.",
        "The office moves on Friday.",
    ]
    written = email.message_from_bytes(document.written(capitals(document.texts()), "de"), policy=email.policy.default)
    assert written["Subject"] == "Re: OFFICE MOVE"
    assert written["From"] == "Anna <anna@example.com>"
    parts = {part.get_content_type(): part for part in written.walk() if not part.is_multipart()}
    assert parts["text/plain"]["Content-Language"] == "de"  # it said en
    assert parts["text/plain"].get_content() == (
        "HI BOB,\n\nTHE OFFICE MOVES TO THE NEW BUILDING ON FRIDAY. PLEASE PACK YOUR DESKS BY\n"
        "THURSDAY EVENING, THE MOVERS ARRIVE AT SEVEN.\n\n"
        "> WHEN IS THE MOVE? THE NEW BUILDING HAS NO PARKING, AND I NEED TO PLAN\n> HOW TO GET THERE.\n"
    )
    assert parts["text/html"].get_content().strip() == "<p>THE OFFICE MOVES ON <b>FRIDAY</b>.</p>"
    assert parts["application/pdf"].get_content() == pdf and parts["application/pdf"].get_filename() == "plan.pdf"
    with pytest.raises(DocumentError, match="not an e-mail message"):
        read_document("notes.eml", b"Just a note, no headers.\n")


@pytest.mark.unit
def test_messages_as_people_have_them():
    """A review's cases: a mark or an mbox line before the headers, an 8-bit body declaring no
    charset, a long Message-ID, short lines, a log shown inline and a message attached."""
    message_id = "<AM0PR07MB1234567890ABCDEF1234567890ABCDEF@AM0PR07MB1234.eurprd07.prod.outlook.com>"
    plain = (
        "From: a@example.org\nTo: b@example.org\nIn-Reply-To: " + message_id + "\n\nHi Bob,\nthanks for the files.\n"
    )
    for data in (plain.encode(), b"\xef\xbb\xbf" + plain.encode(), b"From - Mon Nov 23 2026\n" + plain.encode()):
        document = read_document("reply.eml", data)
        assert document.texts() == ["Hi Bob,", "thanks for the files."]  # two lines, not one wrapped text
        written = document.written(capitals(document.texts())).decode()
        assert written.endswith("\n\nHI BOB,\nTHANKS FOR THE FILES.\n") and f"In-Reply-To: {message_id}\n" in written
    german = "From: a@example.org\nTo: b@example.org\n\nSch\u00f6ne Gr\u00fc\u00dfe aus M\u00fcnchen\n".encode()
    assert read_document("gruss.eml", german).texts() == ["Schöne Grüße aus München"]  # no charset: UTF-8
    assert read_document("gruss.eml", german.decode().encode("utf-16")).texts() == ["Schöne Grüße aus München"]
    from email.message import EmailMessage

    outer = EmailMessage()
    outer["From"], outer["To"], outer["Subject"] = "a@example.org", "b@example.org", "Logs"
    outer.set_content("See the log.")
    outer.add_attachment("ERROR could not open the file", disposition="inline", filename="log.txt")
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "c@example.org", "Old news"
    inner.set_content("Forwarded words.")
    outer.add_attachment(inner)
    assert read_document("logs.eml", bytes(outer)).texts() == ["Logs", "See the log."]
    forward = (
        "Please read.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday, 3 June 2024\nSubject: Move\n\nWe move.\n"
    )
    document = read_document("fwd.eml", ("From: a@example.org\nTo: b@example.org\n\n" + forward).encode())
    assert document.texts() == ["Please read.", "We move."]  # the separator and the quoted headers as they were
    assert (
        document.written(capitals(document.texts()))
        .decode()
        .endswith(forward.replace("read", "READ").replace("We move", "WE MOVE").replace("Please", "PLEASE"))
    )


@pytest.mark.unit
def test_a_catalogs_header_keeps_its_order_and_a_language_it_lacked_goes_where_gettext_puts_it():
    pytest.importorskip("polib")
    fields = ["Plural-Forms: nplurals=2; plural=(n != 1);", "X-Generator: Poedit 3.4", "Language-Team: German"]
    fields += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8", "Project-Id-Version: demo 1.0"]
    header = 'msgid ""\nmsgstr ""\n' + "".join(f'"{field}\\n"\n' for field in fields)
    written = round_trip("app.po", (header + '\nmsgid "open"\nmsgstr ""\n').encode(), "de").decode()
    expected = fields[:3] + ["Language: de"] + fields[3:]  # polib had put them in gettext's order, the rest sorted
    assert written.startswith('msgid ""\nmsgstr ""\n' + "".join(f'"{field}\\n"\n' for field in expected))


@pytest.mark.unit
def test_entities_that_would_expand_a_billion_times_are_not_expanded():
    pytest.importorskip("ebooklib")
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10)
    )
    laughs = f'<?xml version="1.0"?><!DOCTYPE html [{entities}]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>&lol9;</p></body></html>'
    out = io.BytesIO(small_book("<p>placeholder</p>"))
    bombed = io.BytesIO()
    with zipfile.ZipFile(out) as source, zipfile.ZipFile(bombed, "w") as archive:
        for name in source.namelist():
            archive.writestr(name, laughs if name.endswith("one.xhtml") else source.read(name))
    with pytest.raises(DocumentError, match="not well-formed XHTML"):  # refused before 3 × 10⁹ characters are made
        read_document("laughs.epub", bombed.getvalue())
    html = read_document("laughs.html", laughs.encode()).texts()
    assert sum(len(text) for text in html) < 1000


@pytest.mark.unit
def test_an_opendocument_text_keeps_its_styled_spans_links_headings_and_breaks():
    pytest.importorskip("odf")
    from odf import teletype
    from odf import text as odf_text
    from odf.opendocument import OpenDocumentText, load
    from odf.style import Style, TextProperties

    document = OpenDocumentText()
    bold = Style(name="Bold", family="text")
    bold.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(bold)
    document.text.addElement(odf_text.H(outlinelevel=1, text="Getting started"))
    paragraph = odf_text.P(text="Click ")
    paragraph.addElement(odf_text.Span(stylename=bold, text="Save"))
    paragraph.addText(" to keep your ")
    paragraph.addElement(odf_text.A(href="https://example.com", text="changes"))
    paragraph.addText(".")
    paragraph.addElement(odf_text.LineBreak())
    paragraph.addText("Then close it.")
    document.text.addElement(paragraph)
    out = io.BytesIO()
    document.save(out)
    written = load(io.BytesIO(round_trip("notes.odt", out.getvalue())))
    [heading], [body] = written.getElementsByType(odf_text.H), written.getElementsByType(odf_text.P)
    assert teletype.extractText(heading) == "GETTING STARTED"
    parts = [
        (c.qname[1] if c.nodeType == 1 else "text", teletype.extractText(c) if c.nodeType == 1 else c.data)
        for c in body.childNodes
    ]
    assert parts == [
        ("text", "CLICK "),
        ("span", "SAVE"),
        ("text", " TO KEEP YOUR "),
        ("a", "CHANGES"),
        ("text", "."),  # no space against the break
        ("line-break", ""),
        ("text", "THEN CLOSE IT."),
    ]


@pytest.mark.unit
def test_markdown_keeps_its_blocks_markers_code_and_front_matter():
    pytest.importorskip("markdown_it")
    source = (
        "---\ntitle: kept\n---\n# Getting *started*\n\nClick **Save** to keep\nyour [changes](https://x.org).\n\n"
        "- Open the `ls -l` output.\n- See ![a chart](c.png) here.\n\n> Quoted text\n> goes on.\n\n"
        "| Name | Value |\n|---|---|\n| red car | good |\n\n```\ncode stays\n```\n"
    )
    assert round_trip("notes.md", source.encode()).decode() == (
        "---\ntitle: kept\n---\n# GETTING *STARTED*\n\nCLICK **SAVE** TO KEEP YOUR [CHANGES](https://x.org).\n\n"
        "- OPEN THE `ls -l` OUTPUT.\n- SEE ![A CHART](c.png) HERE.\n\n> QUOTED TEXT GOES ON.\n\n"
        "| NAME | VALUE |\n|---|---|\n| RED CAR | GOOD |\n\n```\ncode stays\n```\n"
    )


@pytest.mark.unit
def test_markdowns_html_blocks_are_translated_as_html_fragments():
    """A README's `<p align="center">` and `<details>` blocks had been left in English."""
    pytest.importorskip("markdown_it")
    pytest.importorskip("bs4")
    source = (
        '# Title\n\n<p align="center">\n  <b>Fast</b> translation.\n</p>\n\nText.\n\n'
        "- item\n  <div>Inside a list.</div>\n\n<!-- a comment -->\n\n<details>\n<summary>Click</summary>\n\n"
        "Hidden.\n\n</details>\n"
    )
    assert round_trip("a.md", source.encode()).decode() == (
        '# TITLE\n\n<p align="center">\n  <b>FAST</b> TRANSLATION.\n</p>\n\nTEXT.\n\n'
        "- ITEM\n  <div>Inside a list.</div>\n\n<!-- a comment -->\n\n<details>\n<summary>CLICK</summary>\n\n"
        "HIDDEN.\n\n</details>\n"
    )


@pytest.mark.unit
def test_an_html_pages_indentation_comes_back_as_it_was():
    """Beautiful Soup turned each string of whitespace outside a few tags into one line break:
    "<ul>\n    <li>" came back as "<ul>\n<li>"."""
    pytest.importorskip("bs4")
    page = (
        "<html>\n<body>\n  <ul>\n    <li>First item</li>\n\t\t<li>Second  <b>item</b></li>\n  </ul>\n</body>\n</html>\n"
    )
    assert round_trip("page.html", page.encode()).decode() == page.replace("First item", "FIRST ITEM").replace(
        "Second  <b>item</b>", "SECOND <b>ITEM</b>"
    )


@pytest.mark.unit
def test_inline_code_is_read_in_backquotes_and_written_back_as_the_source_had_it():
    """Inline code reaches the translator in backquotes, which it sets aside from the search
    (runtime/set_aside.py): read as words, `pip install attn` had come back as "`pip install
    attn` starten, bevor Sie starten." Code holding a backquote is read as it is."""
    pytest.importorskip("markdown_it")
    pytest.importorskip("bs4")
    for name, source, read in [
        (
            "a.md",
            "Run ``pip install attn`` or `ls` now, not ``a`b``.\n",
            "Run `pip install attn` or `ls` now, not a`b.",
        ),
        (
            "a.html",
            "<p>Run <code>pip  install</code>, then <kbd>Ctrl</kbd>+<kbd>S</kbd>.</p>",
            "Run `pip install`, then `Ctrl`+`S`.",
        ),
    ]:
        document = read_document(name, source.encode())
        assert document.texts() == [read]
        words = read.split()
        same = Capitals(read, WordAlignment(words, words, np.eye(len(words))))
        assert document.written([same]).decode() == source


@pytest.mark.unit
def test_markdown_link_urls_come_back_as_written():
    """The parser percent-encoded them ("Köln" → "K%C3%B6ln", "{id}" → "%7Bid%7D"), and an
    escaped parenthesis came back bare, ending the link early."""
    pytest.importorskip("markdown_it")
    source = "[a](https://de.wikipedia.org/wiki/Köln), [b](x/{id}?q=1&r=%20), [c](<my file.md>), ![d](a_(b).png)\n"
    assert round_trip("a.md", source.encode()).decode() == (
        "[A](https://de.wikipedia.org/wiki/Köln), [B](x/{id}?q=1&r=%20), [C](<my file.md>), ![D](a_(b).png)\n"
    )
    assert round_trip("a.md", b"[e](x\\)y)\n").decode() == "[E](<x)y>)\n"
    # an autolink stays one (it came back as `[support@x.org](mailto:support@x.org)`)
    assert round_trip("a.md", b"Mail <support@x.org> or <https://x.org/a>.\n").decode() == (
        "MAIL <support@x.org> OR <https://x.org/a>.\n"
    )


@pytest.mark.unit
def test_markdown_translates_alt_texts_and_titles_each_on_its_own():
    """An image's alt text (what a screen reader reads) and a link's or image's title stayed in the
    source language, an image alone in its paragraph too; each is a text of its own, translated
    once however often it recurs, its translation escaped where it could end the alt text or title."""
    pytest.importorskip("markdown_it")
    source = (
        '![A photo of the window](shot.png "The main window")\n\n'
        'Open the [page](https://x.org/{id} "Open it") and ![](empty.png) see ![A photo of the window](shot.png).\n'
    )
    document = read_document("notes.md", source.encode())
    assert document.texts() == ["Open the page and see .", "A photo of the window", "The main window", "Open it"]
    translations = capitals(document.texts())
    translations[2] = Capitals('THE "MAIN" WINDOW]', translations[2].alignment)
    assert document.written(translations).decode() == (
        '![A PHOTO OF THE WINDOW](shot.png "THE \\"MAIN\\" WINDOW\\]")\n\n'
        'OPEN THE [PAGE](https://x.org/{id} "OPEN IT") AND ![](empty.png) SEE ![A PHOTO OF THE WINDOW](shot.png).\n'
    )
    # the alt text as it reads, not its source: escapes came back doubled, a run more each time;
    # an image that opens its paragraph keeps the space after it
    assert round_trip("a.md", b"See ![a \\[b\\] *c*](x.png)\n").decode() == "SEE ![A \\[B\\] C](x.png)\n"
    opening = read_document("a.md", b"![pic](p.png) opens it\n")
    stripped = [Capitals(found.text.strip(), found.alignment) for found in capitals(opening.texts())]
    assert opening.written(stripped).decode() == "![PIC](p.png) OPENS IT\n"


@pytest.mark.unit
def test_markdown_inline_html_elements_enclose_their_words_and_a_last_hard_break_is_dropped():
    """`Press <kbd>Ctrl</kbd>+<kbd>S</kbd>` came back as `<kbd> Ctrl+S, </kbd><kbd></kbd>`: each
    tag went its own way. A hard line break the translation put last (its line dropped) showed as
    a backslash."""
    pytest.importorskip("markdown_it")
    source = b"Press the <kbd>Ctrl</kbd> key, <i></i> and <br> now <b>open\n"
    assert round_trip("a.md", source).decode() == "PRESS THE <kbd>CTRL</kbd> KEY, <i></i> AND <br> NOW <b>OPEN\n"
    document = read_document("a.md", b"Line one  \nsecond line.\n")
    assert document.texts() == ["Line one second line."]
    dropped = Capitals("LINE ONE.", WordAlignment(document.texts()[0].split(), ["LINE", "ONE."], np.eye(2, 4)))
    assert document.written([dropped]).decode() == "LINE ONE.\n"


@pytest.mark.unit
def test_markdown_keeps_task_boxes_and_footnotes_of_githubs_markdown():
    """`- [ ] Open` and `[^1]` came back escaped (`- \\[ \\] OPEN`, `\\[^1\\]`): CommonMark reads
    them as text. A box and a definition's label stay in front; a reference comes back as it was."""
    pytest.importorskip("markdown_it")
    source = "- [ ] open it\n- [x] save it\n\nsee this[^1] and [that] or [^2]\n\n[^1]: a note\n\n[^2]: https://x.org\n"
    assert round_trip("notes.md", source.encode()).decode() == (  # [^2]: URL reads as a link's definition
        "- [ ] OPEN IT\n- [x] SAVE IT\n\nSEE THIS[^1] AND \\[THAT\\] OR [^2]\n\n[^1]: A NOTE\n\n[^2]: https://x.org\n"
    )
    assert round_trip("notes.md", b"go [^top](#top) now\n").decode() == "GO [^TOP](#top) NOW\n"  # a link all the same


def one_paragraph_document(text: str) -> bytes:
    document = docx.Document()
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.mark.integration
def test_the_server_translates_every_format_it_lists(reverse_model):
    """/translate_file takes each format of /frontend/settings and gives back a file that its
    library reads again, translated."""
    import httpx

    from .test_serve import Server, cli_translations

    samples = {
        ".txt": b"a0 b1\n",
        ".html": b'<p class="x">a0 b1</p>',
        ".srt": b"1\n00:00:01,000 --> 00:00:02,000\na0 b1\n\n",
        ".vtt": b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na0 b1\n",
        ".po": b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "a0 b1"\nmsgstr ""\n',
        ".md": b"# a0 b1\n",
        ".docx": one_paragraph_document("a0 b1"),
        ".epub": small_book("<p>a0 b1</p>"),
        ".eml": b"From: a@example.org\nTo: b@example.org\n\na0 b1\n",
    }
    expected = cli_translations(reverse_model, ["a0 b1"])[0]
    running = Server("--models", str(reverse_model))
    try:
        formats = httpx.get(running.url + "/frontend/settings").json()["supportedFilesFormat"]
        assert set(samples) <= set(formats)
        for suffix, data in samples.items():
            reply = httpx.post(
                running.url + "/translate_file",
                data={"source": "sym", "target": "sym"},
                files={"file": (f"sample{suffix}", data)},
            )
            assert reply.status_code == 200, (suffix, reply.text)
            translated = httpx.get(reply.json()["translatedFileUrl"]).content
            texts = read_document(f"sample{suffix}", translated).texts()  # its library reads it again
            written = " ".join(texts) if suffix in (".docx", ".epub") else translated.decode()
            assert translated != data and expected in written, suffix
    finally:
        running.stop()


@pytest.mark.unit
def test_what_review_found_stays_fixed(tmp_path):
    """An empty element beside inline code crashed the HTML writer; PowerPoint's line break glued
    two sentences together; an uploaded catalog that named a file of the server's was read as
    that file."""
    html = b'<p>Run <code>ls</code><span class="x"></span> now.</p><p><a id="x"></a><code>ls</code> lists.</p>'
    written = round_trip("page.html", html).decode()
    assert written.count('<span class="x"></span>') == 1 and written.count('<a id="x"></a>') == 1
    pptx = pytest.importorskip("pptx")
    presentation = pptx.Presentation()
    frame = presentation.slides.add_slide(presentation.slide_layouts[1]).placeholders[1].text_frame
    frame.text = "Good morning."
    frame.paragraphs[0].add_line_break()
    frame.paragraphs[0].add_run().text = "See you."
    out = io.BytesIO()
    presentation.save(out)
    # a line break before a capital ends a line, translated apart (runtime/markup.py lines_apart)
    assert read_document("talk.pptx", out.getvalue()).texts() == ["Good morning.\nSee you."]
    secret = tmp_path / "secret.po"
    secret.write_text('msgid "private"\nmsgstr ""\n')
    with pytest.raises(DocumentError):
        read_document("upload.po", str(secret).encode())


@pytest.mark.unit
def test_a_tracked_insertion_stays_in_its_sentence_and_a_non_breaking_hyphen_stays_a_hyphen():
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = docx.Document()
    paragraph = document.add_paragraph("Tracked ")
    insertion = OxmlElement("w:ins")
    insertion.set(qn("w:id"), "1")
    insertion.set(qn("w:author"), "editor")
    run, text = OxmlElement("w:r"), OxmlElement("w:t")
    text.text = "inserted words"
    run.append(text)
    insertion.append(run)
    paragraph._p.append(insertion)
    hyphenated = paragraph.add_run(" on Wi")
    hyphenated._r.append(OxmlElement("w:noBreakHyphen"))
    paragraph.add_run("Fi.")
    out = io.BytesIO()
    document.save(out)
    assert read_document("r.docx", out.getvalue()).texts() == ["Tracked inserted words on Wi-Fi."]
    written = docx.Document(io.BytesIO(round_trip("r.docx", out.getvalue()))).paragraphs[0]._p
    [kept] = written.findall(qn("w:ins"))
    assert kept.get(qn("w:author")) == "editor" and "".join(t.text for t in kept.iter(qn("w:t"))) == "INSERTED WORDS"


@pytest.mark.unit
def test_subtitle_markup_comes_back_as_the_cue_wrote_it():
    """`<v Roger>` came back as `<v roger="">`, `<c.yellow>…</c>` as a span to the cue's end, and
    timestamps and `{\\an8}` were sent to the model as words."""
    vtt = b"WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v Roger>Hello <c.yellow>there</c> friend.\nI <00:00:02.500>think so.\n"
    document = read_document("film.vtt", vtt)
    assert document.texts() == ["Hello there friend. I think so."]
    assert (
        round_trip("film.vtt", vtt)
        .decode()
        .endswith("<v Roger>HELLO <c.yellow>THERE</c> FRIEND.\nI <00:00:02.500>THINK SO.\n")
    )
    srt_cue = b'1\n00:00:01,000 --> 00:00:02,000\n{\\an8}Good <font color="red">morning</font>.\n\n'
    assert round_trip("film.srt", srt_cue).decode().splitlines()[2] == '{\\an8}GOOD <font color="red">MORNING</font>.'


@pytest.mark.unit
def test_windows_line_ends_and_a_byte_order_mark_come_back_in_every_text_format():
    samples = {
        "film.srt": b"1\r\n00:00:01,000 --> 00:00:02,000\r\nhello there\r\nfriend\r\n\r\n",
        "film.vtt": b"WEBVTT\r\n\r\n00:00:01.000 --> 00:00:02.000\r\nhello\r\n",
        "notes.md": b"# hello\r\n\r\nsome text\r\n",
        "page.html": b"<p>hello</p>\r\n<p>there</p>\r\n",
    }
    for name, data in samples.items():
        written = round_trip(name, "\ufeff".encode() + data)
        assert (
            written.startswith("\ufeff".encode()) and b"\r\n" in written and b"\n" not in written.replace(b"\r\n", b"")
        ), name


@pytest.mark.integration
def test_check_names_what_a_documents_text_may_have_left_out(reverse_model, tmp_path, monkeypatch):
    """--check said nothing for a document (its texts never reached the check): each text's note
    names the document and the text's number. What the check finds is its own test's
    (tests/test_coverage.py): here every text is made to have its first two words left out."""
    import typer
    from typer.testing import CliRunner

    from attn.cli import translate
    from attn.cli.app import guarded

    app = typer.Typer()
    app.callback()(lambda: None)  # `translate` stays a named command
    app.command("translate")(guarded(translate.translate_command))
    monkeypatch.setattr(translate, "uncovered_runs", lambda alignment: [[0, 1]])
    source = tmp_path / "page.html"
    source.write_text("<p>a0 b1 c2</p><p>d3 e0</p>")
    result = CliRunner().invoke(
        app, ["translate", "-m", str(reverse_model), "-i", str(source), "-o", str(tmp_path / "out.html"), "--check"]
    )
    assert result.exit_code == 0, result.output
    assert [line.split(": may have left out ")[0] for line in result.stderr.splitlines()] == [
        f"attn: {source}, text 1",
        f"attn: {source}, text 2",
    ]


@pytest.mark.integration
def test_a_page_read_with_from_auto_declares_the_language_it_went_into(tmp_path):
    """`--from auto` on a document ended in an UnboundLocalError (a review of the change that
    declares the target language): with --to the page declares it; without, it is read as a whole
    (English) and declares the default direction's German, which it had left as "en"."""
    from bs4 import BeautifulSoup

    (tmp_path / "page.html").write_text('<html lang="en"><p>The weather is nice today.</p></html>')
    for to, declared in ((["--to", "fr"], "fr"), ([], "de")):
        run_attn(
            ["translate", "--from", "auto", *to, "-i", str(tmp_path / "page.html"), "-o", str(tmp_path / "out.html")],
            check=True,
        )
        assert BeautifulSoup((tmp_path / "out.html").read_text(), "html.parser").html["lang"] == declared
    # a page read as the target language comes back as it was: read text by text, its greeting
    # had been read as English and translated ("Hallo Thomas," → "Hallo Thomas, …")
    page = '<html lang="de"><p>Hallo Thomas,</p><p>danke für deine Nachricht, ich rufe dich morgen nach der Arbeit an.</p></html>'
    (tmp_path / "seite.html").write_text(page)
    same = run_attn(["translate", "-t", "de", "-i", str(tmp_path / "seite.html")], check=True)
    assert same.stdout.decode() == page and "the target language: written back as it is" in same.stderr.decode()


@pytest.mark.integration
def test_an_output_of_another_format_and_a_document_as_an_argument_are_refused(reverse_model, tmp_path):
    """`-i guide.docx -o out.odt` wrote a Word file named .odt; `attn translate guide.docx -o
    out.docx` translated the name "guide.docx" into a text file named .docx, exit 0, as any
    lines were written into one."""
    source = tmp_path / "film.srt"
    source.write_text("1\n00:00:01,000 --> 00:00:02,000\na0 b1\n\n")
    data = tmp_path / "strings.json"
    data.write_text('{\n  "title": "a0 b1",\n  "button": "c2"\n}\n')
    (tmp_path / "sheet.xlsx").write_bytes(b"PK\x03\x04")
    cases = {
        f"is written as a .srt file: name it {tmp_path / 'film.srt'}": [
            "-i",
            str(source),
            "-o",
            str(tmp_path / "film.vtt"),
        ],
        # a Word file had been written under any name attn reads no format of (.pdf, .doc, none)
        f"name it {tmp_path / 'film.srt'}\n": ["-i", str(source), "-o", str(tmp_path / "film")],
        f"name it {tmp_path / 'x.srt'}\n": ["-i", str(source), "-o", str(tmp_path / "x.pdf")],
        "is a document: `attn translate -i": [str(source), "-o", str(tmp_path / "x.srt")],
        "lines are written as text": ["a0 b1", "-o", str(tmp_path / "x.docx")],
        # a JSON file was translated line by line, its commas lost: data of such formats is refused
        "a .json file is data whose structure": ["-i", str(data), "-o", str(tmp_path / "x.json")],
        # a spreadsheet had been refused as "zip data, not text"
        "attn does not read .xlsx files": ["-i", str(tmp_path / "sheet.xlsx"), "-o", str(tmp_path / "y.xlsx")],
    }
    for message, arguments in cases.items():
        result = run_attn(["translate", "-m", str(reverse_model), *arguments])
        assert result.returncode == 2 and message.encode() in result.stderr and result.stderr.count(b"\n") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["film.srt", "sheet.xlsx", "strings.json"]


@pytest.mark.integration
def test_a_catalog_template_is_read_as_a_catalog_and_written_as_one(reverse_model, tmp_path):
    """`-i messages.pot -o messages.fr.po` translated the template line by line as text: its
    keywords and header too (msgfmt found four fatal errors); the header's placeholders are
    filled (PLURAL_FORMS for the languages attn writes)."""
    pytest.importorskip("polib")
    import polib

    from .test_serve import cli_translations

    template = tmp_path / "messages.pot"
    template.write_text(
        'msgid ""\nmsgstr ""\n"Language: \\n"\n"Content-Type: text/plain; charset=CHARSET\\n"\n\n'
        '#: app.py:3\nmsgid "a0 b1"\nmsgstr ""\n'
    )
    out = tmp_path / "messages.sym.po"
    result = subprocess.run([*ATTN, "translate", "-m", str(reverse_model), "-i", str(template), "-o", str(out)])
    assert result.returncode == 0
    [entry] = polib.pofile(str(out))
    assert entry.msgid == "a0 b1" and entry.msgstr == cli_translations(reverse_model, ["a0 b1"])[0]
    assert entry.occurrences == [("app.py", "3")]
    # xgettext's placeholder, which msgfmt refuses, is the charset the catalog is written in
    assert polib.pofile(str(out)).metadata["Content-Type"] == "text/plain; charset=UTF-8"


@pytest.mark.integration
def test_a_catalog_message_that_lost_a_placeholder_is_named_without_check(reverse_model, tmp_path):
    """ "You have {count} new messages." lost its placeholder, which breaks the program: only
    --check had said so. The toy model writes symbols only: it loses every placeholder."""
    catalog = tmp_path / "app.po"
    catalog.write_text('msgid ""\nmsgstr ""\n"Language: sym\\n"\n\nmsgid "a0 {count} b1"\nmsgstr ""\n')
    result = run_attn(["translate", "-m", str(reverse_model), "-i", str(catalog), "-o", str(tmp_path / "out.po")])
    assert result.returncode == 0
    assert result.stderr.decode().endswith(f"{catalog}, text 1: format placeholders changed: lost {{count}}\n")


@pytest.mark.integration
def test_a_catalog_is_translated_into_its_language_header(reverse_model, tmp_path):
    """A catalog of French (`Language: fr`) was filled with German, the default target, and
    `--to fr` on a German catalog wrote French under its `Language: de`."""
    pytest.importorskip("polib")

    def catalog(language: str) -> Path:
        path = tmp_path / f"{language}.po"
        path.write_text(f'msgid ""\nmsgstr ""\n"Language: {language}\\n"\n\nmsgid "a0 b1"\nmsgstr ""\n')
        return path

    def translate(*arguments: str) -> subprocess.CompletedProcess:
        return run_attn(["translate", "-m", str(reverse_model), *arguments])

    done = translate("-i", str(catalog("sym")), "-o", str(tmp_path / "out.po"))
    assert done.returncode == 0 and 'msgstr "b1 a0"' in (tmp_path / "out.po").read_text()
    into_german = translate("-i", str(catalog("de")), "-o", str(tmp_path / "de.out.po"))  # the model writes sym only
    assert into_german.returncode == 2 and b"not \xe2\x80\xa6\xe2\x86\x92de" in into_german.stderr
    against = translate("--to", "fr", "-i", str(catalog("sym")), "-o", str(tmp_path / "fr.out.po"))
    assert against.returncode == 2 and b"is a catalog of sym (its Language header)" in against.stderr


@pytest.mark.unit
@pytest.mark.parametrize("header, language", [("fr_CA", "fr"), ("sr@latin", "sr"), ("French", "fr"), ("", None)])
def test_a_catalogs_language_is_read_as_to_reads_one(header, language):
    pytest.importorskip("polib")
    catalog = read_document("x.po", f'msgid ""\nmsgstr ""\n"Language: {header}\\n"\n'.encode())
    assert catalog.language == language


@pytest.mark.unit
def test_a_translated_document_declares_the_language_it_is_now_in():
    """A page translated into German said lang="en" (a screen reader read it with an English voice),
    an e-book dc:language en, a Word run's proofing language English. What is marked as no
    language, and what comes back as it was, keep their marks; without a language, nothing changes."""
    from bs4 import BeautifulSoup

    page = (
        '<!DOCTYPE html>\n<html lang="en-US"><head><meta http-equiv="Content-Language" content="en"></head>'
        '<body><p>Run <code lang="en">make all</code> now.</p><p lang="zxx">Hello there.</p>'
        '<p translate="no" lang="en">Keep me.</p></body></html>'
    ).encode()
    assert round_trip("page.html", page, "de").startswith(b'<!DOCTYPE html>\n<html lang="de">')  # no blank line
    written = BeautifulSoup(round_trip("page.html", page, "de"), "html.parser")
    assert written.html["lang"] == "de" and written.meta["content"] == "de"
    assert written.code["lang"] == "en" and written.find_all("p")[1]["lang"] == "zxx"
    assert written.find_all("p")[2]["lang"] == "en" and written.find_all("p")[2].text == "Keep me."
    kept = BeautifulSoup(round_trip("page.html", page), "html.parser")  # without a language, none changes
    assert (kept.html["lang"], kept.meta["content"]) == ("en-US", "en") and kept.p.text == "RUN make all NOW."
    assert round_trip("page.html", b'<html lang="en"><p translate="no">Keep.</p></html>', "de") == (
        b'<html lang="en"><p translate="no">Keep.</p></html>'
    )  # nothing translated: nothing redeclared

    book, out = small_book('<p lang="en">Click now.</p>'), io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(book)) as before, zipfile.ZipFile(out, "w") as with_language:
        for entry in before.infolist():  # EbookLib writes no language into the NCX, as some books do
            data = before.read(entry)
            if entry.filename == "EPUB/toc.ncx":
                data = data.replace(b"<ncx ", b'<ncx xml:lang="en" ')
            with_language.writestr(entry, data)
    book = out.getvalue()
    with zipfile.ZipFile(io.BytesIO(round_trip("book.epub", book, "de"))) as after:
        assert b"<dc:language>de</dc:language>" in after.read("EPUB/content.opf")
        chapter = after.read("EPUB/one.xhtml").decode()
        assert 'lang="de"' in chapter and 'xml:lang="de"' in chapter and 'lang="en"' not in chapter
        assert 'xml:lang="de"' in after.read("EPUB/toc.ncx").decode()

    document = docx.Document()
    document.add_paragraph("Open the file.").runs[0]._r.get_or_add_rPr().append(
        docx.oxml.parse_xml(
            '<w:lang xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" w:val="en-GB"/>'
        )
    )
    out = io.BytesIO()
    document.save(out)
    with zipfile.ZipFile(io.BytesIO(round_trip("report.docx", out.getvalue(), "de"))) as after:
        assert b'<w:lang w:val="de"/>' in after.read("word/document.xml")
        assert b'<w:lang w:val="de" w:eastAsia="en-US" w:bidi="ar-SA"/>' in after.read("word/styles.xml")

    pptx = pytest.importorskip("pptx")
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[1])
    slide.shapes.title.text = "The red car"
    slide.shapes.title.text_frame.paragraphs[0].runs[0]._r.get_or_add_rPr().set("lang", "en-US")
    slide.notes_slide.notes_text_frame.text = "Say hello first."
    out = io.BytesIO()
    presentation.save(out)
    with zipfile.ZipFile(io.BytesIO(round_trip("talk.pptx", out.getvalue(), "de"))) as after:
        assert b'lang="de"' in after.read("ppt/slides/slide1.xml") and b"en-US" not in after.read(
            "ppt/slides/slide1.xml"
        )
        # a run without a lang of its own inherits the presentation's and its master's default
        assert b'lang="en-US"' not in after.read("ppt/presentation.xml") + after.read(
            "ppt/slideMasters/slideMaster1.xml"
        )
        assert b'lang="en-US"' not in after.read("ppt/notesMasters/notesMaster1.xml")  # the speaker notes' default

    pytest.importorskip("odf")
    from odf import text as odf_text
    from odf.opendocument import OpenDocumentText
    from odf.style import DefaultStyle, TextProperties

    document = OpenDocumentText()
    default = DefaultStyle(family="paragraph")
    default.addElement(TextProperties(language="en", country="US"))
    document.styles.addElement(default)
    document.text.addElement(odf_text.P(text="Open the file."))
    out = io.BytesIO()
    document.save(out)
    with zipfile.ZipFile(io.BytesIO(round_trip("notes.odt", out.getvalue(), "de"))) as after:
        styles = after.read("styles.xml")
        assert b'fo:language="de"' in styles and b"fo:country" not in styles


@pytest.mark.unit
def test_a_file_that_is_not_utf_8_and_declares_nothing_is_read_as_windows_1252_and_written_in_utf_8():
    """As the command line reads a line (runtime/legacy_bytes.py) and browsers an undeclared page:
    the server and the Python API had refused such a .txt file ("not UTF-8 text") that `attn
    translate -i` read; a UTF-8 line beside it stays UTF-8."""
    text = "Café £20\n"
    assert round_trip("notes.txt", text.encode("cp1252") + "Grüße\n".encode("utf-8")).decode("utf-8") == (
        "CAFÉ £20\nGRÜSSE\n"
    )
    assert round_trip("page.html", "<p>Café</p>".encode("cp1252")).decode("utf-8") == "<p>CAFÉ</p>"
    page = "<html><head><title>Café</title></head><p>Café</p></html>"  # a page: it now says it is UTF-8
    assert round_trip("page.html", page.encode("cp1252")).decode("utf-8") == (
        '<html><head><meta charset="utf-8"><title>CAFÉ</title></head><p>CAFÉ</p></html>'
    )
    catalog = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "Café"\nmsgstr ""\n'  # no charset in its header
    assert 'msgstr "CAFÉ"' in round_trip("fr.po", catalog.encode("cp1252")).decode("utf-8")
    words = catalog.replace('msgid "Café"', 'msgid "Café, charset=latin1"')  # a message's words declare nothing
    assert 'msgstr "CAFÉ, CHARSET=LATIN1"' in round_trip("fr.po", words.encode("cp1252")).decode("utf-8")
    # what declares UTF-8 and is not, or is no text, is still refused
    for name, data, said in (
        (
            "page.html",
            '<meta charset="utf-8"><p>Café</p>'.encode("cp1252"),
            "not UTF-8 text .byte 28., which it declares",
        ),
        ("notes.txt", b"\x1f\x8b\x08\x00 caf\xe9", "not text: it holds gzip data"),
        ("notes.txt", b"\x89PNG\r\n\x1a\n\x00\x00 caf\xe9", "not text: it holds binary data"),
        ("page.html", "<p>Hi</p>".encode("utf-16-le"), "not text: it holds binary data"),  # no mark: had been "< p >"
    ):
        with pytest.raises(DocumentError, match=said):
            read_document(name, data)
    subtitles = "1\n00:00:01,000 --> 00:00:02,000\nÀ bientôt\n"
    assert "À BIENTÔT" in round_trip("film.srt", subtitles.encode("cp1252")).decode("utf-8")


@pytest.mark.unit
def test_a_page_or_catalog_in_the_encoding_it_declares_is_read_in_it_and_written_in_utf_8(tmp_path):
    """A Latin-1 page or catalog was refused as "not UTF-8 text"."""
    page = '<html><head><meta charset="iso-8859-1"><title>Café</title></head><p>Grüße – “ok”</p></html>'
    written = round_trip("page.html", page.encode("cp1252")).decode("utf-8")  # read as browsers read Latin-1
    assert written == page.replace("iso-8859-1", "utf-8").replace("Café", "CAFÉ").replace(
        "Grüße – “ok”", "GRÜSSE – “OK”"
    )  # the meta element written as it was, not as <meta …/>
    xhtml = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<html><p>Café</p></html>'
    assert round_trip("page.html", xhtml.encode("latin-1")).decode("utf-8") == (
        '<?xml version="1.0" encoding="UTF-8"?>\n<html><p>CAFÉ</p></html>'
    )
    unicode_page = '<?xml version="1.0" encoding="UTF-16"?>\n<html><p>Café</p></html>'  # UTF-16 by its mark
    assert round_trip("page.html", ("\ufeff" + unicode_page).encode("utf-16-le")).decode("utf-8") == (
        '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<html><p>CAFÉ</p></html>'
    )  # in UTF-8, as declared (it had come back in UTF-16 declaring UTF-8)
    ascii_declared = b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<html><p>Cafe</p></html>'  # UTF-8 written: said
    assert round_trip("page.html", ascii_declared).startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    wrongly_declared = '<meta charset="iso-8859-1"><p>Grüße</p>'.encode()  # UTF-8 whatever it says
    assert "GRÜSSE" in round_trip("page.html", wrongly_declared).decode("utf-8")
    catalog = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "Café"\nmsgstr ""\n'
    written = round_trip("de.po", catalog.encode("latin-1")).decode("utf-8")
    assert "charset=UTF-8" in written and 'msgstr "CAFÉ"' in written
    with pytest.raises(DocumentError, match="not a gettext catalog"):  # polib opened bytes naming a file
        read_document("de.po", str(tmp_path).encode())
    headless = 'msgid "Content-Type: a; charset=latin-1 café"\nmsgstr ""\n'  # its charset in a message
    assert "charset=UTF-8" in round_trip("de.po", headless.encode("latin-1")).decode("utf-8")


@pytest.mark.unit
def test_a_line_break_before_a_capital_ends_a_line_translated_apart():
    """ "Opening hours<br>Monday to Friday" read as one text lost "Monday to" (a heading and its
    line, an address); before a small letter the break wraps a sentence, read whole. The page is
    written as it was written: `<br>`, attributes in their order."""
    lines = read_document("x.html", b"<p>Opening hours<br>Monday to Friday<br>9 to 5</p>")
    assert lines.texts() == ["Opening hours\nMonday to Friday\n9 to 5"]
    wrapped = read_document("x.html", b'<p>Click <a title="t" href="h">below</a><br>to download</p>')
    assert wrapped.texts() == ["Click below to download", "t"]  # the link's title after the runs
    assert (
        round_trip("x.html", b"<p>Opening hours<br>Monday to Friday</p>")
        == b"<p>OPENING HOURS<br>MONDAY TO FRIDAY</p>"  # no space before the break, as the page wrote it
    )
    assert round_trip("x.html", b'<p>Click <a title="t" href="h">below</a><br>to download</p>') == (
        b'<p>CLICK <a title="T" href="h">BELOW</a><br>TO DOWNLOAD</p>'
    )
    xhtml = b'<html xmlns="http://www.w3.org/1999/xhtml"><head><meta charset="utf-8"/></head><p>One<br/>Two</p></html>'
    xml.dom.minidom.parseString(round_trip("x.html", xhtml))  # written as XHTML still, as an XML parser reads it


@pytest.mark.unit
def test_a_forms_fields_stay_beside_their_label_and_button():
    """A field moved into the label or button beside it (`<button><input …> SUBSCRIBE</button>`):
    a label's and a button's text are translated alone, and a field is never moved."""
    form = b'<form><label for="e">Your email</label> <input id="e"> <button>Subscribe now</button></form>'
    assert round_trip("x.html", form) == (
        b'<form><label for="e">YOUR EMAIL</label> <input id="e"> <button>SUBSCRIBE NOW</button></form>'
    )
    inline = read_document("x.html", b"<p>Click <button>Save</button> to keep your changes.</p>")
    assert inline.texts() == ["Click Save to keep your changes."]  # a button within a sentence stays in it
    assert read_document("x.html", b"<div><span>Your name</span><input name=n></div>").texts() == ["Your name"]


@pytest.mark.unit
def test_what_a_reader_sees_or_hears_in_attributes_is_translated():
    """alt, title, placeholder and aria-label texts, a button input's label and a page's description
    stayed in English in a page declared German; what is kept as it is keeps its attributes too."""
    page = (
        '<head><meta name="description" content="Fresh bread"><meta property="og:title" content="Our shop">'
        '<meta name="keywords" content="bread, cake"></head>'
        '<p><img src="a.png" alt="A red door"> Welcome <abbr title="World Health Organization">WHO</abbr></p>'
        '<input type="submit" value="Send it"><input type="text" value="typed by you" placeholder="Your name">'
        '<input type="submit" name="action" value="Delete">'
        '<textarea placeholder="Your words">as typed</textarea><button aria-label="Close the menu">x</button>'
        '<div translate="no"><img alt="Keep this"></div>'
    )
    written = round_trip("x.html", page.encode()).decode()
    for translated in ("FRESH BREAD", "OUR SHOP", "A RED DOOR", "WORLD HEALTH ORGANIZATION", "SEND IT", "YOUR NAME"):
        assert f'"{translated}"' in written, translated
    for kept in ('content="bread, cake"', 'value="typed by you"', ">as typed<", 'alt="Keep this"', 'value="Delete"'):
        assert kept in written, kept
    assert 'placeholder="YOUR WORDS"' in written and 'aria-label="CLOSE THE MENU"' in written


@pytest.mark.unit
def test_a_webvtt_header_says_the_language_the_cues_are_now_in():
    pytest.importorskip("webvtt")
    cues = "WEBVTT\nKind: captions\nLanguage: en\n\n00:00:01.000 --> 00:00:02.000\nHello there.\n"
    written = round_trip("talk.vtt", cues.encode(), "de").decode()
    assert written.startswith("WEBVTT\nKind: captions\nLanguage: de\n\n") and "HELLO THERE." in written
