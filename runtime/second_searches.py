"""Sentences searched again where their first translation lost something, each taken where the
second keeps more: a name the model never learned or a person's name (searched with it set aside),
a quantity (set aside), a first word copied as written (in small letters), a number lost or
repeated beside a currency's sign set aside (the sign read as written), a number lost or
repeated or a negation dropped (a wider beam, then a search made to write it), source words left
untranslated (a search that checks its words), and a translation that ran to the length limit in a
loop (a search that repeats no 4-gram)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .constants import primary_language
from .negations import NEGATION_WORDS, negations, negations_lost
from .number_choice import (
    WIDER_BEAM,
    faults,
    fewer_faults,
    negation_kept,
    no_more_faults,
    number_faults,
    number_kept,
)
from .opening_words import copied_opener, lowered_opener, opens_otherwise
from .person_names import names_after_given_names
from .quantities import as_target_writes, quantities_kept, quantity_spans
from .required_search import Requirement
from .search import SEARCH_LIMITS, SearchOptions
from .set_aside import SetAside, is_currency, token_spans
from .source_reading import SourceReader
from .tokenizer import SourcePieces
from .translation import Translation
from .unlearned_names import CAPITALIZED_NAMES, better_kept, names_kept
from .untranslated import better_translated, left_untranslated, untranslatable
from .verbatim import lost_numbers

if TYPE_CHECKING:
    from .loaded_model import LoadedModel

# The n-grams of pieces a translation that ran to the length limit may not repeat when searched
# again: docs/studies/NO-REPEAT-NGRAM.md's choice for the option, which did not become the default
# (a name written twice came out misspelt); a loop to the limit is worse than that
LOOP_BLOCK = 4

# A part of a text as TextTranslator searches it: (input index, its line's number, source pieces, what was set aside)
Part = tuple[int, int, SourcePieces, SetAside]


UNCLOSED_PLACEHOLDER = re.compile(r"\{\d+(?![\d}])")  # a set-aside token's placeholder, not closed (SET_ASIDE_SIGN)


def placeholder_remains(source: str, translation: str) -> bool:
    """Whether `translation` holds a placeholder left open ("{0." ) that `source` does not write:
    what a search that may not repeat a 4-gram wrote where it could not close one."""
    return bool(set(UNCLOSED_PLACEHOLDER.findall(translation)) - set(UNCLOSED_PLACEHOLDER.findall(source)))


def repeats_an_ngram(tokens: list[int], n: int) -> bool:
    """Whether `tokens` hold an n-gram twice."""
    grams = [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
    return len(set(grams)) < len(grams)


class SecondSearches:
    """The second searches of `model`'s translations of sentences read by `reader`."""

    def __init__(self, model: LoadedModel, reader: SourceReader):
        self.model = model
        self.reader = reader
        self.languages = (model.source_lang, model.target_lang)

    def searched_again(
        self,
        parts: list[Part],
        translated: list[list[Translation]],
        whole: dict[int, str],
        options: SearchOptions,
        limit: int | None,
        search: Callable[..., dict[int, list[Translation]]],
    ) -> None:
        """In place: the `translated` parts (`parts`; `whole`, the sentences searched whole, by
        index) searched again with `search` (TextTranslator.searched with its settings and stop
        event) where they lost something. A sentence whose translation lost a name the model never
        learned is searched again with it set aside (names_lost), one that lost a quantity with its
        quantities set aside (quantities_lost), one that copied its first word with that word in
        small letters (openers_copied), one that loses or repeats a number beside a currency's sign
        set aside with the sign read (currencies_looped), each taken where it keeps more, its part then replaced in
        `parts`; one whose translation loses or repeats a number or drops a negation with a wider
        beam, taken where it has fewer such faults (faulty, runtime/number_choice.py; beam search
        only), one that still drops a negation or loses a number by a search made to write it,
        taken where it writes it in place (negations_dropped, numbers_dropped,
        runtime/required_search.py, number_choice.negation_kept and number_kept), and one that left
        source words untranslated with a word check, taken where it leaves fewer so and has no
        more of those faults (words_copied); before that, one whose translation ran to the length
        limit in a loop with no 4-gram of pieces repeated (LOOP_BLOCK), taken where it ends
        (ran_to_the_limit)."""
        for finder in (self.names_lost, self.quantities_lost, self.openers_copied, self.currencies_looped):
            lost = finder(parts, translated, whole, limit)
            again = search({i: part for i, (part, _) in lost.items()}, whole)
            for i, found in again.items():
                if better_kept(lost[i][1], found[0], translated[i][0]):
                    translated[i], parts[i] = found, lost[i][0]
        if options.beam > 1:
            faulty = self.faulty(translated, whole)
            # at most the search's widest: a --beam over 64 had been refused as the doubled beam's
            wider = replace(options, beam=min(options.beam * WIDER_BEAM, int(SEARCH_LIMITS["beam"][1])))
            again = search({i: parts[i] for i in faulty}, whole, options=wider)
            self.taken_where_kept(again, translated, whole, fewer_faults)
            needed = self.negations_dropped(parts, translated, whole)
            required = Requirement(
                lambda i, tokens: self.negations_written(tokens) >= needed[i], lambda i: self.negation_pieces
            )
            again = search({i: parts[i] for i in needed}, whole, options=wider, required=required)
            self.taken_where_kept(again, translated, whole, negation_kept)
            lost = self.numbers_dropped(parts, translated, whole)
            required = Requirement(
                lambda i, tokens: not lost_numbers(lost[i][0], self.model.tokenizer.decode(tokens)),
                lambda i: self.number_pieces(lost[i][1]),
            )
            again = search({i: parts[i] for i in lost}, whole, options=wider, required=required)
            self.taken_where_kept(again, translated, whole, number_kept)
        # a block the user asked for stays as tight; one as tight as LOOP_BLOCK already had its chance
        block = min(LOOP_BLOCK, options.no_repeat_ngram or LOOP_BLOCK)
        endless = self.ran_to_the_limit(parts, translated, whole, options) if block != options.no_repeat_ngram else []
        again = search({i: parts[i] for i in endless}, whole, options=replace(options, no_repeat_ngram=block))
        for i, found in again.items():
            # taken where it ends, and holds no remains of a placeholder the source lacks ("… kind of {0.")
            if (
                found
                and not self.at_the_limit(parts[i], found[0], options)
                and not placeholder_remains(whole[i], found[0].text)
            ):
                translated[i] = found
        copied = self.words_copied(parts, translated, whole, options)
        again = search({i: parts[i] for i in copied}, whole, checked=copied)
        for i, found in again.items():
            words = " ".join(parts[i][2].words)
            better = better_translated(copied[i], words, self.languages, found[0], translated[i][0])
            if (
                better
                and no_more_faults(whole[i], self.languages, found[0], translated[i][0])
                and not self.at_the_limit(parts[i], found[0], options)  # a loop the retry above took out
            ):
                translated[i] = found

    def ran_to_the_limit(
        self, parts: list[Part], translated, whole: dict[int, str], options: SearchOptions
    ) -> list[int]:
        """The sentences searched whole whose translation (the first of `translated`, by index)
        ran to the length limit without ending, repeating a LOOP_BLOCK-gram of pieces: a loop the
        search could not leave ("Die Patienten am Victor-Gadbois-Gadbois-Gadbois-…-Pall"), by their
        index (one merely long, or held short by --max-length-ratio, is not searched again)."""
        return [
            i
            for i in whole
            if translated[i]
            and self.at_the_limit(parts[i], translated[i][0], options)
            and repeats_an_ngram(translated[i][0].tokens, LOOP_BLOCK)
        ]

    def at_the_limit(self, part: Part, translation: Translation, options: SearchOptions) -> bool:
        """Whether `translation` of `part` holds as many pieces as the search allows it."""
        return len(translation.tokens) >= self.model.max_lengths(np.array([len(part[2].ids)]), options)[0]

    def faulty(self, translated: list[list[Translation]], whole: dict[int, str]) -> list[int]:
        """The sentences searched whole whose translation (the first of `translated`) loses or
        repeats a number or drops a negation (runtime/number_choice.py faults), by their index."""
        return [
            i
            for i, written in whole.items()
            if translated[i] and faults(written, translated[i][0].text, self.languages)
        ]

    def negations_dropped(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str]
    ) -> dict[int, int]:
        """The sentences searched whole whose translation (the first of `translated`) drops a
        negation (runtime/negations.py), by their index: how many negations the source writes as
        the model reads it (what was set aside, code, is none)."""
        source, target = self.languages
        return {
            i: negations(" ".join(parts[i][2].words), source)
            for i, written in whole.items()
            if translated[i] and negations_lost(written, source, translated[i][0].text, target)
        }

    def numbers_dropped(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str]
    ) -> dict[int, tuple[str, list[str]]]:
        """The sentences searched whole whose translation (the first of `translated`) loses a number
        (runtime/verbatim.py lost_numbers), by their index: the sentence as the model reads it and
        the numbers of it that the model's output loses (none where the number was set aside, and
        the sentence is then left out)."""
        lost = {}
        for i, written in whole.items():
            if translated[i] and lost_numbers(written, translated[i][0].text):
                read = " ".join(parts[i][2].words)
                numbers = lost_numbers(read, self.model.tokenizer.decode(translated[i][0].tokens))
                if numbers:
                    lost[i] = (read, numbers)
        return lost

    def names_lost(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[Part, Callable[[str], int]]]:
        """The sentences searched whole whose translation lost a name the model never learned
        (unlearned_spans) or a person's name after a given name (runtime/person_names.py
        names_after_given_names: "Thomas Koch" → "Thomas cook", "Luc Fontaine" → "The Fontaine"),
        by their index in `parts`: each as a part to search again with those names set aside, and
        how many of them a text keeps."""
        lost = {}
        for i, written in whole.items():
            read = self.reader.reading(written, limit).read
            unlearned = self.reader.unlearned_spans(read)
            persons = names_after_given_names(read, self.model.source_lang, self.model.known_words)
            spans = sorted(unlearned + [(name.start, name.end) for name in persons])
            kept = [read[start:end] for start, end in spans]
            count = functools.partial(names_kept, kept)
            if count(translated[i][0].text) < len(kept) and (part := self.aside_again(parts[i], written, limit, spans)):
                lost[i] = (part, count)
        return lost

    def quantities_lost(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[Part, Callable[[str], int]]]:
        """The sentences searched whole whose translation lost a quantity (runtime/quantities.py;
        not one inside what is set aside anyway, a URL or code), by their index in `parts`: each as
        a part to search again with its quantities set aside (put back as the target writes
        numbers), and its names the model never learned too (a retry that had mended one was
        undone), and how many of both a text keeps."""
        source, target = self.model.source_lang, self.model.target_lang
        lost = {}
        for i, written in whole.items():
            read = self.reader.reading(written, limit).read
            tokens = token_spans(read)
            spans = [(a, b) for a, b in quantity_spans(read, source) if not any(c < b and a < d for c, d in tokens)]
            quantities = [as_target_writes(read[start:end], source, target) for start, end in spans]
            if quantities_kept(quantities, target, translated[i][0].text) == len(spans):
                continue
            names = self.reader.unlearned_spans(read)
            named = [read[start:end] for start, end in names]

            def count(text: str, quantities=quantities, named=named) -> int:
                return quantities_kept(quantities, target, text) + names_kept(named, text)

            if part := self.aside_again(parts[i], written, limit, sorted(spans + names)):
                lost[i] = (part, count)
        return lost

    def currencies_looped(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[Part, Callable[[str], int]]]:
        """The sentences searched whole with nothing set aside but currencies' signs ("Sales rose
        to €2.3 per share" read as "… to {0}2.3 per share") whose translation loses or repeats a
        number (number_faults; the en-de model had written "… 20,5% auf {0}2,3 Milliarden {0}2,3
        Milliarden in {0}2,3 Milliarden." when prices of a scale were read so),
        by their index in `parts`: each as a part to search again with the signs the model writes
        whole read as written, and how well a text keeps the numbers and signs (the fewer faults
        and signs lost, the higher)."""
        lost = {}
        for i, written in whole.items():
            aside = parts[i][3]
            signs = {character for token in aside.tokens.values() for character in token if is_currency(character)}
            if aside.lowered or not signs or not all(is_currency(token) for token in aside.tokens.values()):
                continue  # (lowered: searched again by openers_copied, which this would undo)
            if not number_faults(written, translated[i][0].text):
                continue
            part = self.aside_again(parts[i], written, limit, [], currency_read=True)
            if part is None or part[3].tokens == aside.tokens:
                continue

            def count(text: str, written=written, signs=signs) -> int:
                return -number_faults(written, text) - sum(sign not in text for sign in signs)

            lost[i] = (part, count)
        return lost

    def openers_copied(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[Part, Callable[[str], int]]]:
        """The sentences searched whole, of a language that writes a word with a capital only for a
        name within a sentence, whose translation opens with their first word as written, a word
        the model's vocabulary holds whole in small letters (a word, not a name: "Diet", "Speed",
        "Caution" had been copied into German; not before another word with a capital, "Ben
        Affleck"), nor one the target language's training words hold where the folder lists them
        (a name, "Tom" had become "Demain", or a word both write, "Note"), by their index in
        `parts`: each as a part to search again with that word in
        small letters (SetAside.lowered: the translation opens with a capital all the same), and
        whether a text opens otherwise (runtime/opening_words.py)."""
        if self.model.source_lang not in CAPITALIZED_NAMES:
            return {}
        target_words = self.model.language_words(self.model.target_lang) or frozenset()
        lost = {}
        for i, written in whole.items():
            word = copied_opener(written, translated[i][0].text, self.reader.word_pieces)
            if word is None or word.lower() in target_words:  # the target writes it too: "Tom", "Note"
                continue
            aside = self.reader.read_aside(lowered_opener(written), limit)
            pieces = self.reader.source_pieces(aside.text)
            if limit is None or pieces.count <= limit:
                index, number, _, _ = parts[i]
                part = (index, number, self.reader.tagged(pieces), replace(aside, lowered=True))
                lost[i] = (part, functools.partial(opens_otherwise, word))
        return lost

    def words_copied(
        self, parts: list[Part], translated: list[list[Translation]], whole: dict[int, str], options: SearchOptions
    ) -> dict[int, frozenset[str]]:
        """The sentences searched whole whose translation left source words untranslated
        (runtime/untranslated.py), by their index in `parts`, each with the words of it that
        would be so; none where the folder lists no words of one of the two languages, where
        the search cannot check words (LoadedModel.checks_words), or for greedy search, which is
        for speed: its word lists are not read."""
        if options.beam == 1 or not self.model.checks_words(options):
            return {}
        source_words = self.model.language_words(self.model.source_lang)
        target_words = self.model.language_words(self.model.target_lang)
        if source_words is None or target_words is None:
            return {}
        copied = {}
        for i in whole:
            words = untranslatable(" ".join(parts[i][2].words), self.model.source_lang, source_words, target_words)
            if left_untranslated(translated[i][0].text, words):
                copied[i] = words
        return copied

    def aside_again(
        self, part: Part, written: str, limit: int | None, spans: list[tuple[int, int]], currency_read: bool = False
    ) -> Part | None:
        """`part`, the sentence `written` searched whole, as a part to search again with `spans` of
        its reading set aside (with `currency_read`, not the currencies' signs the model writes
        whole); None where it is then longer than `limit` pieces."""
        index, number, _, _ = part
        again = self.reader.read_aside(written, limit, spans, currency_read)
        pieces = self.reader.source_pieces(again.text)
        return (index, number, self.reader.tagged(pieces), again) if limit is None or pieces.count <= limit else None

    def taken_where_kept(
        self,
        again: dict[int, list[Translation]],
        translated: list[list[Translation]],
        whole: dict[int, str],
        kept: Callable[[str, tuple[str, str], Translation, Translation], bool],
    ) -> None:
        """In place: each sentence's translations `again` (by index) taken over `translated`'s where
        they are found and `kept` says so of their first and the one before."""
        for i, found in again.items():
            if found and kept(whole[i], self.languages, found[0], translated[i][0]):
                translated[i] = found

    def number_pieces(self, numbers: list[str]) -> list[int]:
        """The token ids that begin `numbers` as the model writes them, within a sentence or first."""
        encoded = [self.model.tokenizer.encode(form) for number in numbers for form in (f" {number}", number)]
        return sorted({ids[0] for ids in encoded if ids})

    def negations_written(self, tokens: list[int]) -> int:
        """How many negations the target-language `tokens` write (as a translation, negations.py)."""
        return negations(self.model.tokenizer.decode(tokens), self.model.target_lang, translation=True) or 0

    @functools.cached_property
    def negation_pieces(self) -> list[int]:
        """The token ids of the target language's negating words (NEGATION_WORDS) that are one
        piece each, as written within a sentence and capitalized."""
        words = NEGATION_WORDS.get(primary_language(self.model.target_lang), ())
        encoded = [self.model.tokenizer.encode(f" {form}") for word in words for form in (word, word.capitalize())]
        return sorted({ids[0] for ids in encoded if len(ids) == 1})
