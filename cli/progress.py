"""A progress line on stderr for long runs of `attn translate` / `attn summarize`: inputs done and
inputs per second, shown only to a person watching (stderr a terminal, stdout not, no NO_COLOR,
no --quiet); pipes and logs never get it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def progress_wanted(quiet: bool) -> bool:
    return not quiet and sys.stderr.isatty() and not sys.stdout.isatty() and "NO_COLOR" not in os.environ


@contextmanager
def progress_bar(wanted: bool, unit: str) -> Iterator:
    """A function that adds `n` inputs done to the line (a no-op when not `wanted`)."""
    if not wanted:
        yield lambda n: None
        return
    # Rich only when the line is shown: a pipe's cold start does not import it
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task) -> Text:
            return Text(f"{task.speed:.1f} {task.fields['unit']}/s" if task.speed else "")

    columns = (SpinnerColumn(), TextColumn("{task.completed} {task.fields[unit]}"), RateColumn(), TimeElapsedColumn())
    with Progress(
        *columns, console=Console(stderr=True), transient=True, redirect_stdout=False, redirect_stderr=False
    ) as progress:
        task = progress.add_task("", total=None, unit=unit)
        yield lambda n: progress.advance(task, n)
