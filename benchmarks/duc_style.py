"""Very short summaries of news articles scored as DUC-2004's task 1 scored them: each summary cut
at 75 bytes, ROUGE-1/2/L recall against the reference (Porter stemming), beside the F1 that
`attn eval` reports. The dev set is built from the news dev file: its articles of at least
--min-words words (BBC stories and Reuters wire stories; Reuters' earnings tables and briefs are
shorter), each with its headline as the reference. Forms: the first 10 words (the baseline the
issue names), the first 75 bytes (DUC's own), the model's headline with its default search and
with longer minimum lengths, and the sentence the headline drew on most.

    python -m benchmarks.duc_style ../shared/data/summarize-news/dev.tsv.gz --model models/summarize --min-length 10 14
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from attn.cli.metrics import summary_scores
from attn.runtime.extractive import attended_sentences
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.sentences import document_sentences
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table

DUC_BYTES = 75  # DUC 2004 task 1: a summary is cut at 75 bytes before it is scored
LEAD_WORDS = 10


def cut_at_bytes(text: str, limit: int = DUC_BYTES) -> str:
    """`text`'s first `limit` UTF-8 bytes (a character cut in half dropped), as DUC's scorer cut
    summaries (ROUGE's -b option)."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def recall_scores(summaries: list[str], references: list[str]) -> dict[str, float]:
    """Mean ROUGE-1/2/L recall (× 100) of each summary cut at DUC_BYTES, Porter stemming."""
    from rouge_score.rouge_scorer import RougeScorer

    names = ("rouge1", "rouge2", "rougeL")
    scorer = RougeScorer(list(names), use_stemmer=True)
    totals = dict.fromkeys(names, 0.0)
    for summary, reference in zip(summaries, references):
        scores = scorer.score(reference, cut_at_bytes(summary))
        for name in names:
            totals[name] += scores[name].recall
    return {name: round(100 * total / max(len(summaries), 1), 2) for name, total in totals.items()}


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
    rows = []
    groups = articles(args.data, args.min_words)
    groups["all"] = [pair for origin in sorted(groups) for pair in groups[origin]]
    for origin, pairs in groups.items():
        documents, references = [d for d, _ in pairs], [r for _, r in pairs]
        results = summarizer.translate(documents)
        forms = [
            (f"first {LEAD_WORDS} words", [" ".join(d.split()[:LEAD_WORDS]) for d in documents]),
            (f"first {DUC_BYTES} bytes", documents),
            ("headline (default search)", [r[0].text for r in results]),
        ]
        for pieces in args.min_length:
            options = summarizer.default_options(min_length=pieces)
            forms.append(
                (f"headline, at least {pieces} pieces", [r[0].text for r in summarizer.translate(documents, options)])
            )
        forms.append(
            (
                "the sentence drawn on most",
                [
                    " ".join(attended_sentences(r[0].alignment, 1, "en", document_sentences(d, "en")))
                    for r, d in zip(results, documents)
                ],
            )
        )
        for form, summaries in forms:
            recall = recall_scores(summaries, references)
            f1 = summary_scores([cut_at_bytes(s) for s in summaries], references)
            rows.append(
                [
                    origin,
                    len(pairs),
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
