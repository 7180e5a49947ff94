"""`attn eval`: BLEU and chrF (sacrebleu) of a model on a TSV, overall and per group."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from attn.runtime.registry import resolve_model
from attn.runtime.translator import Translator
from attn.runtime.tsv import read_tsv

CHUNK = 256


def eval_command(
    data: Annotated[Path, typer.Argument(help="TSV (optionally .gz): source, reference[, group].")],
    model: Annotated[Optional[str], typer.Option("--model", "-m", help="Model folder or installed name.")] = None,
    beam: Annotated[Optional[int], typer.Option("--beam", "-b", min=1, help="Beam size (default: the model's).")] = None,
    length_penalty: Annotated[Optional[float], typer.Option("--length-penalty", help="GNMT alpha (default: the model's).")] = None,
    replace_unk: Annotated[Optional[bool], typer.Option("--replace-unk/--no-replace-unk", help="Default: the model's.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Evaluate the first N rows only (0: all).")] = 0,
    threads: Annotated[int, typer.Option("--threads", min=0)] = 0,
    device: Annotated[str, typer.Option("--device")] = "cpu",
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 32,
    hypotheses_out: Annotated[Optional[Path], typer.Option("--hypotheses", help="Write the outputs here, one per line.")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the scores here as JSON.")] = None,
) -> None:
    """Score a model on a test file: BLEU and chrF overall and per value of the third column."""
    try:
        import sacrebleu
    except ImportError:
        raise typer.BadParameter("`attn eval` needs sacrebleu: pip install 'attn[eval]'") from None
    rows = read_tsv(data)[: limit or None]
    translator = Translator(resolve_model(model, "translate", None, None), device, threads)
    options = translator.default_options(beam=beam, length_penalty=length_penalty, replace_unk=replace_unk)
    hypotheses: list[str] = []
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"translating {len(rows)} rows", total=len(rows))
        for start in range(0, len(rows), CHUNK):
            chunk = rows[start : start + CHUNK]
            hypotheses += [r[0].text for r in translator.translate([row.source for row in chunk], options, batch_size)]
            progress.advance(task, len(chunk))
    groups = defaultdict(list)
    for index, row in enumerate(rows):
        groups["all"].append(index)
        if row.origin:
            groups[row.origin].append(index)
    scores = {}
    for group, indices in groups.items():
        hyps, refs = [hypotheses[i] for i in indices], [[rows[i].target for i in indices]]
        scores[group] = {"sentences": len(indices), "bleu": round(sacrebleu.corpus_bleu(hyps, refs).score, 2),
                         "chrf": round(sacrebleu.corpus_chrf(hyps, refs).score, 2)}
    settings = f"beam {options.beam}, length penalty {options.length_penalty}, replace-unk {'on' if options.replace_unk else 'off'}"
    table = Table("group", "sentences", "BLEU", "chrF", title=f"{translator.folder.name} on {data.name}, {settings}")
    for group, score in scores.items():
        table.add_row(group, str(score["sentences"]), f"{score['bleu']:.1f}", f"{score['chrf']:.1f}")
    Console().print(table)
    if hypotheses_out:
        hypotheses_out.write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
    if json_out:
        json_out.write_text(json.dumps({"data": str(data), "model": str(translator.folder), "search": {
            "beam": options.beam, "length_penalty": options.length_penalty, "replace_unk": options.replace_unk},
            "scores": scores}, indent=2))
