"""An article of 1,000 words (`--words`) summarized by a fresh `attn summarize --threads 2`
process: the median seconds and the peak memory of each summarizer folder, in alternating order,
same run (the bar: under 1.5 s on the development CPU; a ratio against the summarizer it would
replace, PREVIOUS, a copy of that folder; or, with `--code-before`, against an older checkout of
attn running the first folder).

    python -m benchmarks.summarize_cold_start models/summarize PREVIOUS \\
        --data ../shared/data/summarize-news/dev.tsv.gz [--words 2000] --out docs/studies/SUMMARIZE-COLD-START.md

The article: the dev file's documents joined in order until that many words, cut there
(paragraphs kept as blank lines), so that every folder reads the same text.
"""

from __future__ import annotations

import argparse
import platform
import statistics
from pathlib import Path

from attn.cli.bench import attn_command, cold_start, peak_memory_mb
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
    parser.add_argument("--words", type=int, default=WORDS)
    parser.add_argument(
        "--code-before", type=Path, help="A folder holding `attn`, an older checkout: the first folder run by it too."
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    text = article(args.data, args.words)
    commands = {str(folder): attn_command(folder, "summarize", options=("--threads", "2")) for folder in args.folders}
    if args.code_before:
        commands[f"{args.folders[0]}, the code in {args.code_before}"] = [
            "env",
            f"PYTHONPATH={args.code_before}",
            *commands[str(args.folders[0])],
        ]
    seconds: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.rounds):  # alternating rounds: a slow spell of the machine lands on every folder
        for name, command in commands.items():
            seconds[name].append(cold_start(command, args.runs, stdin=text))
    first = statistics.median(seconds[str(args.folders[0])])
    lines = [
        command_line(),
        "",
        f"Machine: {platform.machine()} ({cpu_name()}); a {len(text.split())}-word article "
        f"from `{args.data.name}`; median of {args.rounds} rounds, each the median of {args.runs} fresh processes.",
        "",
        "| folder | seconds | speed × first | peak memory, MB |",
        "|---|---|---|---|",
    ]
    for name, command in commands.items():
        median = statistics.median(seconds[name])
        lines.append(f"| {name} | {median:.2f} | {first / median:.2f} | {peak_memory_mb(command, stdin=text):.0f} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
