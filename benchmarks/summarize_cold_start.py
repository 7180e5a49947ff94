"""A 1,000-word article summarized by a fresh `attn summarize` process: the median seconds of
each summarizer folder, in alternating order, same run (the bar: under 1.5 s on the development
CPU; a ratio against the summarizer it would replace, PREVIOUS, a copy of that folder).

    python -m benchmarks.summarize_cold_start models/summarize PREVIOUS \\
        --data ../shared/data/summarize-news/dev.tsv.gz --out docs/studies/SUMMARIZE-COLD-START.md

The article: the dev file's documents joined in order until 1,000 words, cut there (paragraphs
kept as blank lines), so that every folder reads the same text.
"""

from __future__ import annotations

import argparse
import platform
import statistics
from pathlib import Path

from attn.cli.bench import attn_command, cold_start
from benchmarks.report import command_line, cpu_name

WORDS = 1000


def article(data: Path, words: int = WORDS) -> str:
    """The dev documents' words up to `words`, paragraphs (the corpora's ¶) as blank lines."""
    raw = [line.split("\t")[0] for line in read_raw(data)]
    text = "\n\n".join(document.replace(" ¶ ", "\n\n") for document in raw)
    kept, count = [], 0
    for paragraph in text.split("\n\n"):
        taken = paragraph.split()[: words - count]
        if taken:
            kept.append(" ".join(taken))
            count += len(taken)
        if count >= words:
            break
    return "\n\n".join(kept) + "\n"


def read_raw(data: Path) -> list[str]:
    """The file's lines with their paragraph marks (read_tsv folds them to spaces)."""
    import gzip

    opener = gzip.open if str(data).endswith(".gz") else open
    with opener(data, "rt", encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = article(args.data)
    seconds: dict[Path, list[float]] = {folder: [] for folder in args.folders}
    for _ in range(args.rounds):  # alternating rounds: a slow spell of the machine lands on every folder
        for folder in args.folders:
            seconds[folder].append(cold_start(attn_command(folder, "summarize"), args.runs, stdin=text))
    first = statistics.median(seconds[args.folders[0]])
    lines = [
        command_line(),
        "",
        f"Machine: {platform.machine()} ({cpu_name()}); a {len(text.split())}-word article "
        f"from `{args.data.name}`; median of {args.rounds} rounds, each the median of {args.runs} fresh processes.",
        "",
        "| folder | seconds | speed × first folder |",
        "|---|---|---|",
    ]
    for folder in args.folders:
        median = statistics.median(seconds[folder])
        lines.append(f"| {folder} | {median:.2f} | {first / median:.2f} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
