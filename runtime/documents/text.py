"""Plain text files: each non-blank line a text; blank lines, each line's indentation and trailing
spaces, Windows line ends and a byte-order mark kept."""

from __future__ import annotations

from ..markup import Aligned
from . import decoded


class TextDocument:
    def __init__(self, data: bytes):
        self.file = decoded(data)
        self.lines = self.file.text.split("\n")
        self.wanted = [i for i, line in enumerate(self.lines) if line.strip()]

    def texts(self) -> list[str]:
        return [self.lines[i].strip() for i in self.wanted]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        lines = list(self.lines)
        for i, translation in zip(self.wanted, translations):
            line = lines[i]
            lines[i] = line[: len(line) - len(line.lstrip())] + translation.text + line[len(line.rstrip()) :]
        return self.file.encoded("\n".join(lines))
