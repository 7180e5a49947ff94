"""Which model serves a text: the one router of the CLI, the server and the Python API.

Given the directions on offer, a request (source, target) goes one of three ways:
- the source is the target language: the text is given back unchanged (`unchanged`);
- a model translates source → target: one hop;
- none does, but source → English and English → target do: two hops through English, the
  second translating the first's best output (`compose` joins them; German → French with the
  shipped models). English first, then other middle languages in alphabetical order.
A source of None or "auto" is detected for each input on its own (runtime/language_id.py) among
the languages on offer; an input whose language has no way into the target is given back
unchanged, with a note.

`Routes` is the plan (pure: which hops); `Router` runs it synchronously with translators loaded
on first use; the server runs the same plan through its batchers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from .alignment import WordAlignment
from .constants import BATCH_SIZE
from .misread import document_language, text_language
from .translation import TextOptions, Translation, input_numbers, unchanged

PIVOT_LANGUAGE = "en"
Pair = tuple[str, str]


def dense_weights(alignment) -> np.ndarray:
    """The (T, S) weights of a WordAlignment, or of a JoinedAlignment's blocks laid out whole."""
    weights = np.zeros((len(alignment.target_words), len(alignment.source_words)), np.float32)
    for row, column, part in alignment.parts:
        weights[row : row + part.weights.shape[0], column : column + part.weights.shape[1]] = part.weights
    return weights


def compose(first: Translation, second: Translation) -> Translation:
    """`second` (a translation of `first`'s text) as a translation of `first`'s source: its text,
    tokens and n-best rank, the two scores summed (log-probabilities of independent steps), and
    the word alignment through the middle text, second (T, M) @ first (M, S), rows still summing
    to 1. The middle words are those both hops split the middle text into; should they differ,
    the alignment is the second hop's, over the middle text's words. The piece-level attention
    of a composed translation is empty (its source pieces are another model's)."""

    def aligned():
        into, out_of = first.alignment, second.alignment
        if list(into.target_words) != list(out_of.source_words):
            return out_of
        return WordAlignment(
            list(into.source_words), list(out_of.target_words), dense_weights(out_of) @ dense_weights(into)
        )

    return Translation(second.text, second.tokens, first.score + second.score, np.zeros((0, 0), np.float32), aligned)


class Routes:
    """The ways between languages that `pairs` (the directions of the models on offer) open."""

    def __init__(self, pairs: Sequence[Pair]):
        self.pairs = list(dict.fromkeys(tuple(pair) for pair in pairs))
        self.languages = sorted({language for pair in self.pairs for language in pair})

    def hops(self, source: str, target: str | None) -> list[Pair] | None:
        """The directions that take `source` to `target` in turn: one direct pair; [] when they are
        one language; two through a middle language (English first); None when no way.
        A target of None takes the first pair out of `source`."""
        if target is None:
            return next(([pair] for pair in self.pairs if pair[0] == source), None)
        if (source, target) in self.pairs:
            return [(source, target)]
        if source == target:
            return []
        middles = sorted(
            {middle for first, middle in self.pairs if first == source and (middle, target) in self.pairs},
            key=lambda language: (language != PIVOT_LANGUAGE, language),
        )
        return [(source, middles[0]), (middles[0], target)] if middles else None

    def pivoted(self) -> list[Pair]:
        """The pairs no model translates directly that two hops do."""
        return [
            (source, target)
            for source in self.languages
            for target in self.languages
            if source != target and len(self.hops(source, target) or ()) == 2
        ]

    def all_pairs(self) -> list[Pair]:
        """Every pair with a way: the direct ones, then the pivoted."""
        return self.pairs + self.pivoted()

    def usual_source(self, target: str | None) -> str | None:
        """The language an input is read in unless the identifier is sure of another
        (runtime/misread.py language_read): the one language a model takes directly into `target`
        (English, into French or German), or with no target the middle language when models read
        it (English), else the one language they read; None when several languages go directly
        (into English: each input's likeliest). Read by its likeliest language, "Open File." was German at 0.48, "Hi Thomas,"
        French."""
        sources = {source for source, goal in self.pairs if target in (None, goal)}
        if target is None and PIVOT_LANGUAGE in sources:
            return PIVOT_LANGUAGE
        return next(iter(sources)) if len(sources) == 1 else None

    def document_source(self, texts: list[str], target: str | None) -> tuple[str | None, bool]:
        """The language one document's `texts` are read in, all together (runtime/misread.py
        document_language, `usual_source` assumed), and whether a way takes it into `target` (one
        that is `target` already does)."""
        language = document_language(texts, self.languages, self.usual_source(target))
        return language, language is not None and self.hops(language, target) is not None

    def sources_into(self, target: str | None) -> set[str]:
        """The languages that have a way into `target` (any target when None)."""
        return {source for source, goal in self.all_pairs() if target in (None, goal)}


class Router:
    """Texts to translations by Routes, with translators loaded on first use.

    `load(pair, last)`: the translator of `pair` and its search options; `last` is False for the
    first hop through a middle language, whose options give one output (its best is what the
    second hop reads). `notify` takes the notes (detections, inputs given back unchanged).
    `assumed`: the language a text is read in unless the identifier is sure of another
    (runtime/misread.py text_language); None: the likeliest, whatever its probability."""

    def __init__(
        self, pairs: Sequence[Pair], load: Callable, notify: Callable[[str], None], assumed: str | None = None
    ):
        self.routes = Routes(pairs)
        self.load, self.notify, self.assumed = load, notify, assumed
        self.loaded: dict[tuple[Pair, bool], tuple] = {}
        self.named: set[str] = set()  # the languages a note said were detected

    def _translator(self, pair: Pair, last: bool) -> tuple:
        if (pair, last) not in self.loaded:
            self.loaded[pair, last] = self.load(pair, last)
        return self.loaded[pair, last]

    def detect(self, texts: list[str]) -> list[str | None]:
        """Each text's language among those on offer (None for a blank text), with a note counting
        those of the languages no earlier call detected (a stream read in batches, or paragraph by
        paragraph, had a note for each)."""
        detected = [self._language(text) if text.strip() else None for text in texts]
        counts = Counter(language for language in detected if language and language not in self.named)
        if counts:
            self.named |= set(counts)
            self.notify(
                "detected "
                + ", ".join(
                    f"{language} ({count} {'input' if count == 1 else 'inputs'})"
                    for language, count in counts.most_common()
                )
            )
        return detected

    def _language(self, text: str) -> str:
        return text_language(text, self.assumed, set(self.routes.languages))[0]

    def translate(
        self,
        texts: list[str],
        source: str | None,
        target: str | None,
        batch_size: int = BATCH_SIZE,
        first_number: int | Sequence[int] = 1,
        text_options: TextOptions | None = None,
    ) -> list[list[Translation]]:
        """Each text's translations into `target`, in input order (n-best as the last hop's
        options say); `source` None or "auto" detects each text's language."""
        numbers = input_numbers(first_number, len(texts))
        detected = self.detect(texts) if source in (None, "auto") else [source] * len(texts)
        results: list = [None] * len(texts)
        for language in dict.fromkeys(detected):
            chosen = [i for i, code in enumerate(detected) if code == language]
            if language is None:  # blank texts: any way gives them one empty translation
                language = next((pair[0] for pair, _ in self.loaded), None) or min(self.routes.sources_into(target))
            hops = self.routes.hops(language, target)
            if not hops:
                why = (
                    f"already in {language}"
                    if hops == []
                    else f"detected {language}, which no model here translates"
                    + (f" into {target}" if target else "")
                    + f" (they read {', '.join(sorted(self.routes.sources_into(target)))})"
                )
                for i in chosen:
                    self.notify(f"input {numbers[i]}: {why}: written out unchanged")
                    results[i] = unchanged(texts[i])
                continue
            found = self._through(
                hops, [texts[i] for i in chosen], batch_size, [numbers[i] for i in chosen], text_options
            )
            for i, result in zip(chosen, found):
                results[i] = result
        return results

    def _through(
        self,
        hops: list[Pair],
        texts: list[str],
        batch_size: int,
        numbers: list[int],
        text_options: TextOptions | None,
    ) -> list[list[Translation]]:
        """The texts (numbered `numbers` in notes) through each hop in turn."""
        found = None
        for number, pair in enumerate(hops):
            translator, options = self._translator(pair, number == len(hops) - 1)
            inputs = texts if found is None else [result[0].text for result in found]
            step = translator.translate(inputs, options, batch_size, numbers, text_options)
            found = (
                step
                if found is None
                else [[compose(before[0], after) for after in result] for before, result in zip(found, step)]
            )
        return found
