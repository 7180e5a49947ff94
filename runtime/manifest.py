"""The model folder's manifest.json: what the folder holds and how to drive it.

Written by `attn export`, read by the runtime. Checksums cover every other file of the folder.
"""

from __future__ import annotations

import json
import re
import threading
import zipfile
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from .checksums import read_with_sha256, sha256_of
from .constants import (
    DECODER,
    DIRECTIONS_FORMAT,
    ENCODER,
    FORMAT_VERSION,
    LANGUAGE_CODE,
    LANGUAGE_WORDS,
    LANGUAGE_WORDS_FORMAT,
    LEXICON,
    MANIFEST,
    OLDEST_FORMAT,
    ONE_DIRECTION_FORMAT,
    OUTPUT_LAYER,
    SOURCE_TOKENIZER,
    SOURCE_WORDS,
    SOURCE_WORDS_FORMAT,
    SPECIAL_IDS,
    SPECIAL_TOKENS,
    TARGET_WORDS,
    TASKS,
    TOKENIZER,
    WORDS_FORMAT,
    language_words_file,
)
from .errors import UsageError
from .graph_contract import STATE_KINDS, StateSpec, rnn_states
from .search import SEARCH_FLAGS, SEARCH_LIMITS, check_search_value


class ModelFolderError(UsageError):
    """A model folder that cannot be used; the message names the folder or file."""


# Keys of a manifest's training fields that say what the folder may be used for: what its data or
# its source allows, and whether it is picked for a language pair or used only by name
LICENCE = "licence"
BY_NAME_ONLY = "by_name_only"


@dataclass(frozen=True)
class Manifest:
    """`states` (format 3) declares every state the graphs pass, in the encoder's output order,
    as {"name", "kind"} (runtime/graph_contract.py); a format-2 folder lists only its recurrent
    `state_names` instead, and `state_specs` derives the rest. A model of several directions
    (format 4) lists them as [source, target] pairs in `directions`, (source_lang, target_lang)
    among them as the default; each source then opens with its target language's token."""

    task: str
    source_lang: str
    target_lang: str
    architecture: dict
    special_ids: dict
    files: dict[str, str]
    search: dict
    states: list[dict] = field(default_factory=list)
    state_names: list[str] = field(default_factory=list)
    training: dict = field(default_factory=dict)
    directions: list[list[str]] = field(default_factory=list)
    format_version: int = FORMAT_VERSION

    @property
    def by_name_only(self) -> bool:
        """Whether the model is used only when named, never picked for a language pair (its
        config's [task] by_name_only: a model whose data allows research use only)."""
        return bool(self.training.get(BY_NAME_ONLY))

    @property
    def precision(self) -> str:
        """The precision the graphs compute in (PRECISIONS): "fp32" unless the architecture says."""
        return self.architecture.get("precision", PRECISIONS[0])

    @property
    def int8(self) -> bool:
        return self.precision == "int8"

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Every (source, target) language pair the model translates, the default first."""
        default = (self.source_lang, self.target_lang)
        return [default] + [(source, target) for source, target in self.directions if (source, target) != default]

    def fitting(self, source: str | None, target: str | None) -> list[tuple[str, str]]:
        """The pairs that translate from `source` into `target` (None: any)."""
        return [pair for pair in self.pairs if source in (None, pair[0]) and target in (None, pair[1])]

    @property
    def state_specs(self) -> list[StateSpec]:
        if self.format_version == OLDEST_FORMAT:
            return rnn_states(self.state_names)
        return [StateSpec(state["name"], state["kind"]) for state in self.states]

    def to_json(self) -> str:
        fields_ = asdict(self)
        if self.format_version > OLDEST_FORMAT:
            del fields_["state_names"]
        if self.format_version <= ONE_DIRECTION_FORMAT:
            del fields_["directions"]
        return json.dumps(fields_, indent=2, ensure_ascii=False)


def verified_bytes(folder: Path, manifest: Manifest, name: str) -> bytes:
    """A file of the folder read once, its bytes checked against the manifest's checksum: the
    bytes to use, so that a file changed between the check and the use is refused, not loaded.
    (read_manifest leaves such files to this check: `checked_when_read`.)"""
    data, digest = read_with_sha256(folder / name)
    _check_digest(folder, name, manifest, digest)
    return data


def _check_digest(folder: Path, name: str, manifest: Manifest, digest: str) -> None:
    if digest != manifest.files[name]:
        raise ModelFolderError(f"{folder / name}: checksum mismatch (damaged or altered file, or one being written)")


class VerifiedFile:
    """A file of the folder checked against the manifest's checksum once, by the first thread that
    asks: `read` gives its bytes as verified_bytes does; `check` checks it without keeping them
    (its checksum remembered, runtime/checksums.py, or hashed)."""

    def __init__(self, folder: Path, manifest: Manifest, name: str):
        self.folder, self.manifest, self.name = folder, manifest, name
        self._lock = threading.Lock()
        self._checked = False

    def read(self) -> bytes:
        with self._lock:
            data = verified_bytes(self.folder, self.manifest, self.name)
            self._checked = True
            return data

    def check(self) -> None:
        with self._lock:
            if not self._checked:
                _check_digest(self.folder, self.name, self.manifest, sha256_of(self.folder / self.name))
                self._checked = True


# An .npz member may unpack to at most this many times its stored size, or to LARGE_MEMBER bytes:
# the shipped arrays unpack 1 to 3 times; a zip bomb 1,000 times and more.
NPZ_RATIO, LARGE_MEMBER = 50, 1 << 24


def check_npz(path: Path, what: str) -> None:
    """Refuse, from its zip directory and before anything is unpacked, an .npz (holding `what`)
    whose members would unpack far beyond their stored size."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError) as error:
        raise ModelFolderError(f"{path}: cannot read {what} (not a readable .npz archive: {error})") from None
    for member in members:
        if member.file_size > max(LARGE_MEMBER, NPZ_RATIO * member.compress_size):
            raise ModelFolderError(
                f"{path}: member {member.filename} would unpack to {member.file_size:,} bytes "
                f"from {member.compress_size:,}; refusing it"
            )


MANIFEST_LIMIT = 1 << 20  # bytes; a manifest is about 2 KB
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
STATE_NAME = re.compile(r"[a-z][a-z0-9_]{0,47}")
LANGUAGE = re.compile(LANGUAGE_CODE)
KNOWN_FILES = (ENCODER, DECODER, OUTPUT_LAYER, TOKENIZER, SOURCE_TOKENIZER, LEXICON, TARGET_WORDS, SOURCE_WORDS)
REQUIRED_FILES = (ENCODER, DECODER, OUTPUT_LAYER, TOKENIZER)
PRECISIONS = ("fp32", "int8")
MAX_VOCABULARY = 1 << 20


def read_manifest(folder: Path, verify_checksums: bool = True, checked_when_read: Collection[str] = ()) -> Manifest:
    """Load and check a folder's manifest; raises ModelFolderError naming what is wrong. The files
    named in `checked_when_read` are not hashed here: the caller reads them with verified_bytes,
    which checks the bytes it uses (each graph is hashed once per start, not twice).

    Only the known file names are accepted, as plain files inside the folder (no path, no
    symbolic link), and every field is type- and range-checked, so that a damaged or hostile
    manifest is refused here rather than failing deep inside a run."""
    path = folder / MANIFEST
    if not folder.is_dir():
        raise ModelFolderError(f"model folder not found: {folder}")
    raw = _load_json(path)
    version = raw.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ModelFolderError(f"{path}: format_version must be an integer, got {version!r}")
    if version > FORMAT_VERSION:
        raise ModelFolderError(
            f"{path}: format version {version} is newer than this attn reads ({FORMAT_VERSION}); upgrade attn"
        )
    if version < OLDEST_FORMAT:
        raise ModelFolderError(
            f"{path}: format version {version} is older than this attn reads "
            f"({OLDEST_FORMAT}); export the model again with `attn export --no-train`"
        )
    known = {f.name for f in fields(Manifest)}
    try:
        manifest = Manifest(**{key: value for key, value in raw.items() if key in known})
    except TypeError as error:
        raise ModelFolderError(f"{path}: malformed manifest ({error})") from None
    problem = _problem(manifest)
    if problem:
        raise ModelFolderError(f"{path}: {problem}")
    for name, expected in manifest.files.items():
        file = folder / name
        if file.is_symlink() or not file.is_file():
            raise ModelFolderError(
                f"{file}: missing file"
                if not file.exists() and not file.is_symlink()
                else f"{file}: not a regular file"
            )
        if verify_checksums and name not in checked_when_read and sha256_of(file) != expected:
            raise ModelFolderError(f"{file}: checksum mismatch (damaged or altered file)")
    return manifest


def _load_json(path: Path) -> dict:
    """The manifest as a dict: a regular file of at most MANIFEST_LIMIT bytes, valid JSON."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise ModelFolderError(f"{path}: not a regular file")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MANIFEST_LIMIT + 1)
    except FileNotFoundError:
        raise ModelFolderError(f"{path}: missing manifest") from None
    if len(data) > MANIFEST_LIMIT:
        raise ModelFolderError(f"{path}: larger than {MANIFEST_LIMIT} bytes, not a manifest")
    try:
        raw = json.loads(data.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ModelFolderError(f"{path}: not valid JSON ({error})") from None
    except RecursionError:
        raise ModelFolderError(f"{path}: not valid JSON (nested too deeply)") from None
    if not isinstance(raw, dict):
        raise ModelFolderError(f"{path}: manifest must be a JSON object")
    return raw


def _problem(manifest: Manifest) -> str | None:
    """What is wrong with the manifest's fields, or None."""
    if manifest.task not in TASKS:
        return f"unknown task {manifest.task!r} (known: {', '.join(TASKS)})"
    for name in ("source_lang", "target_lang"):
        value = getattr(manifest, name)
        if not isinstance(value, str) or not LANGUAGE.fullmatch(value):
            return f"{name} must be a language code, got {value!r}"
    directions = manifest.directions
    if (
        not isinstance(directions, list)
        or len(directions) > 64
        or not all(
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(code, str) and LANGUAGE.fullmatch(code) for code in pair)
            and pair[0] != pair[1]
            for pair in directions
        )
    ):
        return f"directions must be a list of [source, target] language codes, got {directions!r}"[:300]
    if directions and (
        [manifest.source_lang, manifest.target_lang] not in directions
        or len({tuple(pair) for pair in directions}) != len(directions)
    ):
        return "directions must list each pair once, source_lang → target_lang among them"
    if directions and manifest.format_version < DIRECTIONS_FORMAT:
        return f"directions need format version {DIRECTIONS_FORMAT}"
    for name in ("architecture", "special_ids", "search", "training"):
        if not isinstance(getattr(manifest, name), dict):
            return f"{name} must be an object"
    if not isinstance(manifest.files, dict):
        return "files must be an object of file names and checksums"
    languages = {code for pair in manifest.pairs for code in pair}
    for name, checksum in manifest.files.items():
        words_of = LANGUAGE_WORDS.fullmatch(name)
        if words_of and words_of["language"] not in languages:
            return f"files: {name} is of a language the model does not translate ({', '.join(sorted(languages))})"
        if name not in KNOWN_FILES and not words_of:
            known = ", ".join([*KNOWN_FILES, language_words_file("LANGUAGE")])
            return f"files: unknown file name {name!r} (known: {known})"
        if not isinstance(checksum, str) or not SHA256_HEX.fullmatch(checksum):
            return f"files: the checksum of {name} must be 64 hexadecimal digits"
    for name in REQUIRED_FILES:
        if name not in manifest.files:
            return f"lists no checksum for {name}"
    for name, least in ((TARGET_WORDS, WORDS_FORMAT), (SOURCE_WORDS, SOURCE_WORDS_FORMAT)):
        if name in manifest.files and manifest.format_version < least:
            return f"{name} needs format version {least}"
    for name in manifest.files:
        if LANGUAGE_WORDS.fullmatch(name) and manifest.format_version < LANGUAGE_WORDS_FORMAT:
            return f"{name} needs format version {LANGUAGE_WORDS_FORMAT}"
    if manifest.special_ids != SPECIAL_IDS:
        return f"special_ids must be {SPECIAL_IDS}, got {manifest.special_ids!r}"
    names = manifest.state_names
    if (
        not isinstance(names, list)
        or not all(isinstance(n, str) and STATE_NAME.fullmatch(n) for n in names)
        or len(set(names)) != len(names)
        or len(names) > 64
    ):
        return f"state_names must be a list of distinct lower-case names, got {names!r}"
    states = manifest.states
    if manifest.format_version > OLDEST_FORMAT:
        if (
            not isinstance(states, list)
            or not states
            or len(states) > 256
            or not all(
                isinstance(s, dict)
                and set(s) == {"name", "kind"}
                and isinstance(s["name"], str)
                and STATE_NAME.fullmatch(s["name"])
                and s["kind"] in STATE_KINDS
                for s in states
            )
        ):
            return f"states must be a list of {{name, kind}} with kinds {', '.join(STATE_KINDS)}, got {states!r}"[:300]
        if len({s["name"] for s in states}) != len(states):
            return "states: names must be distinct"
    vocab_size = manifest.architecture.get("vocab_size")
    if (
        isinstance(vocab_size, bool)
        or not isinstance(vocab_size, int)
        or not len(SPECIAL_TOKENS) < vocab_size <= MAX_VOCABULARY
    ):
        return f"architecture.vocab_size must be an integer in ({len(SPECIAL_TOKENS)}, {MAX_VOCABULARY}], got {vocab_size!r}"
    if manifest.precision not in PRECISIONS:
        return f"architecture.precision must be one of {', '.join(PRECISIONS)}, got {manifest.precision!r}"
    for name, value in manifest.search.items():
        if name == "seed" or name not in SEARCH_LIMITS and name not in SEARCH_FLAGS:
            return f"search: unknown setting {name!r}"
        try:
            check_search_value(name, value)
        except ValueError as error:
            return f"search.{error}"
    return None
