"""`attn bench`: every requested setting gets a row; bad settings and empty input are usage errors."""

import pytest
import typer

from .test_cli import attn

pytestmark = pytest.mark.integration


def test_bench_measures_every_setting(reverse_model, reverse_test_rows, tmp_path):
    inputs = tmp_path / "inputs.txt"
    inputs.write_text("".join(row.source + "\n" for row in reverse_test_rows[:20]))
    out = attn(
        "bench",
        str(inputs),
        "-m",
        str(reverse_model),
        "--beams",
        "1,3",
        "--batch-sizes",
        "1,4",
        "--int8",
        "--limit",
        "20",
        "--cold-start-runs",
        "1",
        "--threads",
        "1,2",
    ).stdout.decode()
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert len(rows) == 16  # (fp32, int8) × threads (1, 2) × beams (1, 3) × batches (1, 4)
    assert [row.split("│")[2].strip() for row in rows[:8]] == ["1"] * 4 + ["2"] * 4
    assert rows[0].split("│")[-2].strip() == "1.00"
    assert "cold start" in out and "peak memory" in out


def test_bench_scores_outputs_when_the_tsv_has_references(reverse_model, reverse_test_rows, tmp_path):
    data = tmp_path / "test.tsv"
    data.write_text("".join(f"{row.source}\t{row.target}\n" for row in reverse_test_rows[:30]))
    out = attn("bench", str(data), "-m", str(reverse_model), "--beams", "1", "--cold-start-runs", "0").stdout.decode()
    [row] = [line for line in out.splitlines() if line.startswith("│")]
    assert "BLEU" in out and float(row.split("│")[-2]) > 80  # the reverse model is nearly exact


def test_bench_usage_errors(reverse_model):
    bad = attn("bench", "-m", str(reverse_model), "--beams", "0,x", stdin="a0 b1\n", check_rc=2)
    assert "--beams" in bad.stderr.decode()
    empty = attn("bench", "-m", str(reverse_model), stdin="\n \n", check_rc=2)
    assert "nothing to benchmark" in empty.stderr.decode() and empty.stderr.decode().count("\n") == 1
    negative = attn("bench", "-m", str(reverse_model), "--threads", "-1", stdin="a0 b1\n", check_rc=2)
    assert "integers of 0 or more" in negative.stderr.decode()


def test_bench_reads_zero_threads_as_one_per_core():
    """`--threads 0` had been refused, where attn translate reads it as one thread per core."""
    from attn.cli.bench import _numbers

    assert _numbers("0,2", "--threads", 0) == [0, 2]
    with pytest.raises(typer.BadParameter):
        _numbers("0", "--beams")
