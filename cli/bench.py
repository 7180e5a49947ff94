"""`attn bench`: decoding speed of a model on your own text, measured side by side in one process.

Every setting (precision × threads × shortlist × beam × batch size) decodes the same inputs; the table gives inputs/s,
output pieces/s, the ratio to the first row and, for a TSV with references, BLEU (ROUGE-L for a
summarizer); then the cold start of a fresh `attn` process (median of several runs) and its peak
resident memory.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from attn.runtime.errors import UsageError
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.parallel import available_cores
from attn.runtime.registry import resolve_model
from attn.runtime.tsv import TSV_SUFFIXES, read_tsv, spread

from .options import DeviceOption, ModelOption, TaskOption

Result = TypeVar("Result")


def timed(function: Callable[[], Result], repeats: int = 1) -> tuple[Result, float]:
    """(function(), wall-clock seconds): the fastest of `repeats` runs, the least disturbed by
    whatever else a shared machine is doing."""
    return timed_in_turn([function], repeats)[0]


def timed_in_turn(functions: list[Callable[[], Result]], repeats: int) -> list[tuple[Result, float]]:
    """timed() for several functions at once: `repeats` rounds, each function once per round in
    turn, so that a slow spell of a shared machine lands on all of them → each function's last
    result and fastest seconds."""
    fastest = [float("inf")] * len(functions)
    results: list[Result | None] = [None] * len(functions)
    for _ in range(repeats):
        for i, function in enumerate(functions):
            start = time.perf_counter()
            results[i] = function()
            fastest[i] = min(fastest[i], time.perf_counter() - start)
    return list(zip(results, fastest))


def attn_command(folder: Path, task: str, text: str = "", options: tuple[str, ...] = ()) -> list[str]:
    """The command line that runs `folder` (with `options`) on `text` as a fresh process; without
    a text, or for a summarizer, the process reads standard input."""
    return [
        sys.executable,
        "-m",
        "attn.cli",
        task,
        "-m",
        str(folder),
        *options,
        *(["--", text] if task == "translate" and text else []),
    ]


def cold_start(command: list[str], runs: int, stdin: str = "") -> float:
    """Median seconds of `command` run `runs` times as a fresh process (cold_starts)."""
    return cold_starts([command], runs, stdin)[0]


def cold_starts(commands: list[list[str]], runs: int, stdin: str = "") -> list[float]:
    """Median seconds of each command run `runs` times as a fresh process, the commands taking
    turns (so that a shared machine's slow moments fall on each alike), after one run of each
    that is not counted. Their Python bytecode is cached as an installed package's is (pip
    compiles it at install), even where PYTHONDONTWRITEBYTECODE is set: that would time the
    compiler instead."""
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

    def run(command):
        return lambda: subprocess.run(command, input=stdin.encode(), check=True, capture_output=True, env=environment)

    seconds: list[list[float]] = [[] for _ in commands]
    for command in commands:
        run(command)()
    for _ in range(runs):
        for command, taken in zip(commands, seconds):
            taken.append(timed(run(command))[1])
    return [statistics.median(taken) for taken in seconds]


def peak_memory_mb(command: list[str], stdin: str = "") -> float:
    """Peak RSS (MB) of `command`, read by a small intermediate process: a child forked straight from
    a large process would count that process's pages."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), "
        "check=True, capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *command], input=stdin, check=True, capture_output=True, text=True
    ).stdout
    return int(out.strip()) / 1024


def _numbers(text: str, name: str, least: int = 1) -> list[int]:
    """The comma-separated integers of an option, each `least` or more."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) < least:
        what = "positive integers" if least == 1 else f"integers of {least} or more"
        raise typer.BadParameter(f"give {what} separated by commas, e.g. 1,5", param_hint=name)
    return values


def _inputs(data: Path | None, limit: int) -> tuple[list[str], list[str] | None]:
    """Inputs spread over the file (every n-th line, up to `limit`), and their references when the
    file is a TSV (first column the input, second the reference); plain lines have none."""
    references = None
    if data is not None and data.name.endswith(TSV_SUFFIXES):
        rows = [row for row in read_tsv(data) if row.source.strip()]
        rows = spread(rows, limit)
        lines, references = [row.source for row in rows], [row.target for row in rows]
    else:
        text = sys.stdin.read() if data is None else data.read_text(encoding="utf-8", errors="replace")
        lines = [line for line in text.splitlines() if line.strip()]
        lines = spread(lines, limit)
    if not lines:
        raise UsageError("nothing to benchmark: no non-blank input lines")
    return lines, references


def _quality(task: str, references: list[str] | None) -> tuple[str, Callable[[list[str]], float]] | None:
    """The column title and scorer of output quality (BLEU, or ROUGE-L for summaries) when there
    are references; scoring needs the eval extra (sacrebleu, rouge-score)."""
    if references is None:
        return None
    from .metrics import summary_scores, translation_scores

    if task == "summarize":
        return "ROUGE-L", lambda outputs: summary_scores(outputs, references)["rougeL"]
    return "BLEU", lambda outputs: translation_scores(outputs, references)["bleu"]


def bench_command(
    data: Annotated[
        Optional[Path],
        typer.Argument(help="Inputs: a text file (one per line) or a TSV (first column). Default: standard input."),
    ] = None,
    model: ModelOption = None,
    task: TaskOption = "translate",
    beams: Annotated[str, typer.Option("--beams", help="Beam sizes to compare, comma-separated.")] = "1,5",
    batch_sizes: Annotated[
        str, typer.Option("--batch-sizes", help="Inputs per batch to compare, comma-separated.")
    ] = "32",
    int8: Annotated[
        bool, typer.Option("--int8", help="Also measure an int8 copy of an fp32 model (made in a temporary folder).")
    ] = False,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many inputs, spread over the file.")] = 300,
    runs: Annotated[
        int, typer.Option("--cold-start-runs", min=0, help="Fresh processes timed for the cold start (0: skip).")
    ] = 3,
    device: DeviceOption = "cpu",
    threads: Annotated[
        str,
        typer.Option(
            "--threads",
            help="CPU thread counts to compare, comma-separated (N threads decode N batches side by side; 0: one per core). Default: one per core.",
        ),
    ] = "",
) -> None:
    """Measure decoding speed on your text: thread counts × beams × batch sizes (× int8, × the
    model's shortlist on and off when it has one), cold start, memory."""
    beam_list, batch_list = _numbers(beams, "--beams"), _numbers(batch_sizes, "--batch-sizes")
    # 0: one per core, as attn translate --threads 0 (it had been refused here)
    thread_list = (
        [count or available_cores() for count in _numbers(threads, "--threads", 0)] if threads else [available_cores()]
    )
    texts, references = _inputs(data, limit)
    folder = resolve_model(model, task, None, None)
    manifest = read_manifest(folder)
    precision = manifest.precision
    folders = [(precision, folder)]
    console = Console(stderr=True)
    with tempfile.TemporaryDirectory() as scratch:
        if int8 and precision == "fp32":
            from attn.export.graphs.quantize import quantize_folder

            quantize_folder(folder, Path(scratch) / "int8")
            folders.append(("int8", Path(scratch) / "int8"))
        elif int8:
            console.print(f"{folder} is already {precision}: nothing to quantize")
        quality = _quality(manifest.task, references)
        table = Table(
            "precision",
            "threads",
            "shortlist",
            "beam",
            "batch",
            "inputs/s",
            "pieces/s",
            "× first row",
            *([quality[0]] if quality else []),
            title=f"{folder.name}: {len(texts)} inputs, {device}",
        )
        first = None
        for name, path in folders:
            for thread_count in thread_list:
                engine = LoadedModel(path, device, thread_count)
                for shortlist, beam, batch in itertools.product(
                    (False, True) if engine.shortlist else (False,), beam_list, batch_list
                ):
                    options = engine.default_options(beam=beam, shortlist=shortlist)
                    with console.status(
                        f"{name}, {thread_count} threads, shortlist {shortlist}, beam {beam}, batch {batch}"
                    ):
                        engine.translate(texts[:1], options, batch)  # loads what the setting uses (a shortlist's graph)
                        results, seconds = timed(lambda: engine.translate(texts, options, batch))
                    rate = len(texts) / seconds
                    first = first or rate
                    pieces = sum(len(result[0].tokens) for result in results) / seconds
                    scores = [f"{quality[1]([result[0].text for result in results]):.2f}"] if quality else []
                    table.add_row(
                        name,
                        str(thread_count),
                        "yes" if shortlist else "no",
                        str(beam),
                        str(batch),
                        f"{rate:.1f}",
                        f"{pieces:.0f}",
                        f"{rate / first:.2f}",
                        *scores,
                    )
    out = Console()
    out.print(table)
    command = attn_command(folder, manifest.task, texts[0])
    stdin = "" if manifest.task == "translate" else texts[0]
    if runs:
        median = cold_start(command, runs, stdin)
        out.print(
            f"cold start (fresh `attn {manifest.task}` process, median of {runs}): {median:.2f} s; "
            f"peak memory {peak_memory_mb(command, stdin):.0f} MB"
        )
