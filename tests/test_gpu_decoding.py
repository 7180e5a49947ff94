"""benchmarks/gpu_decoding.py in its CPU mode (issue 64): the script that checks and times the CUDA
provider runs every check on the CPU provider too, so that it cannot rot between GPU machines."""

from pathlib import Path

import pytest

from benchmarks import gpu_decoding

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent


def test_the_gpu_script_checks_and_times_the_shipped_en_de_on_the_cpu(tmp_path):
    report = tmp_path / "report.md"
    gpu_decoding.main(
        [
            "--model", str(ROOT / "models" / "en-de"),
            "--data", str(ROOT / "tests" / "fixtures" / "en-de-test-slice.tsv"),
            "--sentences", "16", "--alone", "4", "--batches", "1,8", "--device", "cpu", "--serve",
            "--out", str(report),
        ]
    )  # fmt: skip
    text = report.read_text(encoding="utf-8")
    assert "failed" not in text
    assert "16 of 16 outputs as on the CPU provider" in text
    assert "4 of 4 alone and 16 of 16 shuffled in batches of 13 as in batches of 32" in text
    assert "greedy = beam 1 on the device: 4 of 4 the same tokens" in text
    assert text.count("| beam 5 |") == 2 and text.count("| beam 1 |") == 2
    assert "`attn serve --device cpu` on" in text and "HTTP 200" in text and "translatedText" in text
