"""`attn translate-corpus` with the shipped models, as --from and --to say it reads and routes:
each line's language detected with --to alone, a pair no model translates through English."""

import pytest

ray = pytest.importorskip("ray")

from .test_cli import attn  # noqa: E402

pytestmark = pytest.mark.system


def test_each_line_is_detected_and_routed_as_attn_translate_does(tmp_path):
    """--to alone had been refused ("several installed translate models fit"), as had "-s auto"."""
    import pyarrow.parquet as pq

    lines = ["Ich bin müde.", "Je suis fatigué.", "The cat sleeps."]
    corpus = tmp_path / "mixed.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = attn("translate-corpus", str(corpus), "--output", str(tmp_path / "out"), "-s", "auto", "--to", "en")
    table = pq.read_table(tmp_path / "out").to_pandas().sort_values("row")
    expected = attn("translate", "--to", "en", stdin=corpus.read_bytes()).stdout.decode().splitlines()
    assert list(table["translation"]) == expected, result.stderr.decode()
    refused = attn(
        "translate-corpus", str(corpus), "--output", str(tmp_path / "it"), "-s", "it", "-t", "en", check_rc=2
    )
    assert b"no model here translates it into en" in refused.stderr and not (tmp_path / "it").exists()
