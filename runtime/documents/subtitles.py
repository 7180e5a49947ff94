"""Subtitles: SubRip (.srt, read and written with srt) and WebVTT (.vtt, with webvtt-py). Each
cue's lines are one text, translated as one (a sentence often runs over two lines); the line
breaks and the cue's tags (`<i>`, `<b>`, `<font>`) are placed on the translation by the alignment,
as HTML's inline elements are. Numbering, timing, cue settings, notes and styles are kept."""

from __future__ import annotations

import io

from ..markup import Aligned
from . import DocumentError, decoded
from .html import HtmlDocument


class Cues:
    """Cue texts (lines joined by "\\n") as documents of inline markup, a line break an element."""

    def __init__(self, contents: list[str]):
        self.documents = [HtmlDocument(content.replace("\n", "<br>"), formatter=None) for content in contents]

    def texts(self) -> list[str]:
        return [text for document in self.documents for text in document.texts()]

    def written(self, translations: list[Aligned]) -> list[str]:
        """Each cue's translated text, its lines as the alignment placed the line breaks."""
        found, start = [], 0
        for document in self.documents:
            count = len(document.runs)
            text = document.written(translations[start : start + count]) if count else None
            start += count
            found.append(None if text is None else "\n".join(line.strip() for line in text.split("<br/>")))
        return found


class SrtDocument:
    def __init__(self, data: bytes):
        import srt

        text, self.mark = decoded(data)
        try:
            self.subtitles = list(srt.parse(text.replace("\r\n", "\n")))
        except srt.SRTParseError as error:
            raise DocumentError(f"not a SubRip file: {str(error).splitlines()[0][:200]}") from None
        self.cues = Cues([subtitle.content for subtitle in self.subtitles])

    def texts(self) -> list[str]:
        return self.cues.texts()

    def written(self, translations: list[Aligned]) -> bytes:
        import srt

        for subtitle, content in zip(self.subtitles, self.cues.written(translations)):
            if content is not None:
                subtitle.content = content
        return (self.mark + srt.compose(self.subtitles, reindex=False)).encode("utf-8")


class VttDocument:
    def __init__(self, data: bytes):
        import webvtt

        text, self.mark = decoded(data)
        try:
            self.vtt = webvtt.from_buffer(io.StringIO(text.replace("\r\n", "\n")))
        except webvtt.errors.MalformedFileError as error:
            raise DocumentError(f"not a WebVTT file: {str(error)[:200]}") from None
        self.cues = Cues([caption.raw_text for caption in self.vtt.captions])

    def texts(self) -> list[str]:
        return self.cues.texts()

    def written(self, translations: list[Aligned]) -> bytes:
        for caption, content in zip(self.vtt.captions, self.cues.written(translations)):
            if content is not None:
                caption.text = content
        return (self.mark + self.vtt.content).encode("utf-8")
