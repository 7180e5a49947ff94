"""Downloads that resume and verify: a remote file into a local one over HTTP(S) (requests, so the
standard proxy variables HTTPS_PROXY, HTTP_PROXY and NO_PROXY apply), continued from where an
interrupted run stopped (an HTTP Range request on the `.part` file it left), and checked before it
takes its final name: its size against what the source declared, and its SHA-256 where the source
gives one. A file that fails the check is deleted, so the next run downloads it afresh."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from attn.runtime.checksums import sha256_of
from attn.runtime.errors import UsageError

CHUNK = 1 << 16  # bytes read and written at a time (what a cut connection may lose of its last read)
TIMEOUT = (15, 60)  # seconds to connect, and to wait for each chunk
PARTIAL = ".part"  # the suffix of a download under way (or interrupted: resumed by the next run)
VALIDATOR = ".part-etag"  # beside it: the ETag or date of the file it is a part of (If-Range)


class DownloadError(UsageError):
    """A download that could not be made or did not verify; the message names the URL or file."""


@dataclass(frozen=True)
class Remote:
    """A file to download: its URL, the name it is saved as, and what the source declares of it
    (size in bytes, SHA-256 in hex; None where it declares nothing)."""

    url: str
    name: str
    size: int | None = None
    sha256: str | None = None


def progress_bar() -> Progress:
    """The progress display of a download, on standard error when it is a terminal (a log or a
    pipe gets only the command's result)."""
    from rich.console import Console

    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )


def download(remote: Remote, folder: Path, session, progress: Progress) -> Path:
    """`remote` saved as `folder/remote.name`, resumed from its `.part` file if an earlier run left
    one, verified; returns the file. Raises DownloadError naming the URL when the server refuses,
    the connection fails (the `.part` file kept for the next run) or the file does not verify."""
    import requests

    folder.mkdir(parents=True, exist_ok=True)
    final, part = folder / remote.name, folder / (remote.name + PARTIAL)
    validator = folder / (remote.name + VALIDATOR)
    checkable = remote.size is not None or remote.sha256 is not None
    if final.is_file() and checkable and verified(final, remote, delete=False):
        return final
    task = progress.add_task(remote.name, total=remote.size)
    try:
        for _ in range(2):  # a part the server no longer has (416: the file changed) starts over once
            if fetched(remote, part, validator, session, progress, task):
                break
            part.unlink(missing_ok=True)
        else:
            raise DownloadError(f"{remote.url}: the server refuses to send the file from its start (HTTP 416)")
    except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as error:
        got = part.stat().st_size if part.is_file() else 0
        raise DownloadError(
            f"{remote.url}: the download stopped ({type(error).__name__}) after {got:,} bytes; "
            "the same command resumes it"
        ) from None
    except requests.RequestException as error:
        raise request_failed(remote.url, error) from None
    validator.unlink(missing_ok=True)
    if not verified(part, remote, delete=True):
        raise DownloadError(
            f"{remote.url}: the downloaded file is not the one the source declares "
            f"({describe_mismatch(remote)}); it was deleted, and the same command downloads it afresh"
        )
    part.replace(final)
    return final


def fetched(remote: Remote, part: Path, validator: Path, session, progress: Progress, task) -> bool:
    """Fetch what `part` lacks of `remote` (all of it when the server sends the whole file, or when
    the file changed since `part` was begun: If-Range with the ETag or date `validator` keeps);
    False when the server answers 416 to a part that is not the whole file."""
    have = part.stat().st_size if part.is_file() else 0
    if remote.size is not None and have > remote.size:  # not a head of this file
        part.unlink()
        have = 0
    headers = {}
    if have:
        headers["Range"] = f"bytes={have}-"
        if validator.is_file():
            headers["If-Range"] = validator.read_text(encoding="utf-8").strip()
    with session.get(remote.url, headers=headers, stream=True, timeout=TIMEOUT) as response:
        if response.status_code == 416:
            return have > 0 and have == remote.size  # the part is the whole file
        if response.status_code not in (200, 206):
            raise DownloadError(f"{remote.url}: the server answered HTTP {response.status_code} {response.reason}")
        resumed = response.status_code == 206 and content_start(response) == have
        if not resumed:  # the whole file comes: start over
            have = 0
            stamp = response.headers.get("ETag") or response.headers.get("Last-Modified")
            if stamp:
                validator.write_text(stamp, encoding="utf-8")
            else:
                validator.unlink(missing_ok=True)
        total = declared_total(response, have)
        progress.update(task, total=remote.size or total, completed=have)
        with open(part, "ab" if resumed else "wb") as out:
            for chunk in response.iter_content(CHUNK):
                out.write(chunk)
                progress.advance(task, len(chunk))
    got = part.stat().st_size
    if total is not None and got != total:
        raise DownloadError(f"{remote.url}: {got:,} bytes came of the {total:,} the server announced")
    return True


def request_failed(url: str, error: Exception) -> DownloadError:
    """The one-line error of a request that failed otherwise than by the network (too many
    redirects, an address requests cannot use)."""
    return DownloadError(f"{url}: {type(error).__name__}: {' '.join(str(error).split())[:200]}")


def content_start(response) -> int | None:
    """The first byte a 206 answer holds, from its Content-Range ("bytes START-END/TOTAL")."""
    value = response.headers.get("Content-Range", "")
    try:
        return int(value.split()[1].split("-")[0])
    except (IndexError, ValueError):
        return None


def declared_total(response, have: int) -> int | None:
    """The whole file's size as the answer declares it (Content-Range's total, else the
    Content-Length plus what was already there), or None."""
    total = response.headers.get("Content-Range", "").rpartition("/")[2]
    if total.isdigit():
        return int(total)
    length = response.headers.get("Content-Length", "")
    return int(length) + have if length.isdigit() else None


def verified(path: Path, remote: Remote, delete: bool) -> bool:
    """Whether `path` has the declared size and SHA-256; a file that fails is deleted if `delete`."""
    good = (remote.size is None or path.stat().st_size == remote.size) and (
        remote.sha256 is None or sha256_of(path) == remote.sha256.lower()
    )
    if not good and delete:
        path.unlink()
    return good


def describe_mismatch(remote: Remote) -> str:
    declared = ([f"{remote.size:,} bytes"] if remote.size is not None else []) + (
        [f"SHA-256 {remote.sha256}"] if remote.sha256 else []
    )
    return "declared: " + ", ".join(declared) if declared else "its length is not what the server said"
