"""E-mail messages (.eml, read and written with the standard library's email): the Subject (its
"Re:" or "Fwd:" kept as it is) and each text part translated — plain text paragraph by paragraph
(runtime/sentences.py document_blocks: a paragraph wrapped over lines is one text, written back
wrapped to its width; quoted lines keep their "> "), HTML as an .html file's runs. The other
headers, the attachments and the MIME structure are kept; a translated part is written in UTF-8,
and a Content-Language header says the translation's language."""

from __future__ import annotations

import email
import email.policy
import re
import textwrap
from email.message import EmailMessage
from itertools import groupby

from ..mail import is_message
from ..markup import Aligned
from ..sentences import document_blocks
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
                if any(character.isalnum() for index in block for character in inner[index]):
                    self.blocks.append((marks, [quoted[index][0] for index in block]))

    def _inner(self, index: int) -> str:
        line = self.lines[index]
        return line[len(QUOTE.match(line).group()) :]

    def texts(self) -> list[str]:
        return [" ".join(" ".join(self._inner(index) for index in block).split()) for _, block in self.blocks]

    def written(self, translations: list[Aligned], language: str | None = None) -> str:
        lines: list[str | None] = list(self.lines)
        for (marks, block), translation in zip(self.blocks, translations):
            first = self.lines[block[0]]
            lead = first[: len(first) - len(first.lstrip())] if not marks else marks + " "
            if len(block) > 1:  # wrapped: wrapped again, as wide as its widest line
                width = max(len(self.lines[index]) for index in block)
                filled = textwrap.fill(
                    translation.text, width, initial_indent=lead, subsequent_indent=lead, break_long_words=False
                )
            else:
                filled = lead + translation.text
            lines[block[0]] = filled
            for index in block[1:]:
                lines[index] = None
        return "\n".join(line for line in lines if line is not None)


class MessageDocument:
    def __init__(self, data: bytes):
        if not is_message(data.decode("utf-8", "replace")):
            raise DocumentError("not an e-mail message (no block of headers such as From:, To:, Subject: at its top)")
        self.crlf = b"\r\n" in data[:2000]
        self.message = email.message_from_bytes(data, policy=email.policy.default)
        subject = str(self.message.get("Subject", ""))
        self.marks = SUBJECT_MARKS.match(subject).group()
        self.subject = subject[len(self.marks) :].strip()
        self.bodies: list[tuple[EmailMessage, PlainBody | HtmlDocument]] = []
        for part in self.message.walk():
            if part.is_multipart() or part.is_attachment() or part.get_content_maintype() != "text":
                continue
            kind = {"plain": PlainBody, "html": HtmlDocument}.get(part.get_content_subtype())
            if kind is not None:
                try:
                    self.bodies.append((part, kind(part.get_content())))
                except (LookupError, UnicodeError) as error:  # a charset Python does not know, or not the declared one
                    raise DocumentError(f"a {part.get_content_type()} part cannot be read ({error})") from None

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
        return self.message.as_bytes(policy=email.policy.default.clone(linesep="\r\n" if self.crlf else "\n"))
