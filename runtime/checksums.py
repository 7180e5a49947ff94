"""SHA-256 checksums of files, remembered by each file's identity as git's index remembers what it
hashed: a file is hashed again only when its identity changes (device, inode, size, and its
modification and status-change times to the nanosecond). A write through write(2), and every
file renamed or copied over it, changes its status-change time, which no user can set; so a file
changed that way since it was hashed is hashed again. A file hashed less than RACY_SECONDS after
its last change is not remembered, since a write within the same tick of the clock might keep its
times (git's "racy" files). The limit, as git's: a write through a shared memory mapping to a page
already written since the last write-back (Linux updates the times at a page's first write after
that) can keep every time, and its file then passes with the digest remembered before. The memo
guards against a damaged or replaced file, as the checksums do, not against a process that maps
the user's model files and writes into them: one that can do that can change the files anyway.

Starting the shipped en-de checks 43 MB against recorded checksums (the model folder's files, and
the optimized graphs of runtime/sessions.py's cache): reading and hashing them took about 50 ms of
CPU on every cold start, a third of the work of loading the model (SPEED-HISTORY.md, "Cold start:
checksums remembered, no teardown").

The memo is one small JSON file in attn's cache folder (`attn_cache()`), of the MEMO_ENTRIES
files last hashed; it is read at each lookup and rewritten (under a temporary name, then renamed)
when an entry is added. Any failure to read or write it means hashing, never an error. It is as
trustworthy as the folder it lives in, the optimized graphs': whoever can write there can change
those graphs as well."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from pathlib import Path

from .files import replace_whole

RACY_SECONDS = 2.0  # a file changed this recently is hashed, not remembered
MEMO_ENTRIES = 64  # files remembered: a few models' files and their optimized graphs
MEMO = "checksums.json"
_memo_lock = threading.Lock()  # one thread of this process rewrites the memo at a time


def attn_cache() -> Path:
    """attn's cache folder: $XDG_CACHE_HOME/attn, else ~/.cache/attn (RuntimeError without a home)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attn"


def attn_cache_may_be_made() -> bool:
    """Whether attn_cache() may be made: the folder above its cache folder (the home, or
    XDG_CACHE_HOME's parent) exists. A missing home is made by no one here."""
    return attn_cache().parent.parent.is_dir()


def sha256_of(path: Path) -> str:
    """The SHA-256 of the file at `path`: remembered, or hashed now."""
    known = _remembered(path, os.stat(path))
    if known:
        return known
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        before = os.fstat(handle.fileno())
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
        after = os.fstat(handle.fileno())
    _remember(path, before, after, digest.hexdigest())
    return digest.hexdigest()


def read_with_sha256(path: Path) -> tuple[bytes, str]:
    """The bytes of the file at `path` and their SHA-256: remembered when the file's identity was
    the one remembered both before and after the read, else hashed from the bytes read."""
    with open(path, "rb") as handle:
        before = os.fstat(handle.fileno())
        data = handle.read()
        after = os.fstat(handle.fileno())
    known = _remembered(path, before) if _identity(before) == _identity(after) else None
    if known:
        return data, known
    digest = hashlib.sha256(data).hexdigest()
    _remember(path, before, after, digest)
    return data, digest


def remembered_identity(path: Path, digest: str) -> list[int] | None:
    """The identity of the file at `path` (file_identity) when `digest` is the SHA-256 remembered
    for the file as it is now, else None."""
    status = os.stat(path)
    return _identity(status) if _remembered(path, status) == digest else None


def file_identity(path: Path) -> list[int]:
    """What the memo knows a file by: device, inode, size, modification and status-change times;
    while it stays the same, the file holds the bytes it held."""
    return _identity(os.stat(path))


def _identity(status: os.stat_result) -> list[int]:
    return [status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns]


def _key(path: Path) -> str:
    return os.path.abspath(path)


def _read_memo() -> dict[str, list]:
    try:
        memo = json.loads((attn_cache() / MEMO).read_text(encoding="utf-8"))
    except (OSError, RuntimeError, ValueError):  # none yet, unreadable, no home, not JSON
        return {}
    return memo if isinstance(memo, dict) else {}


def _remembered(path: Path, status: os.stat_result) -> str | None:
    entry = _read_memo().get(_key(path))
    if isinstance(entry, list) and len(entry) == 6 and entry[:5] == _identity(status) and isinstance(entry[5], str):
        return entry[5]
    return None


def _remember(path: Path, before: os.stat_result, after: os.stat_result, digest: str) -> None:
    """Remember the digest of a file that kept its identity while it was hashed, and whose last
    change is at least RACY_SECONDS old."""
    settled = time.time() - max(before.st_mtime_ns, before.st_ctime_ns) / 1e9 >= RACY_SECONDS
    if not settled or _identity(before) != _identity(after):
        return
    with _memo_lock, contextlib.suppress(OSError, RuntimeError):
        if not attn_cache_may_be_made():
            return
        folder = attn_cache()
        memo = _read_memo()
        memo.pop(_key(path), None)
        memo[_key(path)] = [*_identity(before), digest]
        kept = dict(list(memo.items())[-MEMO_ENTRIES:])
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{MEMO}.{os.getpid()}.{threading.get_ident()}"  # each writer's own
        replace_whole(folder / MEMO, lambda written: written.write_text(json.dumps(kept), encoding="utf-8"), partial)
