"""The shipped translation models: installed, intact, the right direction, not degraded, and the
same alone and in any batch.

Each direction's floor sits a little below the score measured when it was shipped (noted beside
each floor), on a fixed slice of its language pair's test split (80 rows of each origin,
every n-th row in file order); a reverse direction reads the pair's fixtures with the columns swapped.

A sentence translates the same alone, in any batch, at any position, at any thread count and
through the CLI's stream, in the precision the models ship (int8): every installed translation
model, on every fifth line of its direction's test slice, 48 sentences each way between English
and German, 32 between English and French, of every length the slices hold. With activations
quantized per tensor, a sentence's rounding followed its batch companions' largest values and 25
of the 240 en-de lines changed with the batch; export/graphs/quantize.py now scales each row on its
own (docs/hardening.md). The slice is decoded once in batches (its floor's BLEU and the batch
side of the comparison), its every fifth line alone, and those lines once more through the CLI
in a shuffled order.
"""

import functools
import random

import pytest

from attn.runtime.constants import BATCH_SIZE
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.registry import installed_models, installed_pairs, resolve_model
from attn.runtime.tsv import read_tsv

from .conftest import FIXTURES, installed_translator, pair_fixture_rows
from .forked_cli import run_attn

pytestmark = pytest.mark.system

# direction → BLEU floor on the slice, under the score at shipping time, measured by
# `attn eval tests/fixtures/en-de-test-slice.tsv` (de-en: `--from de --to en --swap-columns`;
# en-fr: `attn eval tests/fixtures/en-fr-test-slice.tsv --to fr`; fr-en: the same with `--from fr --to en --swap-columns`)
BLEU_FLOORS = {
    # 32.13 measured (the fourth everyday run, its encoder calibrated; per-row 32.39, the third 32.08)
    ("en", "de"): 30.0,
    # 36.21 measured (the general GPU run of 2026-11-28; the folder before 35.57, the fourth everyday run 35.66)
    ("de", "en"): 33.5,
    # 46.54 measured (the both-ways model's general GPU run of 2026-11-28; the seventh everyday run
    # 45.23 on the same machine, 45.31 when it shipped)
    ("en", "fr"): 43.0,
    # 44.62 measured (the general GPU run; the seventh everyday run 43.98 on the same machine, 44.10 when it shipped)
    ("fr", "en"): 41.5,
}
# the same on about 200 rows of each pair's Tatoeba test split (tests/fixtures/*-tatoeba-slice.tsv)
EVERYDAY_FLOORS = {
    # 39.15 measured (the fourth everyday run, its encoder calibrated; per-row 38.09, the third 37.96)
    ("en", "de"): 36.0,
    # 44.08 measured (the general GPU run of 2026-11-28; the folder before 43.03, the fourth everyday run 44.68)
    ("de", "en"): 42.0,
    # 36.28 measured (the general GPU run of 2026-11-28; the seventh everyday run 37.79 on the same
    # machine, 39.09 when it shipped): 200 rows swing; on all 2,297 of Tatoeba test the run gained,
    # 39.64 → 40.17 (models/README.md)
    ("en", "fr"): 34.5,
    # 45.51 measured (the general GPU run; the seventh everyday run 46.57 on the same machine, 46.35
    # when it shipped; on all of Tatoeba test 49.73 → 49.85)
    ("fr", "en"): 43.5,
}


def test_default_model_is_installed_and_intact():
    folder = resolve_model(None, "translate", None, None)
    manifest = read_manifest(folder)  # verifies every file's checksum
    assert (manifest.task, manifest.source_lang, manifest.target_lang) == ("translate", "en", "de")
    assert any(model.folder == folder for model in installed_models())


def test_every_installed_direction_is_intact_and_has_a_floor():
    pairs = set(installed_pairs())
    assert pairs == set(BLEU_FLOORS)
    for source, target in pairs:
        assert (source, target) in read_manifest(resolve_model(None, "translate", source, target)).pairs


SUMMARIZE_SLICE = FIXTURES / "summarize-test-slice.tsv"
# every fifth line of the test slice is also decoded alone and through the CLI (docs/studies/SUITE-TIME.md)
EVERY = 5


def best_texts(translator: LoadedModel, texts: list[str], batch_size: int) -> list[str]:
    return [hypotheses[0].text for hypotheses in translator.translate(texts, translator.default_options(), batch_size)]


def corpus_bleu(outputs: list[str], rows: list) -> float:
    import sacrebleu

    return sacrebleu.corpus_bleu(outputs, [[row.target for row in rows]]).score


@pytest.fixture(scope="module", params=sorted(installed_pairs()), ids="-".join)
def pair(request) -> tuple[str, str]:
    """Every direction of every installed translation model."""
    return request.param


@pytest.fixture(scope="module")
def test_slice(pair) -> list:
    """The rows of the direction's test-split slice (software and help text)."""
    return pair_fixture_rows(pair, "{}-test-slice.tsv")


@pytest.fixture(scope="module")
def in_batches(pair, test_slice) -> list[str]:
    """The slice's best translations, in one call of batches of 7 at one thread, the last one short."""
    return best_texts(installed_translator(pair, 1), [row.source for row in test_slice], 7)


@pytest.fixture(scope="module")
def every_fifth(test_slice) -> list[str]:
    return [row.source for row in test_slice[::EVERY]]


@pytest.fixture(scope="module")
def alone(pair, every_fifth) -> list[str]:
    """Every fifth line of the slice translated on its own: one sentence per call, one thread."""
    translator = installed_translator(pair, 1)
    return [best_texts(translator, [text], 1)[0] for text in every_fifth]


def test_bleu_on_the_test_slice_stays_above_the_floor(pair, test_slice, in_batches):
    assert corpus_bleu(in_batches, test_slice) >= BLEU_FLOORS[pair]


def test_bleu_on_the_tatoeba_slice_stays_above_the_floor(pair):
    """The Tatoeba slice (everyday sentences)."""
    rows = pair_fixture_rows(pair, "{}-tatoeba-slice.tsv")
    outputs = best_texts(installed_translator(pair, 1), [row.source for row in rows], BATCH_SIZE)
    assert corpus_bleu(outputs, rows) >= EVERYDAY_FLOORS[pair]


def test_the_shipped_translator_is_int8(pair):
    assert installed_translator(pair, 1).manifest.architecture["precision"] == "int8"


# `alone` is batch 1 at one thread, call by call; `in_batches` batches of 7 at one thread; the CLI
# batches of 32 at two threads. On the CPU `threads` is batches decoded at once, each session on
# one thread (runtime/loaded_model.py): two threads put batches side by side, never a sentence's
# numbers.
def test_one_call_equals_line_by_line(in_batches, alone):
    assert in_batches[::EVERY] == alone


def test_the_cli_stream_in_any_order_equals_line_by_line(pair, every_fifth, alone):
    """`attn translate --from S --to T < lines` with the defaults (both cores, batch 32), the lines
    shuffled, prints what each line gives alone."""
    source, target = pair
    order = list(range(len(every_fifth)))
    random.Random(7).shuffle(order)
    result = run_attn(
        ["translate", "--from", source, "--to", target],
        timeout=600,
        input=("\n".join(every_fifth[i] for i in order) + "\n").encode(),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [alone[i] for i in order]


def test_the_shipped_summarizer_is_batch_invariant():
    documents = [row.source for row in read_tsv(SUMMARIZE_SLICE)][:40]
    summarizer = LoadedModel(resolve_model(None, "summarize", None, None), threads=1)
    alone = [best_texts(summarizer, [document], 1)[0] for document in documents]
    assert best_texts(LoadedModel(summarizer.folder, threads=2), documents, 16) == alone


def test_the_readme_sentence_comes_out_german():
    translator = installed_translator(("en", "de"))
    [[best]] = translator.translate(["she is eating a green apple"], translator.default_options(n_best=1))
    assert best.text and best.text != "she is eating a green apple"


# In the search's score (log-probability over the length penalty). The int8 graphs round differently
# on a CPU without AVX-512: on a 2-core AVX2 AMD EPYC, 7 of the 160 recorded everyday translations
# were another of the 5 best, the farthest 0.072 below the best (0.05 had held on AVX-512 CPUs).
NEAR_TIE = 0.15
# A near tie early in the search may also leave the recorded text out of the beam: on a 2-core
# AMD EPYC with AVX-512, beam 5's best for "Do you know where the nearest pharmacy is?" scored
# -0.998 and the recorded "Savez-vous où est la pharmacie la plus proche ?" (-0.941) was in no
# hypothesis of it; a wider beam finds the recorded one
RECHECK_BEAM = 10


def assert_recorded_near_best(translator, source: str, expected: str, found: list) -> None:
    """That `expected`, the recorded output of `source`, is one of `found` (the n-best of the
    default search, best first) scored within NEAR_TIE of the best, or one of the n-best of a
    search RECHECK_BEAM wide scored so (the rounding of another CPU pruned it from the beam)."""
    scores = {hypothesis.text: hypothesis.score for hypothesis in found}
    if expected not in scores:
        options = translator.default_options(beam=RECHECK_BEAM, n_best=RECHECK_BEAM)
        scores = {hypothesis.text: hypothesis.score for hypothesis in translator.translate([source], options)[0]}
    assert expected in scores and scores[expected] >= found[0].score - NEAR_TIE, (expected, scores)


@functools.cache
def five_best(pair: tuple[str, str], probe: str) -> tuple[list, list]:
    """The rows of an everyday probe (everyday-en-X.tsv, the README's sentence among them; a
    direction into English reads its other column) and the 5 best translations of each, by the
    default search."""
    rows = pair_fixture_rows(pair, probe + "-{}.tsv")
    translator = installed_translator(pair, 1)
    return rows, translator.translate([row.source for row in rows], translator.default_options(n_best=5))


@pytest.mark.parametrize("probe", ["everyday", "everyday2"])
def test_the_everyday_probe_translates_as_recorded(pair, probe):
    """A regression probe: the shipped model's translations of 20 everyday sentences with a correct
    translation, recorded when it shipped in everyday-S-T.shipped.txt; a re-ship records its own.
    Another CPU's rounding may decide a near tie the other way: the recorded text is then one of
    the 5 best, or of a wider search's, scored within NEAR_TIE of the best
    (assert_recorded_near_best)."""
    rows, found = five_best(pair, probe)
    translator = installed_translator(pair, 1)
    recorded = (FIXTURES / f"{probe}-{'-'.join(pair)}.shipped.txt").read_text(encoding="utf-8").splitlines()
    assert len(found) == len(recorded)
    for row, translations, expected in zip(rows, found, recorded):
        assert_recorded_near_best(translator, row.source, expected, translations)


def test_n_best_lists_hold_different_texts(pair):
    """Five translations of each everyday sentence, five different texts: a 24,000-piece model
    spells a word in several ways, and beam search keeps the spellings apart (the en-de model's
    3-best of "She is eating a green apple." once held "Sie hat einen grünen Apfel." twice)."""
    for found in five_best(pair, "everyday")[1]:
        texts = [translation.text for translation in found]
        assert len(set(texts)) == len(texts) >= 2
