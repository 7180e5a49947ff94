"""Provider choice: asking for CUDA where the session does not get it is said, never silent."""

import onnxruntime
import pytest

from attn.runtime.sessions import create_session


def test_cuda_fallback_is_reported(reverse_model):
    messages = []
    session = create_session(reverse_model / "encoder.onnx", device="cuda", threads=1, notify=messages.append)
    if "CUDAExecutionProvider" in session.get_providers():
        assert messages == []
    else:
        assert len(messages) == 1 and "CUDA was requested" in messages[0] and "encoder.onnx" in messages[0]
        assert session.get_providers() == ["CPUExecutionProvider"]


def test_cpu_is_silent_and_unknown_devices_are_refused(reverse_model):
    messages = []
    session = create_session(reverse_model / "encoder.onnx", device="cpu", threads=1, notify=messages.append)
    assert messages == [] and session.get_providers() == ["CPUExecutionProvider"]
    with pytest.raises(ValueError, match="unknown device"):
        create_session(reverse_model / "encoder.onnx", device="tpu")


def test_cli_says_so_on_stderr(reverse_model):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "attn.cli", "translate", "-m", str(reverse_model), "--device", "cuda",
                             "a0 b1"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == "b1 a0\n"
    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        assert "CUDA was requested" in result.stderr
