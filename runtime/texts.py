"""The text translator: texts → sentences → parts the model can take → batches over the
workers → n-best Translations with word alignments, over one LoadedModel (runtime/loaded_model.py),
which it reads for its tokenizer, direction, options and search."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from .abbreviations import read_abbreviations
from .alignment import WordAlignment, merge_to_words, restored
from .capitals import (
    a_sentence,
    continued,
    first_alnum,
    goes_on,
    opened_as_source,
    opened_with_capital,
    read_cased,
    written_back,
)
from .chunking import keep_head, split_source
from .clock import read_times, time_spans
from .combinations import best_choices, costs_along
from .condense import condensed
from .constants import BATCH_SIZE, primary_language
from .country_articles import agreed_before_countries
from .dates import day_points, read_dates, read_spans, year_comma
from .header_labels import read_header_labels
from .kitchen_units import read_spoons, spoon_spans
from .language_id import in_another_script
from .letter_formulas import formula_alignment, formula_apart, is_letter_formula, letter_formula
from .mail import signed_names
from .negations import NEGATION_WORDS, negations, negations_lost
from .number_choice import (
    WIDER_BEAM,
    faults,
    fewer_faults,
    fewest_faults_first,
    negation_kept,
    no_more_faults,
    number_kept,
)
from .numeric_dates import read_numeric_dates
from .opening_words import copied_opener, lowered_opener, opens_otherwise
from .ordinals import ordinals_given
from .parallel import even_batch_size, map_in_threads
from .person_names import names_after_given_names, names_after_titles
from .place_names import places_written, read_places
from .prices import prices_given, read_prices
from .quantities import as_target_writes, in_target, quantities_kept, quantity_spans
from .quotes import READ as QUOTES_READ
from .quotes import Quotations, quoted, unquoted
from .required_search import Requirement
from .reverse_scores import ReverseScorer, ranked_with_reverse
from .scales import scales_given
from .search import Hypothesis, SearchOptions
from .sentences import mark_apart, split_sentences
from .set_aside import (
    SetAside,
    outside_tokens,
    put_back,
    set_aside,
    signs_apart,
    spaced_as_written,
    token_spans,
)
from .spaced_numbers import grouped_as_english, read_spaced_numbers
from .street_addresses import street_spans
from .stutter import undoubled
from .text_layout import around_long_words, is_data, lines_joined, text_lines
from .titles import read_titles
from .tokenizer import SourcePieces
from .translation import TextOptions, Translation, distinct_texts, input_numbers, unchanged
from .unlearned_names import CAPITALIZED_NAMES, better_kept, names_kept, unlearned_names
from .untranslated import better_translated, left_untranslated, untranslatable
from .verbatim import SET_ASIDE_SIGN, copy_verbatim, lost_numbers
from .words import has_words, join_words, ordinary_spaces

if TYPE_CHECKING:
    from .loaded_model import LoadedModel


# A control character but the line breaks and tabs (NUL, BEL, escape, DEL, C1's) is no language: read as
# one of the model's bytes, "The\0file" had become "Dieabyte Datei", "hi\x01there" "Hiotheker"
# A terminal's escape sequence ("\x1b[31m", a colour) is one: "\x1b[31mRED" had become "[31mRED"
CONTROL = re.compile(r" *(?:\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f])+ *")


def part_as_written(source: SourcePieces, aside: SetAside) -> str:
    """The words of a part of a sentence, what was set aside from it put back in their placeholders."""
    return SET_ASIDE_SIGN.sub(lambda match: aside.tokens.get(match.group(0), match.group(0)), " ".join(source.words))


@dataclass(frozen=True)
class Reading:
    """A sentence as the model reads it, step by step: `quotations`, the sentence plain (a control
    character as a space, CONTROL, and a no-break or other space as an ordinary one,
    runtime/words.py ordinary_spaces) without its quotation marks (runtime/quotes.py); `cased`,
    that text as a sentence is written, its words cased as the model's vocabulary has them, when it
    or its opening label is in capitals (runtime/capitals.py); `read`, that text with its persons'
    titles, times, dates and prices as the models translate them right (runtime/titles.py,
    runtime/clock.py, runtime/dates.py, runtime/prices.py), outside code and URLs."""

    quotations: Quotations
    cased: str
    read: str


class TextTranslator:
    """LoadedModel.translate's work, for `model`'s direction."""

    def __init__(self, model: LoadedModel):
        self.model = model
        self.languages = (model.source_lang, model.target_lang)
        self._readings: dict[tuple[str, int | None], Reading] = {}  # (a sentence, limit) → reading(…)

    def translate(
        self,
        texts: list[str],
        options: SearchOptions | None = None,
        batch_size: int = BATCH_SIZE,
        first_number: int | Sequence[int] = 1,
        text_options: TextOptions | None = None,
        stop: threading.Event | None = None,
    ) -> list[list[Translation]]:
        """n-best translations of each text, in input order, searched with `options` around
        `text_options` (each None: the model's). The parts are sorted by length into batches of
        at most `batch_size`, evened out over the workers, decoded up to `workers` at a time,
        longest first; a batch's outputs do not depend on its company, up to rounding at near
        ties (docs/studies/BATCH-INVARIANCE.md). A text searched in parts (its sentences, its lines)
        has as its n-best the best choices of one translation per part (assemble). Blank texts give
        one empty translation; a sentence over the length limit is translated in parts, and a
        document over it is condensed to its salient sentences, or summarized from its head, by a
        summarizer; with a note, which numbers the inputs from `first_number` (a caller that
        translates a stream in calls passes its count), or by it when it lists each input's number
        (input_numbers). A person's name after a letter's closing in the same text is given back as
        written (runtime/mail.py signed_names), and so is what is all set aside, as read. A sentence
        whose translation lost a name the model never learned is searched again with it set aside
        (names_lost), one that lost a quantity with its quantities set aside (quantities_lost), one
        whose translation loses or repeats a number or drops a negation with a wider beam, taken
        where it has fewer such faults (faulty, runtime/number_choice.py; beam search only), one
        that still drops a negation or loses a number by a search made to write it, taken where it
        writes it in place (negations_dropped, numbers_dropped, runtime/required_search.py,
        number_choice.negation_kept and number_kept), and one
        that left source words untranslated, with a word check, taken where it leaves fewer so and
        has no more of those faults (words_copied).
        Setting `stop` from another thread ends the searches at their next step
        (SearchStopped)."""
        options = options or self.model.default_options()
        text_options = self.model.text_options(text_options)
        translating = self.model.manifest.task == "translate"
        split = text_options.sentences and translating
        limit = text_options.max_source_pieces
        numbers = input_numbers(first_number, len(texts))
        if self.model.manifest.task == "summarize":
            texts = self.condensed(texts, limit, numbers, stop)
        parts = []  # (input index, its line's number, source part, or the translation of a text not searched)
        formulas: dict[int, Translation] = {}  # a part that is a letter's formula → its translation by the table
        continuing: set[int] = set()  # a part that goes on after a letter's formula in small letters
        whole: dict[int, str] = {}  # a part that is a sentence searched whole → the sentence as written
        lines: list[list[tuple[str, str]]] = []  # each input's lines, as it is translated, with their breaks
        for text in texts:
            # a line break at an edge ("Hello.\r") made the model add a word; a summarizer reads a
            # document's lines as one text (its line breaks told where sentences end: condense.py)
            text = text.strip() if self.model.manifest.task == "translate" else " ".join(text.split())
            lines.append(text_lines(text) if split else [(" ".join(text.split()), "")])  # read whole, breaks as spaces
        # a person's name after a letter's closing in the same text, on its own line: given back as written
        signed = (
            {(i, n) for i, found in enumerate(lines) for n in signed_names([line for line, _ in found])}
            if split
            else set()
        )
        for index, text in enumerate(texts):
            if not has_words(text):  # blank, or punctuation alone: nothing to translate
                continue
            for number, sentence in self.units(lines[index], split):
                if (index, number) in signed:
                    parts.append((index, number, unchanged(sentence), SetAside(sentence, {})))
                    continue
                # an opening list or dialogue mark and a data word passed through, an opening
                # letter's formula a part of its own, the rest searched
                opened = mark_apart(sentence) if split else [sentence]
                rests: set[str] = set()  # what goes on after a letter's formula that opens a sentence
                if split and text_options.replace_unk:
                    parted = [self.formula_apart(text) for text in opened]
                    rests = {found[1] for found in parted if len(found) == 2}
                    opened = [part for found in parted for part in found]
                for unit in (
                    [unit for text in opened for unit in around_long_words(text)] if translating else [sentence]
                ):
                    data = is_data(unit)
                    foreign = translating and not data and in_another_script(unit, [self.model.source_lang])
                    if data:
                        self.model.notify(
                            f"input {numbers[index]} has a word of {len(unit):,} characters: given back as "
                            "it is (no language has such words: data, a hash, a minified line)"
                        )
                    if foreign:  # read as bytes it never saw, the model wrote U+FFFD
                        self.model.notify(
                            f"input {numbers[index]} has a sentence not in Latin letters, as "
                            f"{self.model.source_lang} is written: given back as it is"
                        )
                    searched = translating and text_options.replace_unk and not (data or foreign)
                    aside = self.read_aside(unit, limit) if searched else SetAside(unit, {})
                    if aside.nothing_else and self.read_apart(unit, limit):  # "Monday" → "lundi", as read
                        parts.append((index, number, self.given_as_read(unit, limit), aside))
                        continue
                    if data or foreign or aside.nothing_else or not (has_words(unit) or unit == sentence):
                        # passed through, as is punctuation beside such a word, or an address alone
                        parts.append((index, number, unchanged(unit), aside))
                        continue
                    pieces = self.fitted(numbers[index], aside.text, limit)
                    formula = self.letter_formula(unit) if searched and len(pieces) == 1 else None
                    if formula is not None:  # "Best regards,": a convention, not a sentence to compose
                        formulas[len(parts)] = formula
                    if searched and len(pieces) == 1:
                        whole[len(parts)] = unit
                    if unit in rests and goes_on(unit, self.model.source_lang):
                        continuing.add(len(parts))
                    parts += [(index, number, self.tagged(piece), aside) for piece in pieces]
        translated: list[list[Translation]] = [part if isinstance(part, list) else [] for _, _, part, _ in parts]
        search = functools.partial(
            self.searched,
            options=options,
            batch_size=batch_size,
            replace_unk=text_options.replace_unk,
            limit=limit,
            reverse_weight=text_options.reverse_weight if translating else 0.0,
        )
        for i, found in search(
            {i: part for i, part in enumerate(parts) if not isinstance(part[2], list)}, whole, stop=stop
        ).items():
            translated[i] = found
        for finder in (self.names_lost, self.quantities_lost, self.openers_copied):
            lost = finder(parts, translated, whole, limit)
            again = search({i: part for i, (part, _) in lost.items()}, whole, stop=stop)
            for i, found in again.items():
                if better_kept(lost[i][1], found[0], translated[i][0]):
                    translated[i], parts[i] = found, lost[i][0]
        if options.beam > 1:
            faulty = self.faulty(translated, whole)
            wider = replace(options, beam=options.beam * WIDER_BEAM)
            again = search({i: parts[i] for i in faulty}, whole, stop=stop, options=wider)
            self.taken_where_kept(again, translated, whole, fewer_faults)
            needed = self.negations_dropped(parts, translated, whole)
            required = Requirement(
                lambda i, tokens: self.negations_written(tokens) >= needed[i], lambda i: self.negation_pieces
            )
            again = search({i: parts[i] for i in needed}, whole, stop=stop, options=wider, required=required)
            self.taken_where_kept(again, translated, whole, negation_kept)
            lost = self.numbers_dropped(parts, translated, whole)
            required = Requirement(
                lambda i, tokens: not lost_numbers(lost[i][0], self.model.tokenizer.decode(tokens)),
                lambda i: self.number_pieces(lost[i][1]),
            )
            again = search({i: parts[i] for i in lost}, whole, stop=stop, options=wider, required=required)
            self.taken_where_kept(again, translated, whole, number_kept)
        copied = self.words_copied(parts, translated, whole, options)
        again = search({i: parts[i] for i in copied}, whole, stop=stop, checked=copied)
        for i, found in again.items():
            words = " ".join(parts[i][2].words)
            better = better_translated(copied[i], words, self.languages, found[0], translated[i][0])
            if better and no_more_faults(whole[i], self.languages, found[0], translated[i][0]):
                translated[i] = found
        for i, formula in formulas.items():
            if not is_letter_formula(translated[i][0].text, self.model.target_lang):
                translated[i] = [formula]  # the model wrote no formula of the target's ("Bestrafung,")
        for i in continuing:
            translated[i] = [self.continued(translation) for translation in translated[i]]
        per_input: list[list[tuple[int, list[Translation]]]] = [[] for _ in texts]
        for (index, number, _, _), hypotheses in zip(parts, translated):
            per_input[index].append((number, hypotheses))
        return [self.assemble(*found, options.n_best) for found in zip(texts, lines, per_input)]

    def units(self, lines: list[tuple[str, str]], split: bool) -> list[tuple[int, str]]:
        """What of a text's `lines` (text_lines) is searched, each with its line's number: with
        `split`, the sentences of each line with words (a line break stays where it was, as
        LibreTranslate keeps it; a line without words comes back as it was), the signs that open
        a sentence apart (runtime/set_aside.py signs_apart); otherwise the one line whole."""
        if not split:
            return [(0, lines[0][0])]
        return [
            (number, unit)
            for number, (line, _) in enumerate(lines)
            if has_words(line)
            for sentence in split_sentences(line.strip(), self.model.source_lang)
            for unit in signs_apart(sentence, self.model.tokenizer.writes_whole, self.word_pieces)
        ]

    def searched(
        self,
        parts: dict[int, tuple[int, int, SourcePieces, SetAside]],
        whole: dict[int, str],
        options: SearchOptions,
        batch_size: int,
        replace_unk: bool,
        limit: int | None,
        stop: threading.Event | None,
        reverse_weight: float = 0.0,
        checked: dict[int, frozenset[str]] | None = None,
        required: Requirement | None = None,
    ) -> dict[int, list[Translation]]:
        """The n-best translations (distinct) of `parts` (by their index: input index, line number,
        source pieces, what was set aside), sorted by length into batches of at most `batch_size`,
        evened out over the workers, decoded up to `workers` at a time, longest first; `whole`
        gives a sentence searched whole as written. With `checked` (a part's untranslatable words,
        runtime/untranslated.py), each word written is a target-language word or a source word
        not among them. With `required` (its condition keyed by the parts' indices), a beam
        search's translations are those that meet it (runtime/required_search.py). With a
        `reverse_weight` and a reverse model (LoadedModel.reverse_scorer),
        each part's distinct beam translations are ranked again (runtime/reverse_scores.py) before
        the n-best are taken."""
        order = sorted(parts, key=lambda i: len(parts[i][2].ids))
        size = even_batch_size(len(order), batch_size, self.model.workers)
        # longest first: the batches that finish last are then the shortest, and no worker waits
        # long on another's last batch (greedy, 2 threads: 1.07× faster; SPEED-HISTORY.md,
        # "Batches longest first")
        batches = [order[start : start + size] for start in range(0, len(order), size)][::-1]
        scorer = self.model.reverse_scorer if reverse_weight and options.beam > 1 and parts else None
        found = map_in_threads(
            lambda batch: self.model.search(
                [parts[i][2].ids for i in batch],
                options,
                stop,
                untranslatable=[checked[i] for i in batch] if checked else None,
                required=None if required is None else required.for_batch(batch),
            ),
            batches,
            self.model.workers,
        )
        translations = {}
        for batch, hypotheses_per_part in zip(batches, found):
            for i, hypotheses in zip(batch, hypotheses_per_part):
                _, _, source, aside = parts[i]
                translations[i] = self.distinct(
                    source,
                    hypotheses,
                    len(hypotheses) if scorer else options.n_best,
                    replace_unk,
                    aside,
                    limit,
                    None if scorer else whole.get(i),
                )
        if scorer is None:
            return translations
        return self.reranked(translations, parts, whole, scorer, reverse_weight, options.n_best, stop)

    def reranked(
        self,
        translations: dict[int, list[Translation]],
        parts: dict[int, tuple[int, int, SourcePieces, SetAside]],
        whole: dict[int, str],
        scorer: ReverseScorer,
        weight: float,
        n_best: int,
        stop: threading.Event | None,
    ) -> dict[int, list[Translation]]:
        """Each part's distinct `translations` (the search's best first) ranked again with `weight`
        times the reverse model's score of its source (the sentence as written, or a part of one
        with what was set aside put back), all parts' scored together; then, of a sentence searched
        whole, the one that keeps its numbers and negations first among those within the margin of
        the search's best (runtime/number_choice.py), and the first `n_best`."""
        sources = [whole.get(i) or part_as_written(parts[i][2], parts[i][3]) for i in translations]
        lists = [[t.text for t in found] for found in translations.values()]
        ranked = {}
        for (i, found), reverse in zip(translations.items(), scorer.scores_of_lists(lists, sources, stop)):
            near, others = ranked_with_reverse(found, reverse, weight)
            if i in whole:
                near = list(fewest_faults_first(whole[i], iter(near), self.languages))
            ranked[i] = [*near, *others][:n_best]
        return ranked

    def faulty(self, translated: list[list[Translation]], whole: dict[int, str]) -> list[int]:
        """The sentences searched whole whose translation (the first of `translated`) loses or
        repeats a number or drops a negation (runtime/number_choice.py faults), by their index."""
        return [
            i
            for i, written in whole.items()
            if translated[i] and faults(written, translated[i][0].text, self.languages)
        ]

    def negations_dropped(
        self, parts: list[tuple], translated: list[list[Translation]], whole: dict[int, str]
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
        self, parts: list[tuple], translated: list[list[Translation]], whole: dict[int, str]
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

    def number_pieces(self, numbers: list[str]) -> list[int]:
        """The token ids that begin `numbers` as the model writes them, within a sentence or first."""
        encoded = [self.model.tokenizer.encode(form) for number in numbers for form in (f" {number}", number)]
        return sorted({ids[0] for ids in encoded if ids})

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

    def names_lost(
        self, parts: list[tuple], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[tuple[int, int, SourcePieces, SetAside], Callable[[str], int]]]:
        """The sentences searched whole whose translation lost a name the model never learned
        (unlearned_spans) or a person's name after a given name (runtime/person_names.py
        names_after_given_names: "Thomas Koch" → "Thomas cook", "Luc Fontaine" → "The Fontaine"),
        by their index in `parts`: each as a part to search again with those names set aside, and
        how many of them a text keeps."""
        lost = {}
        for i, written in whole.items():
            read = self.reading(written, limit).read
            unlearned = self.unlearned_spans(read)
            persons = names_after_given_names(read, self.model.source_lang, self.model.known_words)
            spans = sorted(unlearned + [(name.start, name.end) for name in persons])
            kept = [read[start:end] for start, end in spans]
            count = functools.partial(names_kept, kept)
            if count(translated[i][0].text) < len(kept) and (part := self.aside_again(parts[i], written, limit, spans)):
                lost[i] = (part, count)
        return lost

    def quantities_lost(
        self, parts: list[tuple], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[tuple[int, int, SourcePieces, SetAside], Callable[[str], int]]]:
        """The sentences searched whole whose translation lost a quantity (runtime/quantities.py;
        not one inside what is set aside anyway, a URL or code), by their index in `parts`: each as
        a part to search again with its quantities set aside (put back as the target writes
        numbers), and its names the model never learned too (a retry that had mended one was
        undone), and how many of both a text keeps."""
        source, target = self.model.source_lang, self.model.target_lang
        lost = {}
        for i, written in whole.items():
            read = self.reading(written, limit).read
            tokens = token_spans(read)
            spans = [(a, b) for a, b in quantity_spans(read, source) if not any(c < b and a < d for c, d in tokens)]
            quantities = [as_target_writes(read[start:end], source, target) for start, end in spans]
            if quantities_kept(quantities, target, translated[i][0].text) == len(spans):
                continue
            names = self.unlearned_spans(read)
            named = [read[start:end] for start, end in names]

            def count(text: str, quantities=quantities, named=named) -> int:
                return quantities_kept(quantities, target, text) + names_kept(named, text)

            if part := self.aside_again(parts[i], written, limit, sorted(spans + names)):
                lost[i] = (part, count)
        return lost

    def openers_copied(
        self, parts: list[tuple], translated: list[list[Translation]], whole: dict[int, str], limit: int | None
    ) -> dict[int, tuple[tuple[int, int, SourcePieces, SetAside], Callable[[str], int]]]:
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
            word = copied_opener(written, translated[i][0].text, self.word_pieces)
            if word is None or word.lower() in target_words:  # the target writes it too: "Tom", "Note"
                continue
            aside = self.read_aside(lowered_opener(written), limit)
            pieces = self.source_pieces(aside.text)
            if limit is None or pieces.count <= limit:
                index, number, _, _ = parts[i]
                part = (index, number, self.tagged(pieces), replace(aside, lowered=True))
                lost[i] = (part, functools.partial(opens_otherwise, word))
        return lost

    def unlearned_spans(self, read: str) -> list[tuple[int, int]]:
        """(start, end) of each name of `read`, a sentence as read, that the model never learned
        (runtime/unlearned_names.py); none from a language whose capitals mark more than names
        (German: its folder's word lists are then not read), or where the folder lists no words."""
        if self.model.source_lang not in CAPITALIZED_NAMES:
            return []
        known = self.model.known_words
        return [] if known is None else unlearned_names(read, self.model.source_lang, known)

    def aside_again(self, part: tuple, written: str, limit: int | None, spans: list[tuple[int, int]]) -> tuple | None:
        """`part`, the sentence `written` searched whole, as a part to search again with `spans` of
        its reading set aside; None where it is then longer than `limit` pieces."""
        index, number, _, _ = part
        again = self.read_aside(written, limit, spans)
        pieces = self.source_pieces(again.text)
        return (index, number, self.tagged(pieces), again) if limit is None or pieces.count <= limit else None

    def words_copied(
        self, parts: list[tuple], translated: list[list[Translation]], whole: dict[int, str], options: SearchOptions
    ) -> dict[int, frozenset[str]]:
        """The sentences searched whole whose translation left source words untranslated
        (runtime/untranslated.py), by their index in `parts`, each with the words of it that
        would be so; none where the folder lists no words of one of the two languages, or where
        the search cannot check words (LoadedModel.checks_words)."""
        if not self.model.checks_words(options):  # greedy: the word lists are not read
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

    def distinct(
        self,
        source: SourcePieces,
        hypotheses: list[Hypothesis],
        n_best: int,
        replace_unk: bool,
        aside: SetAside,
        limit: int | None,
        written: str | None = None,
    ) -> list[Translation]:
        """The best `n_best` hypotheses of different texts, best first. Byte-level pieces spell a
        word in several ways ("grünen" whole, or "gr" + "ünen"), and beam search keeps such
        spellings apart, so two of its hypotheses may read the same: an n-best list shows the
        better of them once. Given the sentence as `written`, the first is the one that keeps its
        numbers and negations best (runtime/number_choice.py)."""
        translations = (
            self.translation(
                source, hypothesis.tokens, hypothesis.score, hypothesis.attention, replace_unk, aside, limit
            )
            for hypothesis in hypotheses
        )
        if written is not None:
            translations = fewest_faults_first(written, translations, self.languages)
        return distinct_texts(translations, n_best)

    def letter_formula(self, sentence: str) -> Translation | None:
        """The translation of `sentence` when it is a letter's formula (runtime/letter_formulas.py),
        asking the model about the words it holds (`alone`); it takes the place of the model's
        translation where that is no formula of the target language."""
        source, target = self.model.source_lang, self.model.target_lang
        formula = letter_formula(sentence, source, target, self.alone)
        if formula is None:
            return None
        alignment = formula_alignment(sentence, formula, source, target)
        return Translation(formula.text, [], 0.0, np.zeros((0, 0), np.float32), alignment)

    def continued(self, translation: Translation) -> Translation:
        """`translation`, of a sentence's rest after a letter's formula that goes on in small
        letters, with its first word as such a rest opens (runtime/capitals.py continued)."""
        alignment = translation.alignment
        first = next((i for i, word in enumerate(alignment.target_words) if word[:1].isalpha()), None)
        if first is None:
            return translation
        word = alignment.target_words[first]
        written = continued(word, self.word_pieces, self.model.target_lang)
        if written == word:
            return translation
        at = translation.text.find(word)
        if at < 0:  # the text spaces the word otherwise than the alignment: left as it is
            return translation
        words = [*alignment.target_words[:first], written, *alignment.target_words[first + 1 :]]
        text = translation.text[:at] + written + translation.text[at + len(word) :]
        return replace(translation, text=text, aligned=replace(alignment, target_words=words))

    def formula_apart(self, sentence: str) -> list[str]:
        """`sentence` as the letter's formula it opens with and the rest (runtime/letter_formulas.py
        formula_apart)."""
        return formula_apart(sentence, self.model.source_lang, self.model.target_lang, self.alone)

    def alone(self, words: str) -> str:
        """The model's translation of `words` read alone, greedy (a name it copies: "Anna"; words
        it translates: "World" → "Welt")."""
        return self.as_the_model_writes(words, beam=1)

    def probed(self, sentence: str) -> str:
        """The model's translation of `sentence` with the folder's default search, asked once for
        each model and direction: what the runtime/place_names.py rule asks the model about a name."""
        key = (self.model.source_lang, self.model.target_lang, sentence)
        if key not in self.model.probes:
            self.model.probes[key] = self.as_the_model_writes(sentence)
        return self.model.probes[key]

    def as_the_model_writes(self, text: str, **search) -> str:
        """The model's best translation of `text` read whole and as it is (no reading rule, nothing
        set aside, not ranked again), with its default search but `search`."""
        plain = TextOptions(sentences=False, replace_unk=False, reverse_weight=0.0)
        return self.translate([text], self.model.default_options(n_best=1, **search), text_options=plain)[0][0].text

    def read_apart(self, sentence: str, limit: int | None) -> bool:
        """Whether the reading of `sentence` writes something in the target's words that it sets
        aside (read_in_target's)."""
        return bool(self.read_in_target(self.reading(sentence, limit).read))

    def read_in_target(self, read: str) -> list[tuple[int, int]]:
        """(start, end) of what `read`, a sentence as read, writes in the target's words and sets
        aside: its dates and weekdays (runtime/dates.py read_spans), its times (runtime/clock.py
        time_spans) and its spoons (runtime/kitchen_units.py spoon_spans) outside them."""
        source, target = self.model.source_lang, self.model.target_lang
        dates = read_spans(read, source, target)
        others = time_spans(read, source, target) + spoon_spans(read, source, target)
        return sorted(dates + [(a, b) for a, b in others if not any(a < d and c < b for c, d in dates)])

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

    def read_aside(self, sentence: str, limit: int | None, spans: Sequence[tuple[int, int]] = ()) -> SetAside:
        """`sentence` as the model reads it (reading), then what is no language for the model set
        aside (runtime/set_aside.py), with `spans` of that reading (names, quantities) beside its
        titles' names; a quantity put back as the target writes its number (runtime/quantities.py)."""
        read = self.reading(sentence, limit).read
        source, target = self.model.source_lang, self.model.target_lang
        spans = [
            *names_after_titles(read, source, target),
            *street_spans(read, source),
            *self.read_in_target(read),
            *spans,
        ]
        aside = set_aside(read, source, self.model.tokenizer.writes_whole, spans)
        aside = replace(aside, in_target=in_target(aside.tokens, source, target))
        return aside if read == sentence else replace(aside, written=sentence)

    def reading(self, sentence: str, limit: int | None) -> Reading:
        """How the model reads `sentence` (Reading): its quotation marks kept as written where it
        is longer than `limit` pieces (translated in parts, runtime/quotes.py). Worked out once for
        each sentence: a translation's every hypothesis reads it again."""
        if (sentence, limit) not in self._readings:
            source, target = self.model.source_lang, self.model.target_lang
            plain = ordinary_spaces(CONTROL.sub(" ", sentence))
            quotations = (
                unquoted(plain, token_spans(plain)) if (source, target) in QUOTES_READ else Quotations(plain, [])
            )
            if quotations.spans and limit is not None and self.piece_count(quotations.text) > limit:
                quotations = Quotations(plain, [])
            cased = read_cased(quotations.text, self.word_pieces, source)

            def read_as_the_target(text: str) -> str:
                text = read_places(text, source, target, self.probed)
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

    def condensed(self, texts: list[str], limit: int, numbers: list[int], stop: threading.Event | None) -> list[str]:
        """The texts a summarizer reads: one longer than `limit` pieces condensed to its salient
        sentences (runtime/condense.py), with a note."""
        greedy = self.model.default_options(beam=1, n_best=1)
        whole = TextOptions(sentences=False, max_source_pieces=limit, replace_unk=False)
        shorter = condensed(
            texts,
            limit,
            self.model.source_lang,
            self.piece_count,
            lambda parts: self.translate(parts, greedy, text_options=whole, stop=stop),
        )
        read = []
        for number, text, short in zip(numbers, texts, shorter):
            if short is not None:
                self.model.notify(
                    f"{self.over_the_summarizers_limit(number, limit)} most salient sentences, "
                    f"{len(short.split())} of its {len(text.split())} words, chosen from all of it"
                )
            read.append(text if short is None else short)
        return read

    def fitted(self, number: int, text: str, limit: int) -> list[SourcePieces]:
        """The text's pieces as the model can take them (one part when they fit), with a note
        when they did not. A summarizer reads only the head, so only the head's characters are
        tokenized: a piece spans at most `longest_piece` characters, so the whole words within
        the first (limit + 1) · longest_piece characters hold the first `limit` pieces."""
        summarizing = self.model.manifest.task == "summarize"
        budget = (limit + 1) * self.model.tokenizer.longest_piece
        read = text[:budget].rsplit(None, 1)[0] if summarizing and len(text) > budget else text
        source = self.source_pieces(read)
        if source.count <= limit:
            return [source]
        if summarizing:
            head = keep_head(source, limit)
            self.model.notify(
                f"{self.over_the_summarizers_limit(number, limit)} first {head.count} pieces "
                f"({len(head.words)} of {len(text.split())} words)"
            )
            return [head]
        pieces = split_source(source, limit)
        self.model.notify(
            f"input {number} has a sentence of {source.count} pieces, over {limit} (--max-source-pieces): "
            f"translated in {len(pieces)} parts"
        )
        return pieces

    @staticmethod
    def over_the_summarizers_limit(number: int, limit: int) -> str:
        """A note's opening: input `number` is longer than a summarizer reads at once."""
        return (
            f"input {number} is longer than the summarizer reads at once ({limit} pieces, --max-source-pieces): "
            "summarized from its"
        )

    def assemble(
        self, text: str, lines: list[tuple[str, str]], parts: list[tuple[int, list[Translation]]], n_best: int
    ) -> list[Translation]:
        """A text's `n_best` translations from its parts' (each with its line's number): those of
        its one part, or of several, the best choices of one translation each (runtime/combinations.py),
        a line's joined by spaces (after the line's indentation) and its lines by their own breaks
        (a line without words as it was), their alignments side by side; distinct texts only."""
        if not parts and text.strip() and self.model.manifest.task == "translate":
            return unchanged(text)  # punctuation alone ("!?!", "---") comes back as it was; its summary is empty
        if not parts:
            source = self.tagged(self.source_pieces(text))
            return [self.translation(source, [], 0.0, np.zeros((0, len(source.ids)), np.float32))]
        if len(parts) == 1 and len(lines) == 1:
            return parts[0][1]
        numbers = [number for number, _ in parts]
        costs = [costs_along([translation.score for translation in found]) for _, found in parts]
        return distinct_texts(
            lines_joined(lines, numbers, [found[j] for (_, found), j in zip(parts, choice)])
            for choice in best_choices(costs, n_best)
        )

    def translation(
        self,
        source: SourcePieces,
        tokens: list[int],
        score: float,
        attention: np.ndarray,
        replace_unk: bool = False,
        aside: SetAside | None = None,
        limit: int | None = None,
    ) -> Translation:
        """A hypothesis of `source` as a Translation; with `replace_unk`, its near-miss copies
        repaired (runtime/verbatim.py) and the tokens `aside` set aside from its source put back
        (runtime/set_aside.py), the source's words as written (read as `reading` reads them for `limit`), a
        place's name it missed written as the target names it (runtime/place_names.py places_written), its
        ordinals and scale words ("milliard") as the target writes them (runtime/ordinals.py,
        runtime/scales.py) and,
        into French, the word before a country's name as the name takes it (runtime/country_articles.py)."""

        def aligned() -> WordAlignment:
            words, word_of_piece = self.model.tokenizer.target_words(tokens, self.model.target_lang)
            return merge_to_words(attention, source.word_of_piece, word_of_piece, source.words, words)

        if replace_unk:
            alignment = copy_verbatim(aligned(), (self.model.source_lang, self.model.target_lang))
            set_apart = aside is not None and bool(aside.tokens)
            if set_apart:
                alignment = put_back(alignment, aside, self.model.source_lang, self.model.target_lang)
            if aside is not None and aside.written is not None:
                reading = self.reading(aside.written, limit)
                unquoted_text = reading.quotations.text
                alignment = restored(alignment, reading.read, unquoted_text, self.model.source_lang)
                alignment = written_back(alignment, unquoted_text, reading.cased)
                alignment = quoted(alignment, reading.quotations, self.model.source_lang, self.model.target_lang)
                alignment = restored(alignment, unquoted_text, aside.written, self.model.source_lang)
            opens = set_apart or a_sentence(alignment.source_words)
            alignment = opened_as_source(alignment) if opens else alignment
            alignment = opened_with_capital(alignment) if aside is not None and aside.lowered else alignment
            alignment = day_points(year_comma(alignment, self.model.target_lang), self.model.target_lang)
            target_words = self.model.language_words(self.model.target_lang)
            alignment = places_written(alignment, self.model.source_lang, self.model.target_lang, target_words)
            alignment = ordinals_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = scales_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = prices_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = grouped_as_english(alignment, self.model.source_lang, self.model.target_lang)
            alignment = agreed_before_countries(alignment, self.model.target_lang, self.model.source_lang)
            alignment = undoubled(alignment)
            text = join_words(alignment.target_words, self.model.target_lang)
            text = spaced_as_written(text, aside) if set_apart else text
            return Translation(text, tokens, score, attention, alignment)
        return Translation(self.model.tokenizer.decode(tokens), tokens, score, attention, aligned)
