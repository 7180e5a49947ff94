"""`attn translate-corpus` on a local Ray against `attn translate` on one machine, and 1 worker
against 2, in one run. Written to benchmarks/studies/RAY.md.

    pip install ".[ray]"
    python benchmarks/ray_corpus.py --model models/en-de --data ../shared/data/en-de/test.tsv.gz \\
        --sentences 2000 --out benchmarks/studies/RAY.md

Ray is started once (`ray.init` with the machine's CPUs) before the timed runs; each Ray row times
translate_corpus from reading the file to the last Parquet file written, actors' model loading
included. `attn translate < file` is a fresh process, start-up included.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
import ray
from report import command_line, finish

from attn.cli.corpus import translate_corpus
from attn.runtime.tsv import read_tsv, spread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RAY.md"))
    args = parser.parse_args()
    cores = os.cpu_count()
    with tempfile.TemporaryDirectory() as scratch:
        corpus = Path(scratch) / "corpus.txt"
        corpus.write_text(
            "".join(" ".join(r.source.split()) + "\n" for r in spread(read_tsv(args.data), args.sentences))
        )
        count = len(corpus.read_text().splitlines())
        start = time.perf_counter()
        with corpus.open("rb") as stdin:
            cli = subprocess.run(
                [sys.executable, "-m", "attn.cli", "translate", "--model", str(args.model)],
                stdin=stdin,
                capture_output=True,
                check=True,
            )
        cli_seconds = time.perf_counter() - start
        expected = cli.stdout.decode().splitlines()
        started = time.perf_counter()
        ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
        init_seconds = time.perf_counter() - started
        rows = [f"| `attn translate < file` | | {cli_seconds:.1f} | {count / cli_seconds:.1f} | 1.00 | |"]
        for workers in (1, 2):
            out = Path(scratch) / f"out-{workers}"
            start = time.perf_counter()
            translate_corpus([corpus], out, model=str(args.model), workers=workers, cpus_per_worker=cores // workers)
            seconds = time.perf_counter() - start
            table = pq.read_table(out).to_pandas().sort_values("row")
            same = sum(a == b for a, b in zip(table["translation"], expected))
            rows.append(
                f"| translate-corpus, {workers} worker{'s' if workers > 1 else ''} × {cores // workers} "
                f"thread{'s' if cores // workers > 1 else ''} | {workers} | {seconds:.1f} | {count / seconds:.1f} | "
                f"{cli_seconds / seconds:.2f} | {same}/{count} |"
            )
            print(rows[-1], flush=True)
        ray.shutdown()
    lines = [
        command_line(),
        "",
        f"{count} sentences of `{args.data.name}` (every n-th row), model `{args.model}`, default search, "
        f"{cores} cores; a local Ray (`ray.init(num_cpus={cores})`, {init_seconds:.1f} s, not counted).",
        "",
        "| run | workers | seconds | sentences/s | speed vs attn translate | outputs equal to the CLI's |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
