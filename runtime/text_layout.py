"""A text's layout around its translation: its lines and the breaks between them, a line's
indentation, and data written as a word, which are given back as they are; and one translation
of a text from the translations of its parts, line by line."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from .chunking import join_alignments
from .translation import Translation, unchanged
from .verbatim import ADDRESS

# Data written as a word: a run of more than a hundred characters without a space (a hash, base64,
# a minified line; the longest words of languages written with spaces are shorter), which a model
# turns into hundreds of steps of garbage (19,000 "a"s held a server's one thread for a minute,
# 6,000 "é"s too). It is given back as it is, the words around it translated. Not an address
# (ADDRESS: a long URL is put back by copy_verbatim, its sentence read whole), nor a script written
# without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar, Tibetan: WITHOUT_SPACES).
LONGEST_WORD = 100
LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")
WITHOUT_SPACES = re.compile(
    "[\u0e00-\u0fff\u1000-\u109f\u1780-\u17ff\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\uff00-\uffef\U00020000-\U0003134f]"
)


def is_data(word: str) -> bool:
    """Whether `word` is data written as a word (LONG_WORD, no address, no script WITHOUT_SPACES)."""
    return LONG_WORD.fullmatch(word) is not None and ADDRESS.search(word) is None and not WITHOUT_SPACES.search(word)


def around_long_words(sentence: str) -> list[str]:
    """The sentence's stretches between its data words (is_data), and those words, in order (the
    sentence alone when it has none)."""
    found, position = [], 0
    for word in LONG_WORD.finditer(sentence):
        if is_data(word.group(0)):
            found += [sentence[position : word.start()].strip(), word.group(0)]
            position = word.end()
    return [unit for unit in [*found, sentence[position:].strip()] if unit] if found else [sentence]


INDENTATION = re.compile(r"^[ \t]*(?=\S)")
TRAILING = re.compile(r"(?<=\S)[ \t]*\Z")  # the spaces and tabs after a text's last word


def spaced_as(text: str, translations: list[Translation]) -> list[Translation]:
    """The translations of `text` after its indentation (the spaces and tabs before its first
    word) and before the spaces and tabs after its last, which the search never sees: an indented
    line came back flush left, and "Hello, " (a part of a text put together) as "Hallo,". For a
    text of its own (the command line's, the Python API's), not a document's text, whose format
    places what is around it."""
    before, after = INDENTATION.search(text), TRAILING.search(text)
    before, after = before.group() if before else "", after.group() if after else ""
    if not before and not after:
        return translations
    return [replace(translation, text=before + translation.text + after) for translation in translations]


# What parts a text's lines: a line break, and a tab, which separates fields ("Name:\tJohn Smith", a
# table's cells pasted): read within a sentence, the models wrote bytes for it ("Name:EXPJohn Smith")
LINE_BREAK = re.compile(r"(\r\n|\n|\r|\t+)")


def text_lines(text: str) -> list[tuple[str, str]]:
    """A text's lines, each with the line break or tabs after it ("" after the last): each is
    translated apart, and written back with them."""
    pieces = LINE_BREAK.split(text)
    return list(zip(pieces[0::2], [*pieces[1::2], ""]))


def lines_joined(lines: list[tuple[str, str]], numbers: list[int], chosen: list[Translation]) -> Translation:
    """One translation of a text of `lines` (text_lines) from a translation of each of its
    searched parts (`chosen`, the part i of line numbers[i]): a line's parts joined by spaces
    between its indentation and its trailing spaces, a line without any as it was, each followed
    by its own break; its score the mean of the parts the model wrote (a mark or a data word
    passed through has none)."""
    written, aligned = [], []
    scores = [translation.score for translation in chosen if translation.tokens]
    for number, (line, after) in enumerate(lines):
        found = [translation for n, translation in zip(numbers, chosen) if n == number]
        if found:
            indentation, trailing = line[: len(line) - len(line.lstrip())], line[len(line.rstrip()) :]
            written.append(indentation + " ".join(translation.text for translation in found) + trailing + after)
        else:
            written.append(line + after)
            found = unchanged(line.strip()) if line.split() else []
        aligned += found
    return Translation(
        "".join(written),
        [token for translation in chosen for token in translation.tokens],
        float(np.mean(scores)) if scores else 0.0,
        np.zeros((0, 0), np.float32),
        lambda: join_alignments([translation.alignment for translation in aligned]),
    )
