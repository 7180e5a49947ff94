"""Bytes that are no text: a compressed file or an archive told by its opening bytes, or anything
holding NUL bytes (an executable, an image). Read as text, they had been translated as garbage."""

from __future__ import annotations

STREAMS = ("gzip", "bzip2", "xz", "zstd")  # compressed text, which zcat and its kin read
COMPRESSED = {
    b"\x1f\x8b": "gzip",
    b"BZh": "bzip2",
    b"\xfd7zXZ\x00": "xz",
    b"\x28\xb5\x2f\xfd": "zstd",
    b"PK\x03\x04": "zip",
    b"%PDF-": "PDF",
}


def binary_kind(head: bytes) -> str | None:
    """What `head`, the first bytes of an input without a UTF-16 or UTF-32 mark, holds when it is
    no text ("gzip data", "binary data (NUL bytes)"); None for text."""
    kind = next((kind for magic, kind in COMPRESSED.items() if head.startswith(magic)), None)
    if kind is not None:
        return f"{kind} data"
    return "binary data (NUL bytes)" if b"\x00" in head else None


def compression(head: bytes) -> str | None:
    """The compressed stream (STREAMS) `head` opens, if any: "gzip"."""
    return next((kind for magic, kind in COMPRESSED.items() if kind in STREAMS and head.startswith(magic)), None)
