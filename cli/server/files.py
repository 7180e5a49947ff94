"""`/translate_file`'s translated files: kept in a temporary folder of the server's (removed when
it stops), each under a random name that `/download_file/NAME` serves, the oldest dropped beyond
FILES_KEPT. Each format is read and written by runtime/documents."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import tempfile
from pathlib import Path

from attn.runtime.processes import abandoned

FILES_KEPT = 256
FOLDER_PREFIX = "attn-serve-files-"  # then the server's process id
STORED_NAME = re.compile(
    r"^[0-9a-f]{32}\.[\w.-]{1,200}$"
)  # the user's name: 200 bytes at most  # letters of any script: "Übersicht.docx"


class TranslatedFiles:
    """The translated files kept for download, in a temporary folder named with the server's
    process id: a server killed without its teardown (kill -9) leaves its folder, and the next
    server to start removes it, with the users' translations in it."""

    def __init__(self):
        sweep_abandoned_folders()
        self.folder = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-"))

    def store(self, filename: str, data: bytes) -> str:
        """Keep `data` for download under a new name (the user's name, made safe, after a random
        prefix); return that name."""
        safe = re.sub(r"[^\w.-]", "_", Path(filename).name)
        safe = safe.encode()[-200:].decode(errors="ignore").lstrip(".") or "translated.txt"  # 255 bytes a name
        name = f"{secrets.token_hex(16)}.{safe}"
        (self.folder / name).write_bytes(data)
        kept = sorted(self.folder.iterdir(), key=lambda path: path.stat().st_mtime)
        for old in kept[:-FILES_KEPT]:
            old.unlink(missing_ok=True)
        return name

    def path(self, name: str) -> Path | None:
        """The stored file of that name, or None (a name of any other shape never reaches the disk)."""
        if not STORED_NAME.match(name):
            return None
        path = self.folder / name
        return path if path.is_file() else None

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def sweep_abandoned_folders() -> None:
    """Remove the folders of translated files whose server no longer runs."""
    folders = Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}*")
    for folder in abandoned(folders, lambda name: name.removeprefix(FOLDER_PREFIX).split("-")[0]):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)


def download_name(name: str) -> str:
    """The name a stored file is downloaded under: the user's, without the random prefix."""
    return name.split(".", 1)[1]
