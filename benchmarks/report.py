"""What every benchmark script ends with: its Markdown report printed, and written to --out."""

from __future__ import annotations

import argparse
import platform
import shlex
import sys
from pathlib import Path
from unittest import mock

import sacrebleu

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.registry import resolve_model
from attn.runtime.second_searches import SecondSearches
from attn.runtime.translation import TextOptions
from attn.runtime.tsv import Row, read_tsv

# Speed is measured on the search: outputs unrepaired (replace_unk off) and not ranked again by the
# reverse model (reverse_weight 0: benchmarks/reverse_rerank.py times that), and WHOLE reads each
# line as one input, as the PyTorch and CTranslate2 baselines read it (no sentence splitting).
UNREPAIRED = TextOptions(replace_unk=False, reverse_weight=0.0)
WHOLE = TextOptions(sentences=False, replace_unk=False, reverse_weight=0.0)


# The four directions of the translation models: (pair folder, source, target, columns swapped)
DIRECTIONS = [
    ("en-de", "en", "de", False),
    ("en-de", "de", "en", True),
    ("en-fr", "en", "fr", False),
    ("en-fr", "fr", "en", True),
]


DATA = Path("../shared/data")  # the corpora's folder, from the repository root (--data)
# Every dev file of the translation pairs (NAME.tsv.gz); a pair may lack some
DEV_FILES = ["dev", "chat-dev", "l10n-dev", "news-dev", "tatoeba-dev", "markup-dev"]


def as_the_model_wrote(alignment, *languages):
    """A repair after the search switched off: the translation's alignment as the model wrote it."""
    return alignment


def installed_model(source: str, target: str) -> LoadedModel:
    """The installed translation model of `source` → `target`, on one thread (its word lists, its
    tokenizer)."""
    return LoadedModel(resolve_model(None, "translate", source, target), threads=1)


def data_option(parser: argparse.ArgumentParser) -> None:
    """--data: the corpora's folder (DATA)."""
    parser.add_argument("--data", type=Path, default=DATA, help="the corpora's folder")


def dev_rows(data: Path, pair: str, names: list[str], swap: bool, limit: int | None = None) -> list[Row]:
    """The rows of each file `names` names that `data`/`pair` holds (NAME.tsv.gz), the first
    `limit` of each, read in the direction `swap` says."""
    paths = [data / pair / f"{name}.tsv.gz" for name in names]
    return [row for path in paths if path.is_file() for row in read_tsv(path, swap_columns=swap)[:limit]]


def dev_texts(data: Path, pair: str, names: list[str], swap: bool, keep) -> tuple[list[str], list[str]]:
    """The sources and the references of the rows of `names` (dev_rows) whose source `keep` takes."""
    found = [row for row in dev_rows(data, pair, names, swap) if keep(row.source)]
    return [row.source for row in found], [row.target for row in found]


def _dev_set_parser(description: str, show: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    data_option(parser)
    parser.add_argument("--show", type=int, default=0, help=show)
    parser.add_argument("--out", type=Path, default=None)
    return parser


def out_arguments(description: str) -> argparse.Namespace:
    """The arguments of a script over sentences of our own: --out alone."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=None)
    return parser.parse_args()


def direction_arguments(description: str, directions: list[str], default: str) -> tuple[argparse.Namespace, str, str]:
    """The arguments of a script over sentences of our own in one direction: --direction (one of
    `directions`, "en-fr") and --out; with the direction's source and target."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--direction", choices=directions, default=default)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    source, target = args.direction.split("-")
    return args, source, target


def sentence_folder_parser(description: str, folder: Path) -> argparse.ArgumentParser:
    """The arguments of a script over sentences of our own, a file of them for each source language
    (FOLDER/LANGUAGE.txt): --sentences (another such folder; `folder` by default) and --out."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sentences", type=Path, default=folder, help="a folder of LANGUAGE.txt files")
    parser.add_argument("--out", type=Path, default=None)
    return parser


def folder_directions(folder: Path):
    """For each of DIRECTIONS: (source, target, the sentences of `folder`/SOURCE.txt)."""
    for _, source, target, _ in DIRECTIONS:
        yield source, target, (folder / f"{source}.txt").read_text(encoding="utf-8").splitlines()


def dev_set_arguments(description: str, show: str) -> argparse.Namespace:
    """The arguments of a script over the dev files: --data (their folder), --show N (rows listed
    per direction: `show` says which) and --out."""
    return _dev_set_parser(description, show).parse_args()


def dev_file_arguments(description: str, show: str, values: tuple[str, str, str] | None = None) -> argparse.Namespace:
    """dev_set_arguments' and a script's over the first rows of one dev file of each pair: --file
    NAME (NAME.tsv.gz, news-dev by default), --rows N (600), and the settings it compares,
    comma-separated, where it has such: `values` is (the option, its default, its help)."""
    parser = _dev_set_parser(description, show)
    parser.add_argument("--file", default="news-dev", help="the dev file of each pair (NAME.tsv.gz)")
    parser.add_argument("--rows", type=int, default=600, help="its first rows")
    if values is not None:
        option, default, help_text = values
        parser.add_argument(option, default=default, help=help_text)
    return parser.parse_args()


def command() -> str:
    """The command that is running, as it was typed from the repository root: `python -m
    benchmarks.NAME ARGUMENTS` for a script run as a module."""
    spec = getattr(sys.modules["__main__"], "__spec__", None)
    program = ["-m", spec.name] if spec and spec.name != "__main__" else [Path(sys.argv[0]).as_posix()]
    return shlex.join(["python", *program, *sys.argv[1:]])


def command_line() -> str:
    """The report's first line: the command that produced it."""
    return f"Command: `{command()}`"


def cpu_name() -> str:
    """The CPU's model name (/proc/cpuinfo), which a speed figure depends on."""
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "CPU"


def finish(lines: list[str], out: Path | None) -> None:
    """Print the report's lines, and write them to `out` when given."""
    text = "\n".join(lines) + "\n"
    if out:
        out.write_text(text, encoding="utf-8")
    print(text)


def table(header: list[str], rows: list[list]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(map(str, row)) + " |" for row in rows])


def rate_row(name: str, outputs: list[str], seconds: float, references: list[str], tokenizer) -> list[str]:
    """[name, sentences/s, target pieces/s, BLEU] of one timed translation of the sample."""
    tokens = sum(len(tokenizer.encode(o)) for o in outputs)
    bleu = sacrebleu.corpus_bleu(outputs, [references]).score
    return [name, f"{len(outputs) / seconds:.1f}", f"{tokens / seconds:.0f}", f"{bleu:.2f}"]


def searched_again(
    translator, sources: list[str], source: str, target: str, finder: str, rule: bool
) -> tuple[list[str], int]:
    """The translations of `sources` with a second-search rule of runtime/second_searches.py (SecondSearches'
    method `finder`, which finds the sentences to search again: names_lost, words_copied) or
    without it, and how many sentences it searched again (the rule's cost: one more search each)."""
    find, again = getattr(SecondSearches, finder), []

    def counted(*args):
        found = find(*args)
        again.append(len(found))
        return found

    with mock.patch.object(SecondSearches, finder, counted if rule else lambda *_: {}):
        return [result.text for result in translator.translate(sources, source, target)], sum(again)


def bleu_and_chrf(outputs: list[str], references: list[str]) -> list[str]:
    """Two table cells: the corpus BLEU and chrF of `outputs` against `references`, two decimals."""
    return [
        f"{sacrebleu.corpus_bleu(outputs, [references]).score:.2f}",
        f"{sacrebleu.corpus_chrf(outputs, [references]).score:.2f}",
    ]


def second_search_row(
    cells: list, outputs: list[str], before: list[str], after: list[str], again: int, references: list[str]
) -> list:
    """A table row of a second-search rule's benchmark (searched_again): `cells`, then for the
    outputs with the rule (`outputs` is `after`) the sentences searched again and the rows changed
    (blank for `before`), then BLEU and chrF of `outputs`."""
    ruled = outputs is after
    return [
        *cells,
        again if ruled else "",
        sum(b != a for b, a in zip(before, after)) if ruled else "",
        *bleu_and_chrf(outputs, references),
    ]


def changes_shown(sources: list[str], before: list[str], after: list[str], direction: str, show: int) -> list[str]:
    """The first `show` rows whose translation a second-search rule changed, as Markdown list items."""
    changed = [(s, b, a) for s, b, a in zip(sources, before, after) if b != a]
    return [f"- {direction}: {s}<br>without: {b}<br>with: {a}" for s, b, a in changed[:show]]


def with_and_without(translator, texts: list[str], source: str, target: str, without) -> tuple[list[str], list[str]]:
    """The translations of `texts` as the runtime gives them, and with `without` (a mock's patch
    that switches a rule off) in force."""
    ruled = [result.text for result in translator.translate(texts, source, target)]
    with without:
        return ruled, [result.text for result in translator.translate(texts, source, target)]


def dev_rows_on_and_off(translator, data: Path, files: list[str], keep, without):
    """For each of DIRECTIONS: (source, target, the sources of the rows of `files` that `keep`
    takes, their references, their translations as the runtime gives them, and with
    `without()`, a mock's patch that switches a rule off, in force)."""
    for pair, source, target, swap in DIRECTIONS:
        texts, references = dev_texts(data, pair, files, swap, keep)
        yield source, target, texts, references, *with_and_without(translator, texts, source, target, without())


def read_and_unread(
    translator,
    data: Path,
    files: list[str],
    directions: list[tuple],
    reader: str,
    read,
    right,
    show: int,
    left_as_is=lambda sentence, *languages: sentence,
) -> tuple[list[list], list[str]]:
    """A rule of the text pipeline (`reader`, its module and name under attn.runtime:
    source_reading.read_dates; `read`(sentence, source, target) marks the rows it acts on) on the
    dev rows of `files` whose source it changes, for each of `directions` (pair folder, source,
    target, columns swapped): the rows translated as the runtime reads them and with `reader`
    replaced by `left_as_is`, which
    leaves each sentence as it is.
    Returns a table row of each (direction, how read, rows, `right`(texts, outputs, source,
    target) as "R of N", BLEU, chrF against the references), and up to `show` rows per direction
    where the two differ, as Markdown list items."""
    rows, shown = [], []
    for pair, source, target, swap in directions:
        texts, targets = dev_texts(data, pair, files, swap, lambda text: read(text, source, target) != text)
        if not texts:
            continue
        references = [targets]
        read_outputs, unread = with_and_without(
            translator, texts, source, target, mock.patch(f"attn.runtime.{reader}", left_as_is)
        )
        for label, outputs in (("as written", unread), ("read as the target writes them", read_outputs)):
            found_right, total = right(texts, outputs, source, target)
            bleu, chrf = sacrebleu.corpus_bleu(outputs, references), sacrebleu.corpus_chrf(outputs, references)
            rows.append(
                [
                    f"{source}→{target}",
                    label,
                    len(texts),
                    f"{found_right} of {total}",
                    f"{bleu.score:.2f}",
                    f"{chrf.score:.2f}",
                ]
            )
        differing = [item for item in zip(texts, unread, read_outputs) if item[1] != item[2]][:show]
        shown += [
            f"- {source}→{target}: {text}<br>as written: {before}<br>read: {after}" for text, before, after in differing
        ]
    return rows, shown
