"""Numbers written as the target language writes them (runtime/verbatim.py `localized`): on the
dev rows whose source holds a number with a mark ("1,299", "1.299,99", "1,5"), the installed
models' translations with the numbers the model copied written so, and left as copied; BLEU on
those rows and the rows that differ.

    python -m benchmarks.number_forms [--data ../shared/data] [--show 3] [--out FILE]

A copy of "1,299" in German reads as one and a bit, of "1,5" in English as nothing: left so, the
translation says another number than its source.
"""

from __future__ import annotations

import re
from unittest import mock

import sacrebleu

import attn.runtime as attn
import attn.runtime.verbatim as verbatim
from benchmarks.report import command_line, dev_rows_on_and_off, dev_set_arguments, finish, table

DEV_FILES = ["dev", "chat-dev", "news-dev", "tatoeba-dev", "l10n-dev"]
MARKED = re.compile(r"\d[.,]\d")  # a number with a thousands or decimal mark


def main() -> None:
    args = dev_set_arguments(__doc__.splitlines()[0], "rows listed per direction where the two differ")
    translator = attn.load(notify=lambda note: None)
    rows, shown = [], []

    def copied_as_is():
        return mock.patch.object(verbatim, "localized", lambda copy, number, languages: copy)

    for source, target, texts, targets, written, copied in dev_rows_on_and_off(
        translator, args.data, DEV_FILES, MARKED.search, copied_as_is
    ):
        references = [targets]
        differ = [(text, before, after) for text, before, after in zip(texts, copied, written) if before != after]
        for label, outputs in (("as the model copied them", copied), ("as the target writes them", written)):
            bleu = sacrebleu.corpus_bleu(outputs, references).score
            rows.append([f"{source}→{target}", label, len(texts), len(differ), f"{bleu:.2f}"])
        shown += [
            f"- {source}→{target}: {text}<br>copied: {before}<br>written: {after}" for text, before, after in differ
        ][: args.show]
    lines = [
        command_line(),
        "",
        f"Dev rows ({', '.join(DEV_FILES)}) whose source holds a number with a mark; the installed models' default search.",
        "",
        table(["direction", "numbers", "rows", "rows that differ", "BLEU"], rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
