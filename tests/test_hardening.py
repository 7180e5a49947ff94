"""Bad input, damaged model folders, pipes, signals and concurrency (docs/hardening.md)."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attn.cli.lines import read_line_batches
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import sha256_of
from attn.runtime.search import SearchOptions

from .forked_cli import run_attn

pytestmark = pytest.mark.integration

ATTN = [sys.executable, "-m", "attn.cli"]


def translate_bytes(model, data: bytes, *flags, timeout=300):
    return run_attn(["translate", "-m", str(model), "--beam", "1", *flags], input=data, timeout=timeout)


def lines_in(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n\n   \n\t\n",
        b"a0 b1\n\xff\xfe\x80 c2\n",
        b"a0\x01b1\x07 c2\x1b[31m\n",
        "🍎 日本語 שלום עולם a0\n".encode(),
        bytes(range(1, 256)) * 4,
        b"a0 b1\r\nc2 d3\r\n",
    ],
    ids=["empty", "blank", "invalid-utf8", "control", "emoji-cjk-rtl", "bytes-without-nul", "crlf"],
)
def test_n_lines_in_n_lines_out(reverse_model, data):
    """Any text, however odd, gives one line out for each line in; input with NUL bytes at its
    start is binary and refused (tests/test_files_as_people_have_them.py)."""
    result = translate_bytes(reverse_model, data)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(b"\n") == lines_in(data)
    assert b"Traceback" not in result.stderr


def test_undecodable_bytes_in_arguments(reverse_model):
    result = run_attn(["translate", "-m", str(reverse_model), b"a0 \xff b1", "c2 d3"], timeout=120)
    assert result.returncode == 0 and result.stdout.count(b"\n") == 2 and b"Traceback" not in result.stderr


def cut_lists(value, count: int):
    """`value` (parsed JSON) with every list in it, at any depth, cut to its first `count` items."""
    if isinstance(value, list):
        return [cut_lists(item, count) for item in value[:count]]
    if isinstance(value, dict):
        return {key: cut_lists(item, count) for key, item in value.items()}
    return value


@pytest.mark.parametrize("output_format", ["text", "jsonl", "pharaoh", "table"])
def test_a_long_line_is_translated_in_parts(reverse_model, output_format):
    """The line is translated in parts under every format; its alignment is kept as blocks, never
    as one (words × words) matrix (which took gigabytes at 100,000 characters)."""
    # 100,000 characters where the alignment is written whole (JSON lines); the other formats read
    # the same parts, fewer of them (a table per part: three parts show it)
    length = {"jsonl": 100_000, "table": 3_000}.get(output_format, 20_000)
    line = ("a0 b1 c2 d3 " * 9000)[:length]
    result = translate_bytes(reverse_model, (line + "\nh3 g2\n").encode(), "-f", output_format, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stderr.decode().count("translated in") == 1 and b"Traceback" not in result.stderr
    out = result.stdout.decode()
    if output_format == "jsonl":
        import jsonschema

        records = [json.loads(text) for text in out.splitlines()]
        schema = json.loads((Path(__file__).parent.parent / "cli" / "translation.schema.json").read_text())
        # the schema checks the long record with every list in it cut to 3 items (over its 16 MB of
        # numbers jsonschema took 29 s); every part has the first's fields, a coverage per source word
        long = records[0]
        jsonschema.validate(cut_lists(long, 3), schema)
        jsonschema.validate(records[1], schema)
        assert all(part.keys() == long["alignment_parts"][0].keys() for part in long["alignment_parts"])
        assert len(long["coverage"]) == len(long["source_words"])
        assert records[0]["alignment"] is None and len(records[0]["alignment_parts"]) > 1
        assert records[1]["translation"] == "g2 h3" and records[1]["alignment"]
    elif output_format in ("text", "pharaoh"):
        first, second, end = out.split("\n")
        assert first and second.startswith("g2 h3") and end == ""
        if output_format == "pharaoh":
            links = first.split(" ||| ")[1].split()
            assert len(links) == len(first.split(" ||| ")[0].split())
    else:
        assert "part 2 of" in out and "g2" in out


@pytest.mark.parametrize("output_format", ["text", "jsonl"])
def test_a_word_no_language_has_is_given_back_and_the_words_around_it_translated(reverse_model, output_format):
    """19,000 "a"s within the server's limits held its one thread for a minute, decoded in parts
    into 6,000 characters of "a"s; a word over runtime/text_layout.py's LONGEST_WORD characters (data:
    a hash, base64) is given back as it is, with a note, and the words around it are translated;
    not a long URL, nor a script written without spaces."""
    data, accented = "x" * 19_000, "é" * 6_000  # the second had been decoded into garbage
    lines = [f"a0 b1 {data} c2 d3", data, accented]
    result = translate_bytes(reverse_model, ("\n".join(lines) + "\n").encode(), "-f", output_format)
    notes = result.stderr.decode()
    assert result.returncode == 0 and notes.count("word of 19,000 characters") == 2
    assert notes.count("word of 6,000 characters") == 1
    out = result.stdout.decode().splitlines()
    if output_format == "text":
        assert out == [f"b1 a0 {data} d3 c2", data, accented]
    else:
        records = [json.loads(line) for line in out]
        assert [record["translation"] for record in records] == [f"b1 a0 {data} d3 c2", data, accented]
        assert records[0]["source_words"][2] == data and len(records[0]["coverage"]) == 5
    from attn.runtime.text_layout import around_long_words

    url = "https://example.com/" + "a" * 120
    assert around_long_words(f"read {url} now") == [f"read {url} now"]
    assert around_long_words("这是" * 60) == ["这是" * 60]
    assert around_long_words("Москва " + "д" * 101) == ["Москва", "д" * 101]


@pytest.fixture(scope="module")
def translator(reverse_model):
    return LoadedModel(reverse_model, threads=1, notify=lambda message: None)


@given(st.lists(st.text(st.characters(blacklist_characters="\n"), max_size=40), min_size=1, max_size=6))
@example(["\ud800"])  # found by the fuzz profile: a lone surrogate crashed the tokenizer
@example(["a0 \udcff b1"])  # what Python makes of an undecodable byte in a command-line argument
def test_any_unicode_lines_give_as_many_results(translator, lines):
    results = translator.translate(lines, SearchOptions(beam=2))
    assert len(results) == len(lines)
    for line, result in zip(lines, results):
        assert result and isinstance(result[0].text, str)
        assert (result[0].text == "") or line.strip()


@given(
    st.binary(max_size=3000).map(lambda data: b"x" + data.replace(b"\0", b"\1")),  # text: binary input is refused
    st.integers(min_value=1, max_value=7),
)
def test_line_reader_keeps_the_line_count_of_any_bytes(data, batch):
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    try:
        lines = [line for chunk in read_line_batches(read, batch) for line in chunk]
    finally:
        os.close(read)
    assert len(lines) == lines_in(data)
    assert all("\n" not in line for line in lines)


# ---- damaged model folders ----------------------------------------------------------------
def damaged(reverse_model, tmp_path, damage) -> str:
    folder = tmp_path / "model"
    shutil.copytree(reverse_model, folder)
    damage(folder)
    result = run_attn(["translate", "-m", str(folder), "a0"], timeout=120)
    assert result.returncode == 2 and result.stdout == b""
    err = result.stderr.decode()
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def edit_manifest(folder, **changes):
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.update(changes)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_missing_file(reverse_model, tmp_path):
    assert "encoder.onnx: missing file" in damaged(reverse_model, tmp_path, lambda f: (f / "encoder.onnx").unlink())


def test_altered_graph(reverse_model, tmp_path):
    def flip_a_byte(folder):
        data = bytearray((folder / "decoder.onnx").read_bytes())
        data[len(data) // 2] ^= 0xFF
        (folder / "decoder.onnx").write_bytes(bytes(data))

    assert "decoder.onnx: checksum mismatch" in damaged(reverse_model, tmp_path, flip_a_byte)


def test_newer_format_version(reverse_model, tmp_path):
    err = damaged(reverse_model, tmp_path, lambda f: edit_manifest(f, format_version=99))
    assert "manifest.json" in err and "newer" in err


def test_older_format_version(reverse_model, tmp_path):
    err = damaged(reverse_model, tmp_path, lambda f: edit_manifest(f, format_version=1))
    assert "older" in err and "attn export" in err


def test_output_layer_of_another_precision(reverse_model, tmp_path):
    from attn.runtime.manifest import sha256_of
    from attn.runtime.output_layer import OutputLayer

    def int8_rows_for_an_fp32_decoder(folder):
        OutputLayer.load(folder / "output_layer.npz").quantized().save(folder / "output_layer.npz")
        files = json.loads((folder / "manifest.json").read_text())["files"]
        edit_manifest(folder, files={**files, "output_layer.npz": sha256_of(folder / "output_layer.npz")})

    err = damaged(reverse_model, tmp_path, int8_rows_for_an_fp32_decoder)
    assert "output_layer.npz" in err and "output_scale" in err


def test_manifest_that_is_not_json(reverse_model, tmp_path):
    err = damaged(reverse_model, tmp_path, lambda f: (f / "manifest.json").write_text("{oops"))
    assert "manifest.json: not valid JSON" in err


def test_tokenizer_that_does_not_match_the_model(reverse_model, tmp_path):
    def swap_tokenizer(folder):
        from attn.export.training.subwords import train_tokenizer

        train_tokenizer(["something else entirely"] * 3, 400, 1).save(str(folder / "tokenizer.json"))
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["files"]["tokenizer.json"] = sha256_of(folder / "tokenizer.json")
        (folder / "manifest.json").write_text(json.dumps(manifest))

    err = damaged(reverse_model, tmp_path, swap_tokenizer)
    assert "tokenizer.json" in err and "trained with" in err


def test_model_of_the_other_task(reverse_model, tmp_path):
    err = damaged(reverse_model, tmp_path, lambda f: edit_manifest(f, task="summarize"))
    assert "summarize model, not a translate model" in err


# ---- pipes, signals, concurrency ----------------------------------------------------------
def test_closed_pipe_ends_quietly(reverse_model, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("a0 b1 c2\n" * 3000)
    command = f"{' '.join(ATTN)} translate -m {reverse_model} --beam 1 < {big} | head -1"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, timeout=300)
    assert result.stdout == b"c2 b1 a0\n"
    assert result.stderr == b""
    assert result.returncode == 0  # `set -o pipefail` scripts go on


def test_ctrl_c_exits_130_without_traceback(reverse_model):
    # A shell starts background jobs with SIGINT ignored and children inherit that; a terminal's
    # Ctrl-C reaches a foreground process with the default disposition, so restore it.
    process = subprocess.Popen(
        [*ATTN, "translate", "-m", str(reverse_model)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    process.stdin.write(b"a0 b1\n")
    process.stdin.flush()
    assert process.stdout.readline() == b"b1 a0\n"  # it answers a line while stdin stays open
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"Traceback" not in err


@pytest.mark.parametrize("module", ["typer", "attn.cli.translate"])
def test_ctrl_c_while_the_modules_load_exits_130_without_traceback(module):
    """Ctrl-C in a command's first half second, while Typer or the command's module loads, had
    printed a KeyboardInterrupt's traceback. The interrupt is raised here where such an import
    begins, so that the moment does not depend on the machine's speed."""
    interrupt_on_import = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == {module!r}: raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "sys.argv = ['attn', 'translate', 'hello']\n"
        "from attn.cli.entry import main\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", interrupt_on_import], capture_output=True, timeout=120)
    assert (result.returncode, result.stderr) == (130, b"attn: interrupted\n")


def test_sigterm_leaves_no_partial_output_and_exits_143(reverse_model, tmp_path):
    """`timeout`, systemd and `docker stop` send SIGTERM: a run killed by it had left its hidden
    partial `-o` file behind. It unwinds as Ctrl-C does: nothing half-written, the file before
    kept."""
    out = tmp_path / "out.txt"
    out.write_text("kept\n")
    process = subprocess.Popen(
        [*ATTN, "translate", "-m", str(reverse_model), "-o", str(out)],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdin.write(b"a0 b1\n")
    process.stdin.flush()
    for _ in range(600):  # the partial file appears once the command runs
        if any(path.name.endswith(".partial") for path in tmp_path.iterdir()) or process.poll() is not None:
            break
        time.sleep(0.1)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and b"attn: terminated" in err and b"Traceback" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.txt"] and out.read_text() == "kept\n"


def test_four_processes_on_one_file_agree(reverse_model, reverse_test_rows, tmp_path):
    data = tmp_path / "in.txt"
    data.write_text("".join(row.source + "\n" for row in reverse_test_rows[:100]))
    processes = [
        subprocess.Popen(f"{' '.join(ATTN)} translate -m {reverse_model} < {data}", shell=True, stdout=subprocess.PIPE)
        for _ in range(4)
    ]
    outputs = [p.communicate(timeout=300)[0] for p in processes]
    assert all(p.returncode == 0 for p in processes)
    assert len(set(outputs)) == 1 and outputs[0].count(b"\n") == 100


# ---- bounded input, exit codes, options (issue: same input, same output) --------------------
def test_an_endless_line_is_read_in_bounded_memory(reverse_model):
    """3 MB without a newline: cut to --max-line-chars with a note, one line out (/dev/zero itself
    is refused as binary at its first bytes)."""
    data = b"a" * (3 << 20)
    result = translate_bytes(reverse_model, data, "--max-line-chars", "5000")
    assert result.returncode == 0 and result.stdout.count(b"\n") == 1
    assert b"line 1 is longer than 5000 characters" in result.stderr


@given(st.binary(max_size=2000), st.integers(min_value=1, max_value=40), st.integers(min_value=1, max_value=5))
def test_the_line_splitter_keeps_lines_whole_or_cut(data, max_bytes, chunk):
    from attn.cli.lines import LineSplitter

    splitter = LineSplitter(max_bytes)
    lines = [line for start in range(0, len(data), chunk) for line in splitter.feed(data[start : start + chunk])]
    lines += splitter.close()
    expected = data.split(b"\n")[: lines_in(data)]
    assert len(lines) == len(expected)
    for (found, cut), line in zip(lines, expected):
        assert cut == (len(line) > max_bytes)
        # a cut line ends before a character it would leave unfinished (at most 3 bytes of it)
        assert found == line if not cut else line[:max_bytes].startswith(found) and max_bytes - len(found) <= 3


@given(st.text(max_size=300), st.integers(min_value=1, max_value=40))
def test_text_cut_at_its_limit_is_still_utf8(text, max_bytes):
    """A line cut within a character read as a byte that is not UTF-8, with a note advising iconv
    on a file that was UTF-8 all along."""
    from attn.cli.lines import LineSplitter

    splitter = LineSplitter(max_bytes)
    lines = [*splitter.feed(text.replace("\n", " ").encode()), *splitter.close()]
    assert all(line.decode("utf-8") is not None for line, _ in lines)


def test_notes_number_lines_across_batches(reverse_model):
    long_line = "a0 b1 " * 150  # over the model's 200 pieces
    data = "\n".join([long_line] + ["c2"] * 300 + [long_line]) + "\n"
    result = translate_bytes(reverse_model, data.encode())
    err = result.stderr.decode()
    assert "input 1 has" in err and "input 302 has" in err


@pytest.mark.parametrize(
    "flags, option",
    [
        (["--min-length", "100000"], "min-length"),
        (["--length-penalty", "nan"], "length-penalty"),
        (["--coverage-penalty", "nan"], "coverage-penalty"),
        (["--max-length-ratio", "-1"], "max-length-ratio"),
        (["--max-length-offset", "-5"], "max-length-offset"),
        (["--beam", "1000000000"], "beam"),
    ],
)
def test_search_values_out_of_range_are_usage_errors(reverse_model, flags, option):
    result = run_attn(["translate", "-m", str(reverse_model), *flags, "a0"], timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 2 and option in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_models_search_defaults_apply_unless_given(reverse_model, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(reverse_model, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["search"]["min_length"] = 6
    (folder / "manifest.json").write_text(json.dumps(manifest))
    translator = LoadedModel(folder, threads=1)
    assert translator.default_options(min_length=None).min_length == 6
    assert translator.default_options(min_length=0).min_length == 0


def test_undecodable_argument_bytes_give_valid_utf8_json(reverse_model):
    result = run_attn(
        ["translate", "-m", str(reverse_model), "-f", "jsonl", b"a0 \xff b1"],
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == 0
    record = json.loads(result.stdout.decode("utf-8"))
    assert record["source"] == "a0 \ufffd b1"


def test_an_empty_model_name_is_a_usage_error():
    result = run_attn(["translate", "--model", "", "hello"], timeout=120)
    assert result.returncode == 2 and b"--model is empty" in result.stderr


def test_eval_of_an_empty_file_is_a_usage_error(reverse_model, tmp_path):
    (tmp_path / "empty.tsv").write_text("")
    result = run_attn(["eval", str(tmp_path / "empty.tsv"), "-m", str(reverse_model)], timeout=120)
    assert result.returncode == 2 and b"no rows" in result.stderr


def test_bench_on_a_first_line_that_looks_like_an_option(reverse_model, tmp_path):
    (tmp_path / "in.txt").write_text("--help\na0 b1\n")
    result = run_attn(
        ["bench", str(tmp_path / "in.txt"), "-m", str(reverse_model), "--beams", "1", "--cold-start-runs", "1"],
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert b"cold start" in result.stdout


def test_no_telemetry_is_recorded(reverse_model, tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("ORT_DISABLE_TELEMETRY", None)
    result = run_attn(["translate", "-m", str(reverse_model), "a0"], timeout=120, env=env)
    assert result.returncode == 0
    assert not (tmp_path / ".cache" / "Microsoft").exists()


def test_internal_errors_exit_1_with_one_line_and_debug_shows_the_traceback(monkeypatch, capsys):
    import typer

    from attn.cli.app import guarded

    def broken():
        raise RuntimeError("deep inside")

    monkeypatch.delenv("ATTN_DEBUG", raising=False)
    with pytest.raises(typer.Exit) as exit_:
        guarded(broken)()
    assert exit_.value.exit_code == 1
    assert (
        capsys.readouterr().err
        == "attn: error: internal error: RuntimeError: deep inside (ATTN_DEBUG=1 shows the traceback)\n"
    )
    monkeypatch.setenv("ATTN_DEBUG", "1")
    with pytest.raises(RuntimeError):
        guarded(broken)()


def test_a_numpy_value_error_is_internal_not_usage(monkeypatch, capsys):
    import typer

    from attn.cli.app import guarded

    def numpy_fails():
        import numpy as np

        np.zeros(3).reshape(2, 2)

    monkeypatch.delenv("ATTN_DEBUG", raising=False)
    with pytest.raises(typer.Exit) as exit_:
        guarded(numpy_fails)()
    assert exit_.value.exit_code == 1 and "internal error: ValueError" in capsys.readouterr().err


def test_summarize_checks_every_file_before_any_output(tmp_path):
    (tmp_path / "a.txt").write_text("This package provides a library.")
    (tmp_path / "empty.txt").write_text("")
    result = run_attn(
        ["summarize", str(tmp_path / "a.txt"), str(tmp_path / "empty.txt"), str(tmp_path / "a.txt")], timeout=120
    )
    assert result.returncode == 2 and result.stdout == b"" and b"empty.txt holds no words" in result.stderr


def test_the_summarizer_tokenizes_only_what_it_reads(monkeypatch):
    from attn.runtime.registry import resolve_model

    summarizer = LoadedModel(resolve_model(None, "summarize", None, None), threads=1, notify=lambda m: None)
    seen = []
    encode = summarizer.tokenizer.encode_source
    monkeypatch.setattr(
        summarizer.tokenizer, "encode_source", lambda text, language: seen.append(len(text)) or encode(text, language)
    )
    summarizer.translate(["word " * 200_000], summarizer.default_options(beam=1))
    assert max(seen) <= (summarizer.max_source_pieces + 1) * summarizer.tokenizer.longest_piece
