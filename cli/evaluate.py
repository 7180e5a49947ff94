"""`attn eval`: a model's (or the lead baseline's) scores on a TSV, overall and per group.

Translation models get BLEU and chrF, summarization models ROUGE-1/2/L F1 (cli/metrics.py).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from attn.runtime.errors import UsageError
from attn.runtime.registry import resolve_model
from attn.runtime.sessions import warn_on_stderr
from attn.runtime.translator import Translator
from attn.runtime.tsv import Row, read_tsv

from .metrics import metric_columns, summary_scores, translation_scores
from .options import (BatchSizeOption, BeamOption, DeviceOption, FromOption, LengthPenaltyOption, MinLengthOption, ModelOption,
                      MaxSourcePiecesOption, NoRepeatNgramOption, ReplaceUnkOption, SentencesOption, ShortlistOption, TaskOption, ThreadsOption,
                      ToOption, default_of)



def eval_command(
    data: Annotated[Path, typer.Argument(help="TSV (optionally .gz): source, reference[, group] (with --swap-columns: reference, source[, group]).")],
    model: ModelOption = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    swap_columns: Annotated[bool, typer.Option("--swap-columns", help="Read the second column as the source and the first as the reference: a corpus's reverse direction (de→en on the en-de files).")] = False,
    task: TaskOption = "translate",
    lead: Annotated[int, typer.Option("--lead", min=0, help="Score the lead baseline instead of a model: the first N source words.")] = 0,
    beam: BeamOption = None,
    length_penalty: LengthPenaltyOption = None,
    min_length: MinLengthOption = None,
    no_repeat_ngram: NoRepeatNgramOption = None,
    replace_unk: ReplaceUnkOption = None,
    shortlist: ShortlistOption = default_of("shortlist"),
    max_source_pieces: MaxSourcePiecesOption = None,
    sentences: SentencesOption = True,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Evaluate the first N rows only (0: all).")] = 0,
    threads: ThreadsOption = 0,
    device: DeviceOption = "cpu",
    batch_size: BatchSizeOption = 32,
    hypotheses_out: Annotated[Optional[Path], typer.Option("--hypotheses", help="Write the outputs here, one per line.")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the scores here as JSON.")] = None,
) -> None:
    """Score a model on a test file, overall and per value of the third column."""
    if not data.exists():
        raise UsageError(f"no such file: {data}")
    rows = read_tsv(data, swap_columns)[: limit or None]
    if not rows:
        raise UsageError(f"{data}: no rows to evaluate")
    if lead:
        name, task, settings = f"lead-{lead}", "summarize", {"lead_words": lead}
        hypotheses = [" ".join(row.source.split()[:lead]) for row in rows]
    else:
        notes = FewNotes()
        translator = Translator(resolve_model(model, task, source_lang, target_lang), device, threads, notes,
                                source_lang, target_lang)
        options = translator.default_options(beam=beam, length_penalty=length_penalty, min_length=min_length,
                                             no_repeat_ngram=no_repeat_ngram, replace_unk=replace_unk,
                                             shortlist=shortlist and translator.shortlist is not None,
                                             max_source_pieces=max_source_pieces)
        name, task = translator.folder.name, translator.manifest.task
        settings = {key: getattr(options, key) for key in
                    ("beam", "length_penalty", "min_length", "no_repeat_ngram", "replace_unk", "shortlist")}
        settings["max_source_pieces"] = options.max_source_pieces or translator.max_source_pieces
        if task == "translate":
            settings["sentences"] = sentences
        hypotheses = _decode(translator, rows, options, batch_size, sentences)
        notes.finish()
    score = summary_scores if task == "summarize" else translation_scores
    scores = {group: {"sentences": len(indices), **score([hypotheses[i] for i in indices],
                                                         [rows[i].target for i in indices])}
              for group, indices in _groups(rows).items()}
    columns = metric_columns(task)
    described = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in settings.items())
    table = Table("group", "rows", *(title for _, title in columns), title=f"{name} on {data.name}: {described}")
    for group, values in scores.items():
        table.add_row(group, str(values["sentences"]), *(f"{values[key]:.2f}" for key, _ in columns))
    Console().print(table)
    if hypotheses_out:
        hypotheses_out.write_text("".join(h + "\n" for h in hypotheses), encoding="utf-8")
    if json_out:
        json_out.write_text(json.dumps({"data": str(data), "swap_columns": swap_columns, "model": name, "task": task,
                                        "search": settings, "scores": scores}, indent=2))


class FewNotes:
    """A notifier for a whole test file: the first few notes on stderr, then how many more came."""

    SHOWN = 3

    def __init__(self):
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        if self.count <= self.SHOWN:
            warn_on_stderr(message)

    def finish(self) -> None:
        if self.count > self.SHOWN:
            warn_on_stderr(f"… and {self.count - self.SHOWN} more notes like these")


def _decode(translator: Translator, rows: list[Row], options, batch_size: int, sentences: bool) -> list[str]:
    hypotheses: list[str] = []
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"decoding {len(rows)} rows", total=len(rows))
        step = translator.inputs_per_call(batch_size)
        for start in range(0, len(rows), step):
            chunk = rows[start : start + step]
            hypotheses += [r[0].text for r in translator.translate([row.source for row in chunk], options, batch_size,
                                                                         sentences=sentences)]
            progress.advance(task, len(chunk))
    return hypotheses


def _groups(rows: list[Row]) -> dict[str, list[int]]:
    """Row indices of "all" and of each origin."""
    groups = defaultdict(list)
    for index, row in enumerate(rows):
        groups["all"].append(index)
        if row.origin:
            groups[row.origin].append(index)
    return groups
