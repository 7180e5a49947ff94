"""Which sentence segmenter the runtime uses: three maintained PyPI segmenters on the test sources.

    python benchmarks/sentence_splitters.py ../shared/data/en-de/test.tsv.gz \\
        ../shared/data/en-de/l10n-test.tsv.gz --model models/en-de --out benchmarks/studies/SENTENCES.md

There is no gold segmentation of the corpora, but their rows make one: a row that ends a sentence
(last character . ! ? … or a closing quote or bracket after one) followed by the next such row of
the same origin, joined with a space, has a known boundary between them. For every origin the
table gives the share of those joins each segmenter finds (recall), and, on the origins whose rows
are single sentences by construction (ding's example sentences, ddtp's aligned description
sentences), how many rows per thousand it cuts inside (false splits; read by hand, a few of
those rows do hold two sentences, so the count is an upper bound). Time is for the whole run.

With `--model`, the rows that the runtime's segmenter (runtime/sentences.py) splits are translated
whole and sentence by sentence (`attn translate --no-sentences` and the default), default search,
and scored against their references: splitting must not cost BLEU.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from report import command_line, finish

from attn.cli.metrics import translation_scores
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.sentences import split_sentences
from attn.runtime.tsv import read_tsv

SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*$")
SINGLE_SENTENCE_ORIGINS = ("ding", "ddtp")


def sentencex_splitter() -> Callable[[str], list[str]]:
    from sentencex import segment

    return lambda text: [s.strip() for s in segment("en", text) if s.strip()]


def pysbd_splitter() -> Callable[[str], list[str]]:
    import pysbd

    segmenter = pysbd.Segmenter(language="en", clean=False)
    return lambda text: [s.strip() for s in segmenter.segment(text) if s.strip()]


def syntok_splitter() -> Callable[[str], list[str]]:
    from syntok import segmenter

    return lambda text: [
        "".join(t.spacing + t.value for t in s).strip() for paragraph in segmenter.analyze(text) for s in paragraph
    ]


SPLITTERS = {"sentencex": sentencex_splitter, "pysbd": pysbd_splitter, "syntok": syntok_splitter}


def boundaries(sentences: list[str], text: str) -> set[int]:
    """Character offsets in `text` where a sentence other than the first starts."""
    offsets, position = set(), 0
    for sentence in sentences:
        start = text.find(sentence, position)
        if start < 0:  # a segmenter that changed the text: locate by its first word
            start = text.find(sentence.split()[0], position) if sentence.split() else position
        if start > 0:
            offsets.add(start)
        position = max(position, start + 1)
    return offsets


def evaluate(
    split: Callable[[str], list[str]], sources_by_origin: dict[str, list[str]]
) -> dict[str, tuple[float, float | None]]:
    """Per origin: (recall of the joins between consecutive sentence-ending rows, false splits
    per 1,000 single-sentence rows, or None for other origins)."""
    scores = {}
    for origin, sources in sources_by_origin.items():
        ending = [s for s in sources if SENTENCE_END.search(s)]
        found = total = 0
        for first, second in zip(ending[::2], ending[1::2]):
            text = f"{first} {second}"
            found += (len(first) + 1) in boundaries(split(text), text)
            total += 1
        false = None
        if origin in SINGLE_SENTENCE_ORIGINS:
            false = 1000 * sum(len(split(s)) > 1 for s in ending) / max(len(ending), 1)
        scores[origin] = (found / max(total, 1), false)
    return scores


def split_or_whole(model: Path, files: list[Path]) -> list[str]:
    """Table rows: BLEU and chrF of `model` on each file's multi-sentence rows, whole and split."""
    translator = LoadedModel(model, notify=lambda message: None)
    lines = [
        f"`{model}` on the rows the runtime splits into sentences, default search:",
        "",
        "| file | origin | rows | BLEU whole | BLEU split | chrF whole | chrF split |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in files:
        rows = [r for r in read_tsv(path) if len(split_sentences(r.source, translator.manifest.source_lang)) > 1]
        outputs = {
            split: [t[0].text for t in translator.translate([r.source for r in rows], sentences=split)]
            for split in (False, True)
        }
        origins = Counter(r.origin for r in rows)
        for origin in ["all", *(o for o, count in origins.most_common() if count >= 50)]:
            chosen = [i for i, r in enumerate(rows) if origin in ("all", r.origin)]
            scores = {
                split: translation_scores([outputs[split][i] for i in chosen], [rows[i].target for i in chosen])
                for split in (False, True)
            }
            lines.append(
                f"| {path.name} | {origin} | {len(chosen)} | {scores[False]['bleu']:.2f} | "
                f"{scores[True]['bleu']:.2f} | {scores[False]['chrf']:.2f} | {scores[True]['chrf']:.2f} |"
            )
            print(lines[-1], flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--model", type=Path, help="also score this model on the multi-sentence rows, split and whole")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sources_by_origin: dict[str, list[str]] = defaultdict(list)
    for path in args.files:
        for row in read_tsv(path):
            sources_by_origin[row.origin].append(row.source)
    results, seconds = {}, {}
    for name, make in SPLITTERS.items():
        split = make()
        start = time.perf_counter()
        results[name] = evaluate(split, sources_by_origin)
        seconds[name] = time.perf_counter() - start
    origins = sorted(sources_by_origin)
    lines = [
        command_line(),
        "",
        "Recall: share of the joins between two sentence-ending rows that the segmenter splits at. "
        "False splits: rows of a single-sentence origin it cuts inside, per 1,000 (an upper bound: a few such rows "
        "hold two sentences).",
        "",
        "| origin | joins | " + " | ".join(f"{n} recall | {n} false splits" for n in SPLITTERS) + " |",
        "|---|---|" + "---|---|" * len(SPLITTERS),
    ]
    for origin in origins:
        joins = sum(1 for s in sources_by_origin[origin] if SENTENCE_END.search(s)) // 2
        cells = []
        for name in SPLITTERS:
            recall, false = results[name][origin]
            cells += [f"{recall:.1%}", "" if false is None else f"{false:.1f}"]
        lines.append(f"| {origin} | {joins} | " + " | ".join(cells) + " |")
    lines.append("| **seconds, all rows** | | " + " | ".join(f"{seconds[n]:.2f} | " for n in SPLITTERS) + " |")
    if args.model:
        lines += ["", *split_or_whole(args.model, args.files)]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
