"""What `attn summarize` could print, measured on dev files: the model's headline, the N sentences
its headline attended to most (`--sentences N`), and the first N sentences (lead-N); ROUGE-1/2/L
F1 against the references and the words each form prints, per file and origin
(docs/studies/SUMMARY-FORMS.md).

    python -m benchmarks.summary_forms ../shared/data/summarize-*/dev.tsv.gz --model models/summarize --sentences 1 2 3
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from attn.cli.metrics import summary_scores
from attn.runtime.extractive import attended_sentences
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.sentences import split_sentences
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", type=Path)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--sentences", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    summarizer = LoadedModel(args.model, threads=0, notify=lambda message: None)
    groups: dict[str, list] = defaultdict(list)
    for path in args.data:
        for row in read_tsv(path):
            groups[f"{path.parent.name} {row.origin}"].append((" ".join(row.source.split()), row.target))
    rows = []
    for name, pairs in sorted(groups.items()):
        documents, references = [d for d, _ in pairs], [r for _, r in pairs]
        results = summarizer.translate(documents)
        forms = [("headline", [result[0].text for result in results])]
        for count in args.sentences:
            forms.append((f"attended-{count}", [" ".join(attended_sentences(r[0].alignment, count)) for r in results]))
            forms.append((f"lead-{count}", [" ".join(split_sentences(d, "en")[:count]) for d in documents]))
        for form, summaries in forms:
            scores = summary_scores(summaries, references)
            rows.append([name, len(pairs), form, scores["rouge1"], scores["rouge2"], scores["rougeL"], scores["words"]])
    lines = [
        command_line(),
        "",
        f"Model `{args.model}`, its default search; the references' own form: headlines, subject lines, one-sentence summaries.",
        "",
        table(["file, origin", "rows", "form", "ROUGE-1", "ROUGE-2", "ROUGE-L", "words"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
