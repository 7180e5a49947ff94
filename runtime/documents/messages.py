"""E-mail messages (.eml, read and written with the standard library's email): the Subject (its
"Re:" or "Fwd:" kept as it is) and each text part of the message itself translated — plain text
paragraph by paragraph (a paragraph wrapped over long lines is one text, written back wrapped to
its width; other lines, a greeting's or a signature's, one text each; quoted lines keep their
"> "; a separator line and the headers of a message quoted or forwarded are kept as they are),
HTML as an .html file's runs. The other headers (written as they were: a long Message-ID
is not refolded), attachments, a message attached to it and the MIME structure are kept; a
translated part is written in UTF-8, and a Content-Language header, where there is one, says the
translation's language."""

from __future__ import annotations

import codecs
import email
import email.policy
import re
import textwrap
from email.message import EmailMessage
from itertools import groupby

from ..byte_order import marked_encoding
from ..mail import MBOX_LINE, is_message, is_quoted_header, is_separator, opening, part_text
from ..markup import Aligned
from ..sentences import document_blocks, wrapped
from . import DocumentError, redeclared
from .html import HtmlDocument

# The marks mail programs put before a reply's or a forward's subject, in English, German, French,
# Dutch and Scandinavian languages ("Re: AW: Fwd:"): no words to translate
SUBJECT_MARKS = re.compile(r"^(?:(?:re|fwd?|aw|wg|tr|sv|vs|antw|doorst)\s*:\s*)*", re.IGNORECASE)
QUOTE = re.compile(r"(?:>[ \t]?)*")  # a quoted line's marks, one per depth


class PlainBody:
    """A text/plain part's text: its paragraphs, each within one depth of quoting, as texts."""

    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.blocks: list[tuple[str, list[int]]] = []  # (quote marks, line indexes) of each text
        numbered = list(enumerate(self.lines))
        for marks, quoted in groupby(numbered, key=lambda item: QUOTE.match(item[1]).group().rstrip()):
            quoted = list(quoted)
            inner = [self._inner(index) for index, _ in quoted]
            for block in document_blocks(inner):
                lines = [quoted[index][0] for index in block]
                for part in [lines] if wrapped([inner[index] for index in block]) else [[line] for line in lines]:
                    words = [self._inner(index) for index in part]
                    if any(map(is_separator, words)) or any(map(is_quoted_header, words)):
                        continue  # "-----Original Message-----", "Sent: Monday, …": kept as the mail program wrote them
                    if any(character.isalnum() for line in words for character in line):
                        self.blocks.append((marks, part))

    def _inner(self, index: int) -> str:
        line = self.lines[index]
        return line[len(QUOTE.match(line).group()) :]

    def texts(self) -> list[str]:
        return [" ".join(" ".join(self._inner(index) for index in block).split()) for _, block in self.blocks]

    def _lead(self, marks: str, index: int) -> str:
        """What a line keeps before its words: its quote marks, or its indentation."""
        line = self.lines[index]
        return marks + " " if marks else line[: len(line) - len(line.lstrip())]

    def written(self, translations: list[Aligned], language: str | None = None) -> str:
        lines: list[str | None] = list(self.lines)
        for (marks, block), translation in zip(self.blocks, translations):
            first = self._lead(marks, block[0])
            if len(block) > 1:  # wrapped: wrapped again, as wide as its widest line
                filled = textwrap.fill(
                    translation.text,
                    max(len(self.lines[index]) for index in block),
                    initial_indent=first,
                    subsequent_indent=self._lead(marks, block[1]),  # a list item's next lines keep their indent
                    break_long_words=False,
                    break_on_hyphens=False,  # a URL is no place to break
                )
            else:
                filled = first + translation.text
            lines[block[0]] = filled
            for index in block[1:]:
                lines[index] = None
        return "\n".join(line for line in lines if line is not None)


def text_parts(part: EmailMessage):
    """The plain-text and HTML parts of the message itself, in order: not an attachment (a part
    with a file name, even one shown inline: a log.txt) nor a message attached to it."""
    if part.get_content_type() == "message/rfc822":
        return
    if part.is_multipart():
        for inner in part.iter_parts():
            yield from text_parts(inner)
    elif (
        not part.is_attachment()
        and part.get_filename() is None
        and part.get_content_type() in ("text/plain", "text/html")
    ):
        yield part


class MessageDocument:
    def __init__(self, data: bytes):
        encoding = marked_encoding(data)  # saved in UTF-16 or UTF-32: read as UTF-8 is
        text = data.decode(encoding, "replace") if encoding else data.decode("utf-8", "replace")
        if not is_message(text):
            raise DocumentError("not an e-mail message (no block of headers such as From:, To:, Subject: at its top)")
        if encoding:
            raw = opening(text).encode("utf-8")
        else:  # its bytes as they are (an 8-bit part in the charset it declares), from its first header
            raw = data.removeprefix(codecs.BOM_UTF8).lstrip()
            raw = raw.partition(b"\n")[2] if MBOX_LINE.match(raw[:64].decode("latin-1")) else raw
        self.crlf = b"\r\n" in raw[:2000]
        self.message = email.message_from_bytes(raw, policy=email.policy.default)
        subject = str(self.message.get("Subject", ""))
        self.marks = SUBJECT_MARKS.match(subject).group()
        self.subject = subject[len(self.marks) :].strip()
        self.bodies: list[tuple[EmailMessage, PlainBody | HtmlDocument]] = []
        for part in text_parts(self.message):
            content = part_text(part)
            if content is not None:
                kind = PlainBody if part.get_content_subtype() == "plain" else HtmlDocument
                self.bodies.append((part, kind(content.replace("\r\n", "\n"))))

    def texts(self) -> list[str]:
        subject = [self.subject] if any(character.isalnum() for character in self.subject) else []
        return subject + [text for _, body in self.bodies for text in body.texts()]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        remaining = iter(translations)
        if any(character.isalnum() for character in self.subject):
            self.message.replace_header("Subject", self.marks + next(remaining).text)
        for part, body in self.bodies:
            found = [next(remaining) for _ in body.texts()]
            if found:
                declared = part.get("Content-Language")  # set_content clears the Content- headers
                part.set_content(
                    body.written(found, language),
                    subtype=part.get_content_subtype(),
                    charset="utf-8",
                    disposition=part.get_content_disposition(),
                    cid=part.get("Content-ID"),
                )
                if declared is not None:
                    part["Content-Language"] = redeclared(str(declared), language) if language else str(declared)
        if language and self.bodies and "Content-Language" in self.message:
            self.message.replace_header("Content-Language", redeclared(str(self.message["Content-Language"]), language))
        policy = email.policy.default.clone(linesep="\r\n" if self.crlf else "\n", refold_source="none")
        return self.message.as_bytes(policy=policy)
