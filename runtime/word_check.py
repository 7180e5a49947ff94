"""Summaries that write only words they may: a word of the document, or a word of the
summarizer's training targets that holds no digit (its folder's target_words.txt). Copy attention
mixes a document's pieces into words of neither ("#Pson2#", "smokging", "Deloit"); numbers come
from the document only.

Beam search checks each word as it ends: a row whose last word is not allowed may not take a
piece that would end it (one opening a new word, punctuation, the end of the summary), so it goes
on spelling a word that begins so, or, when none does, falls behind the other rows (when all of a
summary's rows are lost so, the model's words are written: a slip rather than a summary spelled on
to its maximum length). A row's word and its allowed words depend on
its own document and its own pieces only: a summary is the same alone and in any batch. Words are
runs of letters and digits (WORD), compared in lower case.

Shapes: N rows in flight, C candidate columns (the state's vocabulary, sorted token ids).
"""

from __future__ import annotations

import bisect
import re
from functools import cached_property

import numpy as np

from .constants import EOS, SPECIAL_TOKENS
from .search import columns_of
from .tokenizer import SubwordTokenizer

WORD = re.compile(r"[^\W_]+")
LAST_WORD = re.compile(r"[^\W_]+\Z")


def allowed_target_words(text: str) -> frozenset[str]:
    """target_words.txt's words (one per line, lower-cased, none holding a digit: `attn
    target-words` writes them so)."""
    return frozenset(text.split())


def document_words(text: str) -> frozenset[str]:
    return frozenset(word.lower() for word in WORD.findall(text))


class WordCheck:
    """The allowed words of a summarizer (`targets`, lower-cased) over its tokenizer's pieces:
    `for_documents` gives a batch's check."""

    def __init__(self, targets: frozenset[str], tokenizer: SubwordTokenizer):
        self.targets, self.decode = targets, tokenizer.decode
        # The pieces that end the word before them: a new word's first piece, a piece holding what
        # is not a letter or digit (punctuation, "s."; a byte-level piece of part of a character
        # continues its word), and EOS.
        self.ends = np.zeros(tokenizer.vocab_size, dtype=bool)
        self.ends[EOS] = True
        for token, piece in enumerate(tokenizer.pieces):
            text = tokenizer.decode([token])
            if token >= len(SPECIAL_TOKENS) and (
                piece.startswith(tokenizer.word_start)
                or not text  # whitespace (a line break) or a language token
                or not all(c.isalnum() or c == "\ufffd" for c in text)
            ):
                self.ends[token] = True
        self.ending = np.flatnonzero(self.ends)

    def last_word(self, tokens: list[int]) -> str:
        """The word the pieces `tokens` end with ("" after punctuation or a space), lower-cased."""
        start = len(tokens)
        while start > 0:
            start -= 1
            if self.ends[tokens[start]]:
                break
        # a byte-level piece of part of a character ends in U+FFFD: the word so far is read without it
        found = LAST_WORD.search(self.decode(tokens[start:]).rstrip("\ufffd"))
        return found.group(0).lower() if found else ""

    @cached_property
    def sorted_targets(self) -> list[str]:
        return sorted(self.targets)

    def for_documents(self, documents: list[str]) -> DocumentWordCheck:
        return DocumentWordCheck(self, [document_words(document) for document in documents])


def begins(word: str, sorted_words: list[str]) -> bool:
    """Whether a word of `sorted_words` begins with `word`."""
    at = bisect.bisect_left(sorted_words, word)
    return at < len(sorted_words) and sorted_words[at].startswith(word)


class DocumentWordCheck:
    """The word check of one batch: `documents[i]` the words of its sentence i."""

    def __init__(self, check: WordCheck, documents: list[frozenset[str]]):
        self.check, self.documents = check, documents
        self.sorted_documents = [sorted(words) for words in documents]
        self.vocabulary, self.ending = None, None  # the columns that end a word, of the last vocabulary asked

    def banned(self, vocabulary: np.ndarray, histories: list[list[int]], sentences: np.ndarray) -> list[np.ndarray]:
        """Each row's columns of `vocabulary` (C,) it may not take (`sentences` (N,): the sentence
        of each row): when its last word is not allowed, those that would end it; when no allowed
        word even begins so, all of them (the row is left behind). When every row of a sentence
        is in that last state, none is banned anything: they would otherwise spell on to the
        maximum length."""
        if self.vocabulary is not vocabulary:  # the batch's vocabulary: the same array at every step
            self.vocabulary, self.ending = vocabulary, columns_of(vocabulary, self.check.ending)
        ending = self.ending
        everything = np.arange(len(vocabulary))
        nothing = np.zeros(0, dtype=np.int64)
        states = []  # per row: "allowed", "begun" (an allowed word begins so) or "lost"
        for tokens, sentence in zip(histories, sentences):
            word = self.check.last_word(tokens)
            if not word or word in self.documents[sentence] or word in self.check.targets:
                states.append("allowed")
            elif begins(word, self.sorted_documents[sentence]) or begins(word, self.check.sorted_targets):
                states.append("begun")
            else:
                states.append("lost")
        kept = {sentence for sentence, state in zip(sentences, states) if state != "lost"}
        return [
            ending if state == "begun" else everything if state == "lost" and sentence in kept else nothing
            for state, sentence in zip(states, sentences)
        ]
