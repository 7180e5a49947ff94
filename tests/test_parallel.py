"""runtime/parallel.py: results in item order from any number of threads; batches evened out."""

import threading

import pytest

from attn.runtime.parallel import even_batch_size, map_in_threads

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_results_come_in_item_order(workers):
    names = []

    def work(item):
        names.append(threading.current_thread().name)
        return item * item

    assert list(map_in_threads(work, list(range(20)), workers)) == [i * i for i in range(20)]
    assert (set(names) == {"MainThread"}) == (workers == 1)  # one worker: no pool at all


@pytest.mark.parametrize(
    "inputs, batch_size, workers, sizes",
    [
        (200, 64, 2, [50, 50, 50, 50]),  # not 64, 64, 64, 8: the second thread would idle
        (33, 32, 2, [17, 16]),  # one batch per thread rather than 32 + 1
        (500, 32, 2, [32] * 15 + [20]),  # full batches when there are enough
        (1, 32, 2, [1]),
        (100, 32, 1, [25, 25, 25, 25]),
    ],
)
def test_batches_are_even_and_never_over_the_size(inputs, batch_size, workers, sizes):
    size = even_batch_size(inputs, batch_size, workers)
    assert size <= batch_size
    assert [min(size, inputs - start) for start in range(0, inputs, size)] == sizes
