"""The target-vocabulary shortlist: which candidates a batch gets, the IBM Model 1 table behind
them, and decoding over them, which must match decoding over the whole vocabulary wherever the
shortlist holds the tokens the full search picks."""

import numpy as np
import pytest

from attn.export.graphs.lexicon import learn_shortlist
from attn.export.training.data import Pair
from attn.runtime.constants import BOS, EOS
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.output_layer import OutputLayer
from attn.runtime.search import SearchOptions, columns_of
from attn.runtime.shortlist import Shortlist, distinct

from .test_cli import attn

pytestmark = pytest.mark.integration


def test_candidates_are_specials_frequent_sources_and_their_translations():
    translations = np.full((20, 2), -1)
    translations[7] = [11, 12]
    translations[8] = [13, -1]
    shortlist = Shortlist(frequent=np.array([15, 5]), translations=translations)
    vocabulary, allowed = shortlist.candidates([[7, EOS], [9, 8, EOS]])
    assert vocabulary.tolist() == [0, 1, 2, 3, 5, 7, 8, 9, 11, 12, 13, 15]
    assert vocabulary[allowed[0]].tolist() == [0, 1, 2, 3, 5, 7, 11, 12, 15]
    assert vocabulary[allowed[1]].tolist() == [0, 1, 2, 3, 5, 8, 9, 13, 15]


def test_a_source_opening_with_a_language_token_gets_that_languages_frequent_pieces(tmp_path):
    translations = np.full((20, 1), -1)
    shortlist = Shortlist(
        frequent=np.array([15, 16]),
        translations=translations,
        language_frequent={4: np.array([11]), 5: np.array([12, 13])},
    )
    vocabulary, allowed = shortlist.candidates([[4, 9, EOS], [5, 9, EOS], [9, EOS]])
    assert [vocabulary[row].tolist() for row in allowed] == [
        [0, 1, 2, 3, 4, 9, 11],
        [0, 1, 2, 3, 5, 9, 12, 13],
        [0, 1, 2, 3, 9, 15, 16],
    ]
    shortlist.save(tmp_path / "lexicon.npz")
    restored = Shortlist.load(tmp_path / "lexicon.npz", vocab_size=20)  # rows padded with -1, unpadded again
    assert {token: ids.tolist() for token, ids in restored.language_frequent.items()} == {4: [11], 5: [12, 13]}


def test_ibm_model_1_counts_each_languages_frequent_pieces_apart():
    # sources opening with token 4 have targets of pieces 20-22, those opening with 5 of 23-25
    pairs = [Pair([4, 10, EOS], [BOS, 20, 20, 21, EOS])] * 3 + [Pair([5, 11, EOS], [BOS, 23, 24, 24, 24, EOS])] * 2
    shortlist = learn_shortlist(pairs, vocab_size=30, frequent=2, per_source=1, iterations=2, language_tokens=[4, 5])
    assert shortlist.frequent.tolist() == [20, 24]  # over both: 6 and 6, first by id
    assert {token: ids.tolist() for token, ids in shortlist.language_frequent.items()} == {4: [20, 21], 5: [24, 23]}


def test_translations_below_min_probability_are_left_out():
    # piece 10 becomes 20 three times in four and 21 once: t(20 | 10) near 3/4, t(21 | 10) near 1/4
    pairs = [Pair([10, EOS], [BOS, 20, EOS])] * 3 + [Pair([10, EOS], [BOS, 21, EOS])]
    kept = {
        threshold: learn_shortlist(
            pairs, vocab_size=30, frequent=1, per_source=2, iterations=5, min_probability=threshold
        )
        .translations[10]
        .tolist()
        for threshold in (0.1, 0.5, 0.9)
    }
    assert kept == {0.1: [20, 21], 0.5: [20, -1], 0.9: [-1, -1]}


def test_restrict_renormalizes_over_each_rows_own_candidates():
    log_probs = np.log(np.array([[0.5, 0.25, 0.25], [0.1, 0.6, 0.3]]))
    allowed = np.array([[True, False, True], [True, True, True]])
    restricted = Shortlist.restrict(log_probs, allowed)
    np.testing.assert_allclose(np.exp(restricted), [[2 / 3, 0.0, 1 / 3], [0.1, 0.6, 0.3]])


def test_ibm_model_1_finds_each_words_translation_behind_co_occurring_ones():
    # source word w (id 10 + w) translates to 20 + w; every sentence also holds the frequent pair 4 → 5
    rng = np.random.default_rng(0)
    pairs = []
    for _ in range(300):
        words = rng.choice(6, size=3, replace=False)
        pairs.append(Pair([4, *(10 + words), EOS], [BOS, *(20 + rng.permutation(words)), 5, EOS]))
    shortlist = learn_shortlist(pairs, vocab_size=30, frequent=1, per_source=1, iterations=8)
    assert shortlist.translations[10:16, 0].tolist() == list(range(20, 26))
    assert shortlist.translations[4, 0] == 5
    assert shortlist.translations[17, 0] == -1  # never seen: no translation
    assert shortlist.frequent.tolist() == [5]


def test_columns_of_finds_the_held_ids_only():
    vocabulary = np.array([0, 3, 8, 9])
    assert columns_of(vocabulary, [9, 4, 0, 12]).tolist() == [3, 0]
    assert columns_of(vocabulary, []).tolist() == []


def test_int8_output_layer_is_close_and_a_quarter_of_the_size(tmp_path):
    weight = np.random.default_rng(1).normal(size=(300, 64)).astype(np.float32)
    layer = OutputLayer(weight, np.zeros(300, np.float32))
    layer.save(tmp_path / "fp32.npz")
    layer.quantized().save(tmp_path / "int8.npz")
    restored = OutputLayer.load(tmp_path / "int8.npz")
    expanded = restored.weight.astype(np.float32) * restored.scale[:, None]
    assert np.abs(expanded - weight).max() <= np.abs(weight).max(axis=1).max() / 254 + 1e-6
    assert (tmp_path / "int8.npz").stat().st_size < 0.3 * (tmp_path / "fp32.npz").stat().st_size
    rows = restored.rows(np.array([4, 2]))
    np.testing.assert_array_equal(rows["output_weight"], restored.weight[[4, 2]].T)
    np.testing.assert_array_equal(rows["output_scale"], restored.scale[[4, 2]])
    assert set(layer.rows(None)) == {"output_weight", "output_bias"}


@pytest.fixture(scope="module")
def shortlisted(reverse_shortlist_model):
    return LoadedModel(reverse_shortlist_model, threads=1)


@pytest.mark.parametrize("beam", [1, 4])
def test_a_shortlist_of_the_whole_vocabulary_changes_nothing(shortlisted, reverse_test_rows, beam, monkeypatch):
    texts = [row.source for row in reverse_test_rows[:40]]
    vocab = shortlisted.output_layer.vocab_size
    full = shortlisted.translate(texts, SearchOptions(beam=beam, n_best=beam, shortlist=False))
    whole = Shortlist(np.arange(vocab), np.full((vocab, 1), -1))
    monkeypatch.setattr(LoadedModel, "shortlist", property(lambda translator: whole))
    everything = shortlisted.translate(texts, SearchOptions(beam=beam, n_best=beam))
    for a, b in zip(full, everything):
        assert [h.tokens for h in a] == [h.tokens for h in b]
        np.testing.assert_allclose([h.score for h in a], [h.score for h in b], atol=1e-5)


def test_the_learned_shortlist_is_smaller_and_keeps_the_translations(shortlisted, reverse_test_rows):
    rows = reverse_test_rows[:100]
    sources = [shortlisted.tokenizer.encode_source(row.source).ids for row in rows[:1]]
    assert len(shortlisted.shortlist.candidates(sources)[0]) < shortlisted.output_layer.vocab_size / 2
    texts = [row.source for row in rows]
    full = shortlisted.translate(texts, SearchOptions(beam=4, shortlist=False))
    short = shortlisted.translate(texts, SearchOptions(beam=4))
    same = sum(a[0].text == b[0].text for a, b in zip(full, short))
    assert same >= 0.95 * len(texts)


@pytest.mark.parametrize("beam", [1, 3])
def test_a_sentence_decodes_the_same_in_any_batch_with_the_shortlist(shortlisted, reverse_test_rows, beam):
    texts = [row.source for row in reverse_test_rows[:30]]
    options = SearchOptions(beam=beam, n_best=beam)
    together = shortlisted.translate(texts, options, batch_size=30)
    alone = [shortlisted.translate([text], options)[0] for text in texts]
    for a, b in zip(together, alone):
        assert [h.tokens for h in a] == [h.tokens for h in b]
        np.testing.assert_allclose([h.score for h in a], [h.score for h in b], atol=1e-4)


def test_cli_decodes_with_and_without_the_shortlist(reverse_shortlist_model):
    with_it = attn("translate", "-m", str(reverse_shortlist_model), "a0 b1 c2").stdout
    without = attn("translate", "-m", str(reverse_shortlist_model), "--no-shortlist", "a0 b1 c2").stdout
    assert with_it == without == b"c2 b1 a0\n"


def test_bench_compares_with_and_without_the_shortlist(reverse_shortlist_model, reverse_test_rows, tmp_path):
    inputs = tmp_path / "inputs.txt"
    inputs.write_text("".join(row.source + "\n" for row in reverse_test_rows[:10]))
    out = attn(
        "bench",
        str(inputs),
        "-m",
        str(reverse_shortlist_model),
        "--beams",
        "2",
        "--batch-sizes",
        "4",
        "--cold-start-runs",
        "0",
        "--threads",
        "1",
    ).stdout.decode()
    rows = [line.split("│")[3].strip() for line in out.splitlines() if line.startswith("│")]
    assert rows == ["no", "yes"]


@pytest.mark.parametrize("size", [0, 1, 7, 500])
def test_distinct_is_numpy_unique(size):
    ids = np.random.default_rng(size).integers(0, 50, size)
    assert np.array_equal(distinct(ids), np.unique(ids))


def _relearned(model, out, *sets: str, check_rc: int = 0):
    from .conftest import REVERSE_CONFIG

    settings = [item for setting in sets for item in ("--set", setting)]
    return attn("shortlist", str(REVERSE_CONFIG), str(model), "--out", str(out), *settings, check_rc=check_rc)


def test_attn_shortlist_learns_what_export_learned_and_keeps_the_graphs(reverse_shortlist_model, tmp_path):
    from attn.runtime.manifest import read_manifest

    out = tmp_path / "again"
    _relearned(reverse_shortlist_model, out, "shortlist.frequent=10", "shortlist.per_source=5")
    before, after = np.load(reverse_shortlist_model / "lexicon.npz"), np.load(out / "lexicon.npz")
    assert sorted(before.files) == sorted(after.files)
    for name in before.files:
        np.testing.assert_array_equal(before[name], after[name])
    manifest = read_manifest(out)  # the checksums are checked as it loads
    for name in manifest.files:
        assert (out / name).read_bytes() == (reverse_shortlist_model / name).read_bytes(), name


def test_attn_shortlist_writes_the_sizes_asked_for(reverse_shortlist_model, tmp_path):
    out = tmp_path / "narrower"
    _relearned(reverse_shortlist_model, out, "shortlist.frequent=6", "shortlist.per_source=3")
    narrower = LoadedModel(out).shortlist
    assert len(narrower.frequent) == 6 and narrower.translations.shape[1] == 3
    np.testing.assert_array_equal(narrower.frequent, LoadedModel(reverse_shortlist_model).shortlist.frequent[:6])


def test_attn_shortlist_refuses_a_size_of_zero_and_a_folder_that_is_no_model(reverse_shortlist_model, tmp_path):
    zero = _relearned(reverse_shortlist_model, tmp_path / "none", "shortlist.frequent=0", check_rc=2)
    assert zero.stderr.decode().count("\n") == 1 and "frequent is 0" in zero.stderr.decode()
    not_a_model = _relearned(tmp_path, tmp_path / "none", check_rc=2)
    assert not_a_model.stderr.decode().count("\n") == 1
    # a config of another pair names both (it had named a temporary tokenizer and a wrong cause)
    other = _relearned(reverse_shortlist_model, tmp_path / "none", "task.source_lang=xx", check_rc=2).stderr.decode()
    assert other.count("\n") == 1 and "translates sym→sym; the config's run learns xx→sym" in other
    assert not (tmp_path / "none").exists()


def test_the_translation_table_covers_only_the_pieces_that_occur():
    """The IBM-1 table was V × V: 6.9 GB for 300 pairs at 24,000 pieces. At 200,000
    pieces a V × V table would be 160 GB; over the pieces that occur it is tiny, and the learned
    translations are those of a small vocabulary."""
    pairs = [
        Pair([10, 11, EOS], [BOS, 20, 21, EOS]),
        Pair([10, 12, EOS], [BOS, 20, 22, EOS]),
        Pair([11, 12, EOS], [BOS, 21, 22, EOS]),
    ]
    small = learn_shortlist(pairs, vocab_size=30, frequent=2, per_source=2, iterations=5)
    large = learn_shortlist(pairs, vocab_size=200_000, frequent=2, per_source=2, iterations=5)
    assert (small.translations[[10, 11, 12]] >= 20).all()  # each source piece has its translations
    np.testing.assert_array_equal(large.translations[:30], small.translations)
    assert (large.translations[30:] == -1).all()
