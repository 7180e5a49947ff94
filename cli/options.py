"""Every option that several commands share, declared once: the model choice, the device, and the
search settings of translate, summarize, eval and bench. A command takes the ones it needs; help
texts and bounds therefore read the same everywhere. Search defaults are the model's (its
manifest's [search]), falling back on runtime/search.py's SearchOptions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.runtime.constants import language_code
from attn.runtime.search import SearchOptions
from attn.runtime.sessions import warn_on_stderr

MODEL_HELP = "Model folder or installed model name."
# --help shows the everyday options first; these panels gather the rest
SEARCH_PANEL, PERFORMANCE_PANEL = "Search", "Speed and devices"
ModelOption = Annotated[Optional[str], typer.Option("--model", "-m", help=MODEL_HELP)]
ModelsOption = Annotated[
    Optional[list[str]],
    typer.Option(
        "--model",
        "-m",
        help=MODEL_HELP
        + " Repeat it to compare models on the same rows: each after the first is tested against the first.",
    ),
]


def _language(value: str | None) -> str | None:
    return None if value is None else language_code(value)


FromOption = Annotated[
    Optional[str],
    typer.Option(
        "--from",
        "-s",
        callback=_language,
        help="Source language: a code (de) or a name (German); auto: detected for each line (each paragraph with --paragraphs).",
    ),
]
ToOption = Annotated[
    Optional[str],
    typer.Option(
        "--to",
        "-t",
        callback=_language,
        help="Target language (default: German, or English from German or French); --to alone detects the source.",
    ),
]
TaskOption = Annotated[
    str, typer.Option("--task", help="The installed model to use without --model: translate or summarize.")
]
DeviceOption = Annotated[str, typer.Option("--device", help="cpu or cuda.", rich_help_panel=PERFORMANCE_PANEL)]
ThreadsOption = Annotated[
    int,
    typer.Option(
        "--threads",
        min=0,
        help="CPU threads: batches decoded at once (0: one per core).",
        rich_help_panel=PERFORMANCE_PANEL,
    ),
]
BatchSizeOption = Annotated[
    int, typer.Option("--batch-size", min=1, help="Inputs decoded together.", rich_help_panel=PERFORMANCE_PANEL)
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="No notes and no progress bar on stderr (errors still show).")
]

InputOption = Annotated[
    Optional[list[Path]],
    typer.Option("--input", "-i", help="Read this file ('-': standard input); repeatable, read in order."),
]
OutputOption = Annotated[
    Optional[Path],
    typer.Option(
        "--output", "-o", help="Write to this file instead of standard output (it appears whole, or not at all)."
    ),
]
BeamOption = Annotated[
    Optional[int],
    typer.Option(
        "--beam", "-b", min=1, help="Beam size; 1 is greedy search. Default: the model's.", rich_help_panel=SEARCH_PANEL
    ),
]
NBestOption = Annotated[
    int,
    typer.Option(
        "--n-best",
        "-n",
        min=1,
        help="Outputs per input, each a different text; a beam smaller than this is raised to it.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
LengthPenaltyOption = Annotated[
    Optional[float],
    typer.Option(
        "--length-penalty",
        help="GNMT alpha: higher favours longer outputs; 0 ranks by raw log-probability. Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
CoveragePenaltyOption = Annotated[
    float,
    typer.Option(
        "--coverage-penalty", help="GNMT beta: rewards covering every source position.", rich_help_panel=SEARCH_PANEL
    ),
]
MinLengthOption = Annotated[
    Optional[int],
    typer.Option(
        "--min-length",
        min=0,
        help="No end before this many pieces. Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
MaxLengthRatioOption = Annotated[
    Optional[float],
    typer.Option(
        "--max-length-ratio",
        help="a in a·|source|+b output pieces. Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
MaxLengthOffsetOption = Annotated[
    Optional[int],
    typer.Option(
        "--max-length-offset",
        help="b in a·|source|+b output pieces. Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
NoRepeatNgramOption = Annotated[
    Optional[int],
    typer.Option(
        "--no-repeat-ngram",
        min=0,
        help="Block any repeated n-gram of pieces (0: off). Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
SampleOption = Annotated[
    bool,
    typer.Option(
        "--sample", help="Sample tokens instead of searching (one output per input).", rich_help_panel=SEARCH_PANEL
    ),
]
TemperatureOption = Annotated[
    float,
    typer.Option(
        "--temperature", min=0.0, help="With --sample: below 1 sharper, above 1 flatter.", rich_help_panel=SEARCH_PANEL
    ),
]
TopKOption = Annotated[
    int,
    typer.Option(
        "--top-k", min=0, help="With --sample: among the k likeliest tokens (0: all).", rich_help_panel=SEARCH_PANEL
    ),
]
TopPOption = Annotated[
    float,
    typer.Option(
        "--top-p", min=0.0, max=1.0, help="With --sample: within this probability mass.", rich_help_panel=SEARCH_PANEL
    ),
]
SeedOption = Annotated[
    Optional[int],
    typer.Option("--seed", help="Seed for --sample (same seed, same output).", rich_help_panel=SEARCH_PANEL),
]
ReplaceUnkOption = Annotated[
    Optional[bool],
    typer.Option(
        "--replace-unk/--no-replace-unk",
        help="Repair mangled copies of versions, paths, names. Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
ShortlistOption = Annotated[
    bool,
    typer.Option(
        "--shortlist/--no-shortlist",
        help="Decode over the model's target-vocabulary shortlist, when it has one: faster, but a word the shortlist leaves out comes back as another word or a non-word.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
MaxSourcePiecesOption = Annotated[
    Optional[int],
    typer.Option(
        "--max-source-pieces",
        min=1,
        max=10_000,
        help="The longest source the model reads at once: a longer sentence is translated in parts, a longer document summarized from its head. Default: the model's.",
        rich_help_panel=SEARCH_PANEL,
    ),
]
SentencesOption = Annotated[
    bool,
    typer.Option(
        "--sentences/--no-sentences",
        help="Translate an input of several sentences one sentence at a time, joined (best only).",
        rich_help_panel=SEARCH_PANEL,
    ),
]


def notifier(quiet: bool):
    """Where a command's notes go: stderr, or nowhere with --quiet."""
    return (lambda message: None) if quiet else warn_on_stderr


def default_of(name: str):
    """SearchOptions' own default of one setting (for help texts and option defaults)."""
    return SearchOptions.__dataclass_fields__[name].default
