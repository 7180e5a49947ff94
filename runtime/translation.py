"""What a translation is and what asks for it: the options around the search a caller sets
(TextOptions) and one output of one input (Translation), with its text, pieces, score,
attention and word alignment."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .alignment import WordAlignment
from .search import SearchOptions, check_search_value


@dataclass(frozen=True)
class TextOptions:
    """What the text translator does around the search. `sentences`: a translation model takes a
    text of several lines or sentences one line's sentence at a time (runtime/sentences.py) and
    joins their best translations, a line's by spaces and the lines by their line breaks; without
    it, each line is read whole.
    `max_source_pieces` (None: the model's) is the longest source read at once: a
    translation model translates a longer sentence in parts, a summarizer condenses a longer
    document to its salient sentences (runtime/condense.py) or reads the head of one that has no
    sentence ends (runtime/chunking.py). `replace_unk` (None: the model's) has a translation model
    read times as its target language writes them (runtime/clock.py), sets what is no
    language for the model (e-mail addresses, URLs, code, templates, words in another script) aside
    from a translation model's search (runtime/set_aside.py) and repairs mangled copies of
    verbatim source words after it (runtime/verbatim.py). `reverse_weight` (None: the model's) ranks
    a translation model's distinct beam translations again by their score plus this weight times
    the reverse model's score of their source (runtime/reverse_scores.py; 0: the search's order)."""

    sentences: bool = True
    max_source_pieces: int | None = None
    replace_unk: bool | None = None
    reverse_weight: float | None = None

    def __post_init__(self):
        for name, value in vars(self).items():
            check_search_value(name, value)


TEXT_OPTIONS = tuple(TextOptions.__dataclass_fields__)
SETTINGS = (*SearchOptions.__dataclass_fields__, *TEXT_OPTIONS)  # what a call or a request may set


@dataclass
class Translation:
    """One output of one input: text, its pieces' ids, score, attention (T, S) over the source
    pieces (EOS row and column included; in a model of several directions, the target-language
    token's column first; pieces and attention are those of what the model read and wrote, a
    token set aside as its placeholder: runtime/set_aside.py), and the word-level alignment:
    given, or worked out by `aligned` the first time it is read (plain text never reads it)."""

    text: str
    tokens: list[int]
    score: float
    attention: np.ndarray
    aligned: WordAlignment | Callable[[], WordAlignment] = field(repr=False, compare=False)

    @property
    def alignment(self) -> WordAlignment:
        if callable(self.aligned):
            self.aligned = self.aligned()
        return self.aligned


def unchanged(text: str) -> list[Translation]:
    """An input passed through: its own words, each aligned to itself."""
    words = text.split()
    return [
        Translation(
            text,
            [],
            0.0,
            np.zeros((0, 0), np.float32),
            WordAlignment(words, words, np.eye(len(words), dtype=np.float32)),
        )
    ]


def input_numbers(first_number: int | Sequence[int], count: int) -> list[int]:
    """The number each of `count` inputs has in notes: from `first_number` on, or as it lists them
    (the inputs of one language among others, picked out by the router)."""
    return list(range(first_number, first_number + count)) if isinstance(first_number, int) else list(first_number)


def distinct_texts(translations: Iterable[Translation], most: int | None = None) -> list[Translation]:
    """The first of `translations` of each text, in order, up to `most` (None: all); read lazily,
    no further than the last one taken."""
    by_text: dict[str, Translation] = {}
    for translation in translations:
        by_text.setdefault(translation.text, translation)
        if len(by_text) == most:
            break
    return list(by_text.values())
