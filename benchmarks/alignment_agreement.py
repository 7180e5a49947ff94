"""How well a model's attention aligns words: its hard alignments against a statistical aligner's.

    python benchmarks/alignment_agreement.py models/en-de [MORE FOLDERS] \\
        --dev ../shared/data/en-de/dev.tsv.gz --train ../shared/data/en-de/train.tsv.gz \\
        --pairs 300 --context 20000 --out benchmarks/studies/ALIGNMENT.md

For `--pairs` dev pairs (every n-th row), each folder force-decodes the reference translation
(`LoadedModel.force`, as `attn align` does) and links every target word to its strongest source
word (README, "Alignments"). eflomal (Östling and Tiedemann 2016; pip install eflomal) aligns the
same pairs, with `--context` training pairs beside them for its statistics, in both directions:
their intersection counts as sure links, their union as possible ones. The table gives the
alignment error rate AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|) (Och and Ney 2003) and the share of
the model's links the aligner also proposes. Words are whitespace-separated on both sides, as in
the runtime's alignments. For a Transformer, which decoder layer feeds `attention` is
`[model] alignment_layer`: export one folder per layer (`attn export --no-train --set
model.alignment_layer=N`) and compare them here.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import eflomal
from report import command_line, finish

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import Row, read_tsv, spread


def statistical_links(sources: list[str], targets: list[str]) -> tuple[list[set], list[set]]:
    """eflomal's links per pair (source index, target index): (intersection, union) of the two
    directions."""
    with tempfile.TemporaryDirectory() as scratch:
        forward, reverse = Path(scratch) / "forward", Path(scratch) / "reverse"
        eflomal.Aligner().align(
            [" ".join(s.split()) for s in sources],
            [" ".join(t.split()) for t in targets],
            links_filename_fwd=str(forward),
            links_filename_rev=str(reverse),
            quiet=True,
        )
        parse = lambda line: {tuple(map(int, link.split("-"))) for link in line.split()}  # noqa: E731
        pairs = [
            (parse(f), parse(r)) for f, r in zip(forward.read_text().splitlines(), reverse.read_text().splitlines())
        ]
    return [f & r for f, r in pairs], [f | r for f, r in pairs]


def add_reference_arguments(parser: argparse.ArgumentParser) -> None:
    """--dev, --train, --pairs, --context and --out, shared with alignment_heads.py."""
    parser.add_argument("--dev", type=Path, required=True)
    parser.add_argument("--train", type=Path, required=True, help="pairs beside the dev ones for eflomal's statistics")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--context", type=int, default=20000)
    parser.add_argument("--out", type=Path)


def reference_alignments(dev: Path, train: Path, pairs: int, context: int) -> tuple[list[Row], list[set], list[set]]:
    """`pairs` dev rows (every n-th) and eflomal's sure and possible links for each."""
    rows = spread([row for row in read_tsv(dev) if row.source.split() and row.target.split()], pairs)
    beside = spread([row for row in read_tsv(train) if row.source.split() and row.target.split()], context)
    sure, possible = statistical_links([r.source for r in rows + beside], [r.target for r in rows + beside])
    return rows, sure[: len(rows)], possible[: len(rows)]


def agreement(links: list[set], sure: list[set], possible: list[set]) -> tuple[int, float, float]:
    """(model links, AER, share of the model's links the aligner proposes) over all pairs."""
    count = sum(len(a) for a in links)
    hits_sure = sum(len(a & s) for a, s in zip(links, sure))
    hits_possible = sum(len(a & p) for a, p in zip(links, possible))
    aer = 1 - (hits_sure + hits_possible) / max(count + sum(len(s) for s in sure), 1)
    return count, aer, hits_possible / max(count, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    add_reference_arguments(parser)
    args = parser.parse_args()
    dev, sure, possible = reference_alignments(args.dev, args.train, args.pairs, args.context)
    lines = [
        command_line(),
        "",
        f"{len(dev)} pairs of `{args.dev.name}` (every n-th row), eflomal with {args.context} pairs of "
        f"`{args.train.name}` beside them; sure links = both directions, possible = either.",
        "",
        "| folder | links | AER | model links the aligner proposes |",
        "|---|---|---|---|",
    ]
    for folder in args.folders:
        translator = LoadedModel(folder, threads=1, notify=lambda message: None)
        links = [set(translator.force(row.source, row.target).alignment.hard_links()) for row in dev]
        count, aer, proposed = agreement(links, sure, possible)
        lines.append(f"| {folder} | {count} | {aer:.3f} | {proposed:.1%} |")
        print(lines[-1], flush=True)
    finish(lines, args.out)


if __name__ == "__main__":
    main()
