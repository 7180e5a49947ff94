"""The attn command driven as users drive it: a subprocess, arguments, pipes and exit codes."""

import json
import subprocess
import sys

import pytest

from .forked_cli import run_attn

pytestmark = pytest.mark.integration


def attn(*args, stdin: str | bytes | None = None, check_rc: int | None = 0, **kwargs):
    """`python -m attn.cli *args` (forked, tests/forked_cli.py; with `python_flags`, a fresh interpreter)."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    if "python_flags" in kwargs:
        command = [sys.executable, *kwargs["python_flags"], "-m", "attn.cli", *args]
        result = subprocess.run(command, input=data, capture_output=True, timeout=120)
    else:
        result = run_attn(args, data)
    if check_rc is not None:
        assert result.returncode == check_rc, result.stderr.decode()
    return result


def test_translate_arguments(reverse_model):
    from attn.runtime.loaded_model import LoadedModel

    sources = ["a0 b1 c2", "d3 e0 f1 g2"]
    out = attn("translate", "-m", str(reverse_model), *sources).stdout.decode()
    expected = [hyps[0].text for hyps in LoadedModel(reverse_model).translate(sources)]
    assert out == "".join(text + "\n" for text in expected)
    assert out.splitlines()[0] == "c2 b1 a0"


def test_translate_stdin_keeps_order_and_line_count(reverse_model, reverse_test_rows):
    rows = reverse_test_rows[:50]
    lines = [row.source for row in rows]
    lines[3] = ""
    lines[10] = "   "
    out = attn("translate", "-m", str(reverse_model), "--beam", "1", stdin="\n".join(lines) + "\n").stdout.decode()
    results = out.split("\n")[:-1]
    assert len(results) == len(lines)
    assert results[3] == "" and results[10] == ""
    correct = sum(r == row.target for r, row, line in zip(results, rows, lines) if line.strip())
    assert correct >= 0.9 * 48


def test_last_line_without_newline_and_crlf(reverse_model):
    out = attn("translate", "-m", str(reverse_model), stdin="a0 b1 c2\r\nc2 d3 e0").stdout.decode()
    assert out == "c2 b1 a0\ne0 d3 c2\n"


def test_jsonl_and_n_best(reverse_model):
    out = attn("translate", "-m", str(reverse_model), "-f", "jsonl", "-n", "3", "a0 b1 c2").stdout.decode()
    record = json.loads(out)
    assert record["source"] == "a0 b1 c2" and record["translation"] == "c2 b1 a0"
    assert len(record["n_best"]) == 3 and record["n_best"][0]["text"] == record["translation"]
    text = attn("translate", "-m", str(reverse_model), "-n", "2", "a0 b1").stdout.decode().splitlines()
    assert len(text) == 2 and all(line.startswith("0 ||| ") for line in text)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["translate", "--help"],
        ["translate", "-m", "MODEL", "a0 b1"],
        ["summarize", "--help"],
        ["bench", "--help"],
        ["eval", "--help"],
    ],
)
def test_no_torch_is_imported(any_reverse_model, args):
    """The runtime path loads neither the training stack nor pydantic (whose import and per-option
    validators newer typer releases add to every cold start), whatever the architecture."""
    args = [str(any_reverse_model) if a == "MODEL" else a for a in args]
    result = attn(*args, python_flags=["-X", "importtime"])
    modules = [
        line.rsplit("|", 1)[-1].strip() for line in result.stderr.decode().splitlines() if "import time:" in line
    ]
    assert modules, "importtime printed nothing"
    assert not [m for m in modules if m.split(".")[0] in ("torch", "onnx", "sacrebleu", "pydantic")]


def test_a_translation_imports_only_its_own_command(reverse_model):
    """`attn translate` (plain text, piped) imports neither the other commands' modules nor Rich:
    the cold start pays for what it uses (cli/app.py COMMANDS)."""
    program = (
        "import sys\nfrom attn.cli.app import run_command\nrun_command()\nprint(' '.join(sys.modules), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", program, "translate", "-m", str(reverse_model), "a0 b1"], capture_output=True, check=True
    )
    modules = set(result.stderr.decode().split())
    assert result.stdout == b"b1 a0\n" and "attn.cli.translate" in modules
    assert not {m for m in modules if m.split(".")[0] == "rich"}
    assert not modules & {"attn.cli.bench", "attn.cli.evaluate", "attn.cli.serve", "attn.cli.training", "numpy.ma"}


def test_help_lists_every_command_and_a_typo_gets_a_suggestion():
    from attn.cli.app import COMMANDS

    listed = attn("--help").stdout.decode()
    assert all(name in listed for name in COMMANDS)
    result = attn("trnslate", "x", check_rc=2)
    assert "translate" in result.stderr.decode() and result.stdout == b""


def test_missing_model_is_one_line_and_exit_2(tmp_path):
    result = attn("translate", "-m", str(tmp_path / "nowhere"), "hello", check_rc=2)
    err = result.stderr.decode()
    assert err.count("\n") == 1 and "nowhere" in err and "Traceback" not in err
    assert result.stdout == b""


def test_damaged_model_file_is_named(reverse_model, tmp_path):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(reverse_model, broken)
    with open(broken / "decoder.onnx", "r+b") as handle:
        handle.truncate(1000)
    result = attn("translate", "-m", str(broken), "a0", check_rc=2)
    assert "decoder.onnx" in result.stderr.decode() and "checksum" in result.stderr.decode()


def test_bad_option_is_a_usage_error(reverse_model):
    result = attn("translate", "-m", str(reverse_model), "--beam", "0", "x", check_rc=2)
    assert "Traceback" not in result.stderr.decode()


def test_eval_reads_a_corpus_in_its_reverse_direction(reverse_model, tmp_path):
    """--swap-columns: the second column is the source, the first the reference (de→en on en-de files)."""
    (tmp_path / "pairs.tsv").write_text("c2 b1 a0\ta0 b1 c2\tgames\nd3\ta0 b1\tgames\n", encoding="utf-8")
    attn(
        "eval",
        str(tmp_path / "pairs.tsv"),
        "-m",
        str(reverse_model),
        "--swap-columns",
        "--hypotheses",
        str(tmp_path / "out.txt"),
        "--json",
        str(tmp_path / "scores.json"),
    )
    assert (tmp_path / "out.txt").read_text() == "c2 b1 a0\nb1 a0\n"
    scores = json.loads((tmp_path / "scores.json").read_text())
    assert scores["swap_columns"] is True and scores["scores"]["games"]["sentences"] == 2
    plain = attn(
        "eval", str(tmp_path / "pairs.tsv"), "-m", str(reverse_model), "--hypotheses", str(tmp_path / "out.txt")
    )
    assert (tmp_path / "out.txt").read_text().splitlines()[0] == "a0 b1 c2" and b"empty source" not in plain.stderr
    # an origin named "all" is a row of its own: its rows had been counted into the overall row twice
    (tmp_path / "all.tsv").write_text("a0 b1\tb1 a0\tall\nc2\tc2\tx\n", encoding="utf-8")
    named = json.loads(attn("eval", str(tmp_path / "all.tsv"), "-m", str(reverse_model), "--json", "-").stdout)
    assert named["scores"]["all"]["sentences"] == 2 and named["scores"]["all (origin)"]["sentences"] == 1


def test_eval_takes_quiet_as_the_other_commands_do(reverse_model, tmp_path):
    """`attn eval -q` had been "No such option: -q"; its notes go, its table stays."""
    (tmp_path / "pairs.tsv").write_text("a0 b1\tb1 a0\n\tc2 d3\n", encoding="utf-8")
    noted = attn("eval", str(tmp_path / "pairs.tsv"), "-m", str(reverse_model))
    quiet = attn("eval", str(tmp_path / "pairs.tsv"), "-m", str(reverse_model), "-q")
    assert b"empty source" in noted.stderr and quiet.stderr == b"" and quiet.stdout == noted.stdout


def test_eval_refuses_a_json_file_it_cannot_write_before_decoding(reverse_model, tmp_path):
    """It had decoded the whole file first, then named the file as --output's."""
    (tmp_path / "pairs.tsv").write_text("a0 b1\tb1 a0\n", encoding="utf-8")
    missing = tmp_path / "no-such-folder" / "scores.json"
    result = run_attn(
        ["eval", str(tmp_path / "pairs.tsv"), "-m", str(reverse_model), "--json", str(missing)], text=True
    )
    assert result.returncode == 2 and result.stdout == ""  # no table: nothing was decoded
    assert f"--json {missing}: the folder {missing.parent} does not exist" in result.stderr


def test_eval_never_writes_its_outputs_over_the_test_file_or_over_each_other(reverse_model, tmp_path):
    """`attn eval t.tsv --hypotheses t.tsv` (or --json) had replaced the test file, exit 0, and
    --json and --hypotheses naming one place had lost one of them (a newcomer's trial)."""
    data = tmp_path / "pairs.tsv"
    data.write_text("a0 b1\tb1 a0\n", encoding="utf-8")
    (tmp_path / "link.tsv").symlink_to(data)
    for outputs, said in (
        (["--hypotheses", str(data)], f"--hypotheses {data} is the input {data}"),
        (["--json", str(tmp_path / "link.tsv")], "is the input"),
        (["--json", str(tmp_path / "x"), "--hypotheses", str(tmp_path / "x")], "both write"),
        (["--json", "-", "--hypotheses", "-"], "both write -"),
    ):
        result = run_attn(["eval", str(data), "-m", str(reverse_model), "-q", *outputs], text=True)
        assert result.returncode == 2 and said in result.stderr and result.stderr.count("\n") == 1
    assert data.read_text(encoding="utf-8") == "a0 b1\tb1 a0\n" and not (tmp_path / "x").exists()


def test_eval_says_when_rows_have_an_empty_source(reverse_model, tmp_path):
    """A row without a source had lowered the scores without a word."""
    (tmp_path / "pairs.tsv").write_text("a0 b1\tb1 a0\n\tc2 d3\n  \td3 c2\n", encoding="utf-8")
    result = attn("eval", str(tmp_path / "pairs.tsv"), "-m", str(reverse_model))
    assert "pairs.tsv: 2 of 3 rows have an empty source: scored as they are" in result.stderr.decode()


def test_eval_compares_models_side_by_side_with_p_values(reverse_model, transformer_model, reverse_test_rows, tmp_path):
    """Repeated --model: each model's scores are what it scores alone, and each after the first has
    a p-value per group and metric; a model against itself differs nowhere (p 1)."""
    rows = reverse_test_rows[:40]
    data = tmp_path / "rows.tsv"
    data.write_text(
        "".join(f"{row.source}\t{row.target}\t{'ab'[i % 2]}\n" for i, row in enumerate(rows)), encoding="utf-8"
    )
    attn(
        "eval",
        str(data),
        "-m",
        str(reverse_model),
        "-m",
        str(transformer_model),
        "-m",
        str(reverse_model),
        "--json",
        str(tmp_path / "both.json"),
    )
    attn("eval", str(data), "-m", str(transformer_model), "--json", str(tmp_path / "alone.json"))
    both = json.loads((tmp_path / "both.json").read_text())
    alone = json.loads((tmp_path / "alone.json").read_text())
    assert [system["scores"] for system in both["systems"]][1] == alone["scores"]
    assert both["systems"][0]["scores"] == both["systems"][2]["scores"]
    baseline, other, itself = (system["model"] for system in both["systems"])
    p_values = both["paired_test"]["p_values"]
    assert both["paired_test"]["baseline"] == baseline and set(p_values) == {other, itself}
    assert set(p_values[other]) == {"all", "a", "b"}
    assert all(0 < p <= 1 for group in p_values[other].values() for p in group.values())
    assert itself != baseline and all(p == 1.0 for group in p_values[itself].values() for p in group.values())
    result = attn(
        "eval",
        str(data),
        "-m",
        str(reverse_model),
        "-m",
        str(transformer_model),
        "--hypotheses",
        str(tmp_path / "out.txt"),
        check_rc=2,
    )
    assert result.stderr.decode().count("\n") == 1 and not (tmp_path / "out.txt").exists()


def test_alignments_count_french_elided_words_as_words(reverse_model, tmp_path):
    """A model whose languages are French (the reverse model's manifest, relabelled) aligns "l'"
    and "homme" as two words on both sides, in jsonl and Pharaoh alike, and its text is intact."""
    import shutil

    french = tmp_path / "fr-fr"
    shutil.copytree(reverse_model, french)
    manifest = json.loads((french / "manifest.json").read_text())
    manifest.update(source_lang="fr", target_lang="fr")
    (french / "manifest.json").write_text(json.dumps(manifest))
    out = attn("align", "-m", str(french), "-f", "jsonl", "l'homme a0", "b1 l'homme").stdout.decode()
    record = json.loads(out)
    assert record["source_words"] == ["l'", "homme", "a0"] and record["words"] == ["b1", "l'", "homme"]
    assert record["translation"] == "b1 l'homme" and len(record["alignment"]) == 3
    assert len(record["alignment"][0]) == 3


def test_a_failed_json_write_keeps_the_old_scores(tmp_path):
    """`attn eval --json` on a full disk left a 0-byte scores.json in place of the old one: the
    record is written beside it and renamed only when whole. Here the write fails on a
    text that UTF-8 cannot encode, after a first part of it was written."""
    from attn.cli.evaluate import write_atomically

    scores = tmp_path / "scores.json"
    scores.write_text('{"old": true}')
    with pytest.raises(UnicodeEncodeError):
        write_atomically(scores, '{"new": true, "bad": "' + "x" * 100_000 + '\ud800"}', "--json")
    assert scores.read_text() == '{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.json"]


def test_html_lines_keep_their_tags_and_translate_their_text_whole(reverse_model, tmp_path):
    """--html: each line's text is translated as the plain line would be, its elements placed on
    the translation (each once, with its attributes); a line without text comes back as it was;
    outputs that would carry alignments are refused in one line."""
    from bs4 import BeautifulSoup

    lines = ['a0 b1 <b class="k">c2 d3</b>', "<i>e0</i> f1 g2", "<br>", "", "a0 b1<br>c2"]
    output = attn("translate", "-m", str(reverse_model), "--html", stdin="\n".join(lines) + "\n").stdout.decode()
    written = output.split("\n")[:-1]
    assert len(written) == len(lines)
    plain = (
        attn("translate", "-m", str(reverse_model), "a0 b1 c2 d3", "e0 f1 g2", "a0 b1 c2").stdout.decode().splitlines()
    )
    soups = [BeautifulSoup(line, "html.parser") for line in written]
    assert [soups[i].get_text() for i in (0, 1, 4)] == plain
    assert [(b.attrs, bool(b.get_text().strip())) for b in soups[0].find_all("b")] == [({"class": ["k"]}, True)]
    assert len(soups[1].find_all("i")) == 1 and soups[1].find("i").get_text().strip()
    assert written[2:4] == ["<br>", ""] and len(soups[4].find_all("br")) == 1
    refused = attn("translate", "-m", str(reverse_model), "--html", "-f", "jsonl", "a0", check_rc=2)
    assert refused.stderr.decode().count("\n") == 1 and "--html" in refused.stderr.decode()
    subtitles = tmp_path / "cues.srt"
    subtitles.write_text("1\n00:00:01,000 --> 00:00:02,000\na0 b1\n")
    refused = attn(
        "translate",
        "-m",
        str(reverse_model),
        "--html",
        "-i",
        str(subtitles),
        "-o",
        str(tmp_path / "out.srt"),
        check_rc=2,
    )
    assert "leave out --html" in refused.stderr.decode() and not (tmp_path / "out.srt").exists()


def test_without_sentences_each_line_is_read_whole_in_its_place(reverse_model):
    """With sentences off (`--no-sentences`), a line break went to the model as it was and the
    output was garbled; then a text's lines were read as one, and an argument of two lines came
    out as one line. Each line is read whole, its sentences together, and keeps its place."""
    import attn.runtime as api

    translator = api.load(reverse_model)
    texts = ["a0 b1. c2 d3\n\ne0 a0", "a0 b1. c2 d3", "e0 a0"]
    both, first, second = translator.translate(texts, sentences=False)
    assert both.text == f"{first.text}\n\n{second.text}" and len(first.alignment.parts) == 1
    printed = attn("translate", "-m", str(reverse_model), "--no-sentences", texts[0]).stdout.decode()
    assert printed == both.text + "\n"


def test_without_the_documents_extra_lines_translate_and_html_says_what_to_install(reverse_model):
    """A base install (`pip install .`) has no Beautiful Soup: `attn translate` must still start,
    and --html say in one line what it needs."""
    blocked = "import sys; sys.modules['bs4'] = None; from attn.cli.app import main; sys.argv = ['attn', *sys.argv[1:]]; main()"

    def run(*args):
        return subprocess.run(
            [sys.executable, "-c", blocked, "translate", "-m", str(reverse_model), *args],
            capture_output=True,
            timeout=120,
        )

    assert run("a0 b1").returncode == 0
    refused = run("--html", "a0 <b>b1</b>")
    assert refused.returncode == 2 and refused.stderr.decode() == (
        "attn: error: --html needs the Python package 'bs4': pip install 'attn[documents]'\n"
    )


@pytest.mark.parametrize(
    "options, said",
    [
        (["-s", ""], "name a language"),  # had been read as a model's mismatch ("not …→…: leave out --model")
        (["-t", "auto"], "the target language is named, not detected"),
    ],
)
def test_a_language_option_that_names_none_is_refused(reverse_model, options, said):
    result = attn("translate", "-m", str(reverse_model), *options, "a0", check_rc=2)
    assert said in result.stderr.decode() and result.stdout == b""


def test_a_list_line_read_as_an_option_gets_a_hint(reverse_model):
    """`attn translate "- Operating temperature: 0-35°C"` said only "No such option: -"."""
    result = attn("translate", "-m", str(reverse_model), "- a0 b1", check_rc=2)
    assert "put -- before it" in result.stderr.decode()
    assert "put -- before it" not in attn("translate", "--bogus", "a0", check_rc=2).stderr.decode()
    assert attn("translate", "-m", str(reverse_model), "--", "- a0 b1").stdout.decode().strip()


def test_check_names_format_placeholders_the_translation_lost(reverse_model):
    """The toy model writes symbols only: the placeholders of its sources are lost, and named."""
    result = attn("translate", "-m", str(reverse_model), "--check", "a0 {name} b1", "a0 b1")
    assert result.stderr.decode().splitlines() == ["attn: input 1: format placeholders changed: lost {name}"]
    quiet = attn("translate", "-m", str(reverse_model), "-q", "--check", "a0 {name} b1", "a0 b1")
    assert quiet.stderr == result.stderr  # asked for: -q had silenced it


def test_a_message_read_as_lines_gets_a_hint_to_translate_it_as_a_message(reverse_model):
    """`attn translate < message.eml` translated its header names and read its MIME parts as
    sentences: a hint names the document form; lines that only start like headers get none."""
    message = "From: Anna <anna@example.com>\nTo: bob@example.com\nSubject: a0\n\na0 b1\n"
    hinted = attn("translate", "-m", str(reverse_model), stdin=message).stderr.decode()
    assert "opens with an e-mail message's headers" in hinted and "-i FILE.eml -o OUT.eml" in hinted
    plain = attn("translate", "-m", str(reverse_model), stdin="Note: a0 b1\nTo: a0\n\na0\n").stderr.decode()
    assert "e-mail" not in plain


def test_a_file_of_prose_wrapped_at_a_width_gets_a_hint_to_read_paragraphs(reverse_model, tmp_path):
    """A mail saved as text, wrapped inside its sentences, was translated half-line by half-line,
    unsaid (an argument so wrapped had the hint); a file of a sentence a line, long and short,
    gets none."""
    line = "a0 b1 c2 d3 e0 a0 b1 c2 d3 e0 a0"
    (tmp_path / "wrapped.txt").write_text(f"{line}\n{line} b1\nc2 d3.\n\n{line}\na0.\n")
    hinted = attn("translate", "-m", str(reverse_model), "-i", str(tmp_path / "wrapped.txt")).stderr.decode()
    assert "lines are wrapped inside its sentences" in hinted and "--paragraphs" in hinted
    (tmp_path / "corpus.txt").write_text(f"{line}\na0 b1 c2 d3 e0 a0 b1 c2 d3 e0 a0 b1 c2 d3 e0 a0 b1\n{line}\na0\n")
    assert (
        "wrapped" not in attn("translate", "-m", str(reverse_model), "-i", str(tmp_path / "corpus.txt")).stderr.decode()
    )
    paragraphs = attn("translate", "-m", str(reverse_model), "--paragraphs", "-i", str(tmp_path / "wrapped.txt"))
    assert "wrapped" not in paragraphs.stderr.decode()
    quoted = f'"{line} b1 c2."\n"{line} d3 e0," a0 b1.\n'  # a sentence's end before its closing quote
    assert "wrapped" not in attn("translate", "-m", str(reverse_model), stdin=quoted).stderr.decode()


def test_a_line_of_html_read_as_text_gets_a_hint_to_use_html():
    """Read as text, its tags were words to the model: "<p>Welcome für unser <b>new</b>", the rest
    and the closing tag lost, unsaid."""
    element = "<p>Welcome to our <b>new</b> online shop!</p>"
    assert "input 2 looks like HTML: --html" in attn("translate", "Hello.", element).stderr.decode()
    assert attn("translate", "--html", element).stderr == b""
    assert attn("translate", "Use the <b> tag for bold text.").stderr == b""  # a tag named, no element


def test_an_argument_of_several_lines_keeps_its_lines_and_a_line_read_stays_one(reverse_model):
    """`attn translate "$(cat mail.txt)"` came back as one line: greeting, paragraphs and signature."""
    one_by_one = attn("translate", "-m", str(reverse_model), "a0 b1", "c2", "d3").stdout.decode().splitlines()
    together = attn("translate", "-m", str(reverse_model), "a0 b1\n\nc2", "d3").stdout.decode()
    assert together.split("\n") == [one_by_one[0], "", one_by_one[1], one_by_one[2], ""]
    read = attn("translate", "-m", str(reverse_model), stdin="a0 b1\rc2\n").stdout.decode()  # a lone \r
    assert read.count("\n") == 1
