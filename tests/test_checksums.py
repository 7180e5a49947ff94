"""Checksums remembered by file identity (runtime/checksums.py): a file is hashed again whenever it
may have changed, a file changed moments ago is never remembered, and a broken or missing memo
means hashing, never an error (a translator's starts: tests/test_sessions.py). `hashed` (conftest.py)
lists the lengths of what was hashed."""

import hashlib
import json
import os

import pytest

from attn.runtime import checksums
from attn.runtime.checksums import MEMO, attn_cache, read_with_sha256, sha256_of

pytestmark = pytest.mark.unit


def test_an_unchanged_file_is_hashed_once(hashed, tmp_path):
    path = tmp_path / "weights.bin"
    path.write_bytes(b"x" * 5000)
    expected = hashlib.sha256(b"x" * 5000).hexdigest()
    assert sha256_of(path) == expected and sum(hashed) == 5000
    assert sha256_of(path) == expected and read_with_sha256(path) == (b"x" * 5000, expected)
    assert sum(hashed) == 5000


@pytest.mark.parametrize("change", ["replaced", "resized", "touched"])
def test_a_changed_file_is_hashed_again(hashed, tmp_path, change):
    path = tmp_path / "weights.bin"
    path.write_bytes(b"x" * 5000)
    sha256_of(path)
    if change == "replaced":  # another file renamed over it: another inode
        (tmp_path / "new.bin").write_bytes(b"y" * 5000)
        os.replace(tmp_path / "new.bin", path)
    elif change == "resized":
        path.write_bytes(b"y" * 4999)
    else:  # same size, written in place, its modification time set elsewhere
        path.write_bytes(b"y" * 5000)
        os.utime(path, ns=(10**18, 10**18))
    assert sha256_of(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    assert sum(hashed) == 5000 + path.stat().st_size


def test_a_file_changed_moments_ago_is_not_remembered(hashed, tmp_path, monkeypatch):
    """A write in the same tick of the clock might keep the times the memo knows a file by."""
    monkeypatch.setattr(checksums, "RACY_SECONDS", 60.0)
    path = tmp_path / "weights.bin"
    path.write_bytes(b"x" * 5000)
    sha256_of(path)
    sha256_of(path)
    assert sum(hashed) == 10000 and not (attn_cache() / MEMO).exists()


@pytest.mark.parametrize("memo", [b"{not json", b"[1, 2]", b'{"KEY": [1, 2, 3]}', b'{"KEY": [0, 0, 0, 0, 0, 7]}'])
def test_a_broken_memo_means_hashing(hashed, tmp_path, memo):
    path = tmp_path / "weights.bin"
    path.write_bytes(b"x" * 5000)
    attn_cache().mkdir(parents=True)
    (attn_cache() / MEMO).write_bytes(memo.replace(b"KEY", json.dumps(str(path)).strip('"').encode()))
    assert sha256_of(path) == hashlib.sha256(b"x" * 5000).hexdigest()
    assert sha256_of(path) == hashlib.sha256(b"x" * 5000).hexdigest() and sum(hashed) == 5000


def test_a_missing_home_gets_no_memo(hashed, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "gone" / "cache"))
    path = tmp_path / "weights.bin"
    path.write_bytes(b"x" * 5000)
    assert sha256_of(path) == sha256_of(path) and sum(hashed) == 10000
    assert not (tmp_path / "gone").exists()


def test_the_memo_keeps_the_files_last_hashed(hashed, tmp_path, monkeypatch):
    monkeypatch.setattr(checksums, "MEMO_ENTRIES", 3)
    for index in range(5):
        (tmp_path / f"{index}.bin").write_bytes(bytes([index]) * 10)
        sha256_of(tmp_path / f"{index}.bin")
    kept = json.loads((attn_cache() / MEMO).read_text())
    assert [os.path.basename(path) for path in kept] == ["2.bin", "3.bin", "4.bin"]
