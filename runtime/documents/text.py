"""Plain text files: each non-blank line a text; blank lines, Windows line ends and a byte-order
mark kept."""

from __future__ import annotations

from ..markup import Aligned
from . import decoded


class TextDocument:
    def __init__(self, data: bytes):
        self.file = decoded(data)
        self.lines = self.file.text.split("\n")
        self.wanted = [i for i, line in enumerate(self.lines) if line.strip()]

    def texts(self) -> list[str]:
        return [self.lines[i] for i in self.wanted]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        lines = list(self.lines)
        for i, translation in zip(self.wanted, translations):
            lines[i] = translation.text
        return self.file.encoded("\n".join(lines))
