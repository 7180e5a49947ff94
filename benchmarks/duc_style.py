"""Very short summaries of news articles scored as DUC-2004's task 1 scored them: each summary cut
at 75 bytes, ROUGE-1/2/L recall against the reference (Porter stemming), beside the F1 that
`attn eval` reports. The dev set is built from the news dev file: its articles of at least
--min-words words (BBC stories and Reuters wire stories; Reuters' earnings tables and briefs are
shorter), each with its headline as the reference. Forms: the first 10 words (the baseline the
issue names), the first 75 bytes (DUC's own), the model's headline with its default search and
with longer minimum lengths, and the sentence the headline drew on most (`--sentences 1`).

    python -m benchmarks.duc_style ../shared/data/summarize-news/dev.tsv.gz --model models/summarize --min-length 10 14
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from attn.cli.metrics import summary_scores
from attn.runtime.extractive import summary_sentences
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.sentences import joined
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table

DUC_BYTES = 75  # DUC 2004 task 1: a summary is cut at 75 bytes before it is scored
LEAD_WORDS = 10


def cut_at_bytes(text: str, limit: int = DUC_BYTES) -> str:
    """`text`'s first `limit` UTF-8 bytes (a character cut in half dropped), as DUC's scorer cut
    summaries (ROUGE's -b option)."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def articles(paths: list[Path], min_words: int) -> dict[str, list[tuple[str, str]]]:
    """(document, headline) pairs of each origin whose documents have at least `min_words` words."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for path in paths:
        for row in read_tsv(path):
            if len(row.source.split()) >= min_words:
                groups[row.origin].append((row.source, row.target))
    return groups


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", type=Path)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--min-words", type=int, default=100, help="Articles at least this long.")
    parser.add_argument(
        "--min-length", type=int, nargs="*", default=[], help="Headline variants: no end before N pieces."
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    summarizer = LoadedModel(args.model, threads=0, notify=lambda message: None)
    language = summarizer.source_lang
    groups = articles(args.data, args.min_words)
    forms: dict[str, dict[str, list[str]]] = defaultdict(dict)  # form → origin → summaries
    for origin, pairs in groups.items():
        documents = [d for d, _ in pairs]
        results = summarizer.translate(documents)
        forms[f"first {LEAD_WORDS} words"][origin] = [" ".join(d.split()[:LEAD_WORDS]) for d in documents]
        forms[f"first {DUC_BYTES} bytes"][origin] = documents
        forms["headline (default search)"][origin] = [r[0].text for r in results]
        for pieces in args.min_length:
            longer = summarizer.translate(documents, summarizer.default_options(min_length=pieces))
            forms[f"headline, at least {pieces} pieces"][origin] = [r[0].text for r in longer]
        forms["`--sentences 1`"][origin] = [
            joined(summary_sentences(d, r[0], 1, language)) for d, r in zip(documents, results)
        ]
    rows = []
    for origin in [*sorted(groups), "all"]:
        origins = sorted(groups) if origin == "all" else [origin]
        references = [reference for o in origins for _, reference in groups[o]]
        for form, summaries in forms.items():
            cut = [cut_at_bytes(summary) for o in origins for summary in summaries[o]]
            recall, f1 = summary_scores(cut, references, "recall"), summary_scores(cut, references)
            rows.append(
                [
                    origin,
                    len(references),
                    form,
                    recall["rouge1"],
                    recall["rouge2"],
                    recall["rougeL"],
                    f1["rougeL"],
                    f1["words"],
                ]
            )
    lines = [
        command_line(),
        "",
        f"News dev articles of at least {args.min_words} words, their headlines as references; model `{args.model}`.",
        f"Every summary cut at {DUC_BYTES} bytes (DUC 2004 task 1) before scoring; recall as DUC reported it, F1 as `attn eval`.",
        "",
        table(["origin", "articles", "form", "R-1 recall", "R-2 recall", "R-L recall", "R-L F1", "words"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
