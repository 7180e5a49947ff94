"""Paragraph mode: lines grouped into paragraphs at blank lines, for `attn translate --paragraphs`.

A paragraph is a run of non-blank lines; its lines are unwrapped (joined with single spaces) into
one text, which the translator splits into sentences, but a list item, an address's or a
signature's lines are texts of their own (runtime/sentences.py `paragraph_blocks`), but for a
person's name after a letter's closing, one text with it, of two lines (runtime/mail.py
`signed_names`: the name is given back as written). Blank lines
are kept as they were, so the output has one line per text and the input's blank lines between
them. Memory stays bounded:
a paragraph that grows past `max_chars` characters is closed there (with a note) and the lines
after it start the next one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from attn.runtime.mail import signed_names
from attn.runtime.sentences import paragraph_blocks
from attn.runtime.sessions import warn_on_stderr

BLANK = None  # an item of `Paragraphs.feed`: a blank line of the input


class Paragraphs:
    """Feed lines in order, get back paragraphs (str) and blank lines (BLANK) as they complete."""

    def __init__(self, max_chars: int, notify: Callable[[str], None] = warn_on_stderr):
        self.max_chars, self.notify = max_chars, notify
        self._lines: list[str] = []
        self._chars = self._line_number = 0

    def feed(self, lines: Iterable[str]) -> Iterator[str | None]:
        for line in lines:
            self._line_number += 1
            if not line.strip():
                yield from self._close()
                yield BLANK
                continue
            self._lines.append(line.strip())
            self._chars += len(line)
            if self._chars > self.max_chars:
                self.notify(
                    f"the paragraph ending at line {self._line_number} is longer than {self.max_chars} "
                    f"characters: the lines after it start a new one"
                )
                yield from self._close()

    def close(self) -> Iterator[str]:
        """The last paragraph, when the input did not end with a blank line."""
        yield from self._close()

    def _close(self) -> Iterator[str]:
        texts = [
            " ".join(" ".join(self._lines[index] for index in block).split()) for block in paragraph_blocks(self._lines)
        ]
        signed = signed_names(texts)  # a closing and the name after it: one text of two lines, the name kept
        for index, text in enumerate(texts):
            if index + 1 in signed:
                continue
            yield f"{texts[index - 1]}\n{text}" if index in signed else text
        self._lines, self._chars = [], 0
