"""Words as alignments show them (the table, Pharaoh, jsonl, heat maps): the text split on
whitespace, except that in French an elided article, pronoun or conjunction before an apostrophe
is a word of its own ("l'homme" → "l'" "homme", "qu'il" → "qu'" "il"), as statistical aligners
and Moses' tokenizer count French words; it aligns with "the", "that", not with "man". A German
compound stays one word: it is one word, and its pieces are merged into it.
"""

from __future__ import annotations

import re
import unicodedata

WHITESPACE_WORD = re.compile(r"\S+")
LETTERS_WORD = re.compile(r"[^\W\d_]{2,}")  # a word of two letters or more, no digit
OPENING_MARKS = "\"'“‘«»„‚([{"  # marks before a word


def opens(text: str, position: int) -> bool:
    """Whether `position` in `text` opens it: only spaces and opening marks before it, and `text`
    itself not opening with a space, as the stretch after a set-aside URL or address does
    (runtime/set_aside.py outside_tokens reads a sentence's stretches between them)."""
    return not text[:1].isspace() and not text[:position].strip(OPENING_MARKS + " ")


# language → an elided word, apostrophe included, which is a word of its own when letters follow it
ELIDED = {"fr": re.compile(r"(?i:jusqu|lorsqu|puisqu|quoiqu|qu|[cdjlmnst])['’]")}


# The spaces a text may hold besides the ordinary one: no-break (French before "?" and in "1 299"),
# narrow no-break, figure, thin, en and em spaces. Python reads each as whitespace, so a text's words
# are the same with them or ordinary spaces; the models read them as bytes they seldom saw ("6
# shekels" with a no-break space came out "6\u00adshekels", a soft hyphen)
SPACES = re.compile("[\u00a0\u2002-\u200a\u202f\u205f]")


def ordinary_spaces(text: str) -> str:
    """`text` with each of its SPACES an ordinary space: its words unchanged."""
    return SPACES.sub(" ", text)


# Other forms of ordinary letters and digits, which the models read as bytes they seldom saw ("The ﬁle" came
# out "Das �le", "Room १२३" "Raum ōkyŋ", "Room １２３" "Room ＼＼�"): the Latin ligatures (U+FB00–FB06, as text
# copied from a PDF has them), the full-width forms of ASCII (U+FF01–FF5E) and the decimal digits of other scripts
COMPATIBLE = re.compile(r"[\ufb00-\ufb06\uff01-\uff5e\u066b\u066c]|(?![0-9])\d")
ARABIC_SEPARATORS = {"\u066b": ".", "\u066c": ","}  # Arabic's decimal and thousands separators ("٣٫٥")


# Characters that show nothing and only tell where a word may break or must not: the soft hyphen
# (a news page's "docu\u00admentation"), the zero-width space, the word joiner, a byte-order mark
# within a line, and a zero-width joiner or non-joiner between Latin letters (between emoji it joins
# them, "👩\u200d💻"; in Persian or an Indian script it spells a word). Copied with a web page's text, read as bytes the models seldom saw: "The
# docu\u00admentation" had come out "Die docu\u00admentation", "Open\ufeff the file." "Die Datei
# öffnen die Datei.", "The pack\u200dage" "Das Paket\u200dage"
LATIN_LETTER = "[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]"
INVISIBLE = re.compile(rf"[\u00ad\u200b\u2060\ufeff]|(?<={LATIN_LETTER})[\u200c\u200d](?={LATIN_LETTER})")


def ordinary_characters(text: str) -> str:
    """`text` composed (NFC: "ü" one character, where macOS writes two: "München" had been read as
    "coins"), without its INVISIBLE characters, and each of its COMPATIBLE characters written as
    the letters or the digit it stands for ("ﬁ" → "fi", "１" → "1", "١" → "1", "٫" → ".")."""
    return COMPATIBLE.sub(_ordinary, INVISIBLE.sub("", unicodedata.normalize("NFC", text)))


def _ordinary(match: re.Match) -> str:
    character = match.group(0)
    if character in ARABIC_SEPARATORS:
        return ARABIC_SEPARATORS[character]
    return str(unicodedata.decimal(character)) if character.isdecimal() else unicodedata.normalize("NFKC", character)


def has_words(text: str) -> bool:
    """Whether `text` holds a letter or a digit: not blank, not punctuation alone."""
    return any(character.isalnum() for character in text)


def elided_head(word: str, language: str) -> int:
    """How many leading characters of `word` are an elided word of their own (0: none)."""
    elided = ELIDED.get(language)
    head = elided.match(word) if elided else None
    return head.end() if head and head.end() < len(word) and word[head.end()].isalpha() else 0


def word_spans(text: str, language: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of the words of `text` in `language` (an ISO 639-1 code)."""
    spans = []
    for match in WHITESPACE_WORD.finditer(text):
        start, end = match.span()
        head = elided_head(match.group(), language)
        if head:
            spans.append((start, start + head))
        spans.append((start + head, end))
    return spans


def join_words(words: list[str], language: str) -> str:
    """The text of `words`: spaces between them, none after an elided word ("l'" "homme" → "l'homme")."""
    elided = ELIDED.get(language)
    text = ""
    for index, word in enumerate(words):
        glued = index == 0 or (elided is not None and elided.fullmatch(words[index - 1]) is not None)
        text += word if glued else " " + word
    return text
