"""Letters' salutations and closings (runtime/letter_formulas.py): on e-mails and letters written
in English, German and French by helpers who had not seen the table (benchmarks/letters/: a first
set of 36, a second of 30 written after the table had been mended on the first; each set's
expected.tsv holds each salutation and closing line with the renderings a translator would accept
in the two other languages), how many of those lines the installed models' translations of each
whole file give right, with the table and without it (runtime/texts.py's letter_formula replaced
by one that finds none). A line is right when it is one of the accepted renderings, case, the
spaces before "!" and a final comma or point aside. With `--data`, the dev files' sentences of
../shared/data (which hold no letters) that the table takes for a formula, each a false alarm: at
most these, as a name is taken for one here without asking the model (runtime/texts.py `copied`).
With `--inline`, each salutation (a formula line in the first half of its file) is joined with the
next line on one ("Dear Ms. Patel, I am writing …", as a chat or a short mail writes it), and it is
right when its line opens with an accepted rendering and its comma; without the table here means
without letter_formula and without formula_apart, which parts such a line.

    python -m benchmarks.letter_formulas --set first|second [--inline] [--show] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from attn.runtime.letter_formulas import letter_formula
from attn.runtime.sentences import split_sentences
from benchmarks.report import DEV_FILES, command_line, dev_rows, finish, table

LETTERS = Path(__file__).parent / "letters"
OTHERS = {"en": ("de", "fr"), "de": ("en", "fr"), "fr": ("en", "de")}
DIRECTIONS = [
    ("en-de", "en", "de", False),
    ("en-de", "de", "en", True),
    ("en-fr", "en", "fr", False),
    ("en-fr", "fr", "en", True),
]


def normal(line: str) -> str:
    """A line as it is compared: case aside, one space apart, none before "!?:;", no final comma or point."""
    line = " ".join(line.replace("\u00a0", " ").split()).casefold()
    return re.sub(r"\s+([!?:;])", r"\1", line).rstrip(",.")


def false_alarms(data: Path) -> list[str]:
    """A line on the dev files' sentences (report.DEV_FILES, both ways) taken for a letter's
    formula, and a list item for each."""
    found, count = [], 0
    for pair, source, target, swap in DIRECTIONS:
        for row in dev_rows(data, pair, DEV_FILES, swap):
            for sentence in split_sentences(row.source, source):
                count += 1
                if (formula := letter_formula(sentence, source, target)) is not None:
                    found.append(f"- {source}→{target}: {sentence} → {formula.text}")
    return [f"Dev sentences taken for a formula: {len(found)} of {count:,}.", "", *found]


def joined_with_the_next(lines: list[str], formulas: list[str]) -> list[str]:
    """`lines` with each line of `formulas` joined with the next line that has words, a space between."""
    lines = list(lines)
    for formula in formulas:
        at = lines.index(formula)
        following = next((i for i in range(at + 1, len(lines)) if lines[i].strip()), None)
        if following is not None:
            lines[at] = f"{lines[at]} {lines[following].strip()}"
            del lines[at + 1 : following + 1]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set", choices=sorted(path.name for path in LETTERS.iterdir() if path.is_dir()), required=True
    )
    parser.add_argument("--show", action="store_true", help="list each line wrong in either run")
    parser.add_argument("--inline", action="store_true", help="each salutation and the next line on one line")
    parser.add_argument(
        "--data", type=Path, default=None, help="also count the dev files' sentences taken for formulas"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    letters = LETTERS / args.set
    with open(letters / "expected.tsv", encoding="utf-8", newline="") as found:
        rows = list(csv.DictReader(found, delimiter="\t"))
    results: dict[tuple[str, str], list[int]] = {}  # (source, target) → [right with, right without, lines]
    shown = []
    for name in sorted({row["file"] for row in rows}):
        source = name[:2]
        lines = (letters / name).read_text(encoding="utf-8").split("\n")
        checked = [row for row in rows if row["file"] == name]
        if args.inline:
            checked = [row for row in checked if lines.index(row["line"]) < len(lines) / 2]
            lines = joined_with_the_next(lines, [row["line"] for row in checked])
        for column, target in zip(("into_1", "into_2"), OTHERS[source]):
            text = "\n".join(lines)
            with_table = translator.translate([text], source, target)[0].text.split("\n")
            with (
                mock.patch("attn.runtime.texts.letter_formula", lambda *arguments: None),
                mock.patch("attn.runtime.texts.formula_apart", lambda sentence, *languages: [sentence]),
            ):
                without = translator.translate([text], source, target)[0].text.split("\n")
            for row in checked:
                at = next(i for i, line in enumerate(lines) if line.startswith(row["line"]))
                accepted = {normal(rendering) for rendering in row[column].split(" | ")}
                right = [
                    any(normal(output[at]).startswith(rendering + ",") for rendering in accepted)
                    if args.inline
                    else normal(output[at]) in accepted
                    for output in (with_table, without)
                ]
                counts = results.setdefault((source, target), [0, 0, 0])
                counts[0] += right[0]
                counts[1] += right[1]
                counts[2] += 1
                if args.show and not all(right):
                    shown.append(
                        f"- {name} {source}→{target}: {row['line']}<br>with the table: {with_table[at]}"
                        f"<br>without: {without[at]}"
                    )
    table_rows = [
        [f"{source}→{target}", lines, f"{without} of {lines}", f"{right} of {lines}"]
        for (source, target), (right, without, lines) in sorted(results.items())
    ]
    total = [sum(counts[i] for counts in results.values()) for i in range(3)]
    table_rows.append(["all", total[2], f"{total[1]} of {total[2]}", f"{total[0]} of {total[2]}"])
    if args.data is not None:
        shown += false_alarms(args.data)
    lines = [
        command_line(),
        "",
        f"Salutation and closing lines of benchmarks/letters/{args.set}/, translated in their files by the installed models' "
        + (
            "default search, each salutation on one line with the next: lines opening with an accepted rendering."
            if args.inline
            else "default search: lines given as an accepted rendering."
        ),
        "",
        table(["direction", "lines", "right without the table", "right with it"], table_rows),
        *([""] + shown if shown else []),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
