"""Summaries held short (`--max-length`, the search's max_length_offset) on the summarizer's test
slice (tests/fixtures/summarize-test-slice.tsv, or a TSV given): how many end in the middle of a
word (their last word neither the document's nor a word of the training targets) and how many
leave a bracket open, at each length (runtime/word_check.py DocumentWordCheck.ended). The code
before a change is measured by running this with an older checkout first on PYTHONPATH.

    python -m benchmarks.summary_cuts [--data TSV] [--lengths 8 10 40] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.registry import resolve_model
from attn.runtime.tsv import read_tsv
from attn.runtime.word_check import WORD, document_words
from benchmarks.report import command_line, finish, table

SLICE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "summarize-test-slice.tsv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SLICE)
    parser.add_argument("--lengths", type=int, nargs="+", default=[8, 10, 40])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    model = LoadedModel(resolve_model(None, "summarize", None, None), threads=1)
    documents = [row.source for row in read_tsv(args.data)]
    allowed = [
        document_words(model.tokenizer.decode(model.source_ids(d))) | model.word_check.targets for d in documents
    ]
    rows = []
    for length in args.lengths:
        options = model.default_options(max_length_ratio=0.0, max_length_offset=length)
        texts = [found[0].text for found in model.translate(documents, options, 8)]
        cut = sum(bool(words := WORD.findall(text)) and words[-1].lower() not in a for text, a in zip(texts, allowed))
        opened = sum(text.count("(") > text.count(")") or text.count("[") > text.count("]") for text in texts)
        rows.append([length, len(texts), cut, opened])
    lines = [
        command_line(),
        "",
        f"Summaries of {args.data.name} held to each length in pieces; the installed summarizer's default search.",
        "",
        table(["pieces", "summaries", "ending mid-word", "a bracket left open"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
