"""The article or preposition before a country's name in French (runtime/country_articles.py) on
the en-fr dev files: each file's English translated into French by the installed models with the
rule and without it (runtime/texts.py's agreed_before_countries replaced by one that leaves a
translation as it is), same process; rows the rule changed, BLEU and chrF of the whole file and of
those rows, and how often the word before a country's name is the reference's, where the
reference has one before the same name. With `--references`, the rule applied to the files'
French references instead, which are written right: each row it changes is a false alarm (or a
slip of the reference's). With `--only-in`, the rule with "dans" before a place made its
preposition (`placed_in`) and without that part alone.

    python -m benchmarks.country_articles [--files news-dev tatoeba-dev ...] [--references | --only-in] [--data ../shared/data] [--show 3] [--out FILE]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import numpy as np
import sacrebleu

import attn.runtime as attn
from attn.runtime.alignment import WordAlignment
from attn.runtime.country_articles import (
    KIND_OF_WORD,
    agreed_before_countries,
    country_classes,
    country_name,
    longest_name,
)
from attn.runtime.words import join_words, word_spans
from benchmarks.report import changes_shown, command_line, data_option, dev_rows, finish, table

DEV_FILES = ["news-dev", "tatoeba-dev", "dev", "l10n-dev", "markup-dev"]


def words_of(text: str) -> list[str]:
    """`text`'s words as the alignments count French words (runtime/words.py)."""
    return [text[start:end] for start, end in word_spans(text, "fr")]


def words_before_countries(text: str) -> dict[tuple[str, ...], str]:
    """Each country's name in `text` (French) that a word of KIND_OF_WORD stands before → that
    word, in small letters (the first time the name has one)."""
    words, classes, longest = words_of(text), country_classes(), longest_name()
    found: dict[tuple[str, ...], str] = {}
    for index in range(1, len(words)):
        before = words[index - 1].lower().replace("’", "'")
        name = country_name(words, index, classes, longest) if before in KIND_OF_WORD else None
        if name is not None:
            found.setdefault(name, before)
    return found


def as_the_reference(outputs: list[str], references: list[str]) -> str:
    """ "R of N": of the N country names that an output and its reference both have a word of
    KIND_OF_WORD before, those with the same word."""
    agreeing = total = 0
    for output, reference in zip(outputs, references):
        wanted = words_before_countries(reference)
        for name, before in words_before_countries(output).items():
            if name in wanted:
                total += 1
                agreeing += before == wanted[name]
    return f"{agreeing} of {total}"


def bleu_chrf(outputs: list[str], references: list[str]) -> list[str]:
    if not outputs:
        return ["", ""]
    return [
        f"{sacrebleu.corpus_bleu(outputs, [references]).score:.2f}",
        f"{sacrebleu.corpus_chrf(outputs, [references]).score:.2f}",
    ]


def agreed_text(text: str, source: str) -> str:
    """`text` (French, the translation of `source`, English) through the rule, its words joined as
    a translation's are."""
    words, source_words = words_of(text), source.split()
    alignment = WordAlignment(source_words, words, np.zeros((len(words), len(source_words)), np.float32))
    return join_words(agreed_before_countries(alignment, "fr", "en").target_words, "fr")


def without(only_in: bool) -> tuple[str, Callable]:
    """What mock.patch replaces to translate without the rule, or without its "dans" part."""
    if only_in:
        return "attn.runtime.country_articles.placed_in", lambda alignment, source: alignment
    return "attn.runtime.texts.agreed_before_countries", lambda alignment, *directions: alignment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", nargs="+", default=DEV_FILES, help="en-fr files (NAME.tsv.gz)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--references", action="store_true", help="apply the rule to the references")
    mode.add_argument("--only-in", action="store_true", help='compare with the rule but its "dans" part')
    data_option(parser)
    parser.add_argument("--show", type=int, default=0, help="rows listed per file where the rule changed one")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    lines, rows = [command_line(), ""], []
    translator = None if args.references else attn.load(notify=lambda note: None)
    for name in args.files:
        found = dev_rows(args.data, "en-fr", [name], swap=False)
        sources, references = [row.source for row in found], [row.target for row in found]
        if args.references:
            written = [join_words(words_of(text), "fr") for text in references]
            agreed = [agreed_text(text, source) for text, source in zip(references, sources)]
            changed = [i for i, (a, b) in enumerate(zip(written, agreed)) if a != b]
            rows.append([name, len(found), len(changed)])
            shown = changes_shown(sources, written, agreed, name, args.show)
        else:
            agreed = [result.text for result in translator.translate(sources, "en", "fr")]
            with mock.patch(*without(args.only_in)):
                written = [result.text for result in translator.translate(sources, "en", "fr")]
            changed = [i for i, (a, b) in enumerate(zip(written, agreed)) if a != b]
            for label, outputs in (
                (f"without {'its dans part' if args.only_in else 'the rule'}", written),
                ("with it", agreed),
            ):
                rows.append(
                    [
                        name,
                        label,
                        len(found),
                        len(changed),
                        *bleu_chrf(outputs, references),
                        *bleu_chrf([outputs[i] for i in changed], [references[i] for i in changed]),
                        as_the_reference(outputs, references),
                    ]
                )
            shown = changes_shown(sources, written, agreed, name, args.show)
        lines += shown
    if args.references:
        header = ["file", "rows", "references the rule changes"]
        lines.insert(2, "The rule applied to the French references of en-fr files.\n\n" + table(header, rows) + "\n")
    else:
        header = ["file", "translated", "rows", "changed", "BLEU", "chrF", "BLEU, rows changed", "chrF, rows changed"]
        header.append("the word before a country as the reference's")
        intro = (
            "English → French by the installed models' default search, with runtime/country_articles.py and without it."
        )
        lines.insert(2, intro + "\n\n" + table(header, rows) + "\n")
    finish(lines, args.out)


if __name__ == "__main__":
    main()
