"""onnxruntime sessions with a provider choice and a thread count."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import onnxruntime

from .errors import UsageError

DEVICES = ("cpu", "cuda")
PROVIDERS = {
    "cpu": ["CPUExecutionProvider"],
    "cuda": ["CUDAExecutionProvider", "CPUExecutionProvider"],
}


DISABLE_CPU_FALLBACK = "session.disable_cpu_ep_fallback"  # onnxruntime: fail rather than place a node on the CPU


def warn_on_stderr(message: str) -> None:
    print(f"attn: {message}", file=sys.stderr, flush=True)


def create_session(
    path: Path, device: str = "cpu", threads: int = 0, notify: Callable[[str], None] = warn_on_stderr
) -> onnxruntime.InferenceSession:
    """A session for `path` on `device` ("cpu" or "cuda"); threads 0 lets onnxruntime choose.

    CUDA is checked, not assumed: the session is first built with CPU fallback disabled, so that a
    node without a CUDA kernel is an error; then `notify` says which graph runs partly on the CPU.
    When CUDA is asked for and the session did not get it at all, `notify` says so too.
    """
    if device not in DEVICES:
        raise UsageError(f"unknown device {device!r} (choose from {', '.join(DEVICES)})")
    available = onnxruntime.get_available_providers()
    if device == "cuda" and "CUDAExecutionProvider" in available:
        try:
            return _session(path, threads, ["CUDAExecutionProvider"], cpu_fallback=False)
        except Exception as error:  # onnxruntime's pybind errors share no narrower base class
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            notify(f"{path.name}: CUDA could not take every node ({reason}); the rest will run on the CPU")
    requested = [p for p in PROVIDERS[device] if p in available]
    session = _session(path, threads, requested or PROVIDERS["cpu"], cpu_fallback=True)
    if device == "cuda" and "CUDAExecutionProvider" not in session.get_providers():
        notify(f"CUDA was requested but {path.name} runs on {', '.join(session.get_providers())} "
               f"(available: {', '.join(available)})")
    return session


def _session(path: Path, threads: int, providers: list[str], cpu_fallback: bool) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    if not cpu_fallback:
        options.add_session_config_entry(DISABLE_CPU_FALLBACK, "1")
    return onnxruntime.InferenceSession(str(path), options, providers=providers)
