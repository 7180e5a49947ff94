"""`python -m attn.cli ARGS` for the tests, in a process forked from one that has already imported the
libraries the commands import (numpy, onnxruntime, tokenizers, typer, rich: most of a short run's
time; PyTorch and the compiler module its optimizers load, most of a training or import run's
start), instead of a fresh interpreter each time.

The forked child is a process of its own, as `subprocess.run` makes one: its stdin, stdout and
stderr are pipes, its exit code and a death by signal come back as they would, `os._exit` and
signal handlers are its own, and `attn.cli` runs as `-m` runs it. The server imports each command's
module too (cli/app.py COMMANDS: a tenth to a fifth of a second of attn's own modules and regular
expressions per command, some 500 commands a run); their top-level code reads no environment, so a
child runs them as a fresh process would. What a command imports lazily is still imported in the
child; what a cold start imports is the business of the tests that start a fresh interpreter
(tests/test_cli.py, test_no_torch_is_imported). What a fork cannot reproduce falls back to a fresh
interpreter: interpreter flags, and an environment whose variables are read at start-up (PYTHON*,
thread counts, locale, the loader's, HOME) changed since the server began. What differs still: the
children of one server share its string-hash seed, and warnings the preloaded libraries give while
they import are not shown.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

from attn.cli.app import COMMANDS

PRELOAD = ("numpy", "onnxruntime", "tokenizers", "typer", "rich", "torch", "torch._dynamo", "attn.cli.app")
PRELOAD += tuple(sorted({f"attn.cli.{module}" for module, _ in COMMANDS.values()}))
# read once, when an interpreter or its libraries start: a fork would keep the server's values
STARTUP_VARIABLES = ("PYTHON", "OMP_", "OPENBLAS", "MKL_", "KMP_", "GOTO", "BLIS_", "TORCH", "TYPER_", "LC_", "LANG")
STARTUP_VARIABLES += ("LD_", "HOME")  # the loader's; the user's site-packages folder

SERVER = r"""
import json, os, signal, socket, sys

for name in sys.argv[2:]:
    try:
        __import__(name)
    except Exception:  # an install without that extra, or a module that fails to import: the
        pass  # child imports it again, as a fresh process would, and says why
server = socket.socket(fileno=int(sys.argv[1]))


def run(request, fds):
    server.close()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["attn", *request["args"]]
    code, interrupted = 0, False
    try:
        import runpy

        runpy.run_module("attn.cli", run_name="__main__", alter_sys=True)
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
        if not isinstance(exit.code, (int, type(None))):
            print(exit.code, file=sys.stderr)
    except BaseException as error:
        sys.excepthook(*sys.exc_info())
        code, interrupted = 1, isinstance(error, KeyboardInterrupt)
    import atexit, threading

    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    if interrupted:  # as Python ends on an uncaught KeyboardInterrupt: killed by SIGINT
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code)


def received(size):
    data = b""
    while len(data) < size:
        piece = server.recv(size - len(data))
        if not piece:
            sys.exit(0)  # the test process has gone
        data += piece
    return data


while True:
    request = json.loads(received(int(received(12))))
    _, fds, _, _ = socket.recv_fds(server, 1, 3)
    pid = os.fork()
    if pid == 0:
        run(request, fds)
    for fd in fds:
        os.close(fd)
    server.sendall(b"%d\n" % pid)
    _, status = os.waitpid(pid, 0)
    server.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))
"""


class ForkServer:
    """One server process per test process, started on first use; runs one command at a time. A
    request that fails part-way (a timeout, the server gone) stops the server: the next starts one."""

    def __init__(self):
        ours, theirs = socket.socketpair()
        self.environment = dict(os.environ)
        # pipes, as a command's streams are, so that the streams the children inherit from this
        # interpreter read as pipes (seekable or not, buffered); nothing is written to them
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(theirs.fileno()), *PRELOAD],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()
        theirs.close()
        self.socket, self.replies, self.lock = ours, ours.makefile("rb"), threading.Lock()
        atexit.register(self.close)

    def forks_alike(self, environment: dict[str, str]) -> bool:
        """Whether a fork of the server starts as a fresh interpreter would in `environment`."""
        changed = set(environment.items()) ^ set(self.environment.items())
        return not any(name.startswith(STARTUP_VARIABLES) for name, _ in changed)

    def run(
        self, args: list[str], data: bytes | None, timeout: float, environment: dict[str, str], cwd: str
    ) -> subprocess.CompletedProcess:
        """`python -m attn.cli *args` in `environment` and `cwd`, `data` on stdin, its output captured;
        subprocess.TimeoutExpired when it has not ended and closed its output within `timeout`."""
        with self.lock:
            deadline = time.monotonic() + timeout
            stdin_read, stdin_write = os.pipe()
            stdout_read, stdout_write = os.pipe()
            stderr_read, stderr_write = os.pipe()
            ends = [stdin_read, stdout_write, stderr_write]
            output: dict[int, bytes] = {}
            threads = [threading.Thread(target=_write_all, args=(stdin_write, data or b""), daemon=True)] + [
                threading.Thread(target=_read_all, args=(fd, output), daemon=True) for fd in (stdout_read, stderr_read)
            ]
            pid = 0
            try:
                request = json.dumps({"args": args, "cwd": cwd, "env": environment}).encode()
                self.socket.sendall(b"%12d" % len(request) + request)
                socket.send_fds(self.socket, [b"F"], ends)  # the descriptors ride on one byte after the request
                for fd in ends:
                    os.close(fd)
                ends = []
                for thread in threads:
                    thread.start()
                self.socket.settimeout(timeout)
                pid = int(self.replies.readline())
                self.socket.settimeout(max(0.001, deadline - time.monotonic()))
                code = int(self.replies.readline())
                for thread in threads:
                    thread.join(max(0.0, deadline - time.monotonic()))
                if any(thread.is_alive() for thread in threads):  # a process it started holds its output
                    raise TimeoutError
            except BaseException as error:
                for fd in ends:
                    os.close(fd)
                if pid > 0:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                self.stop()
                if isinstance(error, TimeoutError):
                    raise subprocess.TimeoutExpired(
                        args, timeout, output.get(stdout_read), output.get(stderr_read)
                    ) from None
                raise
            return subprocess.CompletedProcess(args, code, output[stdout_read], output[stderr_read])

    def stop(self) -> None:
        """The server killed: its replies can no longer be trusted to match the requests."""
        self.process.kill()
        self.close()

    def close(self) -> None:
        self.replies.close()
        self.socket.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # a command still running at exit
            self.process.kill()
            self.process.wait()


def _write_all(fd: int, data: bytes) -> None:
    try:
        with open(fd, "wb") as stream:
            stream.write(data)
    except BrokenPipeError:  # the command stopped reading, as a process may
        pass


def _read_all(fd: int, output: dict[int, bytes]) -> None:
    with open(fd, "rb") as stream:
        output[fd] = stream.read()


_server: ForkServer | None = None


def run_attn(
    args: list,
    input: bytes | str | None = None,
    timeout: float = 120,
    env: dict | None = None,
    text: bool = False,
    cwd: str | os.PathLike | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess:
    """As subprocess.run([python, -m, attn.cli, *args], input=..., capture_output=True, timeout=...,
    env=..., text=..., cwd=..., check=...), forked (a fresh interpreter where a fork would not start
    alike). Arguments may be bytes, as subprocess takes them."""
    global _server
    args = [os.fsdecode(arg) if isinstance(arg, bytes) else str(arg) for arg in args]
    data = input.encode() if isinstance(input, str) else input
    environment = dict(os.environ if env is None else env)
    if _server is None or _server.process.poll() is not None:
        _server = ForkServer()
    if cwd is not None and not os.path.isdir(cwd):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(cwd))
    if _server.forks_alike(environment):
        result = _server.run(args, data, timeout, environment, os.fspath(cwd or os.getcwd()))
    else:
        command = [sys.executable, "-m", "attn.cli", *args]
        result = subprocess.run(command, input=data, capture_output=True, timeout=timeout, env=environment, cwd=cwd)
    if text:
        result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
    if check:
        result.check_returncode()
    return result
