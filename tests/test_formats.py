"""Output formats through the CLI: JSON lines against the shipped schema, Pharaoh parsed back,
the alignment table at 80 columns, forced alignment."""

import json
import os
from pathlib import Path

import jsonschema
import pytest

from .forked_cli import run_attn

pytestmark = pytest.mark.integration

SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "cli" / "translation.schema.json").read_text())
SOURCES = ["a0 b1 c2 d3", "h2 g0", "", "e1 e2 e3 e1 e2"]


def run(*args, stdin=None, columns=None):
    env = dict(os.environ, **({"COLUMNS": str(columns)} if columns else {}))
    result = run_attn([*args], input=stdin, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_jsonl_matches_the_schema(reverse_model):
    out = run("translate", "-m", str(reverse_model), "-f", "jsonl", "-n", "2", stdin="\n".join(SOURCES) + "\n")
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == len(SOURCES)
    for source, record in zip(SOURCES, records):
        jsonschema.validate(record, SCHEMA)
        assert record["source"] == source
        assert len(record["alignment"]) == len(record["words"])
        assert all(len(row) == len(record["source_words"]) for row in record["alignment"])
        assert all(abs(sum(row) - 1) < 1e-3 for row in record["alignment"])


def test_pharaoh_parses_back(reverse_model):
    out = run("translate", "-m", str(reverse_model), "-f", "pharaoh", stdin="\n".join(SOURCES) + "\n")
    lines = out.splitlines()
    assert len(lines) == len(SOURCES)
    for source, line in zip(SOURCES, lines):
        text, links = line.split(" ||| ")
        pairs = [tuple(map(int, link.split("-"))) for link in links.split()]
        assert len(pairs) == len(text.split())
        assert all(0 <= s < len(source.split()) and 0 <= t < len(text.split()) for s, t in pairs)
    text, links = lines[0].split(" ||| ")
    assert text == "d3 c2 b1 a0" and links == "3-0 2-1 1-2 0-3"  # reversal: the anti-diagonal


def test_alignment_table_fits_80_columns(reverse_model):
    """The table fits; the translation stays on one line, as every format writes it (it had been
    wrapped at 80 columns, into a file too)."""
    sentence = "a0 b1 c2 d3 e0 f1 g2 h3 a1 b2 c3 d0 extraordinarilylongsymbolname"
    out = run("translate", "-m", str(reverse_model), "--align", sentence, columns=80)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    narrow = run("translate", "-m", str(reverse_model), "--align", sentence, columns=20).splitlines()[0]
    assert narrow == run("translate", "-m", str(reverse_model), sentence).strip() and len(narrow) > 20
    assert "●" in out and "extraordi…" in out and "(continued)" in out


def test_an_alignment_table_keeps_its_columns_in_line_with_wide_characters():
    """A CJK character or an emoji takes two terminal columns: counted as one, they had pushed a
    row's cells out of line."""
    import numpy as np
    from rich.cells import cell_len

    from attn.cli.align_table import alignment_tables
    from attn.runtime.alignment import WordAlignment

    words = ["Der", "猫猫猫猫猫猫猫", "😀", "ist"]
    table = alignment_tables(WordAlignment(words, words, np.eye(4)), 200, styled=False)
    rows = [str(line) for line in table.renderables if str(line) and "─" not in str(line)]
    assert len({cell_len(row) for row in rows}) == 1, rows


def test_an_alignment_table_for_each_of_the_n_best(reverse_model):
    """`--align -n 3` printed the best hypothesis alone."""
    out = run("translate", "-m", str(reverse_model), "--align", "-n", "3", "a0 b1 c2", columns=80)
    assert [line[:3] for line in out.splitlines() if line[:3] in ("1. ", "2. ", "3. ")] == ["1. ", "2. ", "3. "]
    assert out.count("score ") == 3 and out.splitlines()[0] == "1. c2 b1 a0"
    assert run("translate", "-m", str(reverse_model), "--align", "a0 b1 c2", columns=80).count("score ") == 1
    # beside another format, refused: -f jsonl had been dropped without a word (a newcomer's trial)
    refused = run_attn(["translate", "-m", str(reverse_model), "--align", "-f", "jsonl", "a0 b1"], text=True)
    assert refused.returncode == 2 and "--align prints the alignment table; -f jsonl" in refused.stderr


def test_forced_alignment_scores_the_given_translation(reverse_model):
    good = json.loads(run("align", "-m", str(reverse_model), "-f", "jsonl", "a0 b1 c2", "c2 b1 a0"))
    bad = json.loads(run("align", "-m", str(reverse_model), "-f", "jsonl", "a0 b1 c2", "a0 b1 c2"))
    assert good["translation"] == "c2 b1 a0" and good["pharaoh"] == "2-0 1-1 0-2"
    assert good["score"] > bad["score"]
    # spaces, tabs and line breaks part words, once: a trailing space had made a third, empty word
    # with a link of its own, a tab had stayed inside a word (a newcomer's trial)
    spaced = json.loads(run("align", "-m", str(reverse_model), "-f", "jsonl", "a0  b1\tc2", "c2 b1\na0 "))
    assert spaced["source_words"] == ["a0", "b1", "c2"] and spaced["words"] == ["c2", "b1", "a0"]
    assert (spaced["score"], spaced["pharaoh"]) == (good["score"], good["pharaoh"])


@pytest.mark.parametrize("sides", [("a0 b1", ""), (" ", "b1 a0")])
def test_aligning_an_empty_side_is_refused(reverse_model, sides):
    """An empty translation had been scored (a table with no rows), an empty source given no score."""
    result = run_attn(["align", "-m", str(reverse_model), *sides], text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("attn: error: the ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("flags", [[], ["--sample", "--temperature", "1.5", "--seed", "5"]])
def test_same_seed_same_output(reverse_model, flags):
    args = ["translate", "-m", str(reverse_model), *flags, "a0 b1 c2 d3 e0 f1"]
    assert run(*args) == run(*args)


def test_a_setting_of_sample_without_it_is_named_as_ignored(reverse_model):
    """--seed, --temperature, --top-k and --top-p without --sample had been ignored without a word."""
    result = run_attn(["translate", "-m", str(reverse_model), "--temperature", "1.5", "--seed", "5", "a0"], text=True)
    assert result.returncode == 0 and "--temperature, --seed apply with --sample: ignored" in result.stderr


def test_heatmaps_one_file_per_sentence(reverse_model, tmp_path):
    run("translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "map.png"), "a0 b1", "c2 d3 e0")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map-1.png", "map-2.png"]
    assert (tmp_path / "map-1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    run("translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "one.svg"), "a0 b1")
    assert "<svg" in (tmp_path / "one.svg").read_text()


def test_a_blank_input_draws_no_heatmap(reverse_model, tmp_path):
    """Its file had been an empty drawing, with matplotlib's warnings on stderr."""
    result = run_attn(
        ["translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "map.png")],
        input="a0 b1\n\nc2\n",
        text=True,
        timeout=120,
    )
    assert result.returncode == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["map-1.png", "map-3.png"]
    assert "input 2 has no words: no heat map drawn" in result.stderr and "Warning" not in result.stderr


def test_a_heatmap_where_nothing_can_be_written_is_refused_before_translating(reverse_model):
    """It had been said after the translation, naming a temporary file. No file can be made in
    /proc, even by root."""
    if not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    result = run_attn(
        ["translate", "-m", str(reverse_model), "--heatmap", "/proc/map.png", "a0"], text=True, timeout=120
    )
    assert result.returncode == 2 and result.stdout == "" and "cannot write in /proc" in result.stderr


def test_heatmap_needs_a_known_suffix(reverse_model, tmp_path):
    result = run_attn(
        ["translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "map.bmp"), "a0"], text=True, timeout=120
    )
    assert result.returncode == 2 and "--heatmap" in result.stderr
