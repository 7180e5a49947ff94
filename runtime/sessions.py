"""onnxruntime sessions with a provider choice and a thread count, and a per-machine cache of
optimized graphs: onnxruntime's graph optimizations are most of the time of creating a session
(benchmarks/README.md, cold start), so the optimized graph a CPU session produced is kept under
$XDG_CACHE_HOME/attn/graphs (else ~/.cache/attn/graphs) and loaded as it is the next time. It is
keyed by the graph file's checksum (verified against the model's manifest before a session is
made), the onnxruntime version and the machine, since the optimized graph may hold kernels chosen
for this CPU. It keeps the graphs last used (GRAPHS_KEPT; each use refreshes a graph's time), and
the folder can be deleted at any time."""

from __future__ import annotations

import contextlib
import os
import platform
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
GRAPHS_KEPT = 12  # optimized graphs in the cache: the encoders and decoders of the models last used


def warn_on_stderr(message: str) -> None:
    print(f"attn: {message}", file=sys.stderr, flush=True)


def create_session(
    path: Path, device: str = "cpu", threads: int = 0, notify: Callable[[str], None] = warn_on_stderr,
    checksum: str | None = None,
) -> onnxruntime.InferenceSession:
    """A session for `path` on `device` ("cpu" or "cuda"); threads 0 lets onnxruntime choose.
    `checksum`, the verified sha256 of the file, lets a CPU session use the optimized-graph cache.

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
    if device == "cpu" and checksum:
        return _cached_cpu_session(path, threads, checksum)
    session = _session(path, threads, requested or PROVIDERS["cpu"], cpu_fallback=True)
    if device == "cuda" and "CUDAExecutionProvider" not in session.get_providers():
        notify(f"CUDA was requested but {path.name} runs on {', '.join(session.get_providers())} "
               f"(available: {', '.join(available)})")
    return session


def optimized_graph_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attn" / "graphs"


def _cached_cpu_session(path: Path, threads: int, checksum: str) -> onnxruntime.InferenceSession:
    """The CPU session of `path` from its cached optimized graph when there is one (a cached file
    onnxruntime cannot read is dropped and made again), else optimized now and its result cached
    (written under a temporary name, then renamed: a reader never sees half a file). Without a
    writable cache folder, a plain session."""
    try:
        cached = optimized_graph_cache() / f"{checksum}-ort{onnxruntime.__version__}-{platform.machine()}.onnx"
    except RuntimeError:  # no home folder to be found
        return _session(path, threads, PROVIDERS["cpu"], cpu_fallback=True)
    if cached.exists():
        try:
            session = _session(cached, threads, PROVIDERS["cpu"], cpu_fallback=True, optimize=False)
        except Exception:  # damaged or from an incompatible build: make it again
            with contextlib.suppress(OSError):
                cached.unlink(missing_ok=True)
        else:
            with contextlib.suppress(OSError):  # a read-only cache serves all the same
                os.utime(cached)
            return session
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return _session(path, threads, PROVIDERS["cpu"], cpu_fallback=True)
    partial = cached.with_name(f".{cached.name}.{os.getpid()}")
    try:
        session = _session(path, threads, PROVIDERS["cpu"], cpu_fallback=True, save_optimized=partial)
        os.replace(partial, cached)
        _keep_last_used(cached.parent)
    except OSError:  # the folder became unwritable: this session is still good
        partial.unlink(missing_ok=True)
        return _session(path, threads, PROVIDERS["cpu"], cpu_fallback=True)
    return session


def _keep_last_used(folder: Path) -> None:
    """Remove all but the GRAPHS_KEPT most recently used graphs of the cache."""
    def last_used(graph: Path) -> float:
        try:
            return graph.stat().st_mtime
        except OSError:  # removed meanwhile by another process
            return 0.0

    for graph in sorted(folder.glob("*.onnx"), key=last_used, reverse=True)[GRAPHS_KEPT:]:
        graph.unlink(missing_ok=True)


def _session(path: Path, threads: int, providers: list[str], cpu_fallback: bool, optimize: bool = True,
             save_optimized: Path | None = None) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = (onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL if optimize
                                        else onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL)
    options.log_severity_level = 3
    if save_optimized:
        options.optimized_model_filepath = str(save_optimized)
    if not cpu_fallback:
        options.add_session_config_entry(DISABLE_CPU_FALLBACK, "1")
    return onnxruntime.InferenceSession(str(path), options, providers=providers)
