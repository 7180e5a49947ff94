"""Installed model folders and how a command picks one: those `attn models install` wrote (the
user's models folder, first) and those shipped inside the package."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .constants import MANIFEST
from .manifest import Manifest, ModelFolderError, read_manifest

DEFAULT_PAIRS = {"translate": ("en", "de"), "summarize": ("en", "en")}


HOME = "ATTN_HOME"  # the environment variable naming attn's data folder (models/ inside it)


def shipped_root() -> Path:
    """The folder of shipped models (the `attn.models` package data)."""
    import attn.models

    return Path(attn.models.__file__).parent


def user_root() -> Path:
    """The folder `attn models install` writes: `$ATTN_HOME/models`, else `models` in the
    platform's data folder for attn (~/.local/share/attn/models on Linux)."""
    home = os.environ.get(HOME)
    if home:
        return Path(home) / "models"
    import platformdirs

    return platformdirs.user_data_path("attn") / "models"


def model_roots() -> list[Path]:
    """Where installed models are, in the order a language pair is given to them: the user's
    installed models before the shipped ones (an installed opus-mt en-de takes en→de)."""
    return [user_root(), shipped_root()]


@dataclass(frozen=True)
class InstalledModel:
    name: str
    folder: Path
    manifest: Manifest

    @property
    def size_bytes(self) -> int:
        return sum(f.stat().st_size for f in self.folder.iterdir() if f.is_file())


def installed_models(
    roots: list[Path] | None = None, unreadable: Callable[[Path, str], None] | None = None
) -> list[InstalledModel]:
    """Every sub-folder of the `roots` (default model_roots()) holding a readable manifest
    (checksums not verified here), root by root, in each the most recently installed first (then
    by name); a name met again in a later root is left out, and so is a folder whose manifest
    cannot be read, told to `unreadable` (the folder, why) where given."""
    models: dict[str, InstalledModel] = {}
    for root in roots or model_roots():
        if not root.is_dir():
            continue
        found = []
        for folder in sorted(p for p in root.iterdir() if (p / MANIFEST).is_file()):
            if folder.name in models or folder.name.startswith("."):  # a staging folder mid-write
                continue
            try:
                found.append(InstalledModel(folder.name, folder, read_manifest(folder, verify_checksums=False)))
            except ModelFolderError as error:
                if unreadable is not None:
                    unreadable(folder, str(error))
                continue
        found.sort(key=lambda model: str(model.manifest.training.get("installed_at") or ""), reverse=True)
        models |= {model.name: model for model in found}  # a stable sort: by name where no time is recorded
    return list(models.values())


def resolve_model(model: str | None, task: str, source: str | None, target: str | None) -> Path:
    """`model` as a path or an installed name; otherwise the installed model of `task` for the
    language pair (default en→de for translate), a model of several directions fitting with any
    of them (the LoadedModel then takes the pair asked); when two have the pair, pair_owners
    decides. Raises ModelFolderError when none fits."""
    if model is not None:
        if not model.strip():
            raise ModelFolderError("--model is empty: name a model folder or an installed model")
        path = Path(model)
        if "/" in model or model.startswith(".") or (path / MANIFEST).exists():
            return path
        folder_name = model.replace(":", "-", 1)  # the name `attn models install` took: opus-mt:en-de
        for installed in installed_models():
            if installed.name == folder_name:
                # a folder of that name here that is no model (a project's en-de/ of test files) had hidden it
                return installed.folder
        if path.exists():
            return path
        pair = re.fullmatch(r"([a-z]{2,3})-([a-z]{2,3})", model)  # a language pair named as a model ("en-fr")
        hint = (
            f"; a language pair is no model's name: attn translate -s {pair[1]} -t {pair[2]} picks one" if pair else ""
        )
        raise ModelFolderError(f"no model folder or installed model named {model!r} (see `attn models`{hint})")
    default_source, default_target = DEFAULT_PAIRS[task]
    models = [m for m in pickable(installed_models()) if m.manifest.task == task]
    fitting = [(m, pair) for m in models for pair in m.manifest.fitting(source, target)]
    if len(fitting) == 1 and (source or target):  # `--from de` alone picks the one German-source model
        return fitting[0][0].folder
    wanted = (source or default_source, target or default_target)
    owner = pair_owners([m.manifest for m in models]).get(wanted)
    if owner is not None:
        return models[owner].folder
    if fitting:
        pairs = ", ".join(f"{s}→{t}" for _, (s, t) in fitting)
        raise ModelFolderError(f"several installed {task} models fit ({pairs}): choose with --from and --to")
    asked = (
        "".join([f" from {source}" if source else "", f" into {target}" if target else ""])
        or f" for {wanted[0]}→{wanted[1]}"
    )
    raise ModelFolderError(
        f"no installed {task} model{asked} (see `attn models`, or pass --model)" + pivot_hint(task, source, target)
    )


def pair_owners(manifests: list[Manifest]) -> dict[tuple[str, str], int]:
    """(source, target) → the index of the model that translates it when several could: the first
    made for it (its manifest's first pair) before the first that has it among other directions
    (a model shipped for fr→en that also writes French leaves en→fr to the en→fr model); a model
    used only by name (Manifest.by_name_only) only for a pair no other of `manifests` has (where
    it was named: `attn serve --models`, `attn.load(FOLDER)`; the callers that take every installed
    model leave it out first: pickable)."""
    owners: dict[tuple[str, str], int] = {}
    for by_name_only in (False, True):
        for made_for_it in (True, False):
            for index, manifest in enumerate(manifests):
                for pair in manifest.pairs if manifest.by_name_only == by_name_only else []:
                    if (pair == manifest.pairs[0]) == made_for_it:
                        owners.setdefault(pair, index)
    return owners


def folder_for_pair(pair: tuple[str, str], roots: list[Path] | None = None) -> Path | None:
    """The folder of the translation model among those installed in `roots` (default
    model_roots()) that the language `pair` picks (pair_owners, models used only by name left
    out); None when none translates it."""
    models = [model for model in pickable(installed_models(roots)) if model.manifest.task == "translate"]
    owner = pair_owners([model.manifest for model in models]).get(pair)
    return None if owner is None else models[owner].folder


def pickable(models: list[InstalledModel]) -> list[InstalledModel]:
    """The installed models a language pair may pick: all but those used only by name."""
    return [model for model in models if not model.manifest.by_name_only]


def pivot_hint(task: str, source: str | None, target: str | None) -> str:
    """For a missing direction that two installed ones chain into (de→en, en→fr for de→fr): that
    `attn translate` takes it through the middle language (runtime/router.py), which a command
    of one model (align, eval, bench) cannot."""
    if not (source and target) or task != "translate":
        return ""
    from .router import Routes

    hops = Routes(installed_pairs(task)).hops(source, target)
    if not hops or len(hops) < 2:
        return ""
    return f"; `attn translate --from {source} --to {target}` translates through {hops[0][1]}"


def installed_pairs(task: str = "translate") -> list[tuple[str, str]]:
    """(source, target) of every direction that an installed model of `task` translates, each once."""
    return list(pair_owners([m.manifest for m in pickable(installed_models()) if m.manifest.task == task]))
