"""Persons' names after their titles (runtime/person_names.py): how many the installed models'
translations hold as written, with the names set aside from the search and without (source_reading.py's
names_after_titles replaced by one that finds none), same run.

benchmarks/titled_names/LANG.tsv: sentences written for this by a helper who had not seen the
rule, each with the names a translation must keep ("|" between them; none where the title is
followed by an office, "Mr President", or is a noun, "Die Frau am Fenster"). Also counted: names
the rule found in the sentences that hold none (it would set aside an office).

    python -m benchmarks.titled_names [--show 5] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from attn.runtime.person_names import names_after_titles
from attn.runtime.titles import read_titles
from benchmarks.report import command_line, finish, table

SENTENCES = Path(__file__).parent / "titled_names"
DIRECTIONS = [("en", "de"), ("en", "fr"), ("de", "en"), ("fr", "en")]


def rows(language: str) -> list[tuple[str, list[str]]]:
    """(sentence, the names its translation must keep) of each line of LANG.tsv."""
    lines = (SENTENCES / f"{language}.tsv").read_text(encoding="utf-8").splitlines()
    return [
        (sentence, [name for name in names.split("|") if name])
        for sentence, names in (line.split("\t") for line in lines)
    ]


def found_in_nameless(sentences: list[tuple[str, list[str]]], source: str, target: str) -> int:
    """Names the rule finds in the sentences that hold none."""
    count = 0
    for sentence, names in sentences:
        read = read_titles(sentence, source, target)
        count += 0 if names else len(names_after_titles(read, source, target))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="sentences listed per direction where the two differ")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    table_rows, shown = [], []
    for source, target in DIRECTIONS:
        sentences = rows(source)
        texts = [sentence for sentence, _ in sentences]
        with mock.patch("attn.runtime.source_reading.names_after_titles", lambda *arguments: []):
            unread = [result.text for result in translator.translate(texts, source, target)]
        read = [result.text for result in translator.translate(texts, source, target)]
        total = sum(len(names) for _, names in sentences)
        for label, outputs in (("as written", unread), ("names set aside", read)):
            kept = sum(name in output for (_, names), output in zip(sentences, outputs) for name in names)
            table_rows.append([f"{source}→{target}", label, f"{kept} of {total}"])
        table_rows[-1].append(str(found_in_nameless(sentences, source, target)))
        table_rows[-2].append("")
        differing = [(text, before, after) for text, before, after in zip(texts, unread, read) if before != after]
        shown += [
            f"- {source}→{target}: {text}<br>as written: {before}<br>set aside: {after}"
            for text, before, after in differing[: args.show]
        ]
    lines = [
        command_line(),
        "",
        "Names after persons' titles kept as written (benchmarks/titled_names/); the installed models' default search.",
        "",
        table(["direction", "names", "kept", "names found where there are none"], table_rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
