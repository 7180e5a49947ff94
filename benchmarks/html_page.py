"""A 100 kB HTML page through `attn serve`'s /translate (format html): time and the server's peak
memory, same run.

    python benchmarks/html_page.py --model en-de --data ../shared/data/en-de/test.tsv.gz --kilobytes 100
"""

from __future__ import annotations

import argparse
import html
import subprocess
import sys
import time

import httpx

from attn.runtime.tsv import read_tsv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="en-de")
    parser.add_argument("--data", required=True)
    parser.add_argument("--kilobytes", type=int, default=100)
    parser.add_argument("--port", type=int, default=5099)
    args = parser.parse_args()
    paragraphs, size = [], 0
    for row in read_tsv(args.data):
        paragraph = (
            f'<p class="text">{html.escape(row.source)} <a href="#x">{html.escape(row.source.split()[0])}</a></p>\n'
        )
        paragraphs.append(paragraph)
        size += len(paragraph.encode())
        if size >= args.kilobytes * 1000:
            break
    page = f"<!doctype html><html><head><title>Test</title></head><body>\n{''.join(paragraphs)}</body></html>"
    characters = len(page)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "attn.cli",
            "serve",
            "--models",
            args.model,
            "--port",
            str(args.port),
            "--max-chars",
            str(characters + 1000),
            "--timeout",
            "1200",
            "--max-queued",
            "8192",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(600):
            try:
                httpx.get(url + "/health", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        start = time.perf_counter()
        reply = httpx.post(
            url + "/translate", json={"q": page, "source": "en", "target": "de", "format": "html"}, timeout=1200
        )
        seconds = time.perf_counter() - start
        peak = next(line for line in open(f"/proc/{server.pid}/status") if line.startswith("VmHWM")).split()[1]
    finally:
        server.terminate()
        server.wait(timeout=60)
    print(f"Command: `python {' '.join(sys.argv)}`\n")
    print(
        f"A page of {len(page.encode()):,} bytes ({characters:,} characters, {len(paragraphs)} paragraphs with a link "
        f"each), `--max-chars {characters + 1000} --max-queued 8192`: status {reply.status_code}, {seconds:.1f} s, "
        f"{len(reply.json().get('translatedText', '')):,} characters back; the server's peak memory "
        f"{int(peak) / 1024:.0f} MB (VmHWM, models loaded included)."
    )


if __name__ == "__main__":
    main()
