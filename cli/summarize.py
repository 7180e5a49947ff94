"""`attn summarize`: documents → one-line summaries on standard output.

By default all of standard input (or each FILE) is one document, its line breaks folded into
spaces; with --lines every line is a document, so N lines in give N summaries out, in order.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer

from .formats.jsonl import JsonlFormat
from .formats.text import TextFormat
from .lines import read_line_batches
from .translate import DeviceOption, ModelOption, ThreadsOption, load_translator

SUMMARY_FORMATS = ("text", "jsonl")


def summarize_command(
    files: Annotated[Optional[list[Path]], typer.Argument(help="Documents to summarize, one per file ('-': standard input). Without any, standard input.")] = None,
    lines: Annotated[bool, typer.Option("--lines", help="Every line is a document: one summary per line, order kept.")] = False,
    model: ModelOption = None,
    beam: Annotated[Optional[int], typer.Option("--beam", "-b", min=1, help="Beam size; 1 is greedy search. Default: the model's.")] = None,
    n_best: Annotated[int, typer.Option("--n-best", "-n", min=1, help="Summaries per document (at most the beam size).")] = 1,
    length_penalty: Annotated[Optional[float], typer.Option("--length-penalty", help="GNMT alpha: higher favours longer summaries. Default: the model's.")] = None,
    min_length: Annotated[Optional[int], typer.Option("--min-length", min=0, help="No end before this many pieces. Default: the model's.")] = None,
    max_length: Annotated[Optional[int], typer.Option("--max-length", min=1, help="At most this many pieces. Default: the model's.")] = None,
    no_repeat_ngram: Annotated[Optional[int], typer.Option("--no-repeat-ngram", min=0, help="Block any repeated n-gram of pieces (0: off). Default: the model's.")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help=f"Output: {', '.join(SUMMARY_FORMATS)}.")] = "text",
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Documents decoded together.")] = 16,
) -> None:
    """Summarize documents in one line each with an installed or given summarization model."""
    if output_format not in SUMMARY_FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(SUMMARY_FORMATS)}", param_hint="--format")
    summarizer = load_translator(model, "summarize", None, None, device, threads)
    beam_size = beam or summarizer.default_options().beam
    options = summarizer.default_options(
        beam=beam_size, n_best=min(n_best, beam_size), length_penalty=length_penalty, min_length=min_length,
        no_repeat_ngram=no_repeat_ngram, max_length_ratio=None if max_length is None else 0.0,
        max_length_offset=max_length,
    )
    formatter = JsonlFormat(options.n_best, text_key="summary") if output_format == "jsonl" else TextFormat(options.n_best)
    for documents in _document_batches(files or [Path("-")], lines, summarizer.inputs_per_call(batch_size)):
        for document, result in zip(documents, summarizer.translate(documents, options, batch_size)):
            formatter.write(document, result)
        sys.stdout.flush()


def _document_batches(files: list[Path], lines: bool, inputs_per_call: int) -> Iterator[list[str]]:
    """Batches of documents; a whole input that is blank is an error."""
    for file in files:
        from_stdin = str(file) == "-"
        if lines:
            if from_stdin:
                yield from read_line_batches(sys.stdin.fileno(), inputs_per_call)
            else:
                with file.open("rb") as handle:
                    yield from read_line_batches(handle.fileno(), inputs_per_call)
            continue
        data = sys.stdin.buffer.read() if from_stdin else file.read_bytes()
        document = " ".join(data.decode("utf-8", errors="replace").split())
        if not document:
            name = "standard input" if from_stdin else str(file)
            raise ValueError(f"nothing to summarize: {name} is empty (use --lines for one document per line)")
        yield [document]
