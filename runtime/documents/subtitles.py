"""Subtitles: SubRip (.srt, read and written with srt) and WebVTT (.vtt, with webvtt-py). Each
cue's lines are one text, translated as one (a sentence often runs over two lines); the line
breaks and the cue's tags (`<i>`, `<b>`, `<font …>`, WebVTT's `<c.class>` and `<v Name>`) are
placed on the translation by the alignment, as HTML's inline elements are, each written back
exactly as the cue had it; timestamps and SubRip's `{\\an8}` overrides are markup, not text.
Numbering, timing, cue settings, notes and styles are kept."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from ..markup import Aligned, Span, layout, nest, place
from . import DocumentError, decoded, redeclared

# A cue's markup: a tag (`<i>`, `</i>`, `<c.yellow>`, `<v Roger>`, `<font color="red">`), a
# timestamp (`<00:00:03.500>`), an override of SubRip's ASS dialects (`{\\an8}`), a line break.
MARKUP = re.compile(r"<[^<>\n]*>|\{\\[^{}\n]*\}|\n")
TIMESTAMP = re.compile(r"<\d")
# A WebVTT cue's timing line's start and end ("00:01.000 --> 00:04.000 align:start")
TIMING = re.compile(r"^([^\S\n]*)(\S+)([^\S\n]+-->[^\S\n]+)(\S+)", re.MULTILINE)


@dataclass(frozen=True)
class CueTag:
    """A span's payload: the markup written before and after its words, exactly as the cue had it."""

    before: str
    after: str = ""


class CueReader:
    """One cue's text (its lines joined by a space, as one sentence may run over two) and its
    markup as spans: a tag and its closing tag (by name: `</c>` closes `<c.yellow>`) are one span;
    a timestamp, an override, a tag never closed and a line break are void."""

    def __init__(self, content: str):
        self.text, self.spans, opened = "", [], []
        position = 0
        for match in MARKUP.finditer(content):
            self.text += content[position : match.start()]
            position = match.end()
            token = match.group()
            name = token[1:-1].lstrip("/").split(" ")[0].split(".")[0].lower()
            if token.startswith("</") and any(tag_name == name for tag_name, _ in opened):
                while opened:  # a tag closes what it holds that was left open
                    tag_name, span = opened.pop()
                    span.end = len(self.text)
                    if tag_name == name:
                        span.payload = CueTag(span.payload.before, token)
                        break
                    span.payload = CueTag(span.payload.before, "")
            elif token.startswith("<") and not token.startswith("</") and not TIMESTAMP.match(token):
                span = Span(len(self.text), len(self.text), CueTag(token))
                self.spans.append(span)
                opened.append((name, span))
            else:
                self.spans.append(Span(len(self.text), len(self.text), CueTag(token), void=True, breaks=token == "\n"))
                if token == "\n":
                    self.text += " "
        self.text += content[position:]
        for _, span in opened:  # never closed: a void element where it opened
            span.void, span.end = True, span.start

    def written(self, translation: Aligned) -> str:
        out = ""
        for kind, payload in layout(translation.text, place(self.text, nest(self.spans), translation)):
            out += payload if kind == "text" else payload.after if kind == "close" else payload.before
        return "\n".join(line.strip() for line in out.split("\n"))


class Cues:
    """The cues of a subtitle file: each with a letter or digit a text."""

    def __init__(self, contents: list[str]):
        self.readers = [CueReader(content) for content in contents]
        self.wanted = [i for i, reader in enumerate(self.readers) if any(c.isalnum() for c in reader.text)]

    def texts(self) -> list[str]:
        return [self.readers[i].text for i in self.wanted]

    def written(self, translations: list[Aligned]) -> list[str | None]:
        """Each cue's translated text (None: a cue left as it was), its line breaks and tags placed."""
        found: list[str | None] = [None] * len(self.readers)
        for i, translation in zip(self.wanted, translations):
            found[i] = self.readers[i].written(translation)
        return found


def unparsed(text: str, start: int) -> str:
    """What is wrong where the SubRip parser stopped (`start`, where a cue was expected): the line
    after a cue's number, when that is no timing; else the line itself."""
    number = text.count("\n", 0, start) + 1
    lines = text[start:].split("\n")
    while lines and not lines[0].strip():  # the blank lines between cues
        lines, number = lines[1:], number + 1
    if lines and lines[0].strip().isdigit():
        return f"line {number + 1} is not a cue's timing, such as 00:00:01,000 --> 00:00:02,500"
    return f"line {number} is not a cue's number, timing or text"


class SrtDocument:
    def __init__(self, data: bytes):
        import srt

        self.file = decoded(data)
        try:
            self.subtitles = list(srt.parse(self.file.text))
        except srt.SRTParseError as error:  # its message quotes the parser's pattern
            raise DocumentError(f"not a SubRip file ({unparsed(self.file.text, error.expected_start)})") from None
        self.cues = Cues([subtitle.content for subtitle in self.subtitles])

    def texts(self) -> list[str]:
        return self.cues.texts()

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        import srt

        for subtitle, content in zip(self.subtitles, self.cues.written(translations)):
            if content is not None:
                subtitle.content = content
        return self.file.encoded(srt.compose(self.subtitles, reindex=False))


class VttDocument:
    def __init__(self, data: bytes):
        import webvtt

        self.file = decoded(data)
        try:
            self.vtt = webvtt.from_buffer(io.StringIO(self.file.text))
        except webvtt.errors.MalformedFileError as error:
            raise DocumentError(f"not a WebVTT file: {str(error)[:200]}") from None
        self.cues = Cues([caption.raw_text for caption in self.vtt.captions])

    def texts(self) -> list[str]:
        return self.cues.texts()

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        for caption, content in zip(self.vtt.captions, self.cues.written(translations)):
            if content is not None:
                caption.text = content
        if language and translations:  # the header's "Language: en", as YouTube and others write it
            self.vtt.metadata[:] = [
                f"{name}: {redeclared(value.strip(), language)}" if name.strip().lower() == "language" else line
                for line in self.vtt.metadata
                for name, _, value in [line.partition(":")]
            ]
        return self.file.encoded(kept_timings(self.file.text, self.vtt.content))


def kept_timings(original: str, written: str) -> str:
    """`written` with each cue's start and end as `original` has them: webvtt-py writes every
    timestamp in full ("00:01.000" as "00:00:01.000"), and every timing line of a file had changed."""
    timings = list(TIMING.finditer(original))
    if len(timings) != len(TIMING.findall(written)):  # not the same cues: left as written
        return written
    kept = iter(timings)

    def restored(found: re.Match) -> str:
        was = next(kept)
        return f"{found[1]}{was[2]}{found[3]}{was[4]}"

    return TIMING.sub(restored, written)
