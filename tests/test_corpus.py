"""`attn translate-corpus` on a local Ray instance (issue 19): one output row per input row, the
order recoverable, every text translated as `attn translate` translates it."""

import pytest

ray = pytest.importorskip("ray")

from .test_cli import attn  # noqa: E402

pytestmark = pytest.mark.integration


def test_a_corpus_on_ray_equals_attn_translate(reverse_model, reverse_test_rows, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from attn.cli.corpus import translate_corpus

    lines = [row.source for row in reverse_test_rows[:60]]
    lines[5], lines[17] = "", "   "
    text_file = tmp_path / "part.txt"
    text_file.write_bytes(("\n".join(lines[:40]) + "\r\n").encode() + "\xff a0 b1\n".encode("latin-1"))
    parquet_file = tmp_path / "part.parquet"
    pq.write_table(pa.table({"sentence": lines[40:] + [None]}), parquet_file)
    expected_text = attn("translate", "-m", str(reverse_model), stdin=text_file.read_bytes()).stdout.decode().splitlines()
    expected_parquet = attn("translate", "-m", str(reverse_model), *lines[40:], "").stdout.decode().splitlines()

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        translate_corpus([text_file, parquet_file], tmp_path / "out", model=str(reverse_model), column="sentence",
                         workers=2, rows_per_call=16)
    finally:
        ray.shutdown()
    table = pq.read_table(tmp_path / "out").to_pandas().sort_values(["path", "row"])
    by_file = {path: rows for path, rows in table.groupby("path")}
    from_text, from_parquet = by_file[str(text_file)], by_file[str(parquet_file)]
    assert list(from_text["row"]) == list(range(41)) and list(from_parquet["row"]) == list(range(21))
    assert list(from_text["translation"]) == expected_text
    assert list(from_parquet["translation"]) == expected_parquet
