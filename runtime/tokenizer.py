"""Subword tokenization shared by training and the runtime (no torch).

attn's own model folders hold one joint byte-level BPE `tokenizer.json` for both sides: every
string round-trips exactly (case, digits, punctuation, characters never seen in training), so the
tokenizer itself never produces an unknown token. An imported Marian model (export/importers/marian.py)
has a SentencePiece unigram tokenizer per side, in one id space: `tokenizer.json` for the target
and `source_tokenizer.json` for the source, pieces marked "▁" where a word starts.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from tokenizers import Tokenizer
from tokenizers.pre_tokenizers import Metaspace

from .constants import EOS, REPLACEMENT_CHARACTER, SPECIAL_TOKENS, target_token
from .words import ELIDED, elided_head, word_spans

BYTE_LEVEL_WORD_START = "\u0120"  # the byte-level marker of a leading space ("Ġ")
METASPACE_WORD_START = "\u2581"  # SentencePiece's ("▁")
# Prefixes the pieces that a SentencePiece tokenizer must keep at their ids but never cut from a
# text: the special tokens, and the other language's pieces in a source tokenizer (export/importers/marian.py).
UNMATCHABLE = "\uffff"


# The marks that punctuate a sentence: stops, commas, quotation marks, brackets, dashes
SENTENCE_MARKS = ".,;:!?…\"'«»„“”‚‘’‹›()[]{}-‐–—¿¡·"


@dataclass(frozen=True)
class SourcePieces:
    """One encoded source sentence.

    ids: piece ids followed by EOS, length n+1.
    words: the words as the user wrote them (whitespace-separated).
    word_of_piece: for each of the n+1 positions, the index of its word (EOS gets -1).
    """

    ids: list[int]
    words: list[str]
    word_of_piece: list[int]

    @property
    def count(self) -> int:
        """How many pieces the sentence is, its EOS aside (n)."""
        return len(self.ids) - 1


class SubwordTokenizer:
    """Encode text to ids and decode ids to text with a trained `tokenizers` model."""

    def __init__(self, tokenizer: Tokenizer, source: Tokenizer | None = None):
        """`tokenizer` cuts and writes the target side, `source` (the same by default) cuts sources."""
        source = source or tokenizer
        for side in {id(tokenizer): tokenizer, id(source): source}.values():
            # Text is text: "<s>" (an HTML strike-through) or "</s>" typed by a user are pieces of
            # characters, never the BOS/EOS ids, which would end or pad a source in mid-sentence.
            side.encode_special_tokens = True
            for expected_id, token in enumerate(SPECIAL_TOKENS):
                if expected_id not in (side.token_to_id(token), side.token_to_id(UNMATCHABLE + token)):
                    raise ValueError(f"tokenizer does not map {token} to id {expected_id}")
        if source.get_vocab_size() != tokenizer.get_vocab_size():
            raise ValueError(
                f"the source tokenizer has {source.get_vocab_size()} pieces, the target's "
                f"{tokenizer.get_vocab_size()}: they must share one id space"
            )
        self._tokenizer, self._source = tokenizer, source
        self.word_start = (
            METASPACE_WORD_START if isinstance(tokenizer.pre_tokenizer, Metaspace) else BYTE_LEVEL_WORD_START
        )

    @classmethod
    def load(cls, path: str | Path, source_path: str | Path | None = None) -> "SubwordTokenizer":
        return cls(Tokenizer.from_file(str(path)), Tokenizer.from_file(str(source_path)) if source_path else None)

    @property
    def vocab_size(self) -> int:
        return self._tokenizer.get_vocab_size()

    @cached_property
    def pieces(self) -> list[str]:
        """Every piece's string, by id (byte-level: a leading space is "Ġ"; SentencePiece: "▁")."""
        return [self._tokenizer.id_to_token(i).removeprefix(UNMATCHABLE) for i in range(self.vocab_size)]

    @cached_property
    def longest_piece(self) -> int:
        """The most characters one source piece can stand for (a byte-level piece's bytes, at most)."""
        return max(len(token) for token in self._source.get_vocab())

    @cached_property
    def piece_texts(self) -> tuple[list[str], list[str]]:
        """Each piece's text alone, by id (a leading space as a space), as the source's tokenizer
        decodes it and as the target's does: decoded once, for whole_characters and punctuation."""

        def texts(tokenizer: Tokenizer) -> list[str]:
            return tokenizer.decode_batch([[i] for i in range(tokenizer.get_vocab_size())])

        target = texts(self._tokenizer)
        return (target if self._source is self._tokenizer else texts(self._source)), target

    @cached_property
    def whole_characters(self) -> frozenset[str]:
        """The characters outside ASCII that are a piece of their own (a leading space aside) on
        both sides: frequent enough in the training text to be merged whole, which the model reads
        and writes as such ("°" and "▸" in en-de's; not "😀" or "✓", bytes it rarely saw)."""

        def whole(texts: list[str]) -> set[str]:
            return {text.lstrip() for text in texts if len(text.lstrip()) == 1 and not text.isascii()}

        source, target = self.piece_texts
        return frozenset((whole(target) & whole(source)) - {REPLACEMENT_CHARACTER})

    @cached_property
    def punctuation(self) -> tuple[frozenset[int], frozenset[int]]:
        """The ids of the pieces that are a sentence's punctuation alone (SENTENCE_MARKS), a leading
        space aside (".", ",", "?", "»"), among the source's pieces and among the target's; not "%"
        or "&", which stand for words ("Prozent")."""

        def marks(texts: list[str]) -> frozenset[int]:
            return frozenset(
                i for i, text in enumerate(texts) if (bare := text.strip()) and not bare.strip(SENTENCE_MARKS)
            )

        source, target = self.piece_texts
        return marks(source), marks(target)

    def writes_whole(self, character: str) -> bool:
        """Whether `character` is one of whole_characters."""
        return character in self.whole_characters

    def language_token(self, language: str) -> int | None:
        """The id of `language`'s target token (a model of several directions), None when absent."""
        return self._tokenizer.token_to_id(target_token(language))

    def encode(self, text: str) -> list[int]:
        """Target text → piece ids (no EOS)."""
        return self._tokenizer.encode(valid_unicode(text), add_special_tokens=False).ids

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        """Source texts → piece ids (no EOS); training's joint tokenizer cuts both sides with it."""
        texts = [valid_unicode(text) for text in texts]
        return [e.ids for e in self._source.encode_batch(texts, add_special_tokens=False)]

    def encode_source(self, text: str, language: str = "") -> SourcePieces:
        """Text → ids + EOS, with the word each piece belongs to (runtime/words.py: whitespace, and
        French elision, for `language`)."""
        text = valid_unicode(text)
        encoding = self._source.encode(text, add_special_tokens=False)
        spans = word_spans(text, language)
        word_starts = [start for start, _ in spans]
        word_of_piece = []
        for start, end in encoding.offsets:
            while start < end - 1 and text[start].isspace():
                start += 1  # a piece's leading space belongs to the word it opens
            word_of_piece.append(_word_at(word_starts, start))
        return SourcePieces(encoding.ids + [EOS], [text[start:end] for start, end in spans], word_of_piece + [-1])

    def decode(self, ids: list[int]) -> str:
        """Piece ids (special tokens dropped) → text."""
        return self._tokenizer.decode([i for i in ids if i >= len(SPECIAL_TOKENS)], skip_special_tokens=True).strip()

    def target_words(self, ids: list[int], language: str = "") -> tuple[list[str], list[int]]:
        """Piece ids → (words of the decoded text, word index of each piece).

        A piece opens a new word when it starts with the leading-space marker and the word so far
        is not blank; the words are the decoded text of each group of pieces. In `language`, a
        group that opens with an elided word (French "l'homme", runtime/words.py) is two words
        when a piece ends where the elided word does.
        """
        groups: list[list[int]] = []
        closed: list[str] = []  # the text of each group but the last (a group is closed by the next)
        for piece_id in ids:
            piece = self._tokenizer.id_to_token(piece_id) or ""
            if not groups:
                groups.append([])
            elif piece.startswith(self.word_start) and (text := self.decode(groups[-1])):
                closed.append(text)
                groups.append([])
            groups[-1].append(piece_id)
        if language in ELIDED:
            groups = [part for group in groups for part in self._split_elision(group, language)]
            words = [self.decode(group) for group in groups]
        else:
            words = closed + [self.decode(groups[-1])] if groups else []
        return words, [index for index, group in enumerate(groups) for _ in group]

    def _split_elision(self, group: list[int], language: str) -> list[list[int]]:
        """A word's pieces → one group, or two when it opens with an elided word ending at a piece."""
        word = self.decode(group)
        head = elided_head(word, language)
        for cut in range(1, len(group)) if head else ():
            if self.decode(group[:cut]) == word[:head]:
                return [group[:cut], group[cut:]]
        return [group]


def valid_unicode(text: str) -> str:
    """Lone surrogates become U+FFFD, one each: Python's escapes of undecodable bytes in
    command-line arguments (U+DC80..U+DCFF) and any other."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join(REPLACEMENT_CHARACTER if "\ud800" <= char <= "\udfff" else char for char in text)


def _word_at(word_starts: list[int], offset: int) -> int:
    """Index of the word that contains character `offset` (the last word starting at or before it)."""
    return max(bisect.bisect_right(word_starts, offset) - 1, 0)
