"""`--from auto` (and `--to X` alone, where several languages translate into X): each input's
language is detected on its own, as `attn serve` does per text, and the input goes to the model of
that direction; an input in a language that no installed model (or the given model) translates
into the target is written out unchanged, with a note on stderr naming its line and language."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from attn.runtime.alignment import WordAlignment
from attn.runtime.language_id import detect_language
from attn.runtime.registry import pivot_hint
from attn.runtime.translator import Translation, Translator


def unchanged(text: str) -> list[Translation]:
    """An input passed through: its own words, each aligned to itself."""
    words = text.split()
    return [Translation(text, [], 0.0, np.zeros((0, 0), np.float32),
                        WordAlignment(words, words, np.eye(len(words), dtype=np.float32)))]


class DetectedSources:
    """Translators by detected source language, loaded when a language first appears.

    `pairs`: the (source, target) directions on offer; `load(source)`: the translator of that
    source into `target` and its search options."""

    def __init__(self, target: str | None, pairs: list[tuple[str, str]], load: Callable, notify: Callable[[str], None]):
        self.target = target
        self.sources = {source for source, goal in pairs if target in (None, goal)}
        self.languages = {code for pair in pairs for code in pair}
        self.load, self.notify = load, notify
        self.loaded: dict[str, tuple[Translator, object]] = {}

    def translate(self, inputs: list[str], batch_size: int, first_number: int, sentences: bool) -> list[list[Translation]]:
        """Each input's translations, in input order, by the model of its detected language."""
        detected = [detect_language(text, self.languages)[0] if text.strip() else None for text in inputs]
        counts = Counter(language for language in detected if language)
        if counts:
            self.notify("detected " + ", ".join(f"{language} ({count} {'input' if count == 1 else 'inputs'})"
                                                for language, count in counts.most_common()))
        results: list = [None] * len(inputs)
        for language in dict.fromkeys(detected):
            chosen = [i for i, code in enumerate(detected) if code == language]
            if language is not None and language not in self.sources:
                why = f"already in {language}" if language == self.target else \
                    f"detected {language}, which no model here translates" + (f" into {self.target}" if self.target else "")
                for i in chosen:
                    self.notify(f"input {first_number + i}: {why}: written out unchanged"
                                + ("" if language == self.target else pivot_hint("translate", language, self.target)))
                    results[i] = unchanged(inputs[i])
                continue
            if language is None:  # blank inputs: any model gives them one empty translation
                language = next(iter(self.loaded), None) or min(self.sources)
            if language not in self.loaded:
                self.loaded[language] = self.load(language)
            translator, options = self.loaded[language]
            found = translator.translate([inputs[i] for i in chosen], options, batch_size, first_number, sentences)
            for i, result in zip(chosen, found):
                results[i] = result
        return results
