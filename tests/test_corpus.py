"""`attn translate-corpus` on a local Ray instance: one output row per input row, the
order recoverable, every text translated as `attn translate` translates it."""

import pytest

ray = pytest.importorskip("ray")

from .test_cli import attn  # noqa: E402

pytestmark = pytest.mark.integration


def test_a_corpus_on_ray_equals_attn_translate_and_keeps_rays_notes_off_stderr(
    reverse_model, reverse_test_rows, tmp_path
):
    """Rows in order across several calls of a pool of up to two actors, from text and Parquet,
    blank and missing ones kept; Ray had logged its start-up, authentication and a progress report every 10 s to
    stderr: what the user sees now is at most Ray's own error-level lines, none of its notes. One
    run of the command, Ray's start-up being most of its time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    lines = [row.source for row in reverse_test_rows] * 2  # more rows than one actor call takes (256)
    lines[5], lines[17] = "", "   "
    text_file = tmp_path / "part.txt"
    text_file.write_bytes(("\n".join(lines[:300]) + "\r\n").encode() + "\xff a0 b1\n".encode("latin-1"))
    parquet_file = tmp_path / "part.parquet"
    pq.write_table(pa.table({"sentence": lines[300:320] + [None]}), parquet_file)
    expected_text = (
        attn("translate", "-m", str(reverse_model), stdin=text_file.read_bytes()).stdout.decode().splitlines()
    )
    expected_parquet = attn("translate", "-m", str(reverse_model), *lines[300:320], "").stdout.decode().splitlines()

    out = tmp_path / "out"
    args = ["-m", str(reverse_model), "--column", "sentence", "--workers", "2"]
    result = attn("translate-corpus", str(text_file), str(parquet_file), "--output", str(out), *args)
    err = result.stderr.decode()
    assert not any(mark in err for mark in (" INFO ", " WARNING ", "Running Dataset", "Progress")), err
    table = pq.read_table(out).to_pandas().sort_values(["path", "row"])
    by_file = {path: rows for path, rows in table.groupby("path")}
    from_text, from_parquet = by_file[str(text_file)], by_file[str(parquet_file)]
    assert list(from_text["row"]) == list(range(301)) and list(from_parquet["row"]) == list(range(21))
    assert list(from_text["translation"]) == expected_text
    assert list(from_parquet["translation"]) == expected_parquet
    assert not list(tmp_path.glob(".out.staging-*"))  # the staging folder became the output
    # a second run into the same folder is refused, not appended
    rerun = attn("translate-corpus", str(text_file), "--output", str(out), "-m", str(reverse_model), check_rc=2)
    assert b"already holds files" in rerun.stderr and len(pq.read_table(out)) == 322


@pytest.mark.parametrize(
    "case",
    [
        "output is a file",
        "parquet without the column",
        "text named .parquet",
        "output of an unknown scheme",
        "a column of numbers",
        "a binary file",  # it had been read as lines and translated, exit 0 (a newcomer's trial)
        "a folder",
    ],
)
def test_mistakes_are_named_before_ray_starts(reverse_model, tmp_path, case):
    """Each was an internal error with a folded Ray traceback after 15 s of start-up (an s3://
    output without credentials, here a scheme pyarrow does not know), or numbers translated as
    their Python repr."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    text = tmp_path / "in.txt"
    text.write_text("a0 b1\n")
    output = tmp_path / "out"
    if case == "output is a file":
        output.write_text("mine")
        inputs = [text]
    elif case == "output of an unknown scheme":
        output, inputs = "nosuchscheme://bucket/out", [text]
    elif case in ("parquet without the column", "a column of numbers"):
        inputs = [tmp_path / "in.parquet"]
        pq.write_table(
            pa.table({"sentence": ["a0"]} if case == "parquet without the column" else {"text": [1, 2]}), inputs[0]
        )
    elif case == "a binary file":
        inputs = [tmp_path / "program.tsv"]
        inputs[0].write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00a0 b1\n")
    elif case == "a folder":
        inputs = [tmp_path]
    else:
        inputs = [tmp_path / "fake.parquet"]
        inputs[0].write_text("not parquet")
    result = attn("translate-corpus", *map(str, inputs), "--output", str(output), "-m", str(reverse_model), check_rc=2)
    err = result.stderr.decode()
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err, err


def test_inputs_without_rows_give_an_empty_dataset_without_starting_ray(reverse_model, tmp_path):
    """Only empty files (a text file of no bytes, Parquet of no rows) wrote an empty folder that no
    Parquet reader opens, after Ray's start-up and its log lines: now a dataset of no
    rows with the output's columns, and nothing on stderr."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    empty_text, empty_parquet = tmp_path / "empty.txt", tmp_path / "empty.parquet"
    empty_text.write_bytes(b"")
    pq.write_table(pa.table({"text": pa.array([], pa.string())}), empty_parquet)
    result = attn(
        "translate-corpus",
        str(empty_text),
        str(empty_parquet),
        "--output",
        str(tmp_path / "out"),
        "-m",
        str(reverse_model),
    )
    assert result.stderr == b""  # Ray did not start: its start-up logs to stderr
    table = pq.read_table(tmp_path / "out")
    assert table.num_rows == 0 and table.column_names == ["path", "row", "text", "translation"]


def test_sigterm_during_a_run_cleans_up_as_ctrl_c_does():
    """A terminated run died inside Ray's signal handler and left its hidden staging folder
    : during the write SIGTERM is a KeyboardInterrupt, and the
     handler before it comes back afterwards."""
    import os
    import signal

    from attn.cli.signals import terminate_as_interrupt

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        with terminate_as_interrupt():
            os.kill(os.getpid(), signal.SIGTERM)  # Python runs the handler before the next line
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_failed_write_leaves_no_output_and_no_staging(reverse_model, tmp_path, monkeypatch):
    """A full disk during the write left a 0-byte .parquet in the output folder, which then no
    Parquet reader opened: the write goes to a staging folder that only a finished
    write renames; a failed one leaves neither. Ray's dataset is replaced by one whose write
    fails as a full disk does, half a file written."""
    import errno

    from attn.cli.corpus import translate_corpus

    class FullDisk:
        def __getattr__(self, name):  # flat_map, map_batches: the same dataset
            return lambda *args, **kwargs: self

        def write_parquet(self, path, **kwargs):
            import pathlib

            pathlib.Path(path).mkdir(parents=True, exist_ok=True)
            (pathlib.Path(path) / "part-0.parquet").write_bytes(b"")
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray.data, "read_binary_files", lambda *args, **kwargs: FullDisk())
    text_file = tmp_path / "part.txt"
    text_file.write_text("a0 b1\n")
    with pytest.raises(OSError):
        translate_corpus([text_file], tmp_path / "out", model=str(reverse_model))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["part.txt"]


def test_gpu_actors_are_refused_for_an_int8_model_before_ray_starts(tmp_path):
    """An int8 model decodes on the CPU whatever the device (benchmarks/GPU.md): GPUs reserved
    for its actors would sit idle, so the request is refused in one line."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("Hello.\n", encoding="utf-8")
    result = attn(
        "translate-corpus", str(corpus), "--output", str(tmp_path / "out"), "--gpus-per-worker", "1", check_rc=2
    )
    error = result.stderr.decode()
    assert "int8" in error and "--gpus-per-worker" in error and len(error.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
