"""What a process left behind: files and folders whose names hold the id of a process that no longer
runs (killed, or out of disk) are removed by the next one that looks."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path


def process_running(pid: int) -> bool:
    """Whether a process of that id runs (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def abandoned(paths: Iterable[Path], pid_of: Callable[[str], str]) -> Iterator[Path]:
    """Each of `paths` whose name holds a process id (`pid_of(name)`: digits, or anything else for
    a name that holds none) of a process that no longer runs."""
    for path in paths:
        pid = pid_of(path.name)
        if pid.isdigit() and not process_running(int(pid)):
            yield path
