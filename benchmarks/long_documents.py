"""Documents longer than the summarizer reads at once: summarized from their head (how attn read
them before) against condensed to their salient sentences first (runtime/condense.py), and the
first 10 words as a baseline; ROUGE-1/2/L F1 against the references, per file and origin, on the
rows whose documents exceed the reading limit.

    python -m benchmarks.long_documents ../shared/data/summarize-*/dev.tsv.gz --model models/summarize --out FILE
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from attn.cli.metrics import summary_scores
from attn.runtime import condense, texts
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table


@contextmanager
def lead_kept(sentences: int):
    """The first `sentences` of a condensed document always kept (runtime/condense.py LEAD)."""
    original = condense.LEAD
    condense.LEAD = sentences
    try:
        yield
    finally:
        condense.LEAD = original


@contextmanager
def head_only():
    """Long documents read from their head, as before runtime/condense.py."""
    original = texts.condensed
    texts.condensed = lambda documents, *arguments: [None] * len(documents)
    try:
        yield
    finally:
        texts.condensed = original


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", type=Path)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--lead", type=int, nargs="+", default=[condense.LEAD], help="Lead sentences kept (variants).")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    summarizer = LoadedModel(args.model, threads=0, notify=lambda message: None)
    limit, pieces = summarizer.max_source_pieces, texts.TextTranslator(summarizer).reader.piece_count
    groups: dict[str, list] = defaultdict(list)
    for path in args.data:
        for row in read_tsv(path):
            document = " ".join(row.source.split())
            if pieces(document) > limit:
                groups[f"{path.parent.name}/{path.name} {row.origin}"].append((document, row.target))
    rows = []
    for name, pairs in sorted(groups.items()):
        documents, references = [d for d, _ in pairs], [r for _, r in pairs]
        with head_only():
            head = [result[0].text for result in summarizer.translate(documents)]
        methods = [("head", head)]
        for kept in args.lead:
            with lead_kept(kept):
                methods.append((f"condensed, lead {kept}", [r[0].text for r in summarizer.translate(documents)]))
        methods.append(("first 10 words", [" ".join(document.split()[:10]) for document in documents]))
        for method, summaries in methods:
            scores = summary_scores(summaries, references)
            rows.append([name, len(pairs), method, scores["rouge1"], scores["rouge2"], scores["rougeL"]])
    lines = [
        command_line(),
        "",
        f"Rows whose documents exceed the model's {limit} pieces; model `{args.model}`, its default search.",
        "",
        table(["file, origin", "rows", "method", "ROUGE-1", "ROUGE-2", "ROUGE-L"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
