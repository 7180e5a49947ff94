"""Sentences a helper wrote for a rule (a folder of LANG.tsv files: a sentence, a tab, what its
translation must give, "|" between), translated with the rule and without it, same run: the
shared part of benchmarks/given_names.py and its kind."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import attn.runtime as attn
from benchmarks.report import command_line, finish, sentence_folder_parser, table


def rows(folder: Path, language: str) -> list[tuple[str, list[str]]]:
    """(sentence, what its translation must give) of each line of LANG.tsv in `folder`."""
    lines = (folder / f"{language}.tsv").read_text(encoding="utf-8").splitlines()
    return [
        (sentence, [item for item in items.split("|") if item])
        for sentence, items in (line.split("\t") for line in lines)
    ]


def on_and_off(
    translator,
    folder: Path,
    directions: list[tuple[str, str]],
    without: Callable,
    given: Callable[[list[str], str], int],
    labels: tuple[str, str],
    last_cell: Callable[[str, str, list[tuple[str, list[str]]], list[str], list[str]], str],
    show: int,
) -> tuple[list[list], list[str]]:
    """For each (source, target) of `directions`, the sentences of `folder`/SOURCE.tsv translated
    with `without()` (a mock's patch that switches the rule off) in force and as the runtime gives
    them. Returns two table rows for each (direction, `labels`' one, "R of N": `given`(items,
    translation) summed over the sentences, against their items; the rule's row then `last_cell`(source,
    target, sentences, translations without, with)), and up to `show` sentences per direction whose
    translations differ, as Markdown list items."""
    table_rows, shown = [], []
    for source, target in directions:
        sentences = rows(folder, source)
        texts = [sentence for sentence, _ in sentences]
        with without():
            unread = [result.text for result in translator.translate(texts, source, target)]
        read = [result.text for result in translator.translate(texts, source, target)]
        total = sum(len(items) for _, items in sentences)
        for label, outputs in zip(labels, (unread, read)):
            right = sum(given(items, output) for (_, items), output in zip(sentences, outputs))
            table_rows.append([f"{source}→{target}", label, f"{right} of {total}"])
        table_rows[-2].append("")
        table_rows[-1].append(last_cell(source, target, sentences, unread, read))
        differing = [(text, before, after) for text, before, after in zip(texts, unread, read) if before != after]
        shown += [
            f"- {source}→{target}: {text}<br>before: {before}<br>after: {after}"
            for text, before, after in differing[:show]
        ]
    return table_rows, shown


def kept_as_written(items: list[str], translation: str) -> int:
    """How many of `items` `translation` holds as written."""
    return sum(item in translation for item in items)


def report(
    description: str,
    folder: Path,
    directions: list[tuple[str, str]],
    without: Callable,
    given: Callable[[list[str], str], int],
    labels: tuple[str, str],
    last_cell: Callable,
    header: list[str],
    title: str,
) -> None:
    """A benchmark's command line (--sentences, default `folder`; --show; --out) and its table:
    on_and_off with the other arguments, under `header` (direction, what is counted, given, the
    last cell's name) and `title` ("… ({folder}); the installed models' default search.")."""
    parser = sentence_folder_parser(description, folder)
    parser.add_argument("--show", type=int, default=0, help="sentences listed per direction where the two differ")
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows, shown = on_and_off(translator, args.sentences, directions, without, given, labels, last_cell, args.show)
    lines = [
        command_line(),
        "",
        f"{title} ({args.sentences}); the installed models' default search.",
        "",
        table(header, rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)
