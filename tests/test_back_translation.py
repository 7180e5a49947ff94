"""Back-translated pairs: the real text kept, the translation beside it, loops and far lengths left out."""

import pytest

from attn.export.training.back_translation import back_translated_rows, loops, main
from attn.runtime.tsv import Row, read_tsv

pytestmark = pytest.mark.unit


def test_a_looping_or_far_translation_is_left_out_and_the_rest_kept_in_order():
    rows = [Row("I like tea.", "-", "mlqe"), Row("It rains.", "-", "xquad"), Row("We go home now.", "-", "europarl")]
    translations = ["J'aime le thé.", "Il pleut " + "car ils sont " * 3, "Nous"]
    assert back_translated_rows(rows, translations) == [Row("I like tea.", "J'aime le thé.", "bt-mlqe")]
    assert back_translated_rows(rows[:1], translations[:1], real_column=2) == [
        Row("J'aime le thé.", "I like tea.", "bt-mlqe")
    ]


def test_loops_counts_repeated_word_sequences_not_repeated_words():
    assert not loops("le chat et le chien et le cheval")
    assert loops("a b c a b c a b c")


def test_the_command_writes_the_pairs_and_refuses_a_count_mismatch(tmp_path, capsys):
    rows, translations, out = tmp_path / "rows.tsv", tmp_path / "fr.txt", tmp_path / "pairs.tsv.gz"
    rows.write_text("I like tea.\tIch mag Tee.\tmlqe\tg1\nIt rains.\tEs regnet.\tmlqe\tg2\n")
    translations.write_text("J'aime le thé.\nIl pleut.\n")
    assert main([str(rows), str(translations), "--out", str(out)]) == 0
    assert out.read_bytes()[:2] == b"\x1f\x8b"  # gzipped
    assert read_tsv(out) == [Row("I like tea.", "J'aime le thé.", "bt-mlqe"), Row("It rains.", "Il pleut.", "bt-mlqe")]
    translations.write_text("J'aime le thé.\x85 Bon.\nIl pleut.\n")  # a line of `attn translate` ends at "\n" only
    assert main([str(rows), str(translations), "--out", str(out)]) == 0 and len(read_tsv(out)) == 2
    assert main([str(rows), str(translations), "--out", str(tmp_path / "pairs.tsv")]) == 1  # not gzipped
    translations.write_text("J'aime le thé.\n")
    out.unlink()
    assert main([str(rows), str(translations), "--out", str(out)]) == 1
    assert "2 rows but 1 translations" in capsys.readouterr().err and not out.exists()
