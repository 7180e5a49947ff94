"""German sentences no longer cut after an ordinal that an article or a possessive opens
(runtime/sentences.py GERMAN_DETERMINERS: "Der 2. | Stock ist geschlossen." had been two
sentences): the German rows of the en-de files whose cuts the rule changes, translated into English
by the installed model with the rule and without it, BLEU and chrF against the references.

    python -m benchmarks.ordinal_cuts [--files NAME ...] [--data ../shared/data] [--show 3] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime import sentences
from benchmarks.report import DEV_FILES, command_line, data_option, dev_rows, finish, table


def without_the_rule():
    """A context in which no German ordinal keeps a sentence whole but a date's day."""
    return mock.patch.object(sentences, "GERMAN_DETERMINERS", frozenset())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--files", nargs="+", default=DEV_FILES, help="the en-de files (NAME.tsv.gz)")
    parser.add_argument("--show", type=int, default=0, help="rows listed where the two differ")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for row in dev_rows(args.data, "en-de", args.files, swap=True):
        with without_the_rule():
            before = sentences.split_sentences(row.source, "de")
        if sentences.split_sentences(row.source, "de") != before:
            rows.append(row)
    translator = attn.load(notify=lambda note: None)
    texts, references = [row.source for row in rows], [[row.target for row in rows]]
    with without_the_rule():
        cut = [result.text for result in translator.translate(texts, "de", "en")] if texts else []
    whole = [result.text for result in translator.translate(texts, "de", "en")] if texts else []
    results = []
    for label, outputs in (("cut after the ordinal", cut), ("one sentence", whole)):
        bleu = sacrebleu.corpus_bleu(outputs, references).score if texts else 0.0
        chrf = sacrebleu.corpus_chrf(outputs, references).score if texts else 0.0
        results.append([label, len(texts), f"{bleu:.2f}", f"{chrf:.2f}"])
    shown = [
        f"- {text}<br>cut: {before}<br>whole: {after}"
        for text, before, after in list(zip(texts, cut, whole))[: args.show]
        if before != after
    ]
    lines = [
        command_line(),
        "",
        f"de→en, the rows of {', '.join(args.files)} whose German cuts the rule changes; the installed model's "
        "default search.",
        "",
        table(["German ordinal before a word", "rows", "BLEU", "chrF"], results),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
