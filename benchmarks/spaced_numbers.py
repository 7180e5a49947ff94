"""Numbers whose thousands a space parts ("12 500", "1 250,50") read whole into English, and those
and German numbers grouped with points ("55.000 €") written as English writes numbers
(runtime/spaced_numbers.py), against as written (read_spaced_numbers and grouped_as_english
switched off), same run: on the rows whose German or French source holds one (grouped_numbers),
how many of their numbers the installed models' translations keep (their digits, whatever the
marks), and BLEU and chrF against the references.

By default the rows of `general-train` from the WMT news test sets ("newstest": research use, never
trained on by the default models); `--files` names other files of each pair (news-dev, test, …).

    python -m benchmarks.spaced_numbers [--files NAME ...] [--data ../shared/data] [--show 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import re
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from attn.runtime.spaced_numbers import grouped_numbers
from benchmarks.report import as_the_model_wrote, bleu_and_chrf, command_line, data_option, dev_rows, finish, table

NEWS_ROWS = "newstest"  # general-train's origin whose rows the default models never learned from
DIRECTIONS = [("de", "en-de"), ("fr", "en-fr")]


def rows_with_grouped_numbers(data, pair: str, source: str, files: list[str] | None) -> list:
    """The rows, read from the foreign language `source`, whose source holds one of grouped_numbers:
    of `files`, or of general-train's news rows."""
    found = dev_rows(data, pair, files or ["general-train"], swap=True)
    return [row for row in found if grouped_numbers(row.source, source) and (files or row.origin == NEWS_ROWS)]


def numbers_kept(text: str, language: str, translation: str) -> tuple[int, int]:
    """(how many of `text`'s grouped_numbers `translation` holds by their digits, how many)."""
    digits = re.sub(r"\D", "", translation)
    numbers = [re.sub(r"\D", "", number.group()) for number in grouped_numbers(text, language)]
    return sum(number in digits for number in numbers), len(numbers)


def switched_off() -> ExitStack:
    """The rule off: numbers read as written, the translation's copies as runtime/verbatim.py wrote them."""
    stack = ExitStack()
    stack.enter_context(
        mock.patch("attn.runtime.source_reading.read_spaced_numbers", lambda sentence, *languages: sentence)
    )
    stack.enter_context(mock.patch("attn.runtime.texts.grouped_as_english", as_the_model_wrote))
    return stack


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--files", nargs="+", default=None, help="files of each pair (NAME.tsv.gz)")
    parser.add_argument("--show", type=int, default=0, help="rows listed per direction where the two differ")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    table_rows, shown = [], []
    for source, pair in DIRECTIONS:
        found = rows_with_grouped_numbers(args.data, pair, source, args.files)
        texts, references = [row.source for row in found], [row.target for row in found]
        if not texts:
            table_rows.append([f"{source}→en", "–", 0, "–", "–", "–"])
            continue
        with switched_off():
            unread = [result.text for result in translator.translate(texts, source, "en")]
        read = [result.text for result in translator.translate(texts, source, "en")]
        for label, outputs in (("as written", unread), ("read whole, written as English", read)):
            kept = [numbers_kept(text, source, output) for text, output in zip(texts, outputs)]
            table_rows.append(
                [
                    f"{source}→en",
                    label,
                    len(texts),
                    f"{sum(k for k, _ in kept)} of {sum(n for _, n in kept)}",
                    *bleu_and_chrf(outputs, references),
                ]
            )
        differing = [(text, before, after) for text, before, after in zip(texts, unread, read) if before != after]
        shown += [f"- {source}→en: {text}<br>as written: {b}<br>read: {a}" for text, b, a in differing[: args.show]]
    lines = [
        command_line(),
        "",
        f"Rows ({', '.join(args.files) if args.files else 'general-train, news'}) whose source holds a number with"
        " thousands parted by spaces; the installed models' default search.",
        "",
        table(["direction", "numbers", "rows", "numbers kept", "BLEU", "chrF"], table_rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
