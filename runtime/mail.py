"""An e-mail message handed in as a document to summarize (a saved `.eml`, or one pasted with its
headers): what it says is its body. Its headers had become the summary's sentences ("From: Anna
Schmidt <anna@example.com> To: …"), and a MIME message's parts were read as base64 and boundaries.
Of a reply, the body is what its sender wrote, not the message it quotes; of a forward, the cover
note and the message forwarded (`own_text`, by quotequail)."""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage

from .constants import BOM

# A message opens with a block of header lines ("Name: value", a folded value's lines indented)
# ended by a blank line; two or more of these names in it tell a message from a text that happens
# to open with "Note: …"
HEADER_NAMES = frozenset(
    "from to cc bcc subject date sent reply-to message-id received return-path mime-version content-type".split()
)
HEADER_LINE = re.compile(r"([A-Za-z][A-Za-z0-9-]*):(?:[ \t]|$)")  # "Subject:" empty, as Python writes it
MBOX_LINE = re.compile(r"From \S")  # the line an mbox file puts before each message ("From - Mon Nov 23 …")
# The characters of a separator line a mail program writes above what it forwards or quotes
# ("---------- Weitergeleitete Nachricht ---------", "-----Original Message-----"), which quotequail
# may leave at the end of the cover note: three or more of them at each end of the line
SEPARATOR = frozenset("-_=*")
SEPARATOR_ENDS = 3


def opening(text: str) -> str:
    """`text` from its first header: without a byte-order mark, blank lines or an mbox "From " line."""
    text = text.removeprefix(BOM).lstrip()
    return text.partition("\n")[2] if MBOX_LINE.match(text) else text


def is_message(text: str) -> bool:
    """Whether `text` opens with a header block (only header lines and their folded lines, up to
    a blank line) naming two or more of HEADER_NAMES."""
    names = set()
    for line in opening(text).replace("\r\n", "\n").split("\n"):
        if not line.strip():
            return len(names & HEADER_NAMES) >= 2
        if found := HEADER_LINE.match(line):
            names.add(found.group(1).lower())
        elif not (names and line[0] in " \t"):  # neither a header nor a folded header's next line
            return False
    return False  # no blank line: no body


def _parsed(text: str) -> EmailMessage | None:
    """The message `text` parsed, or None when it is none (is_message)."""
    if not is_message(text):
        return None
    message = email.message_from_bytes(opening(text).encode("utf-8"), policy=email.policy.default)
    return message if isinstance(message, EmailMessage) else None


def _body(message: EmailMessage | None):
    return message.get_body(preferencelist=("plain", "html")) if message is not None else None


def body_ends_before(text: str) -> bool:
    """Whether the message `text`, cut short, holds its body whole: another part (an attachment)
    began after it. A text that is no message: False."""
    message = _parsed(text)
    body = _body(message)
    if body is None:
        return False
    return body is not list(message.walk())[-1]


def message_text(text: str) -> str:
    """What the message `text` says: the text of its plain-text body, or of its HTML body, its
    sender's own words (own_text); of a text that is no message (is_message), or whose body is
    neither, its own words too (a reply pasted without its headers). A body is read in the
    charset it declares, else as UTF-8 (a pasted message declares none)."""
    body = _body(_parsed(text))
    content = part_text(body) if body is not None else None
    if content is None:
        return own_text(text)
    if body.get_content_type() == "text/html":  # its text as an HTML document's, block by block
        from .documents import read_document

        blocks = read_document("message.html", content.encode("utf-8")).texts()
        content = "\n\n".join(block for block in blocks if block.strip())
    return own_text(content)


def part_text(part) -> str | None:
    """The text of a message's part, read in the charset it declares, else as UTF-8 (a pasted or
    hand-made message declares none; Python's reader took it for ASCII); None when it holds none."""
    payload = part.get_payload(decode=True)
    if payload is None:
        return None
    try:
        return payload.decode(part.get_content_charset() or "utf-8")
    except (LookupError, UnicodeDecodeError):  # a charset Python does not know, or not the one declared
        return payload.decode("utf-8", "replace")


def own_text(body: str) -> str:
    """What the sender of a message whose body is `body` wrote: above and below the quote of a
    reply ("On … wrote:" naming a date or an address, and "> " lines, in English, German, French
    and more), or, of a forward (after a separator line, "---------- Forwarded message ---------";
    Outlook's replies quote as a forward does), the cover note followed by the forwarded message's
    body without its headers; `body` when it quotes nothing ("On Monday, the chair wrote:" in a
    report is no quote); the quote, unquoted, when the sender wrote nothing else. Each part
    without its signature (unsigned)."""
    import quotequail  # pure Python; its HTML half, which needs lxml, is not imported

    unwrapped = quotequail.unwrap(body)
    if unwrapped is None:
        return unsigned(body)
    written_top = unwrapped.get("text_top", "").strip()
    top, earlier = _without_separator(written_top), unwrapped.get("text", "").strip()
    if unwrapped["type"] != "reply":  # a forward: after a separator line, not after any "From:" and "To:"
        outlook = "date" in unwrapped and "subject" in unwrapped  # From, Sent, To, Subject: no separator in its HTML
        marked = outlook or top != written_top or not all(visible for visible, _ in quotequail.quote(body))
        return _joined(top, earlier) if marked else unsigned(body)
    attribution = unwrapped.get("date", "") + unwrapped.get("from", "")
    if not any(character.isdigit() or character == "@" for character in attribution):
        return unsigned(body)  # a mail program's attribution has a date or an address
    return _joined(top, unwrapped.get("text_bottom", "").strip()) or unsigned(earlier)


def _joined(*parts: str) -> str:
    return "\n\n".join(part for part in map(unsigned, parts) if part)


# A closing in English, German or French: a phrase of two words or more ("Best regards", "Viele
# Grüße", "Bien à vous"), or one word with its comma or "!" ("Thanks,", "Cordialement,"): alone,
# "Best", "Merci" or "LG" end a line of a list as well
GRUESSE = r"gr(?:ü|ue|u)(?:ß|ss)(?:en|e)?"
CLOSING = re.compile(
    r"(?:(?:with |many |warm |kind |best |warmest |kindest )*regards|(?:with )?best wishes|thanks and regards"
    r"|many thanks|thank you(?: very much)?|thanks (?:a lot|again)|all the best|yours (?:sincerely|truly)"
    r"|(?:mit )?(?:(?:freundlichen|freundlichem|besten|herzlichen|lieben|sonnigen) )+"
    + GRUESSE
    + r"|(?:(?:viele|liebe|herzliche|beste|freundliche|schöne|sonnige) )+"
    + GRUESSE
    + r"|vielen dank|bien (?:à (?:vous|toi)|cordialement)|(?:sincères |meilleures )?salutations(?: distinguées)?"
    r"|merci beaucoup|bonne journée|belle journée)[\s,.!]*"
    r"|(?:thanks|cheers|regards|best|sincerely|cordialement|merci|danke|mfg|lg|"
    + GRUESSE
    + r"|bises|amitiés|salutations)\s*[,!]",
    re.IGNORECASE,
)
# A word that closes a letter without its comma when a name follows it ("Thanks\nAnna"): not "Best"
# or "LG", which end a line of a list as well
BARE_CLOSING = re.compile(r"(?:thanks|cheers|regards|danke|merci)[.!]?", re.IGNORECASE)
NAME = re.compile(r"[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}")  # "Anna", "Hans-Jürgen Groß"
CLOSING_WORDS = 4
SIGNATURE_LINES = 6  # lines after a closing, at most: a name, a title, a company, its address and numbers
SIGNATURE_LINE_WORDS = 8  # words with letters (a phone number or a "|" is none)


def unsigned(text: str) -> str:
    """`text` without its signature: from a line "-- " (RFC 3676's signature mark, its space
    often lost) on, or from a closing line (CLOSING: "Best regards,") after the text and before
    SIGNATURE_LINES short lines at most to its end (a name, a title, a company, numbers); a summary
    had held "Project Manager, Example Ltd. +49 30 1234567", a headline had been "Anna Schmidt". A
    line that thanks and goes on ("Thank you, the report looks great.") is no closing."""
    lines = text.rstrip().split("\n")
    mark = next((index for index, line in enumerate(lines) if index and line.rstrip() == "--"), None)
    if mark is None:
        tail = range(max(1, len(lines) - SIGNATURE_LINES - 1), len(lines))
        mark = next((index for index in tail if closes(lines[index], lines[index + 1 :])), None)
    return text if mark is None else "\n".join(lines[:mark]).rstrip()


def closes(line: str, after: list[str]) -> bool:
    """Whether `line` is a closing with only a signature's short lines `after` it: CLOSING, or
    BARE_CLOSING with a name on the line after it."""
    line = line.strip()
    return (
        len(line.split()) <= CLOSING_WORDS
        and (
            CLOSING.fullmatch(line) is not None
            or (BARE_CLOSING.fullmatch(line) is not None and bool(after) and is_name(after[0].strip()))
        )
        and all(sum(map(has_letters, following.split())) <= SIGNATURE_LINE_WORDS for following in after)
    )


def is_name(line: str) -> bool:
    """Whether `line` reads as a person's name: one to three words, each capitalized."""
    return NAME.fullmatch(line) is not None and all(word[0].isupper() for word in line.split())


# Words of a sign-off that names a group, not a person ("The Support Team", "Ihr Kundenservice")
GROUP_WORDS = frozenset(
    "the your our my team support service customer sales human resources department das ihr ihre euer eure "
    "unser unsere dein deine mein meine team kundenservice vertrieb abteilung le la les votre notre vos nos "
    "ton ta mon ma équipe service".split()
)


def signed_names(lines: list[str]) -> set[int]:
    """The indexes of `lines` (one text's) that are a person's name right after a letter's closing
    ("Best regards," then "Jürgen Müller"; blank lines between): read alone, the models translated a
    name as words ("Jurge Mill", "Plaus shops", "Dubish Jerom"). Not a group's name or one that
    names a relation ("The Support Team", "Deine Mama": GROUP_WORDS)."""
    found, previous = set(), None
    for index, line in enumerate(lines):
        line = line.strip()
        if not line:
            continue
        if previous is not None and closes(previous, [line]) and is_name(line):
            if not GROUP_WORDS & {word.lower() for word in line.split()}:
                found.add(index)
        previous = line
    return found


def has_letters(word: str) -> bool:
    return any(character.isalpha() for character in word)


def is_separator(line: str) -> bool:
    """Whether `line` is a separator a mail program wrote ("-----Original Message-----"): SEPARATOR
    characters at both ends."""
    line = line.strip()
    ends = line[:SEPARATOR_ENDS] + line[-SEPARATOR_ENDS:]
    return len(line) >= 2 * SEPARATOR_ENDS and set(ends) <= SEPARATOR


def is_quoted_header(line: str) -> bool:
    """Whether `line` is a header of a message quoted or forwarded in a body ("Sent: Monday, …")."""
    found = HEADER_LINE.match(line.strip())
    return found is not None and found.group(1).lower() in HEADER_NAMES


def _without_separator(text: str) -> str:
    """`text` less a last line that is a separator."""
    head, _, last = text.rpartition("\n")
    return head.strip() if head and is_separator(last) else text
