"""What a listing command prints (`attn models`, `attn models available`): a table for a person on
a terminal, tab-separated columns when piped (never cut to a width), or JSON (`--format json`)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

LIST_FORMATS = ("table", "json")
ListFormatOption = Annotated[
    str,
    typer.Option(
        "--format",
        "-f",
        help=f"Output: {', '.join(LIST_FORMATS)} (a table on a terminal, tab-separated columns when piped).",
    ),
]


def check_list_format(output_format: str) -> None:
    """A --format that LIST_FORMATS does not hold is a usage error."""
    if output_format not in LIST_FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(LIST_FORMATS)}", param_hint="--format")


def print_json(records: list[dict]) -> None:
    sys.stdout.write(json.dumps(records, indent=2) + "\n")


def print_rows(columns: tuple[str, ...], rows: list[list[str]]) -> None:
    """`rows` under `columns`: a table on a terminal, its first column (a name a command takes)
    never cut or folded, and tab-separated lines when piped."""
    if not sys.stdout.isatty():
        sys.stdout.write("".join("\t".join(row) + "\n" for row in [list(columns), *rows]))
        return
    table = Table(*columns)
    table.columns[0].no_wrap = True
    table.columns[0].overflow = "ignore"
    for row in rows:
        table.add_row(*row)
    Console().print(table)
