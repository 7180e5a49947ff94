"""How `attn translate` picks an installed model by --from/--to (runtime/registry.py), among
folders of a manifest and empty files (the registry reads manifests without their checksums)."""

import json
from pathlib import Path

import pytest

from attn.runtime import registry
from attn.runtime.constants import LANGUAGE_WORDS
from attn.runtime.manifest import ModelFolderError

from .conftest import ROOT

pytestmark = pytest.mark.unit


def install(
    root, name: str, source: str, target: str, directions: list[list[str]] = (), by_name_only: bool = False
) -> None:
    """A model folder `root/name` for source→target (and `directions`, if any): the shipped
    en-de manifest, changed, less its word lists (of its own languages), and its files empty."""
    manifest = json.loads((ROOT / "models" / "en-de" / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(source_lang=source, target_lang=target)
    manifest["files"] = {file: sha for file, sha in manifest["files"].items() if not LANGUAGE_WORDS.fullmatch(file)}
    if by_name_only:
        manifest["training"].update(by_name_only=True, licence="research use only")
    if directions:
        manifest.update(directions=directions, format_version=max(manifest["format_version"], 4))
    (root / name).mkdir()
    for file in manifest["files"]:
        (root / name / file).touch()
    (root / name / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """en→de, en→fr, and a model made for fr→en that also writes French."""
    install(tmp_path, "en-de", "en", "de")
    install(tmp_path, "en-fr", "en", "fr")
    install(tmp_path, "fr-en", "fr", "en", [["fr", "en"], ["en", "fr"]])
    monkeypatch.setattr(registry, "model_roots", lambda: [tmp_path])
    return tmp_path


def test_the_model_made_for_a_pair_wins_over_one_that_has_it_among_others(installed):
    assert registry.resolve_model(None, "translate", None, "fr") == installed / "en-fr"
    assert registry.resolve_model(None, "translate", "en", "fr") == installed / "en-fr"
    assert registry.resolve_model(None, "translate", "fr", None) == installed / "fr-en"
    assert registry.resolve_model(None, "translate", None, None) == installed / "en-de"


def test_a_pair_offered_twice_is_listed_once(installed):
    assert registry.installed_pairs() == [("en", "de"), ("en", "fr"), ("fr", "en")]


def test_the_other_order_of_folders_picks_the_same(installed):
    (installed / "en-fr").rename(installed / "zz-en-fr")
    assert registry.resolve_model(None, "translate", None, "fr") == installed / "zz-en-fr"


def test_a_missing_pair_is_still_refused(installed):
    with pytest.raises(ModelFolderError, match="no installed translate model from de into fr"):
        registry.resolve_model(None, "translate", "de", "fr")


def test_pair_owners_serve_each_pair_from_the_model_made_for_it(installed):
    manifests = [model.manifest for model in registry.installed_models()]  # en-de, en-fr, fr-en
    assert registry.pair_owners(manifests) == {("en", "de"): 0, ("en", "fr"): 1, ("fr", "en"): 2}
    assert registry.pair_owners(manifests[::-1]) == {("fr", "en"): 0, ("en", "fr"): 1, ("en", "de"): 2}


def test_a_model_used_only_by_name_is_never_picked_for_a_pair(installed):
    """A research-use model (configs/fr-en-hansard.toml) translates when named, and for its pairs
    only among the models named (a Translator's, `attn serve --models`) that have them not."""
    install(installed, "a-fr-en-research", "fr", "en", [["fr", "en"], ["en", "fr"]], by_name_only=True)
    install(installed, "fr-de-research", "fr", "de", by_name_only=True)
    assert registry.resolve_model(None, "translate", "fr", "en") == installed / "fr-en"
    assert registry.resolve_model(None, "translate", "en", "fr") == installed / "en-fr"
    with pytest.raises(ModelFolderError, match="no installed translate model from fr into de"):
        registry.resolve_model(None, "translate", "fr", "de")
    assert registry.resolve_model("fr-de-research", "translate", None, None) == installed / "fr-de-research"
    assert ("fr", "de") not in registry.installed_pairs()
    manifests = {model.name: model.manifest for model in registry.installed_models()}
    named = [manifests[name] for name in ("a-fr-en-research", "fr-en")]
    assert registry.pair_owners(named) == {("fr", "en"): 1, ("en", "fr"): 1}
    assert registry.pair_owners(named[:1]) == {("fr", "en"): 0, ("en", "fr"): 0}


def test_an_installed_model_takes_its_pair_from_a_shipped_one(tmp_path, monkeypatch):
    """`attn models install opus-mt:en-de` writes into $ATTN_HOME/models, read before the shipped
    models: en→de goes to it; a folder there named as a shipped one hides that one."""
    shipped, home = tmp_path / "shipped", tmp_path / "home"
    shipped.mkdir()
    (home / "models").mkdir(parents=True)
    install(shipped, "en-de", "en", "de")
    install(shipped, "en-fr", "en", "fr")
    install(home / "models", "opus-mt-en-de", "en", "de")
    install(home / "models", "en-fr", "en", "fr")
    monkeypatch.setenv("ATTN_HOME", str(home))
    monkeypatch.setattr(registry, "shipped_root", lambda: shipped)
    assert registry.user_root() == home / "models"
    assert registry.resolve_model(None, "translate", "en", "de") == home / "models" / "opus-mt-en-de"
    assert registry.resolve_model("en-de", "translate", None, None) == shipped / "en-de"
    assert registry.resolve_model("opus-mt:en-de", "translate", None, None) == home / "models" / "opus-mt-en-de"
    assert [model.folder for model in registry.installed_models()] == [
        home / "models" / "en-fr",
        home / "models" / "opus-mt-en-de",
        shipped / "en-de",
    ]


def test_a_language_pair_named_as_a_model_is_answered_with_the_options_that_pick_one():
    """`-m en-fr` said only that no model had that name: fr-en translates both ways, and -t fr picks it."""
    with pytest.raises(ModelFolderError, match="attn translate -s en -t fr picks one"):
        registry.resolve_model("en-fr", "translate", None, None)
    with pytest.raises(ModelFolderError, match=r"named 'mine' \(see `attn models`\)$"):
        registry.resolve_model("mine", "translate", None, None)


def test_a_folder_here_named_as_an_installed_model_hides_it_only_when_it_is_a_model(installed, tmp_path, monkeypatch):
    """`attn eval en-de/test.tsv -m en-de` in a project with an en-de/ folder of test files had
    been "en-de/manifest.json: missing manifest" (a newcomer's trial); a model folder of that name
    here is still the one taken, as a path is."""
    here = tmp_path / "project"
    (here / "en-de").mkdir(parents=True)
    (here / "en-de" / "test.tsv").write_text("a\tb\n", encoding="utf-8")
    monkeypatch.chdir(here)
    assert registry.resolve_model("en-de", "translate", None, None) == installed / "en-de"
    install(here, "en-fr", "en", "fr")
    assert registry.resolve_model("en-fr", "translate", None, None) == Path("en-fr")
    assert registry.resolve_model("./en-de", "translate", None, None) == Path("./en-de")


def test_a_folder_whose_manifest_cannot_be_read_is_left_out_and_told(installed):
    """`attn models` had left a damaged folder out without a word (a newcomer's trial)."""
    (installed / "broken").mkdir()
    (installed / "broken" / "manifest.json").write_text("{", encoding="utf-8")
    told = []
    names = [model.name for model in registry.installed_models(unreadable=lambda folder, why: told.append(folder))]
    assert "broken" not in names and told == [installed / "broken"]
