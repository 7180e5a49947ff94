"""The research-use French model (models/fr-en-hansard, configs/fr-en-hansard.toml): used only
when named, its licence shown, intact and int8, translating both ways as well alone as in a
batch and at any thread count, above a floor on the pair's test slice."""

import json

import pytest
import sacrebleu

from attn.runtime import registry
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.registry import resolve_model, shipped_root

from .conftest import pair_fixture_rows
from .test_cli import attn

pytestmark = pytest.mark.system

NAME = "fr-en-hansard"
# BLEU of those rows (this test's own computation), a little under what it measured when the
# model shipped (the value beside each)
FLOORS = {("fr", "en"): 37.5, ("en", "fr"): 37.0}  # 39.86 and 39.10 measured
EVERY = 4  # every 4th row of the slice (80 of each origin): 40 rows of both its origins


def test_it_is_used_only_by_name_and_lists_its_licence(tmp_path, monkeypatch):
    folder = resolve_model(NAME, "translate", None, None)
    manifest = read_manifest(folder)  # every file's checksum verified
    assert manifest.by_name_only and manifest.architecture["precision"] == "int8"
    record = next(r for r in json.loads(attn("models", "--format", "json").stdout) if r["name"] == NAME)
    assert "research use only" in record["licence"] and record["picked_for"] == []
    # read first (a root before the shipped one, a name sorting first), it is still not picked
    (tmp_path / "a-research").symlink_to(folder)
    monkeypatch.setattr(registry, "model_roots", lambda: [tmp_path, shipped_root()])
    assert registry.resolve_model("a-research", "translate", None, None) == tmp_path / "a-research"
    for pair in (("fr", "en"), ("en", "fr")):
        assert registry.resolve_model(None, "translate", *pair) == shipped_root() / "fr-en"


@pytest.mark.parametrize("pair", sorted(FLOORS), ids="-".join)
def test_both_ways_alone_equals_batched_and_stays_above_its_floor(pair):
    rows = pair_fixture_rows(pair, "{}-test-slice.tsv")[::EVERY]
    folder = resolve_model(NAME, "translate", None, None)
    one = LoadedModel(folder, threads=1, source_lang=pair[0], target_lang=pair[1])
    options = one.default_options()
    alone = [one.translate([row.source], options, 1)[0][0].text for row in rows]
    two = LoadedModel(folder, threads=2, source_lang=pair[0], target_lang=pair[1])
    batched = [n[0].text for n in two.translate([row.source for row in rows], options, 16)]
    assert batched == alone
    assert sacrebleu.corpus_bleu(batched, [[row.target for row in rows]]).score >= FLOORS[pair]
