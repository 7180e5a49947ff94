"""The text translator: texts → sentences → parts the model can take → batches over the
workers → n-best Translations with word alignments, over one LoadedModel (runtime/loaded_model.py),
which it reads for its tokenizer, direction, options and search."""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .alignment import WordAlignment, merge_to_words, restored
from .capitals import a_sentence, continued, goes_on, opened_as_source, opened_with_capital, written_back
from .chunking import keep_head, split_source
from .combinations import best_choices, costs_along
from .condense import condensed
from .constants import BATCH_SIZE
from .country_articles import agreed_before_countries
from .dates import day_points, year_comma
from .language_id import in_another_script
from .letter_formulas import formula_alignment, formula_apart, is_letter_formula, letter_formula
from .mail import signed_names
from .number_choice import fewest_faults_first
from .ordinals import ordinals_given
from .parallel import even_batch_size, map_in_threads
from .person_names import given_names_as_written
from .place_names import places_written
from .prices import prices_given, scaled_prices_given
from .quotes import quoted
from .required_search import Requirement
from .reverse_scores import ReverseScorer, ranked_with_reverse
from .scales import scales_given
from .search import Hypothesis, SearchOptions
from .second_searches import SecondSearches, placeholder_remains
from .sentences import mark_apart, split_sentences
from .set_aside import SetAside, put_back, signs_apart, spaced_as_written
from .source_reading import SourceReader
from .spaced_numbers import grouped_as_english
from .stutter import undoubled
from .text_layout import around_long_words, is_data, lines_joined, text_lines
from .tokenizer import SourcePieces
from .translation import TextOptions, Translation, distinct_texts, input_numbers, unchanged
from .verbatim import SET_ASIDE_SIGN, copy_verbatim
from .words import has_words, join_words, ordinary_characters

if TYPE_CHECKING:
    from .loaded_model import LoadedModel


def part_as_written(source: SourcePieces, aside: SetAside) -> str:
    """The words of a part of a sentence, what was set aside from it put back in their placeholders."""
    return SET_ASIDE_SIGN.sub(lambda match: aside.tokens.get(match.group(0), match.group(0)), " ".join(source.words))


class TextTranslator:
    """LoadedModel.translate's work, for `model`'s direction."""

    def __init__(self, model: LoadedModel):
        self.model = model
        self.languages = (model.source_lang, model.target_lang)
        self.reader = SourceReader(model, self.probed)
        self.again = SecondSearches(model, self.reader)

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
        whose translation lost something (a name, a quantity, a number, a negation, a word left
        untranslated) is searched again (runtime/second_searches.py).
        Setting `stop` from another thread ends the searches at their next step
        (SearchStopped)."""
        options = options or self.model.default_options()
        text_options = self.model.text_options(text_options)
        translating = self.model.manifest.task == "translate"
        split = text_options.sentences and translating
        limit = text_options.max_source_pieces
        numbers = input_numbers(first_number, len(texts))
        if self.model.manifest.task == "summarize":
            texts = self.condensed([ordinary_characters(text) for text in texts], limit, numbers, stop)
        parts = []  # (input index, its line's number, source part, or the translation of a text not searched)
        formulas: dict[int, Translation] = {}  # a part that is a letter's formula → its translation by the table
        continuing: set[int] = set()  # a part that goes on after a letter's formula in small letters
        whole: dict[int, str] = {}  # a part that is a sentence searched whole → the sentence as written
        lines: list[list[tuple[str, str]]] = []  # each input's lines, as it is translated, with their breaks
        for text in texts:
            # a line break at an edge ("Hello.\r") made the model add a word; a summarizer reads a
            # document's lines as one text (its line breaks told where sentences end: condense.py)
            text = text.strip() if translating else " ".join(text.split())
            lines.append(text_lines(text) if translating else [(text, "")])
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
                    foreign = (
                        translating
                        and not data
                        and in_another_script(ordinary_characters(unit), [self.model.source_lang])
                    )
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
                    aside = self.reader.read_aside(unit, limit) if searched else SetAside(unit, {})
                    if aside.nothing_else and self.reader.read_apart(unit, limit):  # "Monday" → "lundi", as read
                        parts.append((index, number, self.reader.given_as_read(unit, limit), aside))
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
                    parts += [(index, number, self.reader.tagged(piece), aside) for piece in pieces]
        translated: list[list[Translation]] = [part if isinstance(part, list) else [] for _, _, part, _ in parts]
        search = functools.partial(
            self.searched,
            options=options,
            batch_size=batch_size,
            replace_unk=text_options.replace_unk,
            limit=limit,
            reverse_weight=text_options.reverse_weight if translating else 0.0,
            stop=stop,
        )
        for i, found in search(
            {i: part for i, part in enumerate(parts) if not isinstance(part[2], list)}, whole
        ).items():
            translated[i] = found
        self.again.searched_again(parts, translated, whole, options, limit, search)
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
        a sentence apart (runtime/set_aside.py signs_apart); otherwise each line with words whole
        (a summarizer's text is one line)."""
        if not split:
            return [(number, line.strip()) for number, (line, _) in enumerate(lines) if has_words(line)]
        return [
            (number, unit)
            for number, (line, _) in enumerate(lines)
            if has_words(line)
            for sentence in split_sentences(line.strip(), self.model.source_lang)
            for unit in signs_apart(sentence, self.model.tokenizer.writes_whole, self.reader.word_pieces)
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
        with what was set aside put back), all parts' scored together; then, within the margin of
        the search's best, those holding no remains of a placeholder first ("3.480,50 {0,50 €"),
        and of a sentence searched whole, the one that keeps its numbers and negations first
        (runtime/number_choice.py); the first `n_best`."""
        sources = [whole.get(i) or part_as_written(parts[i][2], parts[i][3]) for i in translations]
        lists = [[t.text for t in found] for found in translations.values()]
        ranked = {}
        for (i, found), reverse, source in zip(
            translations.items(), scorer.scores_of_lists(lists, sources, stop), sources
        ):
            near, others = ranked_with_reverse(found, reverse, weight)
            near.sort(key=lambda translation: placeholder_remains(source, translation.text))  # stable
            if i in whole:
                near = list(fewest_faults_first(whole[i], iter(near), self.languages))
            ranked[i] = [*near, *others][:n_best]
        return ranked

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
        written = continued(word, self.reader.word_pieces, self.model.target_lang)
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

    def condensed(self, texts: list[str], limit: int, numbers: list[int], stop: threading.Event | None) -> list[str]:
        """The texts a summarizer reads: one longer than `limit` pieces condensed to its salient
        sentences (runtime/condense.py), chosen by the attention of greedy summaries of its parts
        (their words checked as every summary's are), with a note."""
        greedy = self.model.default_options(beam=1, n_best=1)
        whole = TextOptions(sentences=False, max_source_pieces=limit, replace_unk=False)
        shorter = condensed(
            texts,
            limit,
            self.model.source_lang,
            self.reader.piece_count,
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
        source = self.reader.source_pieces(read)
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
            source = self.reader.tagged(self.reader.source_pieces(text))
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
            source_marks, target_marks = self.model.tokenizer.punctuation
            return merge_to_words(
                attention,
                source.word_of_piece,
                word_of_piece,
                source.words,
                words,
                [piece in source_marks for piece in source.ids],
                [piece in target_marks for piece in tokens],
            )

        if replace_unk:
            alignment = copy_verbatim(aligned(), (self.model.source_lang, self.model.target_lang))
            set_apart = aside is not None and bool(aside.tokens)
            if set_apart:
                alignment = put_back(alignment, aside, self.model.source_lang, self.model.target_lang)
            if aside is not None and aside.written is not None:
                reading = self.reader.reading(aside.written, limit)
                unquoted_text = reading.quotations.text
                alignment = restored(alignment, reading.read, unquoted_text, self.model.source_lang)
                alignment = written_back(alignment, unquoted_text, reading.cased)
                alignment = quoted(alignment, reading.quotations, self.model.source_lang, self.model.target_lang)
                alignment = restored(alignment, unquoted_text, aside.written, self.model.source_lang)
            opens = set_apart or a_sentence(alignment.source_words)
            alignment = opened_as_source(alignment) if opens else alignment
            alignment = opened_with_capital(alignment) if aside is not None and aside.lowered else alignment
            alignment = given_names_as_written(alignment)
            alignment = day_points(year_comma(alignment, self.model.target_lang), self.model.target_lang)
            target_words = self.model.language_words(self.model.target_lang)
            alignment = places_written(alignment, self.model.source_lang, self.model.target_lang, target_words)
            alignment = ordinals_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = scales_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = prices_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = scaled_prices_given(alignment, self.model.source_lang, self.model.target_lang)
            alignment = grouped_as_english(alignment, self.model.source_lang, self.model.target_lang)
            alignment = agreed_before_countries(alignment, self.model.target_lang, self.model.source_lang)
            alignment = undoubled(alignment)
            text = join_words(alignment.target_words, self.model.target_lang)
            text = spaced_as_written(text, aside) if set_apart else text
            return Translation(text, tokens, score, attention, alignment)
        return Translation(self.model.tokenizer.decode(tokens), tokens, score, attention, aligned)
