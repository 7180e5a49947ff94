"""The model folder's manifest.json: what the folder holds and how to drive it.

Written by `attn export`, read by the runtime. Checksums cover every other file of the folder.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .constants import DECODER, ENCODER, FORMAT_VERSION, MANIFEST, OUTPUT_LAYER, TASKS, TOKENIZER


class ModelFolderError(Exception):
    """A model folder that cannot be used; the message names the folder or file."""


@dataclass(frozen=True)
class Manifest:
    task: str
    source_lang: str
    target_lang: str
    architecture: dict
    special_ids: dict
    state_names: list[str]
    files: dict[str, str]
    search: dict
    training: dict = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path, verify_checksums: bool = True) -> Manifest:
    """Load and check a folder's manifest; raises ModelFolderError naming what is wrong."""
    path = folder / MANIFEST
    if not folder.is_dir():
        raise ModelFolderError(f"model folder not found: {folder}")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelFolderError(f"{path}: missing manifest") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ModelFolderError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(raw, dict):
        raise ModelFolderError(f"{path}: manifest must be a JSON object")
    version = raw.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ModelFolderError(
            f"{path}: format version {version} is newer than this attn reads ({FORMAT_VERSION}); upgrade attn"
        )
    if version < FORMAT_VERSION:
        raise ModelFolderError(f"{path}: format version {version} is older than this attn reads "
                               f"({FORMAT_VERSION}); export the model again with `attn export --no-train`")
    try:
        manifest = Manifest(**raw)
    except TypeError as error:
        raise ModelFolderError(f"{path}: malformed manifest ({error})") from None
    if manifest.task not in TASKS:
        raise ModelFolderError(f"{path}: unknown task {manifest.task!r}")
    for name in (ENCODER, DECODER, OUTPUT_LAYER, TOKENIZER):
        if name not in manifest.files:
            raise ModelFolderError(f"{path}: lists no checksum for {name}")
    for name, expected in manifest.files.items():
        file = folder / name
        if not file.is_file():
            raise ModelFolderError(f"{file}: missing file")
        if verify_checksums and sha256_of(file) != expected:
            raise ModelFolderError(f"{file}: checksum mismatch (damaged or altered file)")
    return manifest
