"""Write a model folder all at once: build it in a hidden sibling folder, then swap it into place;
on any failure the staging folder goes away and an existing folder is left untouched.

`--out` is only ever replaced when it is a model folder (a manifest and the known model files,
nothing else) or an empty folder: anything else is refused, so a typo never deletes a user's
files. The swap is one atomic exchange of the two folders (Linux renameat2 RENAME_EXCHANGE), so a
reader never finds `out` missing; where the file system cannot exchange, two renames. A staging
folder is named after the process that made it, and one whose process is gone (kill -9 in the
middle of an export) is removed by the next export to the same place.
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from attn.runtime.constants import LANGUAGE_WORDS, MANIFEST
from attn.runtime.errors import UsageError
from attn.runtime.manifest import KNOWN_FILES, ModelFolderError, read_manifest, sha256_of
from attn.runtime.processes import abandoned

STAGING = "staging"
AT_FDCWD = -100
RENAME_EXCHANGE = 2


def write_derived_manifest(
    source: Path, staging: Path, files: list[str], architecture: dict | None = None, least_format: int = 0
) -> None:
    """Write the manifest of a folder derived from the model folder `source` (an int8 copy, a new
    shortlist): `source`'s manifest with the checksums of `files` as `staging` holds them, the
    `architecture` entries updated, and its format version at least `least_format`."""
    raw = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
    raw["files"] = {name: sha256_of(staging / name) for name in files}
    raw["architecture"].update(architecture or {})
    raw["format_version"] = max(raw.get("format_version", 0), least_format)
    (staging / MANIFEST).write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")


@contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """Yield an empty folder next to `out`; when the block succeeds it replaces `out`."""
    check_replaceable(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    sweep_abandoned(out)
    staging = out.parent / f".{out.name}.{STAGING}-{os.getpid()}-{secrets.token_hex(4)}"
    staging.mkdir(mode=0o755)
    try:
        yield staging
        check_replaceable(out)  # still a model folder, or still absent, after the build
        _replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def check_replaceable(out: Path) -> None:
    """Raise UsageError unless `out` is absent, an empty folder or a model folder: a manifest that
    verifies (read_manifest, checksums and all) and no file but the known model files and the word
    lists its manifest lists (words.LANGUAGE.txt: every shipped translation folder holds them, and
    a second `attn quantize` to the same --out had been refused; one it does not list is the
    user's)."""
    if out.is_symlink():
        raise UsageError(f"--out {out} is a symbolic link; name a folder")
    if not out.exists():
        return
    if not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder; choose another --out")
    entries = set(os.listdir(out))
    foreign = sorted(entries - {MANIFEST, *KNOWN_FILES} - listed_word_lists(out, entries))
    if entries and (MANIFEST not in entries or foreign):
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "") if foreign else f"no {MANIFEST}"
        raise UsageError(
            f"--out {out} exists and is not a model folder ({shown}); choose another --out "
            f"or remove it yourself: attn replaces only model folders"
        )
    if any((out / name).is_dir() and not (out / name).is_symlink() for name in entries):
        raise UsageError(f"--out {out} holds folders; it is not a model folder")
    if entries:
        try:  # a file merely named manifest.json (a browser extension's) does not make a model folder
            read_manifest(out, verify_checksums=True)
        except ModelFolderError as error:
            raise UsageError(
                f"--out {out} is not a model folder that verifies ({error}); choose another --out "
                f"or remove it yourself: attn replaces only model folders"
            ) from None


def listed_word_lists(folder: Path, entries: set[str]) -> set[str]:
    """The word lists (words.LANGUAGE.txt) of `entries` that the folder's manifest lists; none where
    it has no readable manifest."""
    try:
        listed = read_manifest(folder, verify_checksums=False).files
    except ModelFolderError:
        return set()
    return {entry for entry in entries if LANGUAGE_WORDS.fullmatch(entry) and entry in listed}


def sweep_abandoned(out: Path) -> None:
    """Remove staging folders for `out` whose process no longer runs."""
    prefix = f".{out.name}.{STAGING}-"
    for folder in abandoned(out.parent.glob(f"{prefix}*"), lambda name: name.removeprefix(prefix).split("-")[0]):
        shutil.rmtree(folder, ignore_errors=True)


def _replace(staging: Path, out: Path) -> None:
    if not out.exists():
        os.replace(staging, out)
    elif _exchange(staging, out):
        shutil.rmtree(staging, ignore_errors=True)  # now the previous folder
    else:
        retired = out.parent / f".{out.name}.{STAGING}-{os.getpid()}-old-{secrets.token_hex(4)}"
        os.replace(out, retired)
        try:
            os.replace(staging, out)
        except BaseException:
            os.replace(retired, out)
            raise
        shutil.rmtree(retired, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically (Linux renameat2); False where that is not available."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return renameat2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE) == 0
