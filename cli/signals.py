"""A terminated run cleans up as an interrupted one does: SIGTERM (what `timeout`, systemd and
`docker stop` send) raises Terminated, a KeyboardInterrupt, where the program is, so that the
same `finally` blocks run (an `-o` file's hidden partial copy removed, a corpus's staging folder);
killed in Python's default way, they had been left behind."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

TERMINATED_EXIT_CODE = 128 + signal.SIGTERM  # as a shell reports a process the signal ended
INTERRUPTED_EXIT_CODE = 128 + signal.SIGINT  # Ctrl-C


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived."""


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises Terminated within the block; the handler before it comes back after. Only
    the main thread may set a handler: called from another thread (translate_corpus from Python),
    SIGTERM is left as it is."""

    def interrupt(signum, frame):
        raise Terminated

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
