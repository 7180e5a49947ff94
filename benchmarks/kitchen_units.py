"""Spoons of a recipe read as the target writes them and set aside (runtime/kitchen_units.py),
against as written (read_spoons and spoon_spans switched off), same run: sentences of our own, each
frame with each spoon and amount, translated by the installed models' default search. A measure
is given right when the translation holds its amount (as the target writes numbers) and the
target's abbreviation for its spoon, or the target's word ("tablespoon", "Esslöffel", "cuillère à
soupe"), after it; its ingredient is kept when the translation holds one of the target's words for
it ("Zucker", "sucre").

    python -m benchmarks.kitchen_units [--out FILE]
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from unittest import mock

import attn.runtime as attn
from attn.runtime.kitchen_units import SPOONS, TABLESPOON, TEASPOON
from benchmarks.report import DIRECTIONS, command_line, finish, out_arguments, table

FRAMES = {
    "de": [
        "{m} Zucker hinzufügen.",
        "Geben Sie {m} Olivenöl in die Pfanne.",
        "Mit {m} Salz würzen.",
        "Für den Teig brauchen Sie {m} Backpulver.",
        "Rühren Sie {m} Honig unter.",
    ],
    "en": [
        "Add {m} sugar.",
        "Put {m} olive oil in the pan.",
        "Season with {m} salt.",
        "For the dough you need {m} baking powder.",
        "Stir in {m} honey.",
    ],
    "fr": [
        "Ajoutez {m} de sucre.",
        "Versez {m} d'huile d'olive dans la poêle.",
        "Assaisonnez avec {m} de sel.",
        "Pour la pâte, il faut {m} de levure.",
        "Incorporez {m} de miel.",
    ],
}
# Each frame's ingredient (the frames of every language in this order) as each target may write it
INGREDIENTS = [
    {"de": ["Zucker"], "en": ["sugar"], "fr": ["sucre"]},
    {"de": ["Olivenöl", "Öl"], "en": ["oil"], "fr": ["huile"]},
    {"de": ["Salz"], "en": ["salt"], "fr": ["sel"]},
    {"de": ["Backpulver", "Hefe"], "en": ["baking powder", "yeast", "powder"], "fr": ["levure"]},
    {"de": ["Honig"], "en": ["honey"], "fr": ["miel"]},
]
AMOUNTS = {"de": ["2", "1,5", "1/2"], "en": ["2", "1.5", "1/2"], "fr": ["2", "1,5", "1/2"]}
# The forms a measure is given right in: the abbreviations and the words of each target
RIGHT = {
    "de": {TABLESPOON: ["EL", "Esslöffel", "Eßlöffel"], TEASPOON: ["TL", "Teelöffel"]},
    "en": {TABLESPOON: ["tbsp", "tablespoon", "tablespoons"], TEASPOON: ["tsp", "teaspoon", "teaspoons"]},
    "fr": {
        TABLESPOON: ["c. à soupe", "cuillère à soupe", "cuillères à soupe"],
        TEASPOON: ["c. à café", "cuillère à café", "cuillères à café"],
    },
}


def cases(source: str, target: str) -> list[tuple[str, str, str, list[str]]]:
    """(sentence, the amount as the target writes it, the spoon, the target's words for the
    ingredient) of each frame, spoon form and amount."""
    found = []
    for frame, ingredient in zip(FRAMES[source], INGREDIENTS):
        for spoon, forms in SPOONS[source].items():
            for form in forms[-2:]:  # an abbreviation of each, with and without its point where it has one
                for amount in AMOUNTS[source]:
                    written = amount.replace(",", ".") if target == "en" else amount.replace(".", ",")
                    found.append((frame.format(m=f"{amount} {form}"), written, spoon, ingredient[target]))
    return found


def ingredient_kept(words: list[str], translation: str) -> bool:
    """Whether `translation` holds one of `words` (in small letters or capitals)."""
    return any(word.lower() in translation.lower() for word in words)


def given_right(amount: str, spoon: str, translation: str, target: str) -> bool:
    """Whether `translation` holds `amount`, then one of RIGHT's forms of `spoon` in `target`."""
    forms = "|".join(re.escape(form) for form in RIGHT[target][spoon])
    return re.search(rf"(?<![\d.,/]){re.escape(amount)}\s(?:{forms})(?!\w)", translation) is not None


def switched_off() -> ExitStack:
    """read_spoons and spoon_spans off: a spoon as written, not set aside."""
    stack = ExitStack()
    stack.enter_context(mock.patch("attn.runtime.source_reading.read_spoons", lambda sentence, *languages: sentence))
    stack.enter_context(mock.patch("attn.runtime.source_reading.spoon_spans", lambda *arguments: []))
    return stack


def main() -> None:
    args = out_arguments(__doc__.splitlines()[0])
    translator = attn.load(notify=lambda note: None)
    rows = []
    for _, source, target, _ in DIRECTIONS:
        found = cases(source, target)
        texts = [text for text, _, _, _ in found]
        read = [result.text for result in translator.translate(texts, source, target)]
        with switched_off():
            unread = [result.text for result in translator.translate(texts, source, target)]
        for label, outputs in (("as written", unread), ("read as the target writes them", read)):
            right = sum(
                given_right(amount, spoon, output, target) for (_, amount, spoon, _), output in zip(found, outputs)
            )
            kept = sum(ingredient_kept(words, output) for (_, _, _, words), output in zip(found, outputs))
            rows.append([f"{source}→{target}", label, f"{right} of {len(found)}", f"{kept} of {len(found)}"])
    lines = [
        command_line(),
        "",
        "Spoons of a recipe given as the target writes them, on frames of our own; the installed models' default search.",
        "",
        table(["direction", "spoons", "given right", "ingredient kept"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
