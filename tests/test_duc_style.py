"""benchmarks/duc_style.py scores as DUC 2004 did: a summary cut at 75 bytes, ROUGE recall."""

import pytest

from attn.cli.metrics import summary_scores
from benchmarks.duc_style import DUC_BYTES, cut_at_bytes

pytestmark = pytest.mark.unit


def test_a_summary_is_cut_at_75_bytes_never_inside_a_character():
    text = "é" * 60  # two bytes each
    cut = cut_at_bytes(text)
    assert cut == "é" * 37 and len(cut.encode()) == 74
    assert cut_at_bytes("short") == "short"


def test_only_what_fits_in_75_bytes_is_credited():
    reference = "central bank raises interest rates"
    early = summary_scores([cut_at_bytes(reference + " " + "x" * 100)], [reference], "recall")
    late = summary_scores([cut_at_bytes("x" * DUC_BYTES + " " + reference)], [reference], "recall")
    assert early["rouge1"] == 100.0 and early["rougeL"] == 100.0
    assert late["rouge1"] == 0.0
