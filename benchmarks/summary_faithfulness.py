"""How often a summary says what its document does not: the share of summaries with an invented
word (in neither the document nor any training target: what copying half a word makes, "sourd"),
a number the document does not hold (whole: "U.2" is not in "1.2"; runtime/word_check.py NUMBER), or a name it does not hold (a capitalized word, after the
first, that training targets never write in lower case), per origin of each file.

    python -m benchmarks.summary_faithfulness ../shared/data/summarize-*/dev.tsv.gz --model models/summarize \
        --targets '../shared/data/summarize-*/train.tsv.gz' --limit 200
"""

from __future__ import annotations

import argparse
import glob
import re
from collections import Counter, defaultdict

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv
from attn.runtime.word_check import document_numbers

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
RULES = ("invented word", "number not in the document", "name not in the document")


def words(text: str) -> list[str]:
    return WORD.findall(text)


def target_vocabulary(patterns: list[str]) -> tuple[set[str], set[str]]:
    """(every word of the training targets, lower-cased; the words they write in lower case)."""
    seen, lowered = set(), set()
    for pattern in patterns:
        for path in sorted(glob.glob(pattern)):
            for row in read_tsv(path):
                for word in words(row.target):
                    seen.add(word.lower())
                    if word.islower():
                        lowered.add(word)
    return seen, lowered


def broken_rules(document: str, summary: str, vocabulary: set[str], lowered: set[str]) -> set[str]:
    """The RULES `summary` breaks against `document`."""
    source = {word.lower() for word in words(document)}
    found = words(summary)
    broken = set()
    if any(word.lower() not in source and word.lower() not in vocabulary for word in found):
        broken.add(RULES[0])
    if document_numbers(summary) - document_numbers(document):
        broken.add(RULES[1])
    names = [word for word in found[1:] if word[:1].isupper() and word.lower() not in lowered]
    if any(word.lower() not in source for word in names):
        broken.add(RULES[2])
    return broken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="TSV files (document, reference summary, origin)")
    parser.add_argument("--model", required=True)
    parser.add_argument("--targets", action="append", required=True, help="glob of training files (repeatable)")
    parser.add_argument("--limit", type=int, default=200, help="documents read of each file")
    parser.add_argument("--examples", type=int, default=2, help="summaries shown per rule and origin")
    args = parser.parse_args()
    vocabulary, lowered = target_vocabulary(args.targets)
    summarizer = LoadedModel(args.model, threads=0, notify=lambda message: None)
    counts: dict[str, Counter] = defaultdict(Counter)
    shown: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in args.data:
        rows = read_tsv(path)[: args.limit]
        documents = [" ".join(row.source.split()) for row in rows]
        for row, document, result in zip(rows, documents, summarizer.translate(documents)):
            summary = result[0].text
            counts[row.origin]["summaries"] += 1
            for rule in broken_rules(document, summary, vocabulary, lowered):
                counts[row.origin][rule] += 1
                if len(shown[row.origin, rule]) < args.examples:
                    shown[row.origin, rule].append(summary)
    print(
        f"model {args.model}; {len(vocabulary):,} words in the training targets; the first {args.limit} rows of each file"
    )
    print("| origin | summaries | " + " | ".join(RULES) + " |")
    print("|---|---|" + "---|" * len(RULES))
    total = Counter()
    for origin in sorted(counts):
        total.update(counts[origin])
        cells = [f"{100 * counts[origin][rule] / counts[origin]['summaries']:.1f} %" for rule in RULES]
        print(f"| {origin} | {counts[origin]['summaries']} | " + " | ".join(cells) + " |")
    cells = [f"{100 * total[rule] / total['summaries']:.1f} %" for rule in RULES]
    print(f"| all | {total['summaries']} | " + " | ".join(cells) + " |")
    for (origin, rule), summaries in sorted(shown.items()):
        print(f"{origin}, {rule}: " + " / ".join(summaries))


if __name__ == "__main__":
    main()
