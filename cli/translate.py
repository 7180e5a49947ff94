"""`attn translate`: arguments or standard input → translations on standard output."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.runtime.manifest import ModelFolderError
from attn.runtime.registry import resolve_model
from attn.runtime.tokenizer import valid_unicode
from attn.runtime.translator import Translator

from .formats import FORMATS, make_format
from .heatmap import FORMATS as HEATMAP_FORMATS
from .heatmap import heatmap_alignment, heatmap_path, write_heatmap
from .lines import DEFAULT_MAX_LINE_CHARS, read_line_batches

ModelOption = Annotated[Optional[str], typer.Option("--model", "-m", help="Model folder or installed model name.")]
FromOption = Annotated[Optional[str], typer.Option("--from", help="Source language of the installed model to use.")]
ToOption = Annotated[Optional[str], typer.Option("--to", help="Target language of the installed model to use.")]
DeviceOption = Annotated[str, typer.Option("--device", help="cpu or cuda.")]
ThreadsOption = Annotated[int, typer.Option("--threads", min=0, help="CPU threads: batches decoded at once (0: one per core).")]
FormatOption = Annotated[str, typer.Option("--format", "-f", help=f"Output: {', '.join(FORMATS)}.")]
MaxLineCharsOption = Annotated[int, typer.Option("--max-line-chars", min=1, help="Longer input lines keep their first this many characters (a note says which).")]
ShortlistOption = Annotated[bool, typer.Option("--shortlist/--no-shortlist", help="Decode over the model's target-vocabulary shortlist, when it has one (faster).")]


def load_translator(model: str | None, task: str, source: str | None, target: str | None,
                    device: str, threads: int) -> Translator:
    """The model for `task`; a model of the other task is a usage error."""
    translator = Translator(resolve_model(model, task, source, target), device, threads)
    if translator.manifest.task != task:
        raise ModelFolderError(f"{translator.folder} is a {translator.manifest.task} model, not a {task} model")
    return translator


def check_format(output_format: str, align: bool) -> str:
    if output_format not in FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(FORMATS)}", param_hint="--format")
    return "table" if align else output_format


def translate_command(
    text: Annotated[Optional[list[str]], typer.Argument(help="Sentences to translate, one per argument. Without any, lines are read from standard input.")] = None,
    model: ModelOption = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    beam: Annotated[Optional[int], typer.Option("--beam", "-b", min=1, help="Beam size; 1 is greedy search. Default: the model's.")] = None,
    n_best: Annotated[int, typer.Option("--n-best", "-n", min=1, help="Hypotheses per input (at most the beam size).")] = 1,
    length_penalty: Annotated[Optional[float], typer.Option("--length-penalty", help="GNMT alpha; 0 ranks by raw log-probability.")] = None,
    coverage_penalty: Annotated[float, typer.Option("--coverage-penalty", help="GNMT beta: rewards covering every source position.")] = 0.0,
    min_length: Annotated[Optional[int], typer.Option("--min-length", min=0, help="No end of sentence before this many tokens. Default: the model's.")] = None,
    max_length_ratio: Annotated[Optional[float], typer.Option("--max-length-ratio", help="a in a·|source|+b output tokens.")] = None,
    max_length_offset: Annotated[Optional[int], typer.Option("--max-length-offset", help="b in a·|source|+b output tokens.")] = None,
    no_repeat_ngram: Annotated[Optional[int], typer.Option("--no-repeat-ngram", min=0, help="Block any repeated n-gram of this size (0: off). Default: the model's.")] = None,
    sample: Annotated[bool, typer.Option("--sample", help="Sample tokens instead of searching (implies beam 1).")] = False,
    temperature: Annotated[float, typer.Option("--temperature", min=0.0)] = 1.0,
    top_k: Annotated[int, typer.Option("--top-k", min=0, help="Sample among the k likeliest tokens (0: all).")] = 0,
    top_p: Annotated[float, typer.Option("--top-p", min=0.0, max=1.0, help="Sample within this probability mass.")] = 1.0,
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed for --sample (same seed, same output).")] = None,
    replace_unk: Annotated[Optional[bool], typer.Option("--replace-unk/--no-replace-unk", help="Repair mangled copies of versions, paths, names (default: the model's).")] = None,
    shortlist: ShortlistOption = True,
    output_format: FormatOption = "text",
    align: Annotated[bool, typer.Option("--align", help="Show each translation's word alignment as a table.")] = False,
    heatmap: Annotated[Optional[Path], typer.Option("--heatmap", help="Draw alignments to FILE.png|svg|pdf (FILE-N.png for several inputs).")] = None,
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Sentences decoded together.")] = 32,
    max_line_chars: MaxLineCharsOption = DEFAULT_MAX_LINE_CHARS,
) -> None:
    """Translate sentences with an installed or given model (default: English → German)."""
    output_format = check_format(output_format, align)
    translator = load_translator(model, "translate", source_lang, target_lang, device, threads)
    beam_size = 1 if sample else beam or translator.default_options().beam
    options = translator.default_options(
        beam=beam_size, n_best=min(n_best, beam_size), length_penalty=length_penalty,
        coverage_penalty=coverage_penalty, min_length=min_length, max_length_ratio=max_length_ratio,
        max_length_offset=max_length_offset, no_repeat_ngram=no_repeat_ngram, sample=sample,
        temperature=temperature, top_k=top_k, top_p=top_p, seed=seed, replace_unk=replace_unk, shortlist=shortlist,
    )
    if heatmap and heatmap.suffix.lower() not in HEATMAP_FORMATS:
        raise typer.BadParameter(f"the file must end in {', '.join(HEATMAP_FORMATS)}", param_hint="--heatmap")
    formatter = make_format(output_format, options.n_best)
    batches = [[valid_unicode(t) for t in text]] if text else read_line_batches(
        sys.stdin.fileno(), translator.inputs_per_call(batch_size), max_line_chars)
    alignments, done = [], 0
    for lines in batches:
        results = translator.translate(lines, options, batch_size, first_number=done + 1)
        done += len(lines)
        for line, result in zip(lines, results):
            formatter.write(line, result)
            if heatmap:
                alignments.append(heatmap_alignment(result[0].alignment, len(alignments) + 1))
        sys.stdout.flush()
    for index, alignment in enumerate(alignments):
        write_heatmap(alignment, heatmap_path(heatmap, index, len(alignments)))


def align_command(
    source: Annotated[str, typer.Argument(help="Source sentence.")],
    target: Annotated[str, typer.Argument(help="Its translation, to be scored and aligned.")],
    model: ModelOption = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    output_format: FormatOption = "table",
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
) -> None:
    """Score a given translation with the model (teacher forcing) and show its alignment."""
    output_format = check_format(output_format, False)
    translator = load_translator(model, "translate", source_lang, target_lang, device, threads)
    source, target = valid_unicode(source), valid_unicode(target)
    make_format(output_format, 1).write(source, [translator.force(source, target)])
    sys.stdout.flush()
