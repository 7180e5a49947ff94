"""`attn serve` under load: throughput and latency at 1, 8 and 64 concurrent clients, with dynamic
batching and with one request at a time (`--max-batch 1`), against `attn translate` on the same
sentences from a file, all in one run; docs/studies/SERVE.md is its report.

    pip install ".[serve]" aiohttp
    python -m benchmarks.serve_load --model models/en-de --data ../shared/data/en-de/test.tsv.gz \\
        --sentences 400 --out docs/studies/SERVE.md

Each client posts one sentence per request to LibreTranslate's /translate, as an application
translating what its users type would, and sends the next when the answer comes; the run is
bounded by the number of sentences, shared by the clients. Throughput counts sentences per second
of wall time from the first request to the last answer; latency is per request. `attn translate`
is timed as a fresh process reading the sentences from a file (start-up included, as a user
would run it). The server runs in its own process on 127.0.0.1 with the same default threads; the
load generator (httpx, asyncio) runs on the same cores, and the last column says how much of
them it took.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from attn.runtime.manifest import read_manifest
from attn.runtime.tsv import read_tsv, spread
from benchmarks.report import command_line, finish

CLIENTS = (1, 8, 64)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(model: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "attn.cli",
            "serve",
            "--models",
            str(model),
            "--port",
            str(port),
            "--max-queued",
            "100000",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the server did not come up")


async def load(
    url: str, texts: list[str], clients: int, source: str, target: str
) -> tuple[float, float, list[float], list[str]]:
    """(seconds, the load generator's own CPU seconds, per-request latencies, outputs in input
    order) with `clients` concurrent clients (aiohttp: a lighter client than httpx, which took
    up to 40 % of the machine at 64 clients)."""
    import aiohttp  # optional: only this load generator needs it

    outputs: list[str] = [""] * len(texts)
    latencies: list[float] = []
    next_index = iter(range(len(texts)))
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=300)) as session:

        async def client() -> None:
            for index in next_index:
                sent = time.perf_counter()
                async with session.post(
                    url + "/translate", json={"q": texts[index], "source": source, "target": target}
                ) as reply:
                    reply.raise_for_status()
                    outputs[index] = (await reply.json())["translatedText"]
                latencies.append(time.perf_counter() - sent)

        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(client() for _ in range(clients)))
        return time.perf_counter() - start, time.process_time() - cpu, latencies, outputs


def percentile(values: list[float], share: float) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[int(share * 100) - 1] if len(values) > 1 else values[0]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=400)
    parser.add_argument("--out", type=Path, help="also write the report here")
    args = parser.parse_args()
    texts = [" ".join(row.source.split()) for row in spread(read_tsv(args.data), args.sentences)]
    manifest = read_manifest(args.model)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("".join(text + "\n" for text in texts))
    start = time.perf_counter()
    with open(handle.name, "rb") as stdin:
        cli = subprocess.run(
            [sys.executable, "-m", "attn.cli", "translate", "--model", str(args.model)],
            stdin=stdin,
            capture_output=True,
            check=True,
        )
    cli_rate = len(texts) / (time.perf_counter() - start)
    os.unlink(handle.name)
    cli_outputs = cli.stdout.decode().splitlines()

    rows = []
    for label, extra in (
        ("dynamic batching (max batch 64, wait ≤ 2 ms)", ()),
        ("one request at a time (--max-batch 1)", ("--max-batch", "1")),
    ):
        process, url = start_server(args.model, *extra)
        try:
            for clients in CLIENTS:
                seconds, client_cpu, latencies, outputs = asyncio.run(
                    load(url, texts, clients, manifest.source_lang, manifest.target_lang)
                )
                same = sum(a == b for a, b in zip(outputs, cli_outputs))
                rate = len(texts) / seconds
                rows.append(
                    f"| {label} | {clients} | {rate:.1f} | {rate / cli_rate:.2f} | "
                    f"{1000 * statistics.median(latencies):.0f} | {1000 * percentile(latencies, 0.99):.0f} | "
                    f"{same}/{len(texts)} | {client_cpu / (seconds * os.cpu_count()):.0%} |"
                )
                print(rows[-1], flush=True)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=120)
    lines = [
        command_line(),
        "",
        f"{len(texts)} sentences of `{args.data.name}` (every n-th row), model `{args.model}`, default search; "
        f"{platform.machine()}, {os.cpu_count()} cores. `attn translate < file`: {cli_rate:.1f} sentences/s "
        "(a fresh process, start-up included).",
        "",
        "| server | clients | sentences/s | × attn translate | p50 ms | p99 ms | outputs equal to the CLI's | "
        "machine's CPU taken by the load generator |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
