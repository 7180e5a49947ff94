"""Every option that several commands share, declared once: the model choice, the device, and the
search settings of translate, summarize, eval and bench. A command takes the ones it needs; help
texts and bounds therefore read the same everywhere. Search defaults are the model's (its
manifest's [search]), falling back on runtime/search.py's SearchOptions.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from attn.runtime.constants import TASKS, language_code
from attn.runtime.search import SAMPLING_SETTINGS, SEARCH_LIMITS, SearchOptions
from attn.runtime.sessions import warn_on_stderr
from attn.runtime.translation import TEXT_OPTIONS, TextOptions

if TYPE_CHECKING:
    from attn.runtime.loaded_model import LoadedModel

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
    """A language option's code; an empty one is refused (`-s ""` had been read as a model's
    mismatch)."""
    if value is not None and not value.strip():
        raise typer.BadParameter("name a language: a code (de) or a name (German)")
    return None if value is None else language_code(value)


def _target_language(value: str | None) -> str | None:
    """--to's code: "auto" is for a source (`-t auto` had been refused as the same as `-s auto`)."""
    code = _language(value)
    if code == "auto":
        raise typer.BadParameter("the target language is named, not detected: de, fr, en")
    return code


FromOption = Annotated[
    Optional[str],
    typer.Option(
        "--from",
        "-s",
        callback=_language,
        help="Source language: a code (de, or a locale: de-DE) or a name (German); auto: detected for each input (a line; a paragraph with attn translate --paragraphs; a document as a whole).",
    ),
]
ToOption = Annotated[
    Optional[str],
    typer.Option(
        "--to",
        "-t",
        callback=_target_language,
        help="Target language (default: German, or English from German or French); --to alone detects each input's source (into French or German: English unless it is clearly another).",
    ),
]


def _task(value: str) -> str:
    if value not in TASKS:
        raise typer.BadParameter(f"choose {' or '.join(TASKS)}", param_hint="--task")
    return value


TaskOption = Annotated[
    str,
    typer.Option("--task", callback=_task, help="The installed model to use without --model: translate or summarize."),
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
    bool,
    typer.Option(
        "--quiet", "-q", help="No notes and no progress bar on stderr (errors and --check's findings still show)."
    ),
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


def OutFolderOption(what: str, also: str = ""):  # an option type, named as the others are
    """The --out option of a command that writes a model folder: `what` it is; `also`, a note after
    "replaced only on success"."""
    return Annotated[Path, typer.Option("--out", "-o", help=f"{what} (replaced only on success{also}).")]


def _search_option(name: str, flag: str, annotation, help: str, short: str | None = None) -> Annotated:
    """A search option of the Search panel; a numeric one's help names its range from
    SEARCH_LIMITS, the one home of the ranges, against which the runtime checks every value (a
    value out of range is a one-line usage error naming the option)."""
    if name in SEARCH_LIMITS:
        low, high = SEARCH_LIMITS[name]
        help = f"{help} Range: {low} to {high:,}."
    declarations = (flag, short) if short else (flag,)
    return Annotated[annotation, typer.Option(*declarations, help=help, rich_help_panel=SEARCH_PANEL)]


MODELS_DEFAULT = "Default: the model's."
# Every search option a command may offer: its annotation and default (None: the model's). A
# command names the ones it offers with @search_options and receives them as one SearchRequest.
SEARCH_OPTIONS: dict[str, tuple[Annotated, object]] = {
    "beam": (
        _search_option("beam", "--beam", Optional[int], f"Beam size; 1 is greedy search. {MODELS_DEFAULT}", "-b"),
        None,
    ),
    "n_best": (
        _search_option(
            "n_best",
            "--n-best",
            int,
            "Outputs per input, each a different text; a beam smaller than this is raised to it.",
            "-n",
        ),
        1,
    ),
    "length_penalty": (
        _search_option(
            "length_penalty",
            "--length-penalty",
            Optional[float],
            f"GNMT alpha: higher favours longer outputs; 0 ranks by raw log-probability. {MODELS_DEFAULT}",
        ),
        None,
    ),
    "coverage_penalty": (
        _search_option(
            "coverage_penalty", "--coverage-penalty", float, "GNMT beta: rewards covering every source position."
        ),
        SearchOptions.coverage_penalty,
    ),
    "min_length": (
        _search_option(
            "min_length", "--min-length", Optional[int], f"No end before this many pieces. {MODELS_DEFAULT}"
        ),
        None,
    ),
    "max_length_ratio": (
        _search_option(
            "max_length_ratio",
            "--max-length-ratio",
            Optional[float],
            f"a in a·|source|+b output pieces. {MODELS_DEFAULT}",
        ),
        None,
    ),
    "max_length_offset": (
        _search_option(
            "max_length_offset",
            "--max-length-offset",
            Optional[int],
            f"b in a·|source|+b output pieces. {MODELS_DEFAULT}",
        ),
        None,
    ),
    "no_repeat_ngram": (
        _search_option(
            "no_repeat_ngram",
            "--no-repeat-ngram",
            Optional[int],
            f"Block any repeated n-gram of pieces (0: off). {MODELS_DEFAULT}",
        ),
        None,
    ),
    "reverse_weight": (
        _search_option(
            "reverse_weight",
            "--reverse-weight",
            Optional[float],
            f"Rank the beam's translations again by how well the model of the other direction gives back the source from each, with this weight; 0: the search's order, about twice as fast on news. {MODELS_DEFAULT}",
        ),
        None,
    ),
    "sample": (
        _search_option("sample", "--sample", bool, "Sample tokens instead of searching (one output per input)."),
        False,
    ),
    "temperature": (
        _search_option("temperature", "--temperature", float, "With --sample: below 1 sharper, above 1 flatter."),
        SearchOptions.temperature,
    ),
    "top_k": (
        _search_option("top_k", "--top-k", int, "With --sample: among the k likeliest tokens (0: all)."),
        SearchOptions.top_k,
    ),
    "top_p": (
        _search_option("top_p", "--top-p", float, "With --sample: within this probability mass."),
        SearchOptions.top_p,
    ),
    "seed": (_search_option("seed", "--seed", Optional[int], "Seed for --sample (same seed, same output)."), None),
    "replace_unk": (
        _search_option(
            "replace_unk",
            "--replace-unk/--no-replace-unk",
            Optional[bool],
            f"Keep e-mail addresses, URLs and `code` out of the search and repair mangled copies of versions, paths, names. {MODELS_DEFAULT}",
        ),
        None,
    ),
    "shortlist": (
        _search_option(
            "shortlist",
            "--shortlist/--no-shortlist",
            bool,
            "Decode over the model's target-vocabulary shortlist, when it has one: faster, but a word the shortlist leaves out comes back as another word or a non-word.",
        ),
        SearchOptions.shortlist,
    ),
    "max_source_pieces": (
        _search_option(
            "max_source_pieces",
            "--max-source-pieces",
            Optional[int],
            f"The longest source the model reads at once: a longer sentence is translated in parts, a longer document condensed to its salient sentences. {MODELS_DEFAULT}",
        ),
        None,
    ),
    "sentences": (
        _search_option(
            "sentences",
            "--sentences/--no-sentences",
            bool,
            "Translate an input of several sentences one sentence at a time, joined.",
        ),
        True,
    ),
}


@dataclass(frozen=True)
class SearchRequest:
    """The search options a command was given: beam, n-best and sampling, the text options
    (runtime/translation.py), and the other settings of the search by name (None, or a setting the
    command does not offer: the model's default)."""

    beam: int | None = None
    n_best: int = 1
    sample: bool = False
    text: TextOptions = TextOptions()
    settings: dict = field(default_factory=dict)

    def options(self, model: LoadedModel, notify=None, last: bool = True, **settings) -> SearchOptions:
        """`model`'s SearchOptions for this request, `settings` of the command's own over the
        request's; a first hop through a middle language (`last` False) gives its best only."""
        given = {**self.settings, **settings}
        if not last:  # the first hop searches: how the last one samples is no setting of its
            given = {name: value for name, value in given.items() if name not in SAMPLING_SETTINGS}
        return model.search_options(self.beam, self.n_best if last else 1, self.sample and last, notify, **given)


def search_options(*names: str):
    """Decorate a command that takes `search: SearchRequest`: it offers the named options of
    SEARCH_OPTIONS (in --help's Search panel, in this order) in place of that parameter, and
    receives them gathered into one SearchRequest."""

    def decorate(command):
        signature = inspect.signature(command, eval_str=True)
        offered = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=SEARCH_OPTIONS[name][0],
                default=SEARCH_OPTIONS[name][1],
            )
            for name in names
        ]
        parameters = []
        for parameter in signature.parameters.values():
            parameters += (
                offered if parameter.name == "search" else [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY)]
            )

        @functools.wraps(command)
        def with_request(**given):
            chosen = {name: given.pop(name) for name in names}
            gathered = {name: chosen.pop(name) for name in ("beam", "n_best", "sample") if name in chosen}
            text = TextOptions(**{name: chosen.pop(name) for name in TEXT_OPTIONS if name in chosen})
            return command(**given, search=SearchRequest(**gathered, text=text, settings=chosen))

        with_request.__signature__ = signature.replace(parameters=parameters)
        return with_request

    return decorate


def messages_console():
    """A console for a command's messages on stderr, each line as long as it is: off a terminal
    Rich wraps at 80 columns, and a log read in a file or through `| cat` had its lines cut
    ("… output_layer.npz" / "69,406")."""
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True)


def notifier(quiet: bool):
    """Where a command's notes go: stderr, or nowhere with --quiet."""
    return (lambda message: None) if quiet else warn_on_stderr
