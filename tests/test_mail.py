"""An e-mail message handed in to summarize is read as its body (runtime/mail.py): its headers had
become the summary ("From: Anna Schmidt <anna.schmidt@example.com> — To: Project team …")."""

from email.message import EmailMessage

import pytest

import attn.runtime as attn
from attn.runtime.mail import message_text, signed_names

from .test_cli import attn as run

BODY = (
    "Hi all,\n\nThe office moves to the new building on Friday. Please pack your desks by Thursday evening; "
    "the movers arrive at 7 a.m. and will take the labelled boxes. The network will be down from Friday noon "
    "until Saturday morning, so save your work to the shared drive before you leave.\n\nThanks,\nAnna\n"
)
WRITTEN = BODY.split("\n\nThanks,")[0]  # what its sender wrote: its closing and name are its signature
HEADERS = {
    "From": "Anna Schmidt <anna.schmidt@example.com>",
    "To": "Project team <team@example.com>",
    "Subject": "Office move on Friday, and what the network will do while we are away from our desks",
    "Date": "Tue, 24 Nov 2026 09:12:00 +0100",
}


def message(plain: str | None, html: str | None = None) -> str:
    """A message as a mail client saves it: MIME, base64 where it chose, a long Subject folded."""
    built = EmailMessage()
    for name, value in HEADERS.items():
        built[name] = value
    if plain is not None:
        built.set_content(plain, cte="base64")
    if html is not None:
        (built.add_alternative if plain is not None else built.set_content)(html, subtype="html")
    return built.as_string()


@pytest.mark.unit
def test_a_message_is_read_as_its_plain_body_or_its_html_bodys_text():
    assert message_text(message(BODY)) == WRITTEN
    assert message_text(message(BODY, "<p>Other words</p>")) == WRITTEN
    assert message_text(message(None, "<p>Hi all,</p><p>The office <b>moves</b> on Friday.</p>")) == (
        "Hi all,\n\nThe office moves on Friday."
    )
    pasted = "From: Anna\nSent: Tuesday, 24 November 2026 09:12\nTo: Bob\nSubject: Move\n\n" + BODY  # Outlook's
    assert message_text(pasted) == WRITTEN
    # a pasted message declares no charset, a saved one may send UTF-8 as it is: read as UTF-8, not garbled
    german = "Die Größe steigt um 5 000 €.\n"
    assert message_text("\ufeffFrom: Anna\nTo: Bob\n\n" + german) == german
    eight_bit = "From: A\nTo: B\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
    assert message_text(eight_bit + german) == german


@pytest.mark.unit
@pytest.mark.parametrize(
    "text",
    [
        "Note: this opens with a colon.\nIt is no message.",
        "Subject: physics\nA text that opens with one header name is no message.",
        "Quarterly report\nThe meeting went well.\nFrom: the board\nTo: all staff\n\nRevenue rose in Köln.",
        "From: the board\nTo: all staff\nwithout a blank line after them, no message.",
        WRITTEN,
    ],
)
def test_a_text_that_is_no_message_is_left_as_it_is(text):
    assert message_text(text) == text


QUESTION = "When is the office move? The new building has no parking,\nand I need to plan how to get there.\n"
REPLY_HEADERS = [  # what Gmail, Thunderbird and Apple Mail write above a quote, in English, German and French
    "On Mon, 23 Nov 2026 at 17:40, Bob Meyer <bob@example.com> wrote:",
    "Am Mo., 23. Nov. 2026 um 17:40 Uhr schrieb Bob Meyer <bob@example.com>:",
    "Le lun. 23 nov. 2026 à 17:40, Bob Meyer <bob@example.com> a écrit :",
]
FORWARDED_HEADERS = (
    "From: Bob Meyer <bob@example.com>\nDate: Mon, 23 Nov 2026 17:40\nSubject: Move\nTo: Anna <anna@example.com>\n\n"
)


def quoted(text: str) -> str:
    return "".join(f"> {line}\n" for line in text.splitlines())


@pytest.mark.unit
@pytest.mark.parametrize("header", REPLY_HEADERS)
def test_a_reply_is_read_as_what_its_sender_wrote_not_what_it_quotes(header):
    assert message_text(message(f"{BODY}\n{header}\n{quoted(QUESTION)}")) == WRITTEN
    assert message_text(f"{BODY}\n{header}\n{quoted(QUESTION)}") == WRITTEN  # pasted without its headers


@pytest.mark.unit
@pytest.mark.parametrize(
    "separator",
    [
        "---------- Forwarded message ---------",  # Gmail
        "---------- Weitergeleitete Nachricht ---------",  # Gmail in German
        "-----Original Message-----",  # Outlook's reply quotes as a forward does
    ],
)
def test_a_forward_is_read_as_its_cover_note_and_the_message_forwarded(separator):
    forward = f"FYI, see below.\n\n{separator}\n{FORWARDED_HEADERS}{QUESTION}"
    assert message_text(message(forward)) == "FYI, see below.\n\n" + QUESTION.strip()


@pytest.mark.unit
def test_a_reply_written_below_the_quote_is_read_and_a_report_quoting_someone_is_left_whole():
    bottom = f"{REPLY_HEADERS[0]}\n{quoted(QUESTION)}\n{BODY}"
    assert message_text(message(bottom)) == WRITTEN
    report = "The board met today.\n\nOn Monday, the chair wrote:\nWe will open an office in Berlin next year.\n"
    assert message_text(message(report)) == report  # no date, no address: no mail program's attribution


@pytest.mark.unit
def test_an_outlook_reply_whose_separator_its_html_lost_is_read_as_its_cover_and_the_message():
    """Outlook parts a reply from what it quotes by a rule in its HTML, gone in its text: its
    From, Sent, To and Subject still tell a quoted message, where a report's From and To do not."""
    outlook = "<p>Sounds good.</p><hr><p>From: Bob Meyer<br>Sent: Monday, November 23, 2026 9:00 AM<br>To: Anna<br>"
    outlook += "Subject: RE: move</p><p>When is it?</p>"
    assert message_text(message(None, outlook)) == "Sounds good.\n\nWhen is it?"


@pytest.mark.unit
def test_a_signature_after_its_mark_is_not_read():
    """RFC 3676's "-- " line marks a signature (a summary held "Project Manager, Example Ltd. +49 …"),
    in a reply's own words and in a message forwarded alike."""
    signed = BODY + "-- \nAnna Schmidt\nProject Manager, Example Ltd.\n+49 30 1234567\n"
    assert message_text(message(signed)) == BODY.strip()
    assert message_text(message(f"{signed}\n{REPLY_HEADERS[0]}\n{quoted(QUESTION)}")) == BODY.strip()
    forward = f"FYI.\n--\nAnna\n\n---------- Forwarded message ---------\n{FORWARDED_HEADERS}{QUESTION}--\nBob\n"
    assert message_text(message(forward)) == "FYI.\n\n" + QUESTION.strip()


@pytest.mark.unit
@pytest.mark.parametrize(
    "closing",
    [
        "Best regards,",
        "Kind regards",
        "Thanks!",
        "Cheers,",
        "Viele liebe Grüße",
        "Mit freundlichem Gruß",
        "Cordialement,",
        "Thanks",  # without its comma: a name follows
        "Danke",
    ],
)
def test_a_signature_after_a_closing_is_not_read(closing):
    """Without its mark, a signature was read as the summary's text: a headline had been "Anna
    Schmidt". A closing at the end, with a signature's short lines after it, ends the text."""
    signature = "\nAnna Schmidt\nHead of Finance\nACME GmbH | Tel. +49 30 1234567 | www.acme.example\n"
    assert message_text(f"{WRITTEN}\n\n{closing}{signature}") == WRITTEN


@pytest.mark.unit
@pytest.mark.parametrize(
    "text",
    [
        "Hi Anna,\n\nThank you, the report looks great. Please send it to the board by Monday.\n\nTom",
        "The minister said the plan would go ahead.\nRegards, she added, were sent to the families.\nThe vote is next week.",
        "Hi,\nsee the numbers below.\nBest regards,\nAnna\nRevenue rose by 5 percent to 3.2 billion euros in the third "
        "quarter, the company said on Monday in its report from Berlin.",
        # a list's short lines, whose words may close a letter too ("LG" for "liebe Grüße")
        "We tested this year's phones.\nApple\nSamsung\nLG\nSony",
        "Our ranking of the year:\nBest\nDune Part Two\nWorst\nMadame Web",
    ],
)
def test_a_line_that_thanks_or_greets_inside_the_text_ends_nothing(text):
    assert message_text(text) == text


@pytest.mark.unit
def test_a_message_that_only_quotes_is_read_as_the_quote():
    assert message_text(message(f"{REPLY_HEADERS[0]}\n{quoted(QUESTION)}")) == QUESTION.strip()


@pytest.mark.system
def test_a_saved_message_is_summarized_from_its_body(tmp_path):
    saved = tmp_path / "move.eml"
    saved.write_text(message(BODY))
    summary = run("summarize", str(saved)).stdout.decode()
    assert summary == run("summarize", stdin=BODY).stdout.decode()
    assert "From" not in summary and "@" not in summary
    assert attn.summarize(message(BODY)) == attn.summarize(BODY)
    reply = tmp_path / "reply.eml"
    reply.write_text(message(f"{BODY}\n{REPLY_HEADERS[0]}\n{quoted(QUESTION)}"))
    assert run("summarize", str(reply)).stdout.decode() == summary  # the quoted question is not summarized


@pytest.mark.system
def test_a_message_cut_short_in_its_attachment_is_summarized_without_a_note_on_its_length(tmp_path):
    """The note said only the first 100,000 characters were read, though the body, first, was whole."""
    built = EmailMessage()
    for name, value in HEADERS.items():
        built[name] = value
    built.set_content(BODY)
    built.add_attachment(bytes(range(256)) * 1200, maintype="application", subtype="pdf", filename="plan.pdf")
    saved = tmp_path / "with-plan.eml"
    saved.write_text(built.as_string())
    read = run("summarize", str(saved))
    assert read.stderr == b"" and read.stdout == run("summarize", stdin=BODY).stdout
    cut_in_body = run("summarize", "--max-chars", "150", str(saved)).stderr.decode()
    assert "--max-chars" in cut_in_body  # a cut before the body's end is still said


@pytest.mark.unit
def test_a_name_after_a_closing_is_a_signed_name():
    lines = [
        "Hallo Anna,",
        "",
        "Mit freundlichen Grüßen",
        "Jürgen Müller",
        "Leiter Vertrieb",
        "",
        "Thanks,",
        "",
        "Anna",
    ]
    assert signed_names(lines) == {3, 8}  # not the line after the name, nor a greeting's
    assert signed_names(["Best regards,", "The Support Team"]) == set()  # a group's name is translated
    assert signed_names(["Cordialement,", "Merci pour votre aide."]) == set()
    assert signed_names(["Viele Grüße", "Deine Mama"]) == set()  # a relation, translated


@pytest.mark.system
@pytest.mark.parametrize(
    "source, target, closing",
    [("de", "en", "Viele Grüße,"), ("fr", "en", "Cordialement,"), ("en", "fr", "Best regards,")],
)
def test_a_signed_name_comes_through_as_written(source, target, closing):
    """Read alone, a sign-off's name had been translated as words: "Jürgen Müller" → "Jurge Mill",
    "Klaus Schäfer" → "Plaus shops", "Jérôme Dubois" → "Dubish Jerom"."""
    names = ["Jürgen Müller", "Klaus Schäfer", "Jérôme Dubois", "Hélène Martin", "Émilie Roux", "Thomas"]
    for name, result in zip(
        names, attn.translate([f"{closing}\n{name}" for name in names], source=source, target=target)
    ):
        assert result.split("\n")[-1] == name
    # only after a closing in the same text: an input is translated as it is alone, whatever comes
    # before it (the same text, or one scored the same: another CPU's rounding at a near tie)
    translator = attn.load(notify=lambda note: None)
    alone = translator.translate(names[0], source=source, target=target)
    after = translator.translate([closing, names[0]], source=source, target=target)[1]
    assert after.text == alone.text or after.score == pytest.approx(alone.score, abs=1e-3)
