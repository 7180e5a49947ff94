"""Summaries that write only words they may: a word of the document, or a word of the
summarizer's training targets that holds no digit (its folder's target_words.txt). Copy attention
mixes a document's pieces into words of neither ("#Pson2#", "smokging", "Deloit"); numbers come
from the document only, whole: a number is its words joined by points, commas, colons and
slashes (NUMBER: "1.2", "5,000", "15:00", "2/3"), so "1.2" does not make "U.2" of its "2", nor
"15:00" "15/00" (the parts a colon or slash joins are numbers of their own: "2024" of "12/05/2024").

Beam search checks each word as it ends: a row whose last word is not allowed may not take a
piece that would end it (one opening a new word, punctuation, the end of the summary), so it goes
on spelling a word that begins so, or, when none does, falls behind the other rows (when all of a
summary's rows are lost so, the model's words are written: a slip rather than a summary spelled on
to its maximum length). A row's word and its allowed words depend on
its own document and its own pieces only: a summary is the same alone and in any batch. Words are
runs of letters and digits (WORD), compared in lower case. A number the row is writing is checked
the same way, except that a number begun by one of the document's may go on with a joiner.

Shapes: N rows in flight, C candidate columns (the state's vocabulary, sorted token ids).
"""

from __future__ import annotations

import bisect
import re
from functools import cached_property

import numpy as np

from .constants import EOS, REPLACEMENT_CHARACTER, SPECIAL_TOKENS
from .search import columns_of
from .tokenizer import SubwordTokenizer

WORD = re.compile(r"[^\W_]+")
LAST_WORD = re.compile(r"[^\W_]+\Z")
# Words joined by a joiner before a digit, one of them holding a digit: "1.2", "5,000", "U.2",
# "1.5bn", "15:00", "24/7"; "3.x" is the number "3" and the word "x"
NUMBER = re.compile(r"[^\W_]+(?:[.,:/]\d[^\W_]*)*")
# The number a text ends with, maybe followed by a joiner that may join it to more
LAST_NUMBER = re.compile(r"[^\W_]+(?:[.,:/]\d[^\W_]*)*[.,:/]?\Z")
JOINERS = (".", ",", ":", "/")
BROKEN = REPLACEMENT_CHARACTER  # the word of pieces that leave a character broken: never one of the allowed words


def listed_words(text: str) -> frozenset[str]:
    """A word list's words (one per line, lower-cased): target_words.txt (none holding a digit:
    `attn target-words` writes them so), a words.LANGUAGE.txt (runs of letters: `attn
    language-words`)."""
    return frozenset(text.split())


def document_words(text: str) -> frozenset[str]:
    return frozenset(word.lower() for word in WORD.findall(text))


def has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def document_numbers(text: str) -> frozenset[str]:
    """The numbers of `text` (NUMBER, holding a digit), lower-cased, and the parts of one joined by
    colons and slashes ("12/05/2024": "2024" too; "3:1": "3" and "1")."""
    numbers = {number.lower() for number in NUMBER.findall(text) if has_digit(number)}
    return frozenset(numbers | {part for number in numbers for part in re.split("[:/]", number) if has_digit(part)})


class WordCheck:
    """The allowed words of a summarizer (`targets`, lower-cased) over its tokenizer's pieces:
    `for_documents` gives a batch's check."""

    def __init__(self, targets: frozenset[str], tokenizer: SubwordTokenizer):
        self.targets, self.decode = targets, tokenizer.decode
        # The pieces that end the word before them: a new word's first piece, a piece holding what
        # is not a letter or digit (punctuation, "s."; a byte-level piece of part of a character
        # continues its word), and EOS.
        # Beside them, for numbers: the pieces that begin a run of text with no space in it (where
        # a number begins at the latest), those a number may go on with (JOINERS: "." of "1.2",
        # "," of "5,000", with no space before), and those that do not go on with a digit (after a
        # joiner, a number goes on with a digit: "4,500", not "4,x" or "4, 5").
        self.ends, self.spaced, self.joins, self.undigited = (
            np.zeros(tokenizer.vocab_size, dtype=bool) for _ in range(4)
        )
        self.ends[EOS] = True
        for token, piece in enumerate(tokenizer.pieces):
            text = tokenizer.decode([token])
            spaced = piece.startswith(tokenizer.word_start) or not text  # or whitespace, a language token
            self.spaced[token] = spaced
            self.joins[token] = text in JOINERS and not spaced
            self.undigited[token] = spaced or not text[:1].isdigit()
            if token >= len(SPECIAL_TOKENS) and (spaced or not all(c.isalnum() or c == "\ufffd" for c in text)):
                self.ends[token] = True
        self.ending = np.flatnonzero(self.ends)
        self.ending_unjoined = np.flatnonzero(self.ends & ~self.joins)

    def tail(self, tokens: list[int], boundaries: np.ndarray, pattern: re.Pattern) -> str:
        """What `pattern` finds at the end of the text of `tokens` from the last of them that is
        one of `boundaries` (a bool per token id), lower-cased; "" if nothing."""
        start = len(tokens)
        while start > 0:
            start -= 1
            if boundaries[tokens[start]]:
                break
        # a byte-level piece of part of a character ends in U+FFFD: the text so far is read without it;
        # one within the text is a character left broken ("Zür\ufffdrich"), which no word may hold
        text = self.decode(tokens[start:]).rstrip("\ufffd")
        if "\ufffd" in text:
            return BROKEN
        found = pattern.search(text)
        return found.group(0).lower() if found else ""

    def last_word(self, tokens: list[int]) -> str:
        """The word the pieces `tokens` end with ("" after punctuation or a space), lower-cased."""
        return self.tail(tokens, self.ends, LAST_WORD)

    def last_number(self, tokens: list[int], word: str) -> str:
        """The number (NUMBER, holding a digit) the pieces `tokens` end with, and the joiner
        after it if one was written, lower-cased; "" if they end with none. `word` is their
        last_word: a number is looked for only when it holds a digit or a joiner ends them."""
        if not (has_digit(word) or (tokens and self.joins[tokens[-1]])):
            return ""
        number = self.tail(tokens, self.spaced, LAST_NUMBER)
        return number if has_digit(number) else ""

    @cached_property
    def sorted_targets(self) -> list[str]:
        return sorted(self.targets)

    def for_documents(self, documents: list[str]) -> DocumentWordCheck:
        return DocumentWordCheck(
            self, [document_words(document) for document in documents], [document_numbers(d) for d in documents]
        )

    def for_translations(self, allowed: list[frozenset[str]]) -> DocumentWordCheck:
        """The check of a batch of translations: besides the targets, each sentence's `allowed`
        words (lower-cased); a word holding a digit is any number's (a translation writes the
        source's numbers in its own language's way, "1.5" as "1,5", "3 p.m." as "15 Uhr")."""
        return DocumentWordCheck(self, allowed, None)


def begins(word: str, sorted_words: list[str]) -> bool:
    """Whether a word of `sorted_words` begins with `word`."""
    at = bisect.bisect_left(sorted_words, word)
    return at < len(sorted_words) and sorted_words[at].startswith(word)


class DocumentWordCheck:
    """The word check of one batch: `documents[i]` the words of its sentence i, `numbers[i]` its
    numbers; with `numbers` None, a word holding a digit is allowed and numbers are not checked."""

    def __init__(self, check: WordCheck, documents: list[frozenset[str]], numbers: list[frozenset[str]] | None):
        self.check, self.documents, self.numbers = check, documents, numbers
        self.sorted_documents = [sorted(words) for words in documents]
        self.sorted_numbers = None if numbers is None else [sorted(found) for found in numbers]
        # of the last vocabulary asked, the columns that end a word, those but a joiner, and
        # those that do not begin with a digit
        self.vocabulary, self.ending, self.ending_unjoined, self.undigited = None, None, None, None

    def number_state(self, number: str, sentence: int) -> str:
        """ "allowed", "joinable" (a number of the document begins so: it may go on with a
        joiner), "joined" (so, and it ends with a joiner: a digit must follow) or "lost", for
        the number a row ends with ("" when none)."""
        numbers = self.numbers[sentence]
        if not number or number in numbers or (number[-1] in JOINERS and number[:-1] in numbers):
            return "allowed"  # a whole number of the document, maybe followed by a joiner
        if not begins(number, self.sorted_numbers[sentence]):
            return "lost"
        return "joined" if number[-1] in JOINERS else "joinable"

    def banned(self, vocabulary: np.ndarray, histories: list[list[int]], sentences: np.ndarray) -> list[np.ndarray]:
        """Each row's columns of `vocabulary` (C,) it may not take (`sentences` (N,): the sentence
        of each row): when its last word is not allowed, those that would end it; when no allowed
        word even begins so, all of them (the row is left behind). When every row of a sentence
        is in that last state, none is banned anything: they would otherwise spell on to the
        maximum length. A number is checked likewise, except that one a number of the document
        begins may go on with a joiner, and after one, only with a digit."""
        if self.vocabulary is not vocabulary:  # the batch's vocabulary: the same array at every step
            self.vocabulary = vocabulary
            self.ending = columns_of(vocabulary, self.check.ending)
            self.ending_unjoined = columns_of(vocabulary, self.check.ending_unjoined)
            self.undigited = columns_of(vocabulary, np.flatnonzero(self.check.undigited))
        everything = np.arange(len(vocabulary))
        nothing = np.zeros(0, dtype=np.int64)
        states = []  # per row: "allowed", "begun" (an allowed word begins so), "joinable", "joined" or "lost"
        for tokens, sentence in zip(histories, sentences):
            word = self.check.last_word(tokens)
            free = self.numbers is None and has_digit(word)
            if not word or free or word in self.documents[sentence] or word in self.check.targets:
                state = "allowed"
            elif begins(word, self.sorted_documents[sentence]) or begins(word, self.check.sorted_targets):
                state = "begun"
            else:
                state = "lost"
            if state != "lost" and self.numbers is not None:
                number = self.number_state(self.check.last_number(tokens, word), sentence)
                state = number if number == "lost" or state == "allowed" else state
            states.append(state)
        kept = {sentence for sentence, state in zip(sentences, states) if state != "lost"}
        bans = {"begun": self.ending, "joinable": self.ending_unjoined, "joined": self.undigited, "allowed": nothing}
        return [
            (everything if sentence in kept else nothing) if state == "lost" else bans[state]
            for state, sentence in zip(states, sentences)
        ]
