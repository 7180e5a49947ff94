"""How fast a wider Transformer would decode, before training one: the config's model at each
`--widths` value (width = embedding size; feed-forward 4 × width, 64-wide heads), freshly seeded,
exported with the tokenizer and shortlist of a trained folder of the same vocabulary, quantized,
and timed against baseline folders (the shipped GRU, the shipped Transformer), with each folder's
size. Every sentence is forced to the same number of output pieces, so untrained weights decode
as much as trained ones; the seeded model at the trained folder's own width checks that (it
should match that folder's speed). Speed and size only: whether a width can meet the speed bar
and the size cap at all.

    python benchmarks/width_speed.py configs/en-de-transformer.toml --vocab-from models/en-de \\
        --baseline work/en-de-row2 --baseline models/en-de --data ../shared/data/en-de/test.tsv.gz \\
        --widths 256,384,512 --sentences 300 --pieces 30 --repeats 3 --out benchmarks/studies/WIDTH-SPEED.md
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
from pathlib import Path

from decoder_depth_speed import add_forced_length_arguments, rate
from report import command_line, finish

from attn.export.config import load_config
from attn.export.graphs.onnx_export import export_model
from attn.export.graphs.quantize import quantize_folder
from attn.export.training.train import seeded_model
from attn.runtime.constants import LEXICON, TOKENIZER
from attn.runtime.shortlist import Shortlist
from attn.runtime.tokenizer import SubwordTokenizer
from attn.runtime.tsv import read_tsv, spread

HEAD_SIZE = 64


def seeded_folder(config_path: Path, width: int, vocab_from: Path, out: Path) -> tuple[Path, int]:
    """The config's model at `width`, seeded, exported with `vocab_from`'s tokenizer and shortlist
    and quantized: (the int8 folder, its parameter count)."""
    config = load_config(config_path, [])
    config = dataclasses.replace(
        config,
        model=dataclasses.replace(
            config.model, embedding_size=width, feedforward_size=4 * width, heads=width // HEAD_SIZE
        ),
    )
    vocab_size = SubwordTokenizer.load(vocab_from / TOKENIZER).vocab_size
    model = seeded_model(config, vocab_size)
    shortlist = Shortlist.load(vocab_from / LEXICON, vocab_size)
    export_model(model, config, vocab_from / TOKENIZER, out / "fp32", {"steps": [0]}, shortlist)
    quantize_folder(out / "fp32", out / "int8")
    return out / "int8", sum(p.numel() for p in model.parameters())


def folder_megabytes(folder: Path) -> float:
    """The folder's files together, in 10^6 bytes (as `du -sb`)."""
    return sum(path.stat().st_size for path in folder.iterdir() if path.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--vocab-from", type=Path, required=True, help="a trained folder: its tokenizer and lexicon")
    parser.add_argument(
        "--baseline",
        type=Path,
        action="append",
        required=True,
        help="a folder to time as it is (repeatable); ratios are to the first",
    )
    parser.add_argument("--widths", default="256,384,512", help="model widths, comma-separated")
    add_forced_length_arguments(parser, repeats=3)
    args = parser.parse_args()
    texts = [row.source for row in spread(read_tsv(args.data), args.sentences)]
    with tempfile.TemporaryDirectory() as scratch:
        folders = [(str(folder), folder) for folder in args.baseline]
        for width in (int(w) for w in args.widths.split(",")):
            folder, parameters = seeded_folder(args.config, width, args.vocab_from, Path(scratch) / str(width))
            folders.append(
                (
                    f"seeded width {width}, {width // HEAD_SIZE} heads, {parameters / 1e6:.2f} M parameters "
                    "(int8, shortlist)",
                    folder,
                )
            )
        rows = [
            (name, rate(folder, texts, args.pieces, args.repeats), folder_megabytes(folder)) for name, folder in folders
        ]
    lines = [
        command_line(),
        "",
        f"{len(texts)} test sentences, beam 5, every output forced to {args.pieces} pieces; the machine's "
        f"threads; fastest of {args.repeats}; speed only.",
        "",
        "| folder | sentences/s | × first | folder, MB |",
        "|---|---|---|---|",
        *(f"| {name} | {value:.1f} | {value / rows[0][1]:.2f} | {size:.1f} |" for name, value, size in rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
