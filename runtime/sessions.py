"""onnxruntime sessions with a provider choice and a thread count, and a per-machine cache of
optimized graphs: onnxruntime's graph optimizations are most of the time of creating a session
(docs/studies/SPEED-HISTORY.md, cold start), so the optimized graph a CPU session produced is kept under
$XDG_CACHE_HOME/attn/graphs (else ~/.cache/attn/graphs) and loaded as it is the next time. It is
keyed by the checksum of the graph's bytes (read once, verified against the model's manifest, and
those same bytes optimized: a file changed meanwhile cannot enter the cache under another's
checksum), the onnxruntime version, the machine, since the optimized graph may hold kernels
chosen for this CPU, and the fusions left out (`cached_graph_name`). Beside each cached graph lies
its own SHA-256, checked before it is used (hashed, or remembered while the file is unchanged:
runtime/checksums.py). It
keeps the graphs last used (GRAPHS_KEPT; a use refreshes a graph's time, REFRESH_SECONDS), and the folder can be
deleted at any time: any failure to read or write it (a full disk, a read-only or missing home)
means a session without the cache, never an error.

Every session of a process takes one CPU arena, registered once with onnxruntime's environment
(`_register_shared_cpu_arena`), rather than one arena each: what one graph freed serves the next,
and parallel batches share what is free. Like any arena it keeps what it grew to until the
process ends, also after a model's sessions are dropped (a server that unloads a model keeps
that memory for the next one)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import platform
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import onnxruntime

from .checksums import attn_cache, attn_cache_may_be_made, file_identity, read_with_sha256, remembered_identity
from .errors import UsageError
from .parallel import STDOUT_TAKEN
from .processes import abandoned

DEVICES = ("cpu", "cuda")
PROVIDERS = {
    "cpu": ["CPUExecutionProvider"],
    "cuda": ["CUDAExecutionProvider", "CPUExecutionProvider"],
}


# onnxruntime's CUDA provider: fp32 products in fp32, not TF32 (onnxruntime's default), so that a
# sentence's search on the GPU follows the CPU's (benchmarks/GPU.md)
CUDA_OPTIONS = {"use_tf32": "0"}
USE_ENV_ALLOCATORS = "session.use_env_allocators"  # onnxruntime: take the allocators registered with its environment
# onnxruntime's graph fusions left out of CPU sessions: its SkipLayerNormalization kernel (a residual
# Add and the LayerNormalization after it, fused) took several times the two nodes' time on an Intel
# Xeon (docs/studies/IMPORTED-SPEED.md, "On an Intel Xeon with AMX").
CPU_FUSIONS_LEFT_OUT = ("SkipLayerNormFusion",)
GRAPHS_KEPT = 12  # optimized graphs in the cache: the encoders and decoders of the models last used
# A cached graph's time is refreshed when it is used, at most this often: a refresh changes the
# file's status-change time, so that the next start hashes it again (runtime/checksums.py).
REFRESH_SECONDS = 3600


_shared_cpu_arena_lock = threading.Lock()
_shared_cpu_arena_registered = False


def warn_on_stderr(message: str) -> None:
    print(f"attn: {message}", file=sys.stderr, flush=True)


def create_session(
    path: Path,
    device: str = "cpu",
    threads: int = 0,
    notify: Callable[[str], None] = warn_on_stderr,
    checksum: str | None = None,
    data: bytes | Callable[[], bytes] | None = None,
) -> onnxruntime.InferenceSession:
    """A session for the graph `path` on `device` ("cpu" or "cuda"); threads 0 lets onnxruntime
    choose. `data`, the file's bytes as read and verified once, is what the session loads (else the
    file is read); `checksum`, their sha256, lets a CPU session use the optimized-graph cache.
    `data` may be a function that gives the bytes (checking or rewriting them first): it is called
    only when no cached graph serves, since a cached graph was made from bytes of that checksum.

    On CUDA, onnxruntime places the nodes that compute shapes on the CPU by design, and any node
    without a CUDA kernel too; `notify` says so, once per process, when onnxruntime has no CUDA
    provider, and for the graph when the session did not get it all the same.
    """
    if device not in DEVICES:
        raise UsageError(f"unknown device {device!r} (choose from {', '.join(DEVICES)})")
    if device == "cpu" and checksum:
        return _cached_cpu_session(path, data, threads, checksum)
    graph = _graph(path, data)
    available = onnxruntime.get_available_providers()
    if device == "cuda" and "CUDAExecutionProvider" in available:
        _preload_cuda_libraries(notify)
    requested = [
        (p, dict(CUDA_OPTIONS)) if p == "CUDAExecutionProvider" else p for p in PROVIDERS[device] if p in available
    ]
    session = _session(graph, threads, requested or PROVIDERS["cpu"])
    if device == "cuda" and "CUDAExecutionProvider" not in available:
        _say_once_no_cuda(notify)
    elif device == "cuda" and "CUDAExecutionProvider" not in session.get_providers():
        notify(f"--device cuda: {path.name} did not get the CUDA provider and runs on the CPU")
    return session


_no_cuda_said = False


def _say_once_no_cuda(notify: Callable[[str], None]) -> None:
    """Once per process: CUDA was asked for where onnxruntime has no CUDA provider."""
    global _no_cuda_said
    if not _no_cuda_said:
        _no_cuda_said = True
        notify(
            "--device cuda: this onnxruntime has no CUDA provider (the onnxruntime-gpu package has it: "
            "docs/translate.md); decoding on the CPU"
        )


_cuda_preload_lock = threading.Lock()
_cuda_preload_done = False


def _preload_cuda_libraries(notify: Callable[[str], None]) -> None:
    """Once per process: onnxruntime-gpu's preload_dlls, which loads the CUDA and cuDNN libraries of
    the pip packages it was installed with (`onnxruntime-gpu[cuda,cudnn]`, or PyTorch's), which the
    system's loader does not search. What it prints goes to `notify`, not to stdout, which holds
    translations (while it runs, the process's stdout is captured: once, at the first CUDA session)."""
    global _cuda_preload_done
    with _cuda_preload_lock:
        if _cuda_preload_done or not hasattr(onnxruntime, "preload_dlls"):
            return
        _cuda_preload_done = True
        printed = io.StringIO()
        try:
            with STDOUT_TAKEN, contextlib.redirect_stdout(printed):
                onnxruntime.preload_dlls()
        except Exception as error:  # a library that will not load: the session then says what is missing
            notify(f"onnxruntime.preload_dlls: {error}")
        for line in printed.getvalue().splitlines():
            if line.strip():
                notify(line.strip())


def _graph(path: Path, data: bytes | Callable[[], bytes] | None) -> Path | bytes:
    """What onnxruntime loads: the bytes given or made by `data`, else the file."""
    if data is None:
        return path
    return data() if callable(data) else data


def optimized_graph_cache() -> Path:
    return attn_cache() / "graphs"


def cached_graph_name(checksum: str) -> str:
    """The cache's file name for the optimized CPU graph of the graph whose bytes have `checksum`."""
    left_out = "".join(f"-no-{fusion}" for fusion in CPU_FUSIONS_LEFT_OUT)
    return f"{checksum}-ort{onnxruntime.__version__}-{platform.machine()}{left_out}.onnx"


def _cached_cpu_session(
    path: Path, data: bytes | Callable[[], bytes] | None, threads: int, checksum: str
) -> onnxruntime.InferenceSession:
    """The CPU session of the graph (create_session's `path` and `data`; `checksum` its sha256) from
    its cached optimized graph when there is one that matches its recorded SHA-256 (anything else
    is dropped and made again), else optimized now and cached (written under temporary names, then
    renamed: a reader never sees half a file). Any failure of the cache leaves a plain session."""
    try:
        cached = optimized_graph_cache() / cached_graph_name(checksum)
    except RuntimeError:  # no home folder to be found
        return _session(_graph(path, data), threads, PROVIDERS["cpu"])
    recorded = _checksum_file(cached)
    try:
        if cached.exists() and recorded.exists():
            session = _session_of_cached(cached, recorded.read_text(encoding="ascii").strip(), threads)
            if session is not None:
                if time.time() - cached.stat().st_mtime > REFRESH_SECONDS:
                    with contextlib.suppress(OSError):  # a read-only cache serves all the same
                        os.utime(cached)
                return session
    except Exception:  # an unreadable, damaged or foreign cache file: made again below
        pass
    graph = _graph(path, data)
    try:
        if not attn_cache_may_be_made():
            raise FileNotFoundError(attn_cache())
        cached.parent.mkdir(parents=True, exist_ok=True)
        _drop(cached)
        partial = cached.with_name(f".{cached.name}.{os.getpid()}")
        try:
            session = _session(graph, threads, PROVIDERS["cpu"], save_optimized=partial)
            digest = hashlib.sha256(partial.read_bytes()).hexdigest()
            partial_checksum = _checksum_file(partial)
            partial_checksum.write_text(digest, encoding="ascii")
            os.replace(partial_checksum, recorded)
            os.replace(partial, cached)
        finally:
            _drop(partial)
        _keep_last_used(cached.parent)
        return session
    except Exception:  # a full disk (onnxruntime: "Protobuf serialization failed"), a read-only or missing folder
        return _session(graph, threads, PROVIDERS["cpu"])


def _session_of_cached(cached: Path, digest: str, threads: int) -> onnxruntime.InferenceSession | None:
    """The session of the cached graph when its SHA-256 is `digest`, else None. When that checksum
    is remembered for the file as it is (runtime/checksums.py), onnxruntime reads the file itself,
    and the session is kept if the file kept its identity meanwhile: about 8 ms less per graph
    than reading it here, and outside the GIL. Otherwise the bytes read here are hashed and loaded."""
    identity = remembered_identity(cached, digest)
    if identity is not None:
        session = _session(cached, threads, PROVIDERS["cpu"], optimize=False)
        if file_identity(cached) == identity:
            return session
    data, actual = read_with_sha256(cached)
    return _session(data, threads, PROVIDERS["cpu"], optimize=False) if actual == digest else None


def _checksum_file(graph: Path) -> Path:
    """Where the SHA-256 of a cached graph is recorded."""
    return graph.with_name(graph.name + ".sha256")


def _drop(graph: Path) -> None:
    """Remove a cached graph and its checksum, whatever is left of them."""
    for path in (graph, _checksum_file(graph)):
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def _keep_last_used(folder: Path) -> None:
    """Remove all but the GRAPHS_KEPT most recently used graphs of the cache, and the temporary
    files of writers that are gone (killed, or out of disk)."""

    def last_used(graph: Path) -> float:
        try:
            return graph.stat().st_mtime
        except OSError:  # removed meanwhile by another process
            return 0.0

    for graph in sorted(folder.glob("*.onnx"), key=last_used, reverse=True)[GRAPHS_KEPT:]:
        _drop(graph)
    for partial in abandoned(folder.glob(".*.onnx.*"), lambda name: name.rsplit(".onnx.", 1)[1].split(".")[0]):
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)


def _register_shared_cpu_arena() -> None:
    """Register, once per process, the CPU arena that every session takes (USE_ENV_ALLOCATORS):
    onnxruntime's default arena, extended by powers of two, owned by its environment."""
    global _shared_cpu_arena_registered
    with _shared_cpu_arena_lock:
        if _shared_cpu_arena_registered:
            return
        memory = onnxruntime.OrtMemoryInfo(
            "Cpu", onnxruntime.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, onnxruntime.OrtMemType.DEFAULT
        )
        onnxruntime.create_and_register_allocator(memory, onnxruntime.OrtArenaCfg({}))
        _shared_cpu_arena_registered = True


def _session(
    graph: Path | bytes,
    threads: int,
    providers: list[str | tuple[str, dict[str, str]]],
    optimize: bool = True,
    save_optimized: Path | None = None,
) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = (
        onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        if optimize
        else onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    )
    options.log_severity_level = 3
    # onnxruntime's memory patterns plan one arena layout per input shape seen, and each batch of a
    # search has its own (rows × source length × steps): they cost a fifth more peak memory, for no
    # speed (docs/studies/SPEED-HISTORY.md, "Each row's best on the device")
    options.enable_mem_pattern = False
    # one CPU arena for every session of the process, not one each: the encoder's memory serves the
    # decoder's next step, and parallel batches share what is free (SPEED-HISTORY.md, "One arena")
    _register_shared_cpu_arena()
    options.add_session_config_entry(USE_ENV_ALLOCATORS, "1")
    if save_optimized:
        options.optimized_model_filepath = str(save_optimized)
    fusions = {"disabled_optimizers": list(CPU_FUSIONS_LEFT_OUT)} if optimize and providers == PROVIDERS["cpu"] else {}
    return onnxruntime.InferenceSession(
        graph if isinstance(graph, bytes) else str(graph), options, providers=providers, **fusions
    )
