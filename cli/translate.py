"""`attn translate`: arguments or standard input → translations on standard output."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from attn.runtime.registry import resolve_model
from attn.runtime.translator import Translator

from .formats import FORMATS, make_format
from .lines import read_line_batches


def translate_command(
    text: Annotated[Optional[list[str]], typer.Argument(help="Sentences to translate, one per argument. Without any, lines are read from standard input.")] = None,
    model: Annotated[Optional[str], typer.Option("--model", "-m", help="Model folder or installed model name.")] = None,
    source_lang: Annotated[Optional[str], typer.Option("--from", help="Source language of the installed model to use.")] = None,
    target_lang: Annotated[Optional[str], typer.Option("--to", help="Target language of the installed model to use.")] = None,
    beam: Annotated[Optional[int], typer.Option("--beam", "-b", min=1, help="Beam size; 1 is greedy search. Default: the model's.")] = None,
    n_best: Annotated[int, typer.Option("--n-best", "-n", min=1, help="Hypotheses per input (at most the beam size).")] = 1,
    length_penalty: Annotated[Optional[float], typer.Option("--length-penalty", help="GNMT alpha; 0 ranks by raw log-probability.")] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help=f"Output: {', '.join(FORMATS)}.")] = "text",
    device: Annotated[str, typer.Option("--device", help="cpu or cuda.")] = "cpu",
    threads: Annotated[int, typer.Option("--threads", min=0, help="Threads per session; 0 lets onnxruntime choose.")] = 0,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Sentences decoded together.")] = 32,
) -> None:
    """Translate sentences with an installed or given model (default: English → German)."""
    if output_format not in FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(FORMATS)}", param_hint="--format")
    translator = Translator(resolve_model(model, "translate", source_lang, target_lang), device, threads)
    if translator.manifest.task != "translate":
        raise typer.BadParameter(f"{translator.folder} is a {translator.manifest.task} model, not a translation model", param_hint="--model")
    beam_size = beam or translator.default_options().beam
    options = translator.default_options(beam=beam_size, n_best=min(n_best, beam_size), length_penalty=length_penalty)
    formatter = make_format(output_format, options.n_best)
    batches = [text] if text else read_line_batches(sys.stdin.fileno(), batch_size)
    for lines in batches:
        results = translator.translate(lines, options, batch_size)
        sys.stdout.write("".join(formatter.format(line, result) for line, result in zip(lines, results)))
        sys.stdout.flush()
