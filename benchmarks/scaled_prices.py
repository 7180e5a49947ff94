"""Prices of a large number's scale ("€2.3 billion", "2,3 Mrd. €") on sentences of business news of
our own (tests/fixtures/prices-of-a-scale.LANGUAGE.txt), translated by the installed models'
default search in the four directions: how many translations write such a price in an order the
target does not (into German and French the sign after the scale word, into English before the
amount: runtime/prices.py scaled_prices_given), and how many lose or repeat a number
(runtime/number_choice.py number_faults). The code before a change is measured by running this
with an older checkout first on PYTHONPATH.

    python -m benchmarks.scaled_prices [--out FILE]
"""

from __future__ import annotations

import re
from pathlib import Path

import attn.runtime as attn
from attn.runtime.number_choice import number_faults
from benchmarks.report import DIRECTIONS, command_line, finish, out_arguments, table

SENTENCES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "prices-of-a-scale.{}.txt"
# A scaled price in an order the target does not write: the sign between the amount and the scale
# word, or before the amount into German and French; after the scale word into English
OTHER_ORDER = {
    "de": re.compile(r"\d [€$£] (?:Millionen|Milliarden|Mio|Mrd)|[€$£]\d[\d,.]* (?:Millionen|Milliarden|Mio|Mrd)"),
    "fr": re.compile(r"\d [€$£] (?:millions?|milliards?)|[€$£]\d[\d,.]* (?:millions?|milliards?)"),
    "en": re.compile(r"\d (?:million|billion) [€$£]|\d [€$£] (?:million|billion)"),
}


def main() -> None:
    args = out_arguments(__doc__.splitlines()[0])
    translator = attn.load(notify=lambda note: None)
    rows = []
    for _, source, target, _ in DIRECTIONS:
        sentences = SENTENCES.with_name(SENTENCES.name.format(source)).read_text(encoding="utf-8").splitlines()
        found = [result.text for result in translator.translate(sentences, source, target)]
        other = sum(bool(OTHER_ORDER[target].search(text)) for text in found)
        faulty = sum(number_faults(sentence, text) > 0 for sentence, text in zip(sentences, found))
        rows.append([f"{source}→{target}", len(sentences), other, faulty])
    lines = [
        command_line(),
        "",
        "Sentences of business news of our own with a price of a scale; the installed models' default search.",
        "",
        table(["direction", "sentences", "a scaled price in another order", "a number lost or repeated"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
