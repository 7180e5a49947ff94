"""Provider choice: asking for CUDA where the session does not get it is said, never silent."""

import onnxruntime
import pytest

from attn.runtime.sessions import create_session

pytestmark = pytest.mark.integration


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


class FakeCudaSession:
    """Stands in for onnxruntime.InferenceSession on a machine with the CUDA provider: a graph
    with a node CUDA cannot run fails when CPU fallback is disabled, as onnxruntime does."""

    cuda_runs_everything = False

    def __init__(self, path, options, providers):
        try:
            strict = options.get_session_config_entry("session.disable_cpu_ep_fallback") == "1"
        except RuntimeError:  # onnxruntime raises for a key never set
            strict = False
        if strict and not self.cuda_runs_everything:
            raise RuntimeError("This session contains graph nodes that are assigned to the default CPU EP")
        self.providers = providers

    def get_providers(self):
        return self.providers


@pytest.mark.parametrize("everything", [True, False])
def test_cuda_is_checked_for_nodes_left_on_the_cpu(monkeypatch, reverse_model, everything):
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"])
    monkeypatch.setattr(FakeCudaSession, "cuda_runs_everything", everything)
    monkeypatch.setattr(onnxruntime, "InferenceSession", FakeCudaSession)
    messages = []
    session = create_session(reverse_model / "decoder.onnx", device="cuda", notify=messages.append)
    if everything:
        assert messages == [] and session.get_providers() == ["CUDAExecutionProvider"]
    else:
        assert session.get_providers() == ["CUDAExecutionProvider", "CPUExecutionProvider"]
        [message] = messages
        assert "decoder.onnx" in message and "CPU" in message and "assigned to the default CPU EP" in message
