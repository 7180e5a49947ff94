"""`attn models install` and `attn models remove`: a public model downloaded (resumable, verified),
converted by its importer (export/importers) into the user's models folder (runtime/registry.py
`user_root`), quantized to int8 when asked, and recorded in its manifest's `training` block
(`installed_from`, `installed_at`, `licence`, `page`, `version`), where `attn models` and the
registry read them. The downloads are
deleted once the model is in place; an interrupted run leaves them for the next to resume."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from attn.export.importers import ALIGNMENT_LAYER
from attn.export.install.download import download, progress_bar
from attn.export.install.sources import Package, wanted
from attn.runtime.errors import UsageError
from attn.runtime.manifest import LICENCE, MANIFEST, ModelFolderError, read_manifest
from attn.runtime.registry import shipped_root, user_root

DOWNLOADS = "downloads"  # beside the models folder: what an interrupted install leaves to resume


@dataclass(frozen=True)
class Installed:
    """Where a package was installed, and whether this run installed it (False: it was there)."""

    folder: Path
    new: bool


def installed_folder(package: Package) -> Path:
    return user_root() / package.folder


def installed_as(folder_name: str, name: str) -> Path | None:
    """The user's model folder `folder_name` when `attn models install NAME` wrote it; None when
    there is none. A folder of that name from elsewhere (placed by hand, another source) is a
    UsageError: it is not replaced."""
    folder = user_root() / folder_name
    if (shipped_root() / folder_name / MANIFEST).is_file():
        raise UsageError(f"{folder_name!r} is the name of a model shipped with attn")
    if not (folder / MANIFEST).is_file():
        return None
    try:
        origin = read_manifest(folder, verify_checksums=False).training.get("installed_from")
    except ModelFolderError:
        origin = None
    if origin != name:
        raise UsageError(
            f"{folder} holds another model ({origin or 'not installed by attn models install'}); "
            f"`attn models remove {folder_name}` or remove it yourself first"
        )
    return folder


def install(package: Package, session, int8: bool = False) -> Installed:
    """Download, convert and place `package` (a no-op when it is installed). When the conversion
    fails, the downloads are deleted too: the next run fetches them afresh."""
    there = installed_as(package.folder, package.name)
    if there is not None:
        return Installed(there, new=False)
    out = installed_folder(package)
    downloads = user_root().parent / DOWNLOADS / package.folder
    with progress_bar() as progress:
        files = [download(remote, downloads, session, progress) for remote in package.files]
    checkpoint = downloads if package.importer == "marian" else files[0]
    provenance = {
        "installed_from": package.name,
        "installed_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "version": package.version,
        LICENCE: package.licence,
        "page": package.page,
    }
    try:
        convert(package, checkpoint, out, provenance, int8)
    finally:
        shutil.rmtree(downloads, ignore_errors=True)
        with contextlib.suppress(OSError):  # the downloads folder itself, when nothing else is in it
            downloads.parent.rmdir()
    return Installed(out, new=True)


def convert(package: Package, checkpoint: Path, out: Path, provenance: dict, int8: bool) -> None:
    """The downloaded checkpoint as the model folder `out` (fp32, or int8 by way of an fp32 folder
    made beside it), written whole or not at all."""
    if package.importer == "marian":
        from attn.export.importers.marian import MarianImporter

        importer = MarianImporter()
    else:
        from attn.export.importers.argos import ArgosImporter

        importer = ArgosImporter()
    if not int8:
        importer.write(checkpoint, out, package.source_lang, package.target_lang, ALIGNMENT_LAYER, provenance)
        return
    from attn.export.graphs.quantize import quantize_folder

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{out.name}-fp32-", dir=out.parent) as scratch:
        fp32 = Path(scratch) / "fp32"
        importer.write(checkpoint, fp32, package.source_lang, package.target_lang, ALIGNMENT_LAYER, provenance)
        quantize_folder(fp32, out)


def remove(name: str) -> Path:
    """Delete the installed model `name` (its folder name, or the name it was installed by:
    `opus-mt:en-de`) from the user's models folder; returns the folder. Refuses a shipped model,
    a path, and a folder `attn models install` did not write."""
    if name.startswith(("/", ".")) or ".." in name.replace("\\", "/").split("/"):  # a path, not a name
        raise UsageError(f"{name!r} is not an installed model's name (see `attn models`)")
    folder_name = name if "/" not in name and ":" not in name else wanted(name).folder
    if "/" in folder_name or "\\" in folder_name or folder_name in ("", ".", ".."):
        raise UsageError(f"{name!r} is not an installed model's name (see `attn models`)")
    folder = user_root() / folder_name
    if folder.is_symlink():
        raise UsageError(f"{folder} is a symbolic link, not a folder attn installed; remove it yourself")
    if not (folder / MANIFEST).is_file():
        if (shipped_root() / folder_name / MANIFEST).is_file():
            raise UsageError(f"{name!r} is shipped with attn and cannot be removed")
        raise UsageError(f"no installed model {name!r} in {user_root()} (see `attn models`)")
    try:
        manifest = read_manifest(folder, verify_checksums=False)
    except ModelFolderError as error:
        raise UsageError(f"{folder} is not a model folder attn reads ({error}); remove it yourself") from None
    if not manifest.training.get("installed_from"):
        raise UsageError(f"{folder} was not installed by `attn models install`; remove it yourself")
    foreign = sorted({entry.name for entry in folder.iterdir()} - {MANIFEST, *manifest.files})
    if foreign:
        raise UsageError(f"{folder} holds files attn did not write ({', '.join(foreign[:3])}); remove it yourself")
    shutil.rmtree(folder)
    return folder
