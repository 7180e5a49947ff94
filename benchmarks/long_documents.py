"""How much of a long document the summarizer should read: ROUGE on the whole test split and on
its longest quarter, for several source limits (`--max-source-pieces`).

    python benchmarks/long_documents.py models/summarize-debian \\
        ../shared/data/summarize-debian/dev.tsv.gz --limits 120,200,400,1500 --out benchmarks/studies/LONG-DOCUMENTS.md

The model reads the first `limit` pieces of a document (runtime/chunking.py `keep_head`), so a
larger limit lets it see more than the first 120 pieces it was trained on. Tune on dev; the chosen
limit is then scored once on test. Longest quarter: the documents with the most words.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from report import command_line, finish

from attn.cli.metrics import summary_scores
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("data", type=Path)
    parser.add_argument("--limits", default="120,200,400,1500", help="source limits in pieces, comma-separated")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = read_tsv(args.data)
    by_length = sorted(range(len(rows)), key=lambda i: len(rows[i].source.split()))
    longest = set(by_length[-(len(rows) // 4) :])
    words = sorted(len(rows[i].source.split()) for i in longest)
    summarizer = LoadedModel(args.model, notify=lambda message: None)
    lines = [
        command_line(),
        "",
        f"{args.data.name}: {len(rows)} documents; the longest quarter has {len(longest)}, of "
        f"{words[0]}–{words[-1]} words (median {words[len(words) // 2]}). Default search otherwise.",
        "",
        "| source limit (pieces) | ROUGE-1 all | ROUGE-2 all | ROUGE-L all | ROUGE-1 longest ¼ | ROUGE-2 longest ¼ | ROUGE-L longest ¼ |",
        "|---|---|---|---|---|---|---|",
    ]
    for limit in [int(value) for value in args.limits.split(",")]:
        options = summarizer.default_options(max_source_pieces=limit)
        outputs = [r[0].text for r in summarizer.translate([row.source for row in rows], options, batch_size=16)]
        everything = summary_scores(outputs, [row.target for row in rows])
        quarter = summary_scores([outputs[i] for i in sorted(longest)], [rows[i].target for i in sorted(longest)])
        lines.append(
            f"| {limit} | "
            + " | ".join(
                f"{scores[key]:.2f}" for scores in (everything, quarter) for key in ("rouge1", "rouge2", "rougeL")
            )
            + " |"
        )
        print(lines[-1], flush=True)
    finish(lines, args.out)


if __name__ == "__main__":
    main()
