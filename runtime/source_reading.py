"""How the model reads a sentence before it is searched: its control characters and odd spaces
plain, its quotation marks taken off, its casing as the model's vocabulary has it, the parts that
the models translate right in another form read so (titles, times, dates, prices, places…), and
what is no language for the model set aside; and the sentence's pieces as the encoder reads them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .abbreviations import read_abbreviations
from .alignment import restored
from .capitals import first_alnum, read_cased
from .clock import read_times, time_spans
from .company_names import company_spans
from .dates import read_dates, read_spans
from .header_labels import read_header_labels
from .kitchen_units import read_spoons, spoon_spans
from .numeric_dates import read_numeric_dates
from .person_names import names_after_titles
from .place_names import read_places
from .prices import read_prices
from .quantities import in_target
from .quotes import READ as QUOTES_READ
from .quotes import Quotations, unquoted
from .set_aside import SetAside, outside_tokens, set_aside, token_spans
from .spaced_numbers import read_spaced_numbers
from .street_addresses import street_spans
from .titles import read_titles
from .tokenizer import SourcePieces
from .translation import Translation, unchanged
from .unlearned_names import CAPITALIZED_NAMES, unlearned_names
from .words import ordinary_characters, ordinary_spaces

if TYPE_CHECKING:
    from .loaded_model import LoadedModel


# A control character but the line breaks and tabs (NUL, BEL, escape, DEL, C1's) is no language: read as
# one of the model's bytes, "The\0file" had become "Dieabyte Datei", "hi\x01there" "Hiotheker"
# A terminal's escape sequence ("\x1b[31m", a colour) is one: "\x1b[31mRED" had become "[31mRED"
RUN_OF_SPACES = re.compile(r" {2,}")
CONTROL = re.compile(r" *(?:\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f])+ *")


@dataclass(frozen=True)
class Reading:
    """A sentence as the model reads it, step by step: `quotations`, the sentence plain (a control
    character as a space, CONTROL; a no-break or other space as an ordinary one, runtime/words.py
    ordinary_spaces; and outside code and URLs a run of spaces as one and a ligature, a full-width
    character or another script's digit as the ordinary one, ordinary_text) without its quotation
    marks (runtime/quotes.py); `cased`, that text as a sentence is written, its words cased as the
    model's vocabulary has them, when it or its opening label is in capitals (runtime/capitals.py);
    `read`, that text with its persons' titles, times, dates and prices as the models translate them
    right (runtime/titles.py, runtime/clock.py, runtime/dates.py, runtime/prices.py), outside code
    and URLs."""

    quotations: Quotations
    cased: str
    read: str


def ordinary_text(text: str) -> str:
    """`text`, a stretch outside code and URLs (the sentence's edges are stripped before), with a
    run of spaces as one (read as the model's space pieces, "she  is   eating" had become "sie
    ätzlich", and spaces around code "Führt `ls -la` {0") and other forms of letters and digits as
    the ordinary ones (runtime/words.py ordinary_characters)."""
    return ordinary_characters(RUN_OF_SPACES.sub(" ", text))


class SourceReader:
    """The sentences of texts as `model` reads them (Reading, SetAside) and their pieces; `probe`
    gives the model's translation of a probe sentence (runtime/place_names.py asks it about a name)."""

    def __init__(self, model: LoadedModel, probe: Callable[[str], str]):
        self.model = model
        self.probe = probe
        self._readings: dict[tuple[str, int | None], Reading] = {}  # (a sentence, limit) → reading(…)

    def reading(self, sentence: str, limit: int | None) -> Reading:
        """How the model reads `sentence` (Reading): its quotation marks kept as written where it
        is longer than `limit` pieces (translated in parts, runtime/quotes.py). Worked out once for
        each sentence: a translation's every hypothesis reads it again."""
        if (sentence, limit) not in self._readings:
            source, target = self.model.source_lang, self.model.target_lang
            plain = outside_tokens(ordinary_spaces(CONTROL.sub(" ", sentence)), ordinary_text)
            quotations = (
                unquoted(plain, token_spans(plain)) if (source, target) in QUOTES_READ else Quotations(plain, [])
            )
            if quotations.spans and limit is not None and self.piece_count(quotations.text) > limit:
                quotations = Quotations(plain, [])
            cased = read_cased(quotations.text, self.word_pieces, source)

            def read_as_the_target(text: str) -> str:
                text = read_places(text, source, target, self.probe)
                readers = (
                    read_header_labels,
                    read_spoons,
                    read_abbreviations,
                    read_titles,
                    read_times,
                    read_numeric_dates,
                    read_dates,
                    read_spaced_numbers,
                    read_prices,
                )
                for reader in readers:
                    text = reader(text, source, target)
                return text

            read = outside_tokens(cased, read_as_the_target)
            self._readings[sentence, limit] = Reading(quotations, cased, read)
        return self._readings[sentence, limit]

    def read_aside(
        self, sentence: str, limit: int | None, spans: Sequence[tuple[int, int]] = (), currency_read: bool = False
    ) -> SetAside:
        """`sentence` as the model reads it (reading), then what is no language for the model set
        aside (runtime/set_aside.py; with `currency_read`, not the currencies' signs it writes
        whole), with `spans` of that reading (names, quantities) beside its titles' names; a
        quantity put back as the target writes its number (runtime/quantities.py)."""
        read = self.reading(sentence, limit).read
        source, target = self.model.source_lang, self.model.target_lang
        spans = [
            *names_after_titles(read, source, target),
            *company_spans(read),
            *street_spans(read, source),
            *self.read_in_target(read),
            *spans,
        ]
        aside = set_aside(read, source, self.model.tokenizer.writes_whole, spans, currency_read)
        aside = replace(aside, in_target=in_target(aside.tokens, source, target))
        return aside if read == sentence else replace(aside, written=sentence)

    def read_in_target(self, read: str) -> list[tuple[int, int]]:
        """(start, end) of what `read`, a sentence as read, writes in the target's words and sets
        aside: its dates and weekdays (runtime/dates.py read_spans), its times (runtime/clock.py
        time_spans) and its spoons (runtime/kitchen_units.py spoon_spans) outside them."""
        source, target = self.model.source_lang, self.model.target_lang
        dates = read_spans(read, source, target)
        others = time_spans(read, source, target) + spoon_spans(read, source, target)
        return sorted(dates + [(a, b) for a, b in others if not any(a < d and c < b for c, d in dates)])

    def read_apart(self, sentence: str, limit: int | None) -> bool:
        """Whether the reading of `sentence` writes something in the target's words that it sets
        aside (read_in_target's)."""
        return bool(self.read_in_target(self.reading(sentence, limit).read))

    def given_as_read(self, sentence: str, limit: int | None) -> list[Translation]:
        """A sentence that is nothing but what its reading writes in the target's words and sets
        aside (a date, a weekday into French: "Monday", "June 3, 2024"), given back as read ("lundi",
        "3 juin 2024"), a capital where the sentence opens with one; its alignment over the words
        the user wrote."""
        read = self.reading(sentence, limit).read
        if first_alnum(sentence).isupper():
            at = next(index for index, character in enumerate(read) if character.isalnum())
            read = read[:at] + read[at].upper() + read[at + 1 :]
        [given] = unchanged(read)
        alignment = restored(given.alignment, read, sentence, self.model.source_lang)
        return [replace(given, aligned=alignment)]

    def unlearned_spans(self, read: str) -> list[tuple[int, int]]:
        """(start, end) of each name of `read`, a sentence as read, that the model never learned
        (runtime/unlearned_names.py); none from a language whose capitals mark more than names
        (German: its folder's word lists are then not read), or where the folder lists no words."""
        if self.model.source_lang not in CAPITALIZED_NAMES:
            return []
        known = self.model.known_words
        return [] if known is None else unlearned_names(read, self.model.source_lang, known)

    def word_pieces(self, word: str) -> int:
        """How many pieces the model reads for `word` after a space."""
        return self.piece_count(" " + word)

    def piece_count(self, text: str) -> int:
        """How many pieces the model reads for `text` (its EOS aside)."""
        return self.source_pieces(text).count

    def source_pieces(self, text: str) -> SourcePieces:
        """The text's pieces, and its words in the source language (runtime/words.py)."""
        return self.model.tokenizer.encode_source(text, self.model.source_lang)

    def tagged(self, source: SourcePieces) -> SourcePieces:
        """The pieces as the encoder reads them: after `source_prefix`, which belongs to no word."""
        if not self.model.source_prefix:
            return source
        return SourcePieces(
            self.model.source_prefix + source.ids,
            source.words,
            [-1] * len(self.model.source_prefix) + source.word_of_piece,
        )
