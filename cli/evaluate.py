"""`attn eval`: a model's (or the lead baseline's) scores on a TSV, overall and per group.

Translation models get BLEU and chrF, summarization models ROUGE-1/2/L F1 (cli/metrics.py).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console, Group
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from attn.runtime.constants import BATCH_SIZE, language_label
from attn.runtime.errors import UsageError
from attn.runtime.language_id import OVERRULING_PROBABILITY, detect_language, known_languages
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.registry import installed_pairs, resolve_model
from attn.runtime.sessions import warn_on_stderr
from attn.runtime.translation import TextOptions
from attn.runtime.tsv import Row, read_tsv

from .metrics import PAIRED_RESAMPLES, metric_columns, paired_p_values, summary_scores, translation_scores
from .options import (
    BatchSizeOption,
    DeviceOption,
    FromOption,
    ModelsOption,
    QuietOption,
    SearchRequest,
    TaskOption,
    ThreadsOption,
    ToOption,
    notifier,
    search_options,
)
from .output import check_writable, output_file, refuse_an_input

DETECTION_ROWS = 100  # the sources whose language is the file's, when --from does not say


@search_options(
    "beam",
    "length_penalty",
    "min_length",
    "no_repeat_ngram",
    "reverse_weight",
    "replace_unk",
    "shortlist",
    "max_source_pieces",
    "sentences",
)
def eval_command(
    data: Annotated[
        Path,
        typer.Argument(
            help="TSV (optionally .gz or .xz): source, reference[, origin[, group]] (with --swap-columns: reference first); rows are also scored per origin (the group column the corpora carry is not read)."
        ),
    ],
    model: ModelsOption = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    swap_columns: Annotated[
        bool,
        typer.Option(
            "--swap-columns",
            help="Read the second column as the source and the first as the reference: a corpus's reverse direction (de→en on the en-de files).",
        ),
    ] = False,
    task: TaskOption = "translate",
    lead: Annotated[
        int, typer.Option("--lead", min=0, help="Score the lead baseline instead of a model: the first N source words.")
    ] = 0,
    search: SearchRequest = SearchRequest(),
    limit: Annotated[int, typer.Option("--limit", min=0, help="Evaluate the first N rows only (0: all).")] = 0,
    threads: ThreadsOption = 0,
    device: DeviceOption = "cpu",
    batch_size: BatchSizeOption = BATCH_SIZE,
    hypotheses_out: Annotated[
        Optional[Path], typer.Option("--hypotheses", help="Write the outputs here, one per line (one model only).")
    ] = None,
    json_out: Annotated[
        Optional[Path],
        typer.Option(
            "--json",
            help="Also write the scores as JSON to this file ('-': standard output, the table then on standard error).",
        ),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Score a model on a test file, overall and per value of the third column; or several models
    side by side (repeat --model), each after the first with the p-values of its differences."""
    if not data.exists():
        raise UsageError(f"no such file: {data}")
    if lead and model:  # the models had been left out without a word
        raise UsageError("--lead scores the first words of each source, no model: leave out --model")
    models = [None] if lead or not model else model
    notify = notifier(quiet)
    for written, option in ((hypotheses_out, "--hypotheses"), (json_out, "--json")):
        check_writable(written, option)
        refuse_an_input(written, [data], option)  # the test file had been replaced by the outputs
    if hypotheses_out and json_out and _same_place(hypotheses_out, json_out):
        raise UsageError(f"--hypotheses and --json both write {hypotheses_out}: give them two places")
    if hypotheses_out and len(models) > 1:
        raise UsageError("--hypotheses writes one model's outputs: give one --model")
    rows = read_tsv(data, swap_columns)
    if rows and is_header(rows[0]):  # had been scored as a row
        notify(f"{data}: its first line, {rows[0].source!r} and {rows[0].target!r}, is read as a header: not scored")
        rows = rows[1:]
    rows = rows[: limit or None]
    if not rows:
        raise UsageError(f"{data}: no rows to evaluate")
    if blank := sum(not row.source.strip() for row in rows):  # had lowered the scores without a word
        notify(f"{data}: {blank} of {len(rows)} rows have an empty source: scored as they are, with empty outputs")
    if blank := sum(not row.target.strip() for row in rows):  # so had an empty reference
        notify(f"{data}: {blank} of {len(rows)} rows have an empty reference: scored against it as it is")
    if lead:
        systems = [
            System(
                f"lead-{lead}", "summarize", {"lead_words": lead}, [" ".join(row.source.split()[:lead]) for row in rows]
            )
        ]
    else:
        if task == "translate" and not model and source_lang in (None, "auto"):
            source_lang = detected_source(rows, target_lang, notify)
        notes = [FewNotes(notify) for _ in models]
        translators = [
            LoadedModel(
                resolve_model(name, task, source_lang, target_lang),
                device,
                threads,
                model_notes,
                source_lang,
                target_lang,
            )
            for name, model_notes in zip(models, notes)
        ]
        if len({translator.manifest.task for translator in translators}) > 1:
            raise UsageError("--model: a translation model and a summarizer cannot be compared")
        if task == "translate":
            for translator in translators:
                warn_on_other_language(rows, translator, notify)
        systems = [
            _decoded(translator, model_notes, rows, search, batch_size, quiet)
            for translator, model_notes in zip(translators, notes)
        ]
    labels = _labels(systems, models)
    task = systems[0].task
    score = summary_scores if task == "summarize" else translation_scores
    groups = _groups(rows)
    references = {group: [rows[i].target for i in indices] for group, indices in groups.items()}
    scores = [
        {
            group: {"sentences": len(indices), **score([system.hypotheses[i] for i in indices], references[group])}
            for group, indices in groups.items()
        }
        for system in systems
    ]
    p_values = _paired(systems, groups, references) if len(systems) > 1 and task == "translate" else []
    Console(stderr=str(json_out) == "-").print(_table(data, task, systems, labels, scores, p_values))
    if hypotheses_out:
        write_atomically(hypotheses_out, "".join(h + "\n" for h in systems[0].hypotheses), "--hypotheses")
    if json_out:
        record = json.dumps(_record(data, swap_columns, task, systems, labels, scores, p_values), indent=2)
        if str(json_out) == "-":
            sys.stdout.write(record + "\n")
        else:
            write_atomically(json_out, record, "--json")


# What a spreadsheet's or a script's header names its columns
HEADER_NAMES = frozenset(
    "source target src tgt reference ref references translation hypothesis text sentence original document "
    "summary en de fr english german french".split()
)


def is_header(row: Row) -> bool:
    """Whether `row` names its columns (two of HEADER_NAMES) rather than holding a pair ("Text\tText"
    is a pair)."""
    source, target = row.source.strip().lower(), row.target.strip().lower()
    return source != target and source in HEADER_NAMES and target in HEADER_NAMES


def write_atomically(path: Path, text: str, option: str) -> None:
    """`text` into `path`, which `option` named, whole or not at all (a full disk leaves the old
    file, not a truncated one)."""
    with output_file(path, option):
        sys.stdout.write(text)


def detected_source(rows: list[Row], target: str | None, notify=warn_on_stderr) -> str:
    """The language of the rows' sources among those of the installed models (into `target`),
    with a note: the default en→de model scored the German column of a file read with
    --swap-columns, silently. English where it is a candidate and the identifier is not sure of
    another (OVERRULING_PROBABILITY), as `attn translate --to` reads a line: a file of one short
    row ("Save") had been read as French, one of empty sources as German."""
    candidates = {source for source, into in installed_pairs() if target in (None, into)}
    if not candidates:
        raise UsageError(f"no installed model translates into {target} (see `attn models`)")
    text = " ".join(row.source for row in rows[:DETECTION_ROWS])
    language, probability = detect_language(text, candidates) if text.strip() else ("en", 0.0)
    if "en" in candidates and language != "en" and probability < OVERRULING_PROBABILITY:
        language = "en"
    notify(f"the sources read as {language_label(language)}: --from sets the language")
    return language


def warn_on_other_language(rows: list[Row], translator: LoadedModel, notify=warn_on_stderr) -> None:
    """A note when the rows' sources read as another language than the one `translator` reads,
    surely (OVERRULING_PROBABILITY): `-m en-de --swap-columns` scored German sources in an English
    model, 4.5 BLEU, silently."""
    reads = translator.source_lang
    if reads not in known_languages():
        return
    language, probability = detect_language(" ".join(row.source for row in rows[:DETECTION_ROWS]), known_languages())
    if language != reads and probability >= OVERRULING_PROBABILITY:  # "Hello world." had read as Fulfulde
        notify(
            f"the sources read as {language_label(language)}, and {translator.folder.name} reads "
            f"{language_label(reads)} (check --swap-columns and --model)"
        )


@dataclass
class System:
    """One scored system: a model folder's name (or the lead baseline), its task, the search
    settings it decoded with, and its output for each row."""

    name: str
    task: str
    settings: dict
    hypotheses: list[str]


def _decoded(
    translator: LoadedModel, notes: FewNotes, rows: list[Row], search: SearchRequest, batch_size: int, quiet: bool
) -> System:
    shortlist = search.settings.get("shortlist", False) and translator.shortlist is not None
    options = search.options(translator, notes, shortlist=shortlist)
    text = translator.text_options(search.text)
    task = translator.manifest.task
    settings = {key: getattr(options, key) for key in ("beam", "length_penalty", "min_length", "no_repeat_ngram")}
    settings.update(
        replace_unk=text.replace_unk,
        reverse_weight=text.reverse_weight,
        shortlist=options.shortlist,
        max_source_pieces=text.max_source_pieces,
    )
    if task == "translate":
        settings["sentences"] = text.sentences
    hypotheses = _decode(translator, rows, options, batch_size, text, shown=not quiet)
    notes.finish()
    return System(translator.folder.name, task, settings, hypotheses)


def _labels(systems: list[System], models: list[str | None]) -> list[str]:
    """What to call each system: its folder's name, or the --model values when two names clash;
    a model given twice is numbered the second time ("NAME #2")."""
    names = [system.name for system in systems]
    if len(set(names)) < len(names):
        names = [model or name for model, name in zip(models, names)]
    return [
        name if names[:i].count(name) == 0 else f"{name} #{names[:i].count(name) + 1}" for i, name in enumerate(names)
    ]


def _paired(
    systems: list[System], groups: dict[str, list[int]], references: dict[str, list[str]]
) -> list[dict[str, dict[str, float]]]:
    """For each system after the first: group → {"bleu": p, "chrf": p} against the first."""
    per_group = {
        group: paired_p_values(
            [systems[0].hypotheses[i] for i in indices],
            [[system.hypotheses[i] for i in indices] for system in systems[1:]],
            references[group],
        )
        for group, indices in groups.items()
    }
    return [{group: values[number] for group, values in per_group.items()} for number in range(len(systems) - 1)]


def _same_place(first: Path, second: Path) -> bool:
    """Whether two outputs are one: standard output both, or one file (by its resolved path)."""
    if "-" in (str(first), str(second)):
        return str(first) == str(second)
    return first.resolve() == second.resolve()


def _table(
    data: Path, task: str, systems: list[System], labels: list[str], scores: list[dict], p_values: list[dict]
) -> Group:
    """One row per group; one model's metrics, or each model's beside the others, with the p-value
    of each difference from the first model; its title and caption lines of their own (as the
    table's, they had been wrapped to its width: "beam 5, length" / "penalty 1.6, …")."""
    columns = metric_columns(task)

    def described(system: System) -> str:
        return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in system.settings.items())

    if len(systems) == 1:
        heading, caption = f"{labels[0]} on {data.name}: {described(systems[0])}", ""
        table = Table("group", "rows", *(title for _, title in columns))
    else:
        letters = [chr(ord("A") + number) for number in range(len(systems))]
        headers = [f"{title} {letter}" for letter in letters for _, title in columns]
        headers += [f"p {title} {letter}" for letter in letters[1:] for _, title in columns] if p_values else []
        settings = {described(system) for system in systems}
        if len(settings) == 1:
            caption = (
                "; ".join(f"{letter}: {label}" for letter, label in zip(letters, labels))
                + f"; search for each: {settings.pop()}"
            )
        else:
            caption = "; ".join(
                f"{letter}: {label} ({described(system)})" for letter, label, system in zip(letters, labels, systems)
            )
        if p_values:
            caption += (
                f". p: paired bootstrap resampling against A ({PAIRED_RESAMPLES:,} resamples, sacreBLEU); "
                "a small p, a difference unlikely to be chance"
            )
        heading = f"{len(systems)} models on {data.name}"
        table = Table("group", "rows", *headers)
    for group, values in scores[0].items():
        cells = [f"{system_scores[group][key]:.2f}" for system_scores in scores for key, _ in columns]
        cells += [f"{system_p[group][key]:.3f}" for system_p in p_values for key, _ in columns]
        table.add_row(group, str(values["sentences"]), *cells)
    return Group(Text(heading, style="italic"), table, *([Text(caption)] if caption else []))


def _record(
    data: Path,
    swap_columns: bool,
    task: str,
    systems: list[System],
    labels: list[str],
    scores: list[dict],
    p_values: list[dict],
) -> dict:
    """The JSON of --json: one model's scores as `model`, `search`, `scores`; several models' as a
    list of them under `systems`, with `paired_test` holding each later model's p-values."""
    common = {"data": str(data), "swap_columns": swap_columns, "task": task}
    entries = [
        {"model": label, "search": system.settings, "scores": system_scores}
        for label, system, system_scores in zip(labels, systems, scores)
    ]
    if len(entries) == 1:
        return {**common, **entries[0]}
    record = {**common, "systems": entries}
    if p_values:
        record["paired_test"] = {
            "method": "paired bootstrap resampling (sacreBLEU)",
            "resamples": PAIRED_RESAMPLES,
            "baseline": labels[0],
            "p_values": {label: values for label, values in zip(labels[1:], p_values)},
        }
    return record


class FewNotes:
    """A notifier for a whole test file: the first few notes on stderr, then how many more came."""

    SHOWN = 3

    def __init__(self, notify=warn_on_stderr):
        self.count, self.notify = 0, notify

    def __call__(self, message: str) -> None:
        self.count += 1
        if self.count <= self.SHOWN:
            self.notify(message)

    def finish(self) -> None:
        if self.count > self.SHOWN:
            self.notify(f"… and {self.count - self.SHOWN} more notes like these")


def _decode(
    translator: LoadedModel, rows: list[Row], options, batch_size: int, text: TextOptions, shown: bool = True
) -> list[str]:
    """The rows' outputs, with a progress bar where `shown` (not with --quiet)."""
    hypotheses: list[str] = []
    with Progress(console=Console(stderr=True), transient=True, disable=not shown) as progress:
        task = progress.add_task(f"decoding {len(rows)} rows", total=len(rows))
        step = translator.inputs_per_call(batch_size)
        for start in range(0, len(rows), step):
            chunk = rows[start : start + step]
            hypotheses += [
                r[0].text
                for r in translator.translate([row.source for row in chunk], options, batch_size, text_options=text)
            ]
            progress.advance(task, len(chunk))
    return hypotheses


def _groups(rows: list[Row]) -> dict[str, list[int]]:
    """Row indices of "all" and of each origin (one named "all" as "all (origin)": its rows had
    been counted into the overall row twice)."""
    groups = defaultdict(list)
    for index, row in enumerate(rows):
        groups["all"].append(index)
        if row.origin:
            groups["all (origin)" if row.origin == "all" else row.origin].append(index)
    return groups
