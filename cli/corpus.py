"""`attn translate-corpus`: a corpus translated on a Ray cluster (optional extra `attn[ray]`).

    attn translate-corpus books/*.txt --output out/ --ray-address auto --workers 8

or from Python:

    from attn.cli.corpus import translate_corpus
    translate_corpus(["books/a.txt"], "out/", workers=8, ray_address="auto")

Inputs are text files (one text per line, split on "\\n" only and decoded as `attn translate`
decodes its standard input) or Parquet files (`--column` names the text column). Ray Data reads
them, each file in one task, into rows (path, row, text); `map_batches` sends batches of rows to
a pool of actors, each holding the models (CPU threads or a GPU per actor): --model's, or the
default model when no language is given, or else every installed model (a line read in --from's
language or its own, detected; into --to or its language's own direction; a pair no model
translates through English); the rows are
written as Parquet files in the output folder with the translation beside the text. Exactly one
output row per input row, and (path, row) gives back the input order: sort by them. A local
output folder must be new or empty, and appears whole: the files are written into a staging
folder beside it, renamed into place when every row is written (a failed run leaves nothing). The
inputs and the output are checked before Ray starts: a missing file, a Parquet file without the
column or not Parquet at all, an output that is a file or a folder with files are one-line errors. Every text
translates as `attn translate` translates that line (tested).

On a cluster, every node needs attn installed (the shipped models come with it) or the model
folder at the same path; `--ray-address auto` joins the cluster `ray start` made, and
`ray.init`'s RAY_ADDRESS works too.
"""

from __future__ import annotations

import io
import logging
import os
import shutil
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.cli.signals import terminate_as_interrupt
from attn.runtime.api import Translator, distinct_languages
from attn.runtime.byte_order import as_utf8
from attn.runtime.constants import BATCH_SIZE, BOM
from attn.runtime.errors import UsageError
from attn.runtime.manifest import read_manifest
from attn.runtime.registry import installed_models, pickable, resolve_model

from .lines import DEFAULT_MAX_LINE_CHARS, READ_SIZE, decode_line, refuse_binary
from .options import BatchSizeOption, FromOption, ModelOption, ToOption

PARQUET_SUFFIXES = (".parquet", ".pq")


def file_rows(row: dict, column: str) -> list[dict]:
    """One input file (Ray's read_binary_files row: bytes, path) → its rows (path, row, text)."""
    path, data = row["path"], row["bytes"]
    if path.endswith(PARQUET_SUFFIXES):
        import pyarrow.parquet

        table = pyarrow.parquet.read_table(io.BytesIO(data), columns=[column])
        texts = ["" if text is None else str(text) for text in table.column(column).to_pylist()]
    else:
        lines = b"".join(as_utf8([data])).split(b"\n")  # UTF-16 from Windows too
        if lines and lines[-1] == b"":
            lines.pop()  # a final newline ends the last line, it does not start another
        texts = [decode_line(line)[:DEFAULT_MAX_LINE_CHARS] for line in lines]
        if texts:
            texts[0] = texts[0].removeprefix(BOM)  # as attn translate reads a file saved "with BOM"
    return [{"path": path, "row": index, "text": text} for index, text in enumerate(texts)]


class TranslatingActor:
    """The models of `folders` per Ray actor (loaded as a batch first needs one), called with batches
    of rows, adds their translations: each text read in `source` (None: its language detected) into
    `target` (None: the source's own direction), through English where no model translates the
    pair, as `attn translate` translates a line (runtime/api.py Translator)."""

    def __init__(
        self, folders: list[str], device: str, threads: int, batch_size: int, source: str | None, target: str | None
    ):
        from attn.runtime.api import Translator

        self.translator = Translator(folders, device, threads, lambda message: None)
        self.batch_size, self.source, self.target = batch_size, source, target

    def __call__(self, batch: dict) -> dict:
        texts = [str(text) for text in batch["text"]]
        results = self.translator.translate(texts, self.source, self.target, batch_size=self.batch_size)
        return {**batch, "translation": [result.text for result in results]}


def translate_corpus(
    inputs: list[str | Path],
    output: str | Path,
    model: str | None = None,
    source: str | None = None,
    target: str | None = None,
    column: str = "text",
    workers: int = 1,
    cpus_per_worker: int = 1,
    gpus_per_worker: float = 0.0,
    batch_size: int = BATCH_SIZE,
    rows_per_call: int = 256,
    ray_address: str | None = None,
) -> None:
    """Translate `inputs` on Ray into Parquet files in `output` (see the module's docstring)."""
    try:
        import ray
    except ModuleNotFoundError:
        raise UsageError("translate-corpus needs Ray: pip install 'attn[ray]'") from None
    source, target = distinct_languages(source, target)
    # --model's, or the default model where no language is given (as `attn translate` reads a line
    # without --from or --to), or every installed model to detect and route by
    chosen = model is not None or source is target is None
    folders = (
        [resolve_model(model, "translate", source, target).resolve()]
        if chosen
        else [found.folder.resolve() for found in pickable(installed_models()) if found.manifest.task == "translate"]
    )
    Translator(folders).check_route(source, target)  # a pair no model reaches: refused here, not in an actor
    int8 = [folder.name for folder in folders if read_manifest(folder).int8]
    if gpus_per_worker and int8:
        raise UsageError(
            f"{', '.join(int8)}: int8, which decodes on the CPU (docs/translate.md): --gpus-per-worker "
            "would hold GPUs that its actors leave idle; give an fp32 model, or leave the option out"
        )
    paths = [str(Path(p).resolve()) for p in inputs]
    for path in paths:
        if Path(path).is_dir():
            raise UsageError(f"{path} is a folder: give its files")
        if not Path(path).is_file():
            raise UsageError(f"no such file: {path}")
        if path.endswith(PARQUET_SUFFIXES):
            check_parquet_column(path, column)
        else:  # a binary file had been read as lines and translated, exit 0
            with open(path, "rb") as file:  # UTF-16 from Windows read as text, as file_rows reads it
                refuse_binary(b"".join(as_utf8([file.read(READ_SIZE)])), path, "translate")
    local = "://" not in str(output)
    staging = None
    if local:
        output = Path(output)
        check_output_folder(output)
        staging = output.parent / f".{output.name}.staging-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
    else:
        check_remote_output(str(output))
    if local and all(holds_no_rows(path) for path in paths):
        write_empty_dataset(output)  # nothing to translate: no cluster to start
        return
    started = not ray.is_initialized()
    if started:
        # Ray's own notes (start-up, authentication, progress every 10 s) are not the user's business
        ray.init(address=ray_address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    ray.data.DataContext.get_current().enable_progress_bars = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    # Reading, splitting and writing are light: they reserve no CPU, so that actors holding every
    # CPU (workers × cpus_per_worker = the cluster's CPUs) never starve them into a hang.
    light = {"num_cpus": 0}
    dataset = ray.data.read_binary_files(paths, include_paths=True, **light)
    dataset = dataset.flat_map(file_rows, fn_kwargs={"column": column}, **light)
    dataset = dataset.map_batches(
        TranslatingActor,
        batch_size=rows_per_call,
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=workers),
        num_cpus=cpus_per_worker,
        num_gpus=gpus_per_worker or None,
        fn_constructor_kwargs={
            "folders": [str(folder) for folder in folders],
            "device": "cuda" if gpus_per_worker else "cpu",
            "threads": cpus_per_worker,
            "batch_size": batch_size,
            "source": source,
            "target": target,
        },
    )
    try:
        with terminate_as_interrupt():
            dataset.write_parquet(str(staging or output), ray_remote_args=light)
        if staging is not None:
            if not staging.exists():  # no rows at all: an empty dataset
                write_empty_dataset(staging)
            if output.exists():
                _fill_empty(staging, output)
            else:
                os.replace(staging, output)
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        if started:  # here, not in Ray's exit handler, where a Ctrl-C printed a traceback and exit 0
            ray.shutdown()


def holds_no_rows(path: str) -> bool:
    """Whether an input file has no rows at all: an empty text file, or Parquet with none."""
    if path.endswith(PARQUET_SUFFIXES):
        import pyarrow.parquet

        return pyarrow.parquet.read_metadata(path).num_rows == 0
    return Path(path).stat().st_size == 0


def write_empty_dataset(output: Path) -> None:
    """`output` (absent or an empty folder) as a dataset of no rows that still reads with the
    output's columns, rather than an empty folder no Parquet reader accepts."""
    import pyarrow
    import pyarrow.parquet

    schema = pyarrow.schema(
        [
            ("path", pyarrow.string()),
            ("row", pyarrow.int64()),
            ("text", pyarrow.string()),
            ("translation", pyarrow.string()),
        ]
    )
    output.mkdir(exist_ok=True)
    pyarrow.parquet.write_table(schema.empty_table(), output / "empty.parquet")


def _fill_empty(staging: Path, output: Path) -> None:
    """Move the staged files into `output`, an empty folder of the user's (kept, not replaced)."""
    for item in staging.iterdir():
        os.replace(item, output / item.name)


def check_output_folder(output: Path) -> None:
    """A UsageError unless `output` is absent or an empty folder: a second run never appends to
    (or mixes with) what a first one wrote."""
    if output.is_file() or output.is_symlink():
        raise UsageError(f"--output {output} is a file; name a folder (new or empty)")
    if output.is_dir() and any(output.iterdir()):
        raise UsageError(f"--output {output} already holds files; name a new or empty folder")


def check_remote_output(uri: str) -> None:
    """A UsageError, before Ray starts, for an output URI that pyarrow cannot open: an unknown
    scheme, a missing client library, a bucket that cannot be reached."""
    from pyarrow.fs import FileSystem

    try:
        FileSystem.from_uri(uri)
    except Exception as error:  # pyarrow raises ArrowInvalid, OSError and others by scheme
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UsageError(f"--output {uri}: cannot write there ({first[:200]})") from None


def check_parquet_column(path: str, column: str) -> None:
    """A UsageError naming the file unless it is Parquet with a column `column` (read from its footer)."""
    import pyarrow
    import pyarrow.parquet

    try:
        schema = pyarrow.parquet.read_schema(path)
    except (pyarrow.ArrowException, OSError) as error:
        raise UsageError(f"{path}: not a readable Parquet file ({' '.join(str(error).split())[:200]})") from None
    if column not in schema.names:
        raise UsageError(
            f"{path}: no column {column!r} (it has {', '.join(schema.names[:10])}); choose one with --column"
        )
    kind = schema.field(column).type
    if not (pyarrow.types.is_string(kind) or pyarrow.types.is_large_string(kind) or pyarrow.types.is_null(kind)):
        # numbers or lists were written as their Python repr and "translated"
        raise UsageError(f"{path}: column {column!r} holds {kind}, not text; choose a text column with --column")


def translate_corpus_command(
    inputs: Annotated[list[Path], typer.Argument(help="Text files (one text per line) or Parquet files (.parquet).")],
    output: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            help="Folder for the Parquet files: path, row, text, translation (a local folder, or a URI such as s3://bucket/path that pyarrow opens).",
        ),
    ],
    model: ModelOption = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    column: Annotated[str, typer.Option("--column", help="The text column of Parquet inputs.")] = "text",
    workers: Annotated[
        int,
        typer.Option(
            "--workers", min=1, help="Ray actors at most, each with a loaded model: more start while rows wait."
        ),
    ] = 1,
    cpus_per_worker: Annotated[int, typer.Option("--cpus-per-worker", min=1, help="CPU threads of each actor.")] = 1,
    gpus_per_worker: Annotated[
        float, typer.Option("--gpus-per-worker", min=0.0, help="GPUs of each actor (0: CPU actors).")
    ] = 0.0,
    batch_size: BatchSizeOption = BATCH_SIZE,
    ray_address: Annotated[
        Optional[str],
        typer.Option(
            "--ray-address", help="The cluster to join ('auto': the one `ray start` made). Default: a local Ray."
        ),
    ] = None,
) -> None:
    """Translate a corpus on a Ray cluster: one output row per input row, order recoverable."""
    translate_corpus(
        inputs,
        output,
        model,
        source_lang,
        target_lang,
        column,
        workers,
        cpus_per_worker,
        gpus_per_worker,
        batch_size,
        ray_address=ray_address,
    )
