"""Summary metrics: ROUGE through rouge-score, and the repeated 3-gram share."""

import pytest

from attn.cli.metrics import repeats_ngram, summary_scores

pytestmark = pytest.mark.unit


def test_identical_summaries_score_100_and_disjoint_ones_0():
    same = summary_scores(["audio player for the console"], ["audio player for the console"])
    assert same["rouge1"] == same["rouge2"] == same["rougeL"] == 100.0
    assert summary_scores(["kernel module"], ["web browser"])["rougeL"] == 0.0


def test_rouge_l_is_the_longest_common_subsequence_f1():
    # LCS("a b c d", "a c d e") = "a c d": precision 3/4, recall 3/4
    scores = summary_scores(["alpha beta gamma delta"], ["alpha gamma delta epsilon"])
    assert scores["rougeL"] == pytest.approx(75.0)
    assert scores["rouge2"] == pytest.approx(100 / 3, abs=0.01)  # "gamma delta" of 3 bigrams each side


@pytest.mark.parametrize(
    "text, repeats",
    [
        ("a library for the a library for", True),
        ("Python Module for python module FOR", True),
        ("a library for the python module", False),
        ("tool tool", False),
    ],
)
def test_repeated_3grams(text, repeats):
    assert repeats_ngram(text) is repeats


def test_repeat_share_and_length():
    scores = summary_scores(["one two three one two three", "one two three"], ["x", "y"])
    assert scores["repeats_3gram"] == 50.0 and scores["words"] == 4.5


REFERENCES = ["the cat sat on the mat", "a dog barks at night", "it is raining today", "she eats an apple"] * 5


def test_a_clearly_worse_system_differs_significantly_and_an_equal_one_not_at_all():
    from attn.cli.metrics import paired_p_values

    truncated = ["the cat", "dog", "raining", "apple"] * 5
    worse, same = paired_p_values(list(REFERENCES), [truncated, list(REFERENCES)], REFERENCES)
    assert worse["bleu"] <= 0.01 and worse["chrf"] <= 0.01
    assert same == {"bleu": 1.0, "chrf": 1.0}


def test_one_changed_sentence_of_twenty_is_not_significant():
    """The case that rules out sacrebleu's approximate randomization here: with one differing row
    every shuffle ties the observed difference, and its strict count reports the smallest p."""
    from attn.cli.metrics import paired_p_values

    changed = list(REFERENCES)
    changed[0] = "the cat sat on a mat"
    (p,) = paired_p_values(list(REFERENCES), [changed], REFERENCES)
    assert p["bleu"] > 0.05 and p["chrf"] > 0.05
