"""Summaries that write only words they may: a word of the document, or a word of the
summarizer's training targets that holds no digit (its folder's target_words.txt). Copy attention
mixes a document's pieces into words of neither ("#Pson2#", "smokging", "Deloit"); numbers come
from the document only, whole: a number is its words joined by points, commas, colons and
slashes (NUMBER: "1.2", "5,000", "15:00", "2/3"), so "1.2" does not make "U.2" of its "2", nor
"15:00" "15/00" (the parts a colon or slash joins are numbers of their own: "2024" of "12/05/2024").

The search (beam, greedy or sampling) checks each word as it is spelled: a row may not take a piece
of letters (in a summary, of letters and digits) that would spell what no allowed word or number
begins ("Beth" + "ear", "Lo" + "Short", "Maveri" + "4", a new word "Pinyto"), and a row whose last
word is not allowed may not take a piece that would end it (one opening a new word, punctuation,
the end of the summary), so it goes on spelling a word that begins so. A row whose word no allowed
word begins (spelled by pieces of other characters) falls behind the other rows; when all of a
summary's rows are lost so (a greedy search's one row), the model's words are written: a slip
rather than a summary spelled on to its maximum length. A row's word and its allowed words depend
on its own document and its own pieces only: a summary is the same alone and in any batch. Words
are runs of letters and digits (WORD), compared in lower case. A number the row is writing is
checked the same way, except that a number begun by one of the document's may go on with a joiner.

Shapes: N rows in flight, C candidate columns (the state's vocabulary, sorted token ids).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from functools import cached_property

import numpy as np

from .constants import EOS, REPLACEMENT_CHARACTER, SPECIAL_TOKENS
from .search import Hypothesis, columns_of
from .tokenizer import SubwordTokenizer

WORD = re.compile(r"[^\W_]+")
LAST_WORD = re.compile(r"[^\W_]+\Z")
# Words joined by a joiner before a digit, one of them holding a digit: "1.2", "5,000", "U.2",
# "1.5bn", "15:00", "24/7"; "3.x" is the number "3" and the word "x"
NUMBER = re.compile(r"[^\W_]+(?:[.,:/]\d[^\W_]*)*")
# The number a text ends with, maybe followed by a joiner that may join it to more
LAST_NUMBER = re.compile(r"[^\W_]+(?:[.,:/]\d[^\W_]*)*[.,:/]?\Z")
JOINERS = (".", ",", ":", "/")
MAX_KEPT = 50_000  # words whose pieces that spell on into a target word are kept
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
        self.spelled = [""] * tokenizer.vocab_size  # a piece's text, lower-cased, where it is letters and digits only
        for token, piece in enumerate(tokenizer.pieces):
            text = tokenizer.decode([token])
            spaced = piece.startswith(tokenizer.word_start) or not text  # or whitespace, a language token
            self.spaced[token] = spaced
            self.joins[token] = text in JOINERS and not spaced
            self.undigited[token] = spaced or not text[:1].isdigit()
            if token >= len(SPECIAL_TOKENS) and (spaced or not all(c.isalnum() or c == "\ufffd" for c in text)):
                self.ends[token] = True
            spelled = text.lstrip(" ") if spaced else text
            if token >= len(SPECIAL_TOKENS) and spelled.isalnum():
                self.spelled[token] = spelled.lower()
        self.ending = np.flatnonzero(self.ends)
        self.ending_unjoined = np.flatnonzero(self.ends & ~self.joins)
        # The pieces of letters and digits only (spelling), those holding a digit (numeric), and
        # those with no space before them (going_on: more of the word before them, or a word's
        # first after punctuation), the last by their text
        self.spelling = np.flatnonzero([bool(spelled) for spelled in self.spelled])
        self.numeric = np.array([has_digit(spelled) for spelled in self.spelled])
        self.going_on = self.spelling[~self.spaced[self.spelling]]
        self.going_on_by_text: dict[str, list[int]] = {}
        for token in self.going_on:
            self.going_on_by_text.setdefault(self.spelled[token], []).append(int(token))
        self.longest_spelled = max(len(spelled) for spelled in self.spelled)
        self.targets_going_on: dict[str, list[int]] = {}  # by word: going_on_from(word, sorted_targets)

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

    @cached_property
    def unbegun_by_targets(self) -> list[int]:
        """The pieces of letters and digits (spelling) whose text begins no target word."""
        return [int(token) for token in self.spelling if not begins(self.spelled[token], self.sorted_targets)]

    def going_on_from(self, word: str, sorted_words: list[str]) -> list[int]:
        """The pieces of letters and digits with no space before them (going_on) that spell on
        from `word` (lower-case letters) into the beginning of one of `sorted_words`: read from
        the words that begin so, or where they are many ("s" of 140,000 German words), by trying
        each piece."""
        low = bisect.bisect_left(sorted_words, word)
        high = bisect.bisect_left(sorted_words, word + "\U0010ffff")  # the words that begin with `word`
        if high - low > len(self.going_on):
            return [int(token) for token in self.going_on if begins(word + self.spelled[token], sorted_words)]
        found: set[str] = set()
        for known in sorted_words[low:high]:
            rest = known[len(word) :]
            found.update(rest[:length] for length in range(1, min(len(rest), self.longest_spelled) + 1))
        return [token for text in found for token in self.going_on_by_text.get(text, ())]

    def going_on_from_targets(self, word: str) -> list[int]:
        """going_on_from(word, sorted_targets), kept for the next time (up to MAX_KEPT words; the
        batches of one call share it from their threads)."""
        found = self.targets_going_on.get(word)
        if found is None:
            found = self.going_on_from(word, self.sorted_targets)
            if len(self.targets_going_on) >= MAX_KEPT:
                self.targets_going_on.clear()
            self.targets_going_on[word] = found
        return found

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
        # of the last vocabulary asked (C,): the columns banned by a row's state ("begun": those
        # that end a word, "joinable": those but a joiner, "joined": those that do not begin with
        # a digit), and the checked pieces (spelled_on) that go on with a word (WordCheck.going_on)
        self.vocabulary: np.ndarray | None = None
        self.state_bans: dict[str, np.ndarray] = {}  # by state, (C,) bool
        self.going_on: np.ndarray | None = None  # (C,) bool
        self.unopened_by_sentence: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def spelled_on(self, tokens: np.ndarray) -> np.ndarray:
        """Those of the pieces of letters and digits `tokens` whose spelling is checked: all of
        them in a summary; a translation writes numbers its own way, and only letters are checked."""
        return tokens if self.numbers is not None else tokens[~self.check.numeric[tokens]]

    def prefixes(self, sentence: int) -> tuple[set[str], set[str]]:
        """The beginnings (up to a piece's length) of the words of `sentence`, and of its numbers in
        a summary (a piece holding a digit begins a number)."""
        longest = self.check.longest_spelled

        def beginnings(words: list[str]) -> set[str]:
            return {word[:length] for word in words for length in range(1, min(len(word), longest) + 1)}

        numbers = [] if self.numbers is None else self.sorted_numbers[sentence]
        return beginnings(self.sorted_documents[sentence]), beginnings(numbers)

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

    def mask(self, tokens) -> np.ndarray:
        """(C,) bool: the columns of the vocabulary that hold `tokens`."""
        found = np.zeros(len(self.vocabulary), dtype=bool)
        found[columns_of(self.vocabulary, tokens)] = True
        return found

    def unopened(self, sentence: int) -> tuple[np.ndarray, np.ndarray]:
        """(C,) bool each: the checked pieces (spelled_on) whose text begins no allowed word of
        `sentence`, all of them (what may not begin a word after punctuation or at the start) and
        those with a space before them (what may not begin a word after another)."""
        if sentence not in self.unopened_by_sentence:
            check = self.check
            unbegun = self.spelled_on(np.array(check.unbegun_by_targets, dtype=np.int64))
            words, numbers = self.prefixes(sentence)
            tokens = [
                token for token in unbegun if check.spelled[token] not in (numbers if check.numeric[token] else words)
            ]
            spaced = [token for token in tokens if check.spaced[token]]
            self.unopened_by_sentence[sentence] = self.mask(tokens), self.mask(spaced)
        return self.unopened_by_sentence[sentence]

    def misspelling(self, word: str, sentence: int) -> np.ndarray:
        """(C,) bool: the checked pieces (spelled_on) that would spell, after a row's last word
        `word` (lower-cased; "" after punctuation or a space), what no allowed word (or number) of
        `sentence` begins: after a word of letters, those that go on with it so or open another
        so; after one holding a digit (a number's), those that open another so."""
        everywhere, spaced = self.unopened(sentence)
        if not word:
            return everywhere
        if not word.isalpha():
            return spaced
        going_on = self.going_on.copy()
        check = self.check
        allowed = check.going_on_from_targets(word) + [
            token for token in check.going_on_from(word, self.sorted_documents[sentence]) if not check.numeric[token]
        ]
        if self.numbers is not None:  # a word that a digit joins is a number: one of the document's
            allowed += [
                token for token in check.going_on_from(word, self.sorted_numbers[sentence]) if check.numeric[token]
            ]
        going_on[columns_of(self.vocabulary, allowed)] = False
        return going_on | spaced

    def state(self, tokens: list[int], sentence: int) -> tuple[str, str]:
        """A row's state by its pieces `tokens` and its sentence: "allowed" (its last word is an
        allowed word, or it ends with none), "begun" (an allowed word begins so), "joinable",
        "joined" (number_state) or "lost"; and its last word."""
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
        return state, word

    def ended(self, hypothesis: Hypothesis, sentence: int, limit: int) -> Hypothesis:
        """`hypothesis` of `sentence`; one that ran to its length `limit` in the middle of a word
        (its last word not allowed: "… due to uncert") without that word's run of text, from the
        last piece with a space before it ("… due to"), and without a bracket it opened and did
        not close ("Extended Access Control (PACE" → "Extended Access Control"), its attention cut
        alike. What would leave nothing is kept: an empty output says less."""
        tokens = hypothesis.tokens
        if len(tokens) < limit:
            return hypothesis
        end = len(tokens)
        if self.state(tokens, sentence)[0] != "allowed":
            end = max((i for i, token in enumerate(tokens) if self.check.spaced[token]), default=0) or end
        end = self.unclosed(tokens[:end]) or end
        if end == len(tokens):
            return hypothesis
        return replace(hypothesis, tokens=tokens[:end], attention=hypothesis.attention[:end])

    def unclosed(self, tokens: list[int]) -> int | None:
        """The position of the piece of `tokens` that opens the first bracket they leave open, None
        if they leave none."""
        opened: list[int] = []
        for position, token in enumerate(tokens):
            for character in self.check.decode([token]):
                if character in "([":
                    opened.append(position)
                elif character in ")]" and opened:
                    opened.pop()
        return opened[0] if opened else None

    def row_bans(self, state: str, word: str, sentence: int) -> np.ndarray:
        """The columns a row may not take (sorted), by its state, its last word and its sentence."""
        banned = self.state_bans[state]
        if state in ("allowed", "begun"):
            banned = banned | self.misspelling(word, sentence)
        if banned.all():  # no piece spells on (a tokenizer without byte pieces): the model's words
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(banned)

    def banned(self, vocabulary: np.ndarray, histories: list[list[int]], sentences: np.ndarray) -> list[np.ndarray]:
        """Each row's columns of `vocabulary` (C,) it may not take (`sentences` (N,): the sentence
        of each row): the pieces that would spell what no allowed word begins (misspelling); when its
        last word is not allowed, those that would end it too; when no allowed word even begins so,
        all of them (the row is left behind). When every row of a sentence is in that last state
        (in greedy search, its one row), none is banned anything: they would otherwise spell on to
        the maximum length. A number is checked likewise, except that one a number of the document
        begins may go on with a joiner, and after one, only with a digit."""
        if self.vocabulary is not vocabulary:  # the batch's vocabulary: the same array at every step
            self.vocabulary, self.unopened_by_sentence = vocabulary, {}
            self.state_bans = {
                "begun": self.mask(self.check.ending),
                "joinable": self.mask(self.check.ending_unjoined),
                "joined": self.mask(np.flatnonzero(self.check.undigited)),
                "allowed": np.zeros(len(vocabulary), dtype=bool),
            }
            self.going_on = self.mask(self.spelled_on(self.check.going_on))
        everything = np.arange(len(vocabulary))
        nothing = np.zeros(0, dtype=np.int64)
        read = [self.state(tokens, sentence) for tokens, sentence in zip(histories, sentences)]
        states, words = [state for state, _ in read], [word for _, word in read]
        kept = {sentence for sentence, state in zip(sentences, states) if state != "lost"}
        found: dict[tuple[str, str, int], np.ndarray] = {}  # a beam's rows often end with one word
        for state, word, sentence in zip(states, words, sentences):
            if state != "lost" and (state, word, sentence) not in found:
                found[state, word, sentence] = self.row_bans(state, word, sentence)
        return [
            (everything if sentence in kept else nothing) if state == "lost" else found[state, word, sentence]
            for state, word, sentence in zip(states, words, sentences)
        ]
