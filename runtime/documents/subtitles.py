"""Subtitles: SubRip (.srt, read and written with srt) and WebVTT (.vtt, with webvtt-py). Each
cue's lines are one text, translated as one (a sentence often runs over two lines), and so are
cues that one sentence runs over (Cues.sentences: "I have never seen" and "such a beautiful
building." read apart had come out as "Ich habe noch nie gesehen" and "So ein schönes Gebäude.");
the line breaks, the cue's tags (`<i>`, `<b>`, `<font …>`, WebVTT's `<c.class>` and `<v Name>`)
and the end of each cue of a sentence are placed on the translation by the alignment, as HTML's
inline elements are, each written back exactly as the cue had it; timestamps and SubRip's `{\\an8}`
overrides are markup, not text. Numbering, timing, cue settings, notes and styles are kept."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..markup import Aligned, Span, layout, nest, place
from . import DocumentError, decoded, redeclared

if TYPE_CHECKING:
    import srt

# A cue's markup: a tag (`<i>`, `</i>`, `<c.yellow>`, `<v Roger>`, `<font color="red">`), a
# timestamp (`<00:00:03.500>`), an override of SubRip's ASS dialects (`{\\an8}`), a line break.
MARKUP = re.compile(r"<[^<>\n]*>|\{\\[^{}\n]*\}|\n|\u2063")
# Where one cue ends and the next begins in a text read over both (U+2063, an invisible separator,
# which no cue holds and no strip() takes: a record separator had been stripped as whitespace at
# a translation's edge, and its cue left untranslated): a break placed as a line break is
CUE_END = "\u2063"
# What a cue opens with that says who speaks or where the text stands (WebVTT's `<v Alice>`,
# SubRip's `{\\an8}`): cues that differ in it are no one sentence
SPEAKER = re.compile(r"^\s*(?:<v[ .][^>]*>|\{\\an\d\})")
# A cue wholly in one element ("<i>…</i>"), whose tag a translation shared by length keeps
WRAPPED_CUE = re.compile(r"^(<(\w+)[^<>]*>)(?!.*<\2[\s>]).*(</\2>)$", re.S)
# What ends a cue's sentence: its last character one of these (a closing quote or bracket after
# it); what opens another speaker's line
SENTENCE_END = re.compile(r"[.!?…:;♪]\W*$")
DIALOGUE = re.compile(r"^\W*[-–—]")
MAX_CUES = 3  # cues read as one sentence at most
CUE_WORDS = 2  # words of each cue of one sentence at least: "So" / "what?" read as one had left one cue empty
MAX_GAP = 2.0  # seconds between two cues of one sentence at most
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
                breaks = token in ("\n", CUE_END)
                self.spans.append(Span(len(self.text), len(self.text), CueTag(token), void=True, breaks=breaks))
                if breaks:
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
    """The cues of a subtitle file, each with a letter or digit read, and those of one sentence
    together (sentences): each group one text."""

    def __init__(self, contents: list[str], gaps: list[float | None] | None = None):
        """`gaps`: the seconds between each cue's end and the next's start (None: unknown)."""
        self.count = len(contents)
        texts = [CueReader(content).text for content in contents]
        wanted = [i for i, text in enumerate(texts) if any(c.isalnum() for c in text)]
        self.groups = sentences(wanted, texts, contents, gaps or [])
        self.readers = [CueReader(CUE_END.join(contents[i] for i in group)) for group in self.groups]
        self.sizes = [[len(texts[i]) for i in group] for group in self.groups]
        self.wrappers = [common_wrapper([contents[i] for i in group]) for group in self.groups]

    def texts(self) -> list[str]:
        return [reader.text for reader in self.readers]

    def written(self, translations: list[Aligned]) -> list[str | None]:
        """Each cue's translated text (None: a cue left as it was), its line breaks and tags placed;
        a sentence's translation parted where the ends of its cues were placed (shared where that
        left a cue without a word)."""
        found: list[str | None] = [None] * self.count
        groups = zip(self.groups, self.readers, self.sizes, self.wrappers, translations)
        for group, reader, sizes, (opening, closing), translation in groups:
            parts = [part.strip() for part in reader.written(translation).split(CUE_END)]
            if len(parts) != len(group) or not all(any(c.isalnum() for c in MARKUP.sub("", p)) for p in parts):
                parts = [opening + part + closing for part in shared(translation.text, sizes)]
            for index, part in zip(group, parts):
                found[index] = "\n".join(line.strip() for line in part.split("\n"))
        return found


def common_wrapper(contents: list[str]) -> tuple[str, str]:
    """The opening and closing tag of the element every one of `contents` is wholly in, or ("", "")."""
    found = {(match[1], match[3]) if (match := WRAPPED_CUE.match(content.strip())) else None for content in contents}
    return found.pop() if len(found) == 1 and None not in found else ("", "")


def sentences(wanted: list[int], texts: list[str], contents: list[str], gaps: list[float | None]) -> list[list[int]]:
    """The cues `wanted` in groups of one sentence: a cue without a sentence's end is read with the
    next one, when that follows it within MAX_GAP seconds (not over it: a sign on screen over the
    dialogue had been read into it) and is no other speaker's line (a dash, another `<v …>` or
    position), of CUE_WORDS words or more each, up to MAX_CUES cues."""
    groups: list[list[int]] = []
    for index in wanted:
        last = groups[-1][-1] if groups else None
        if (
            last == index - 1
            and len(groups[-1]) < MAX_CUES
            and not SENTENCE_END.search(texts[last].strip())
            and not DIALOGUE.match(texts[index])
            and min(len(texts[last].split()), len(texts[index].split())) >= CUE_WORDS
            and speaker(contents[last]) == speaker(contents[index])
            and (last >= len(gaps) or gaps[last] is None or 0 <= gaps[last] <= MAX_GAP)
        ):
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def speaker(content: str) -> str:
    """What a cue opens with that says who speaks or where it stands (SPEAKER), or ""."""
    found = SPEAKER.match(content)
    return found.group().strip() if found else ""


def shared(text: str, sizes: list[int]) -> list[str]:
    """`text` in len(sizes) parts at word boundaries, each about its share of `sizes`, each with a
    word where there are enough."""
    words, parts, taken = text.split(), [], 0
    for number in range(len(sizes)):
        after = len(sizes) - number - 1  # the parts still to come, a word kept for each
        until = round(len(words) * sum(sizes[: number + 1]) / max(sum(sizes), 1)) if after else len(words)
        if len(words) - taken > after:
            until = min(max(until, taken + 1), len(words) - after)
        parts.append(" ".join(words[taken:until]))
        taken = max(taken, until)
    return parts


def unread_block(text: str) -> str | None:
    """What is wrong with the first block of a WebVTT file (its lines between blank lines, after
    the header) that is no cue, note, style or region: webvtt-py skips such a block without a word,
    as a browser does, and its text had been left out of the translated file. None where there is
    none."""
    from webvtt.vtt import WebVTTCueBlock  # webvtt-py's own test of a cue

    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines) if line.strip() and (n == 0 or not lines[n - 1].strip())]
    for start in starts[1:]:
        end = next((n for n in range(start, len(lines)) if not lines[n].strip()), len(lines))
        block = lines[start:end]
        if block[0].startswith(("NOTE", "STYLE", "REGION")) or WebVTTCueBlock.is_valid(block):
            continue
        where = start + 2 if len(block) > 1 and "-->" in block[1] else start + 1
        return f"line {where} is not a cue's timing, such as 00:00:01.000 --> 00:00:02.500"
    return None


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
        gaps = [(later.start - cue.end).total_seconds() for cue, later in zip(self.subtitles, self.subtitles[1:])]
        self.cues = Cues([subtitle.content for subtitle in self.subtitles], gaps)

    def texts(self) -> list[str]:
        return self.cues.texts()

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        for subtitle, content in zip(self.subtitles, self.cues.written(translations)):
            if content is not None:
                subtitle.content = content
        return self.file.encoded("".join(block(subtitle) for subtitle in self.subtitles))


def block(subtitle: srt.Subtitle) -> str:
    """A cue as SubRip writes it (srt's, not renumbered), except that a cue with no text keeps the
    one blank line after its timing that ends it: srt wrote an empty line of text before that,
    and each such cue of a file had come back a line longer."""
    written = subtitle.to_srt()
    return written[:-1] if not subtitle.content else written


class VttDocument:
    def __init__(self, data: bytes):
        import webvtt

        self.file = decoded(data)
        if not self.file.text.startswith("WEBVTT"):
            raise DocumentError("not a WebVTT file (its first line is not WEBVTT)")
        if (fault := unread_block(self.file.text)) is not None:
            raise DocumentError(f"not a WebVTT file ({fault})")
        self.vtt = webvtt.from_buffer(io.StringIO(self.file.text))
        captions = self.vtt.captions
        gaps = [
            (later.start_time.in_milliseconds() - cue.end_time.in_milliseconds()) / 1000
            for cue, later in zip(captions, captions[1:])
        ]
        self.cues = Cues([caption.raw_text for caption in captions], gaps)

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
