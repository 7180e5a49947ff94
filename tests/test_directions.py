"""One model for two directions (the multilingual alternative, Johnson et al. 2017): the
target-language token opens each source, `--from/--to` choose the direction, and every output
(alignment, Pharaoh, the server) speaks of the user's words only. The toy task rotates symbols,
so a source has a different target each way: only the token tells them apart."""

import json
import shutil

import pytest

from attn.export.graphs.quantize import quantize_folder
from attn.runtime.errors import UsageError
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.tsv import read_tsv

from .conftest import ROOT
from .test_cli import attn

pytestmark = pytest.mark.integration

TEST_ROWS = read_tsv(ROOT / "tests" / "fixtures" / "rotate" / "test.tsv")


def exact_match(translator: LoadedModel, rows) -> float:
    outputs = [found[0].text for found in translator.translate([row.source for row in rows])]
    return sum(output == row.target for output, row in zip(outputs, rows)) / len(rows)


def test_one_folder_translates_both_ways(both_ways_model):
    forwards = LoadedModel(both_ways_model, threads=1)
    backwards = LoadedModel(both_ways_model, threads=1, source_lang="rot")
    assert (forwards.source_lang, forwards.target_lang, backwards.target_lang) == ("sym", "rot", "sym")
    # 0.94 and 0.965 at the config's 800 steps (its best dev BLEU; 1,200 steps do no better)
    assert exact_match(forwards, TEST_ROWS) >= 0.9
    assert exact_match(backwards, [row.swapped() for row in TEST_ROWS]) >= 0.9
    [[ahead]], [[back]] = forwards.translate(["a0 b1 c2 d3"]), backwards.translate(["a0 b1 c2 d3"])
    assert (ahead.text, back.text) == ("b1 c2 d3 a0", "d3 a0 b1 c2")  # the same source, told apart by the token


def test_the_token_belongs_to_no_word(both_ways_model):
    translator = LoadedModel(both_ways_model, threads=1, target_lang="sym")
    [[found]] = translator.translate(["a0 b1 c2 d3"], translator.default_options(shortlist=False))  # as force scores
    assert found.attention.shape[1] == 1 + len(translator.tokenizer.encode("a0 b1 c2 d3")) + 1  # the token, pieces, EOS
    assert found.alignment.source_words == ["a0", "b1", "c2", "d3"]
    assert found.alignment.weights.sum(axis=1) == pytest.approx([1.0] * 4)
    forced = translator.force("a0 b1 c2 d3", "d3 a0 b1 c2")
    assert forced.alignment.source_words == ["a0", "b1", "c2", "d3"] and forced.score == pytest.approx(
        found.score, abs=1e-4
    )


def test_the_manifest_lists_the_directions_and_a_one_direction_folder_keeps_format_3(both_ways_model, reverse_model):
    manifest = read_manifest(both_ways_model)
    assert manifest.format_version == 4 and manifest.pairs == [("sym", "rot"), ("rot", "sym")]
    one_way = json.loads((reverse_model / "manifest.json").read_text())
    assert one_way["format_version"] == 3 and "directions" not in one_way


def test_each_target_language_has_its_own_frequent_pieces(both_ways_model):
    from attn.runtime.shortlist import Shortlist

    translator = LoadedModel(both_ways_model, threads=1)
    shortlist = Shortlist.load(both_ways_model / "lexicon.npz", translator.tokenizer.vocab_size)
    tokens = {translator.tokenizer.language_token(language) for language in ("sym", "rot")}
    assert set(shortlist.language_frequent) == tokens and all(len(ids) for ids in shortlist.language_frequent.values())


def test_a_direction_the_model_lacks_is_refused(both_ways_model, reverse_model):
    """A folder of one direction translated it whatever --from and --to said (`-m en-de -t fr`
    wrote German, exit 0): it refuses them as a folder of two directions does."""
    with pytest.raises(UsageError, match="translates sym→rot, rot→sym"):
        LoadedModel(both_ways_model, threads=1, source_lang="de")
    with pytest.raises(UsageError, match="translates sym→sym, not …→fr"):
        LoadedModel(reverse_model, threads=1, target_lang="fr")
    assert LoadedModel(reverse_model, threads=1, source_lang="auto").source_lang == "sym"  # detected: any
    for model, option in ((both_ways_model, "--to"), (reverse_model, "--to"), (reverse_model, "--from")):
        result = attn("translate", "-m", str(model), option, "en", "a0", check_rc=2)
        assert result.stdout == b"" and result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr


def test_the_cli_chooses_by_from_and_to(both_ways_model):
    model = str(both_ways_model)
    assert attn("translate", "-m", model, "a0 b1 c2").stdout == b"b1 c2 a0\n"
    assert attn("translate", "-m", model, "--to", "sym", "a0 b1 c2").stdout == b"c2 a0 b1\n"
    assert attn("translate", "-m", model, "--from", "rot", "-f", "pharaoh", "a0 b1 c2").stdout.startswith(
        b"c2 a0 b1 ||| "
    )
    record = json.loads(attn("translate", "-m", model, "--from", "rot", "-f", "jsonl", "a0 b1 c2").stdout)
    assert record["translation"] == "c2 a0 b1"


def test_int8_keeps_the_directions(both_ways_model, tmp_path):
    quantize_folder(both_ways_model, tmp_path / "int8")
    assert read_manifest(tmp_path / "int8").pairs == [("sym", "rot"), ("rot", "sym")]
    backwards = LoadedModel(tmp_path / "int8", threads=1, target_lang="sym")
    assert backwards.translate(["a0 b1 c2 d3"])[0][0].text == "d3 a0 b1 c2"


def test_a_direction_without_its_token_is_refused(both_ways_model, tmp_path):
    from attn.runtime.loaded_model import ModelFolderError

    folder = tmp_path / "model"
    shutil.copytree(both_ways_model, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["directions"].append(["sym", "xx"])  # a direction the tokenizer has no <2xx> for
    (folder / "manifest.json").write_text(json.dumps(manifest))
    LoadedModel(folder, threads=1, target_lang="sym")
    with pytest.raises(ModelFolderError, match="no <2xx> token"):
        LoadedModel(folder, threads=1, target_lang="xx")


def test_a_folder_listing_one_direction_still_opens_with_its_token(both_ways_model, tmp_path):
    """As the trainer does: a run whose [data] directions lists one pair learns with the token."""
    folder = tmp_path / "model"
    shutil.copytree(both_ways_model, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["directions"] = [["sym", "rot"]]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    one_way, both_ways = LoadedModel(folder, threads=1), LoadedModel(both_ways_model, threads=1, target_lang="rot")
    assert read_manifest(folder).pairs == [("sym", "rot")]
    [[alone]], [[tagged]] = one_way.translate(["a0 b1 c2 d3"]), both_ways.translate(["a0 b1 c2 d3"])
    assert (alone.text, alone.score) == (tagged.text, tagged.score)


def test_the_server_offers_each_direction(both_ways_model):
    httpx = pytest.importorskip("httpx")
    from .test_serve import Server

    server = Server("--models", str(both_ways_model))
    try:

        def translated(source, target):
            answer = httpx.post(server.url + "/translate", json={"q": "a0 b1 c2", "source": source, "target": target})
            return answer.status_code, answer.json()

        assert translated("sym", "rot") == (200, {"translatedText": "b1 c2 a0"})
        assert translated("rot", "sym") == (200, {"translatedText": "c2 a0 b1"})
        assert translated("rot", "rot")[0] == 400
        languages = {entry["code"]: entry["targets"] for entry in httpx.get(server.url + "/languages").json()}
        assert languages == {"sym": ["rot"], "rot": ["sym"]}
        [model] = httpx.get(server.url + "/v1/models").json()
        assert model["directions"] == [["sym", "rot"], ["rot", "sym"]]
    finally:
        server.stop()


def test_from_auto_detects_among_the_models_own_languages(both_ways_model, reverse_model):
    """With `-m`, `--from auto` chooses among the given model's directions when it has several
    (no identifier knows the toy languages: a one-line refusal) and is moot when it has one."""
    refused = attn("translate", "-m", str(both_ways_model), "--from", "auto", "a0 b1", check_rc=2)
    assert b"language detection knows none of rot, sym" in refused.stderr and refused.stderr.count(b"\n") == 1
    assert attn("translate", "-m", str(reverse_model), "--from", "auto", "a0 b1 c2").stdout == b"c2 b1 a0\n"
