"""`-o/--output FILE`: standard output redirected into a file that appears whole or not at all
(written under a temporary name beside it, renamed when the command succeeds; on any failure the
partial file goes and an existing FILE is left as it was).

As Unix tools do with what is not a plain file: a device or a FIFO (`-o /dev/null`, `mkfifo f`)
is written to as it is, never replaced; a symbolic link is followed, and the file it names is
replaced (the link stays a link); a file of several hard links is written over once the output is
whole (every name keeps it, as `cp` keeps them); an existing file keeps its permissions.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from attn.runtime.errors import UsageError

# What a full disk or device says when the output's bytes are written (/dev/full, a quota)
WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)


def refuse_an_input(output: Path | None, inputs: list[Path], option: str = "--output") -> None:
    """An --output (or the file another `option` writes) that is a file read (`inputs`, '-'
    standard input), or a link to one, is refused before anything is read: writing it would
    replace what the user gave (`-i notes.txt -o notes.txt`, `-o notes.txt < notes.txt`, `attn eval
    test.tsv --hypotheses test.tsv`). A device or a FIFO is written to, never replaced: `-i
    /dev/stdin -o /dev/stdout` at a terminal is two ends of one."""
    try:
        written = Path(str(output)).stat() if output is not None and str(output) != "-" else None
    except OSError:  # none yet, or a place output_file refuses in its own words
        return
    if written is None or not stat.S_ISREG(written.st_mode):
        return
    for path in inputs:
        try:
            read = os.fstat(0) if str(path) == "-" else path.stat()
        except OSError:
            continue
        if (read.st_dev, read.st_ino) == (written.st_dev, written.st_ino):
            what = "the file on standard input" if str(path) == "-" else f"the input {path}"
            raise UsageError(f"{option} {output} is {what}: name another file (nothing of yours is replaced)")


def check_writable(path: Path | None, option: str) -> None:
    """A file `option` names must be one that can be written, said before the work that fills it
    (`attn eval --json /nonexist/x.json` had decoded the whole file first): not a folder, in a
    folder that exists and takes a new file. Nothing to check for None or '-'."""
    if path is None or str(path) == "-":
        return
    if path.is_dir():
        raise UsageError(f"{option} {path} is a folder; name a file")
    existing = _status(path)
    if existing is not None and not stat.S_ISREG(existing.st_mode):  # /dev/stdout, a FIFO, `>(jq .)`: written to
        return
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: the folder {path.parent} does not exist")
    try:  # a folder one cannot write in (/proc, read-only, another user's)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        raise UsageError(f"{option} {path}: cannot write in {path.parent} ({error.strerror})") from None


@contextlib.contextmanager
def output_file(path: Path | None, option: str = "--output") -> Iterator[None]:
    """Within the block, sys.stdout writes to `path` (nothing changes when it is None or '-');
    errors name it as `option` does."""
    if path is None or str(path) == "-":
        yield
        return
    if path.is_dir():
        raise UsageError(f"{option} {path} is a folder; name a file")
    path = Path(os.path.realpath(path))  # through a symbolic link: the file it names
    existing = _status(path)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with _redirected(path, f"{option} {path}"):  # a device, a FIFO or a socket: written to, not replaced
            yield
        return
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with _redirected(partial, f"{option} {path}"):
            yield
        if existing is not None and existing.st_nlink > 1:  # a hard link: its file written, every name kept
            shutil.copyfile(partial, path)
        else:
            if existing is not None:
                os.chmod(partial, stat.S_IMODE(existing.st_mode))
            os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


@contextlib.contextmanager
def _redirected(target: Path, named: str) -> Iterator[None]:
    """sys.stdout into `target` within the block (`named` is what an error calls it: "--output FILE")."""
    try:
        handle = target.open("w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{named}: cannot write there ({error.strerror})") from None
    saved = sys.stdout
    sys.stdout = handle
    try:
        yield
        handle.close()
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        raise UsageError(f"{named}: cannot write there ({error.strerror})") from None
    finally:
        sys.stdout = saved
        with contextlib.suppress(OSError):  # already reported: the bytes that could not go stay unwritten
            handle.close()


def _status(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None
