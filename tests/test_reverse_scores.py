"""Translations ranked again by how well the model of the other direction gives back their source
(runtime/reverse_scores.py, `--reverse-weight`), on the shipped models."""

import shutil
from dataclasses import dataclass

import pytest

from attn.runtime import loaded_model
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.number_choice import SCORE_MARGIN, fewest_faults_first
from attn.runtime.reverse_scores import ReverseScorer, ranked_with_reverse
from attn.runtime.search import length_normaliser
from attn.runtime.translation import TextOptions

from .conftest import installed_translator, pair_fixture_rows
from .test_cli import attn

# large enough that the ranking moves on a few of the everyday sentences (3 of the 40 into
# German; the chosen 0.05 moves none of them)
WEIGHT = 0.5


def everyday_sources(pair: tuple[str, str]) -> list[str]:
    """The 40 sentences of the everyday probes (tests/fixtures/everyday*-*.tsv)."""
    return [row.source for probe in ("everyday", "everyday2") for row in pair_fixture_rows(pair, probe + "-{}.tsv")]


@pytest.mark.system
def test_batched_scores_are_those_of_forcing_each_pair_alone():
    """ReverseScorer.scores, pairs of different lengths in one call, against LoadedModel.force
    one pair at a time (its raw log-probability: length penalty 0)."""
    back = installed_translator(("de", "en"))
    pairs = [
        ("Der Zug hatte heute Verspätung.", "The train was late today."),
        ("Ich habe keine Zeit.", "I have no time at all, I am sorry to say."),
        ("Wo ist der Bahnhof?", "Where is the station?"),
    ]
    scores = ReverseScorer(back).scores([german for german, _ in pairs], [english for _, english in pairs])
    for (german, english), score in zip(pairs, scores):
        forced = back.force(german, english, back.default_options(length_penalty=0.0))
        pieces = len(back.tokenizer.encode(english)) + 1
        assert score == pytest.approx(forced.score / length_normaliser(pieces, 1.0), abs=1e-3)


@pytest.mark.system
def test_the_first_translation_gives_back_its_source_best():
    """With a weight, the first translation is, of the search's translations within SCORE_MARGIN
    of its best, the one whose score plus the weight times the reverse score is highest, and it
    carries that score; and the weight changes some choices."""
    forward = installed_translator(("en", "de"))
    sources = everyday_sources(("en", "de"))
    options = forward.default_options(n_best=5)
    plain = forward.translate(sources, options, text_options=TextOptions(reverse_weight=0.0))
    ranked = forward.translate(sources, options, text_options=TextOptions(reverse_weight=WEIGHT))
    scorer = forward.reverse_scorer
    changed = 0
    for source, searched, found in zip(sources, plain, ranked):
        near = [t for t in searched if t.score >= searched[0].score - SCORE_MARGIN]
        back = scorer.scores([t.text for t in near], [source] * len(near))
        combined = {t.text: t.score + WEIGHT * b for t, b in zip(near, back)}
        assert found[0].text in combined
        assert combined[found[0].text] >= max(combined.values()) - 1e-3  # a near tie may go either way
        assert found[0].score == pytest.approx(combined[found[0].text], abs=1e-3)
        assert sorted(t.text for t in found) == sorted(t.text for t in searched)  # the same list, ranked again
        changed += found[0].text != searched[0].text
    assert changed >= 1


@pytest.mark.system
def test_one_output_is_the_first_of_the_n_best():
    forward = installed_translator(("en", "fr"))
    sources = everyday_sources(("en", "fr"))
    text_options = TextOptions(reverse_weight=WEIGHT)
    one = forward.translate(sources, text_options=text_options)
    five = forward.translate(sources, forward.default_options(n_best=5), text_options=text_options)
    assert [found[0].text for found in one] == [found[0].text for found in five]


@pytest.mark.system
def test_a_translation_is_scored_the_same_however_many_are_asked_for():
    """A sentence whose search had one translation near its best was left unscored by the reverse
    model with one output asked for, and scored with three: "The file could not be opened."
    -0.2836 and -0.3274 (the shipped weight)."""
    forward = installed_translator(("en", "de"))
    sources = everyday_sources(("en", "de"))
    one = forward.translate(sources)
    three = forward.translate(sources, forward.default_options(n_best=3))
    same = [
        (found[0], alternatives[0]) for found, alternatives in zip(one, three) if found[0].text == alternatives[0].text
    ]
    assert len(same) >= len(sources) - 2  # another CPU's rounding may decide a near tie otherwise
    assert all(alone.score == pytest.approx(first.score, abs=1e-3) for alone, first in same)


@pytest.mark.system
def test_a_sentence_is_ranked_the_same_alone_and_in_a_batch():
    """The reverse scores of a batch's rows do not depend on their company, up to rounding: alone
    or among the others, each sentence's first translation is the same or one scored the same."""
    forward = installed_translator(("de", "en"), threads=2)
    sources = everyday_sources(("de", "en"))
    text_options = TextOptions(reverse_weight=WEIGHT)
    together = forward.translate(sources, text_options=text_options)
    for source, found in zip(sources, together):
        [alone] = forward.translate([source], text_options=text_options)
        assert alone[0].text == found[0].text or alone[0].score == pytest.approx(found[0].score, abs=1e-3)


@pytest.mark.system
@pytest.mark.parametrize("reverse", ["none", "broken"])
def test_without_a_model_of_the_other_direction_the_search_order_stays(reverse, tmp_path, monkeypatch):
    """No installed model translates back, or the one that does fails its checksums: a note,
    once, and the search's order (nothing fails)."""
    broken = tmp_path / "de-en"
    if reverse == "broken":
        shutil.copytree(installed_translator(("de", "en")).folder, broken)
        with open(broken / "decoder.onnx", "r+b") as handle:
            handle.truncate(1000)
    monkeypatch.setattr(
        loaded_model, "folder_for_pair", lambda pair, roots=None: broken if reverse == "broken" else None
    )
    notes = []
    model = LoadedModel(installed_translator(("en", "de")).folder, threads=1, notify=notes.append)
    sources = everyday_sources(("en", "de"))[:5]
    plain = model.translate(sources, text_options=TextOptions(reverse_weight=0.0))
    for _ in range(2):
        ranked = model.translate(sources, text_options=TextOptions(reverse_weight=WEIGHT))
        assert [f[0].text for f in ranked] == [f[0].text for f in plain]
    [note] = notes
    assert "not ranked again" in note and ("de→en" in note if reverse == "none" else "decoder.onnx" in note)


@dataclass
class Scored:
    text: str
    score: float


@pytest.mark.unit
def test_the_number_choice_stays_among_the_search_s_near_translations():
    """Ranked again, a translation far below the search's best (beyond SCORE_MARGIN) that alone
    keeps the source's number comes after the near ones, as it would not be searched for one
    output: the first is the same whatever the n-best."""
    source = "The bridge was built in 1932."
    found = [
        Scored("Die Brücke wurde gebaut.", -1.0),
        Scored("Die Brücke wurde errichtet.", -1.1),
        Scored("Die Brücke wurde 1932 gebaut.", -1.5),
    ]
    near, others = ranked_with_reverse(found, [-10.0, -7.0, -2.0], 0.05)
    assert [t.text for t in near] == ["Die Brücke wurde errichtet.", "Die Brücke wurde gebaut."]
    assert [t.text for t in others] == ["Die Brücke wurde 1932 gebaut."]
    assert near[0].score == pytest.approx(-1.45) and others[0].score == pytest.approx(-1.6)  # within 0.2 of it
    assert next(fewest_faults_first(source, iter(near))).text == "Die Brücke wurde errichtet."


@pytest.mark.system
def test_the_command_line_takes_the_weight_and_refuses_a_negative_one():
    ranked = attn("translate", "-s", "de", "-t", "en", "--reverse-weight", "0.05", "-n", "2", "Es ist kalt.")
    assert len(ranked.stdout.decode().splitlines()) == 2
    refused = attn("translate", "-s", "de", "-t", "en", "--reverse-weight", "-1", "Hallo", check_rc=2)
    assert "reverse" in refused.stderr.decode() and "Traceback" not in refused.stderr.decode()


@pytest.mark.system
def test_the_python_api_ranks_with_the_model_it_holds():
    """attn.load() holds de-en: English → German is ranked with it, not with a second copy."""
    import attn.runtime as attn

    translator = attn.load()
    translator.translate("Guten Morgen.", source="de", target="en")
    translator.translate("Good morning.", source="en", target="de")
    held = {model.folder.name: model for model in translator._models.values()}
    assert held["en-de"].reverse_scorer.model.encoder is held["de-en"].encoder
