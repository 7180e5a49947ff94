"""The habits people expect of a command-line tool: progress only for a person watching, machine-
readable listings, shell completion, one-line hints and errors."""

import json
import os
import pty
import subprocess
import sys

import pytest

from attn.cli.app import COMMANDS

from .forked_cli import run_attn
from .test_cli import attn

LINES = "".join(f"a0 b1 c2 d3 {i % 7}\n" for i in range(200))


def run_with_terminal(
    args: list[str], stdin: str, stderr_terminal: bool = True, env: dict | None = None, stdin_terminal: bool = False
) -> tuple[str, str]:
    """Run attn with stderr (or stdin) on a pseudo-terminal; stdout is a pipe. (stdout, stderr)."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "attn.cli", *args],
        stdin=slave if stdin_terminal else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=slave if stderr_terminal else subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    os.close(slave)
    if stdin_terminal:
        os.write(master, stdin.encode() + b"\x04")
        out, err = process.communicate(timeout=120)
    else:
        out, err = process.communicate(stdin.encode(), timeout=120)
    if stderr_terminal:
        err, chunks = b"", []
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        err = b"".join(chunks)
    os.close(master)
    assert process.returncode == 0, err
    return out.decode(), err.decode(errors="replace")


@pytest.mark.integration
def test_progress_only_for_a_person_watching(reverse_model):
    args = ["translate", "-m", str(reverse_model), "--batch-size", "8"]
    out, err = run_with_terminal(args, LINES)
    assert len(out.splitlines()) == 200 and "lines" in err
    for extra_args, env in [(["--quiet"], None), ([], {"NO_COLOR": "1"})]:
        out, err = run_with_terminal(args + extra_args, LINES, env=env)
        assert len(out.splitlines()) == 200 and "lines" not in err
    piped = attn(*args, stdin=LINES)
    assert piped.stderr == b""


@pytest.mark.integration
def test_a_hint_when_standard_input_is_a_terminal(reverse_model):
    out, err = run_with_terminal(
        ["translate", "-m", str(reverse_model)], "a0 b1\n", stderr_terminal=False, stdin_terminal=True
    )
    assert out == "b1 a0\n" and "Ctrl-D" in err and len(err.splitlines()) == 1


@pytest.mark.integration
def test_n_best_above_the_beam_raises_it(reverse_model):
    result = attn("translate", "-m", str(reverse_model), "-b", "2", "-n", "4", "a0 b1 c2")
    assert len(result.stdout.decode().splitlines()) == 4
    assert result.stderr.decode().count("\n") == 1 and "raised to 4" in result.stderr.decode()
    assert attn("translate", "-m", str(reverse_model), "-n", "6", "a0 b1 c2").stderr == b""


@pytest.mark.integration
def test_models_as_json_and_as_columns():
    records = json.loads(attn("models", "--format", "json").stdout)
    names = {record["name"] for record in records}
    assert {"en-de", "summarize"} <= names
    en_de = next(r for r in records if r["name"] == "en-de")
    assert en_de["task"] == "translate" and en_de["size_bytes"] > 0 and "vocab_size" in en_de["architecture"]
    lines = attn("models").stdout.decode().splitlines()
    assert lines[0].split("\t") == [
        *("name", "task", "from", "to", "picked", "size", "parameters", "architecture", "source", "licence")
    ]
    assert all(len(line.split("\t")) == 10 and "…" not in line for line in lines)
    assert {record["source"] for record in records} == {"shipped"}  # the tests' ATTN_HOME holds none
    rows = [line.split("\t") for line in lines[1:]]
    for task, source, target in {tuple(row[1:4]) for row in rows}:  # each direction: one model picked
        assert [row[4] for row in rows if row[1:4] == [task, source, target]].count("yes") == 1
    assert {tuple(pair) for record in records for pair in record["picked_for"]} == {
        tuple(row[2:4]) for row in rows if row[4] == "yes"
    }


@pytest.mark.integration
def test_shell_completion(tmp_path):
    env = {**os.environ, "_ATTN_COMPLETE": "complete_bash", "COMP_WORDS": "attn translate --para", "COMP_CWORD": "2"}
    result = run_attn([], env=env, text=True, timeout=60)
    assert result.stdout.split() == ["--paragraphs"]
    # with detection on, typer's --install-completion is a flag that asks the process tree for the
    # shell (none under some test runners: "Shell None is not supported"); off, it takes "bash"
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "SHELL": "/bin/bash",
        "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1",
    }
    result = run_attn(["--install-completion", "bash"], env=env, text=True, timeout=60)
    assert result.returncode == 0 and "attn" in (tmp_path / ".bash_completions" / "attn.sh").read_text()


@pytest.mark.integration
def test_quantize_reports_its_sizes_without_onnxruntime_advice(reverse_model, tmp_path):
    stderr = attn("quantize", str(reverse_model), "--out", str(tmp_path / "int8")).stderr
    assert b"sizes (bytes)" in stderr and b"pre-processing" not in stderr, stderr.decode()


@pytest.mark.integration
def test_eval_of_a_missing_file_names_it(tmp_path):
    result = attn("eval", str(tmp_path / "nothing.tsv"), check_rc=2)
    assert result.stderr.decode() == f"attn: error: no such file: {tmp_path / 'nothing.tsv'}\n"


# ---- files in and out ---------------------------------------------------------------------------
@pytest.mark.integration
def test_input_and_output_files(reverse_model, tmp_path):
    (tmp_path / "one.txt").write_text("a0 b1\nc2 d3\n")
    (tmp_path / "two.txt").write_text("e0 f1\n")
    result = attn(
        "translate",
        "-m",
        str(reverse_model),
        "-i",
        str(tmp_path / "one.txt"),
        "-i",
        str(tmp_path / "two.txt"),
        "-o",
        str(tmp_path / "out.txt"),
    )
    assert result.returncode == 0 and result.stdout == b""
    expected = attn("translate", "-m", str(reverse_model), "a0 b1", "c2 d3", "e0 f1").stdout.decode()
    assert (tmp_path / "out.txt").read_text() == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.txt", "out.txt", "two.txt"]  # no partial file left


@pytest.mark.integration
@pytest.mark.parametrize("command", ["translate", "summarize"])
def test_an_input_named_as_the_output_is_refused_and_kept(reverse_model, tmp_path, command):
    """`-i notes.txt -o notes.txt` replaced the notes with their translation (documents were
    refused already); a link to an input is the input too."""
    (tmp_path / "notes.txt").write_text("a0 b1\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "notes.txt")
    for output in ("notes.txt", "link.txt"):
        result = attn(
            command,
            "-m",
            str(reverse_model),
            "-i",
            str(tmp_path / "notes.txt"),
            "-o",
            str(tmp_path / output),
            check_rc=2,
        )
        assert b"is the input" in result.stderr and result.stderr.count(b"\n") == 1
    with (tmp_path / "notes.txt").open("rb") as notes:  # `-o notes.txt < notes.txt`
        piped = subprocess.run(
            [sys.executable, "-m", "attn.cli", command, "-m", str(reverse_model), "-o", str(tmp_path / "notes.txt")],
            stdin=notes,
            capture_output=True,
        )
    assert piped.returncode == 2 and b"is the file on standard input" in piped.stderr
    assert (tmp_path / "notes.txt").read_text() == "a0 b1\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        "link.txt",
        "notes.txt",
    ]


@pytest.mark.integration
def test_a_failed_run_leaves_the_old_output_file(reverse_model, tmp_path):
    (tmp_path / "out.txt").write_text("mine")
    result = attn(
        "translate",
        "-m",
        str(reverse_model),
        "-i",
        str(tmp_path / "missing.txt"),
        "-o",
        str(tmp_path / "out.txt"),
        check_rc=2,
    )
    assert result.returncode == 2 and b"missing.txt" in result.stderr
    assert (tmp_path / "out.txt").read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


@pytest.mark.integration
def test_an_argument_naming_a_file_gets_a_hint(reverse_model, tmp_path):
    (tmp_path / "input.txt").write_text("a0 b1\n")
    result = attn("translate", "-m", str(reverse_model), str(tmp_path / "input.txt"))
    assert result.returncode == 0 and b"-i " in result.stderr and b"is a file" in result.stderr


@pytest.mark.unit
def test_version_and_language_names():
    from attn.runtime.constants import language_code

    result = attn("--version")
    assert result.returncode == 0 and result.stdout.decode().startswith("attn ")
    assert [language_code(v) for v in ("DE", "German", "deutsch", "french", "Français", "En", "sym")] == [
        "de",
        "de",
        "de",
        "fr",
        "fr",
        "en",
        "sym",
    ]
    # a locale's language: `-t fr-FR` had been refused as no installed model; one of a language
    # without a name here stays as it was, for a model of that code
    assert [language_code(v) for v in ("fr-FR", "de_DE", "EN-us", "es-419", "pt-BR", "zh-Hant")] == [
        "fr",
        "de",
        "en",
        "es-419",
        "pt-br",
        "zh-hant",
    ]


@pytest.mark.integration
def test_the_same_language_on_both_sides_is_refused_as_nothing_to_translate(reverse_model):
    """`-s de -t de` had been answered "no installed translate model from de into de"."""
    result = attn("translate", "-m", str(reverse_model), "-s", "sym", "-t", "SYM", "a0", check_rc=2)
    assert result.stderr.decode() == "attn: error: source and target are both sym: there is nothing to translate\n"


@pytest.mark.integration
def test_auto_detection_is_per_line_and_passes_unknown_languages_through(both_ways_model):
    """The both-ways toy model translates sym→rot and back (each line its own direction); a line
    in a language the model does not read is written out unchanged, with a note. One language
    was picked for a whole mixed file from its first batch, however short
    its first line."""
    from attn.runtime.router import Router
    from attn.runtime.translation import unchanged

    notes = []
    calls = []

    class Echo:
        def __init__(self, pair):
            self.language = pair[0]

        def translate(self, texts, options, batch_size, first_number, text_options):
            calls.append((self.language, texts))
            return [[f"{self.language}:{text}"] for text in texts]

    router = Router([("de", "en"), ("fr", "en")], lambda pair, last: (Echo(pair), None), notes.append)
    texts = [
        "Ich bin heute sehr müde und gehe früh ins Bett.",
        "Je suis très fatigué aujourd'hui et je me couche tôt.",
        "Sono molto stanco oggi e vado a letto presto, grazie mille.",
    ]
    results = router.translate(texts, "auto", "en", 8, 1, True)
    assert results[0] == ["de:" + texts[0]] and results[1] == ["fr:" + texts[1]]
    assert results[2][0].text == texts[2] and unchanged(texts[2])[0].text == texts[2]
    assert any("input 3" in note and "unchanged" in note for note in notes)
    assert sorted(language for language, _ in calls) == ["de", "fr"]
    # a stream read in batches (or paragraph by paragraph) noted its detections once per batch
    detections = [note for note in notes if note.startswith("detected")]
    router.translate(texts[:1], "auto", "en", 8, 4, True)
    assert [note for note in notes if note.startswith("detected")] == detections
    router = Router([("de", "en"), ("fr", "en")], lambda pair, last: (Echo(pair), None), notes.append)
    router.translate(texts[:1], "auto", "en", 8, 1, True)
    router.translate(texts[:2], "auto", "en", 8, 2, True)  # a language new in a later batch: named alone
    assert [note for note in notes if note.startswith("detected")][-2:] == [
        "detected de (1 input)",
        "detected fr (1 input)",
    ]


@pytest.mark.integration
def test_eval_json_to_standard_output(reverse_model, tmp_path):
    (tmp_path / "rows.tsv").write_text("a0 b1\tb1 a0\tsym\n")
    result = attn("eval", str(tmp_path / "rows.tsv"), "-m", str(reverse_model), "--json", "-")
    assert result.returncode == 0 and json.loads(result.stdout)["scores"] and not (tmp_path / "-").exists()
    # a spreadsheet's header had been scored as a row, unsaid
    (tmp_path / "header.tsv").write_text("Source\tReference\na0 b1\tb1 a0\n")
    headed = attn("eval", str(tmp_path / "header.tsv"), "-m", str(reverse_model), "--json", "-")
    assert "is read as a header: not scored" in headed.stderr.decode()
    assert json.loads(headed.stdout)["scores"]["all"]["sentences"] == 1
    (tmp_path / "pair.tsv").write_text("Text\tText\na0 b1\tb1 a0\n")  # a pair that reads like a header
    paired = attn("eval", str(tmp_path / "pair.tsv"), "-m", str(reverse_model), "--json", "-")
    assert json.loads(paired.stdout)["scores"]["all"]["sentences"] == 2


@pytest.mark.integration
@pytest.mark.parametrize("args", [["translate", "--align", "a0 b1 c2"], ["align", "a0 b1", "b1 a0"]])
def test_rich_output_into_a_pipe_closed_early_exits_0(reverse_model, args):
    """`| head -1` made --align and attn align exit 1 silently."""
    command = " ".join(
        [sys.executable, "-m", "attn.cli", *args[:1], "-m", str(reverse_model), *(f"'{a}'" for a in args[1:])]
    )
    result = subprocess.run(
        ["bash", "-c", f"{command} | head -1 > /dev/null; echo ${{PIPESTATUS[0]}}"], capture_output=True, timeout=120
    )
    assert result.stdout.decode().strip() == "0" and b"Traceback" not in result.stderr


@pytest.mark.integration
@pytest.mark.parametrize("args", [["translate", "a0"], ["eval", "ROWS"], ["models"]])
def test_a_closed_standard_output_is_a_clear_error(reverse_model, tmp_path, args):
    """With `>&-` commands failed with an AttributeError, and eval exited 0."""
    (tmp_path / "rows.tsv").write_text("a0 b1\tb1 a0\n")
    args = [str(tmp_path / "rows.tsv") if a == "ROWS" else a for a in args]
    extra = ["-m", str(reverse_model)] if args[0] != "models" else []
    command = " ".join([sys.executable, "-m", "attn.cli", *args, *extra])
    result = subprocess.run(["bash", "-c", f"{command} >&-"], capture_output=True, timeout=120)
    assert result.returncode == 2 and b"standard output is closed" in result.stderr and result.stderr.count(b"\n") == 1


@pytest.mark.integration
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_at_80_columns_cuts_no_option_name(command):
    """`--coverage-penal…` and `--max-source-pie…` were cut at 80 columns."""
    shown = run_attn([command, "--help"], env={**os.environ, "COLUMNS": "80"}, timeout=120)
    assert shown.returncode == 0 and "…" not in shown.stdout.decode(), shown.stdout.decode()


@pytest.mark.integration
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["translate", "--bogus", "x"], "No such option: --bogus (see 'attn translate --help')"),
        (["translate", "--beam", "abc", "x"], "'abc' is not a valid int"),
        (["summarize", "--sentences", "0"], "0 is not in the range"),
        (["bogus"], "No such command 'bogus'"),
        (["translate", "--json", "x"], "No such option: --json (Possible options: --format jsonl)"),
    ],
)
def test_an_unknown_option_or_a_bad_value_is_one_line_naming_the_help(args, said):
    """click's usage block, its "Try … --help" and its error had taken three to four lines (a
    newcomer's trial); attn's own errors take one."""
    result = attn(*args, check_rc=2)
    error = result.stderr.decode()
    assert error.startswith("attn: error: ") and error.count("\n") == 1 and said in error and "--help" in error
