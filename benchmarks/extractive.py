"""`attn summarize --sentences N` against lead-N on an extractive test file (the BBC articles →
the sentences their editors picked): ROUGE-1/2/L F1 of each.

    python -m benchmarks.extractive ../shared/data/summarize-news/extract-dev.tsv.gz --model models/summarize --sentences 3
"""

from __future__ import annotations

import argparse

from attn.cli.metrics import summary_scores
from attn.runtime.extractive import attended_sentences
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.sentences import split_sentences
from attn.runtime.tsv import read_tsv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("--model", required=True)
    parser.add_argument("--sentences", type=int, default=3)
    args = parser.parse_args()
    rows = read_tsv(args.data)
    documents = [" ".join(row.source.split()) for row in rows]
    summarizer = LoadedModel(args.model, threads=0, notify=lambda message: None)
    results = summarizer.translate(documents)
    attended = [" ".join(attended_sentences(result[0].alignment, args.sentences)) for result in results]
    lead = [" ".join(split_sentences(document, "en")[: args.sentences]) for document in documents]
    references = [row.target for row in rows]
    print(f"{len(rows)} documents of {args.data}, {args.sentences} sentences, model {args.model}")
    print("| method | ROUGE-1 | ROUGE-2 | ROUGE-L | words |")
    print("|---|---|---|---|---|")
    for name, hypotheses in ((f"attended-{args.sentences}", attended), (f"lead-{args.sentences}", lead)):
        scores = summary_scores(hypotheses, references)
        print(f"| {name} | {scores['rouge1']} | {scores['rouge2']} | {scores['rougeL']} | {scores['words']} |")


if __name__ == "__main__":
    main()
