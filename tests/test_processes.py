"""What a process left behind (runtime/processes.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from attn.runtime.processes import abandoned, process_running

pytestmark = pytest.mark.unit


def test_only_the_names_of_processes_that_no_longer_run_are_abandoned(tmp_path):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = int(ended.stdout)
    assert process_running(os.getpid()) and not process_running(gone)
    names = [f".graph.onnx.{os.getpid()}.tmp", f".graph.onnx.{gone}.tmp", ".graph.onnx.x.tmp"]
    paths = [tmp_path / name for name in names]
    found = list(abandoned(paths, lambda name: name.rsplit(".onnx.", 1)[1].split(".")[0]))
    assert found == [Path(tmp_path / names[1])]
