"""onnxruntime sessions with a provider choice and a thread count."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import onnxruntime

DEVICES = ("cpu", "cuda")
PROVIDERS = {
    "cpu": ["CPUExecutionProvider"],
    "cuda": ["CUDAExecutionProvider", "CPUExecutionProvider"],
}


def warn_on_stderr(message: str) -> None:
    print(f"attn: {message}", file=sys.stderr, flush=True)


def create_session(
    path: Path, device: str = "cpu", threads: int = 0, notify: Callable[[str], None] = warn_on_stderr
) -> onnxruntime.InferenceSession:
    """A session for `path` on `device` ("cpu" or "cuda"); threads 0 lets onnxruntime choose.

    When CUDA is asked for and the session did not get it, `notify` says so (never silent).
    """
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r} (choose from {', '.join(DEVICES)})")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    requested = [p for p in PROVIDERS[device] if p in onnxruntime.get_available_providers()]
    session = onnxruntime.InferenceSession(str(path), options, providers=requested or PROVIDERS["cpu"])
    if device == "cuda" and "CUDAExecutionProvider" not in session.get_providers():
        notify(f"CUDA was requested but {path.name} runs on {', '.join(session.get_providers())} "
               f"(available: {', '.join(onnxruntime.get_available_providers())})")
    return session
