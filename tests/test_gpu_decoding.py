"""benchmarks/gpu_decoding.py in its CPU mode (issue 64): the script that checks and times the CUDA
provider runs every check on the CPU provider too, so that it cannot rot between GPU machines;
and where an int8 model runs when CUDA is asked for."""

import dataclasses
from pathlib import Path

import onnxruntime
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


@pytest.mark.parametrize("cuda", [True, False])
def test_an_int8_model_asked_for_cuda_runs_on_the_cpu_and_says_why(monkeypatch, cuda):
    """The CUDA provider has no kernels for int8 matrix products (measured: benchmarks/GPU.md): the
    shipped int8 en-de on --device cuda decodes on the CPU, with one notice that says why; without
    a CUDA provider at all, the sessions' own notice says that instead."""
    from attn.runtime.loaded_model import device_for
    from attn.runtime.manifest import read_manifest

    providers = ["CUDAExecutionProvider", "CPUExecutionProvider"] if cuda else ["CPUExecutionProvider"]
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: providers)
    messages = []
    device = device_for(read_manifest(ROOT / "models" / "en-de"), ROOT / "models" / "en-de", "cuda", messages.append)
    if cuda:
        assert device == "cpu" and len(messages) == 1 and "int8" in messages[0] and "CPU" in messages[0]
    else:
        assert device == "cuda" and messages == []
    shipped = read_manifest(ROOT / "models" / "en-de")
    for fp32 in ({}, {"precision": "fp32"}):  # a manifest without a precision is fp32
        manifest = dataclasses.replace(shipped, architecture=fp32)
        assert device_for(manifest, ROOT, "cuda", messages.append) == "cuda"
