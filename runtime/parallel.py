"""Work items side by side in threads: onnxruntime (and PyTorch) release the GIL while they
compute, so batches decoded in parallel threads keep several cores busy; and how many inputs a
call takes so that every worker has batches."""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

# Held while a library's prints are read by swapping sys.stdout, which is the process's: two such
# swaps in two threads at once left it pointing at a buffer for good
STDOUT_TAKEN = threading.Lock()


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def map_in_threads(function: Callable[[Item], Result], items: Sequence[Item], workers: int) -> Iterable[Result]:
    """function(item) for each item, results in item order, up to `workers` items at a time
    (in the calling thread, lazily, when one is enough)."""
    if workers <= 1 or len(items) <= 1:
        return map(function, items)
    with ThreadPoolExecutor(min(workers, len(items))) as pool:
        return list(pool.map(function, items))


def even_batch_size(inputs: int, batch_size: int, workers: int) -> int:
    """The size that cuts `inputs` into batches of at most `batch_size`, as many batches as a
    multiple of `workers` (so that no worker waits on another's extra batch), as even as can be."""
    batches = math.ceil(max(1, math.ceil(inputs / batch_size)) / workers) * workers
    return max(1, math.ceil(inputs / batches))


def inputs_for_workers(batch_size: int, workers: int) -> int:
    """Inputs for one translate() call: four batches for each of `workers` to take."""
    return batch_size * workers * 4


def worker_count(device: str, threads: int) -> int:
    """Batches decoded at once: one on CUDA, else `threads`, or one per core."""
    return 1 if device == "cuda" else threads or available_cores()


def lines_per_call(batch_size: int, threads: int) -> int:
    """Inputs to read for one translate() call, known before the model is loaded: what a CPU
    translator of `threads` takes (LoadedModel.inputs_per_call), also asked for CUDA, which decodes
    one batch at a time from them, since a model may run on the CPU all the same (device_for)."""
    return inputs_for_workers(batch_size, worker_count("cpu", threads))
