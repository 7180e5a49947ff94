"""How fast a Transformer decodes with fewer layers, before training one: the speed of the same
trained weights cut to their first E encoder and D decoder layers, against a baseline folder (the
shipped GRU), every sentence forced to the same number of output pieces so that the outputs' lengths
(which a cut model gets wrong) do not enter the comparison. The cut models' translations are
meaningless; only their speed is measured. Written to benchmarks/studies/DECODER-DEPTH.md.

    python benchmarks/decoder_depth_speed.py configs/en-de-transformer.toml work/en-de-transformer \\
        --set model.decoder_layers=2 --baseline models/en-de --shortlist-from work/en-de-t --data ../shared/data/en-de/test.tsv.gz \\
        --shapes 6x2,6x1,3x1 --sentences 300 --pieces 30 --out benchmarks/studies/DECODER-DEPTH.md

Each cut model is exported with `export_model` (verified against PyTorch) and quantized with
`quantize_folder` into a temporary folder, with the shortlist of `--shortlist-from`; beam 5, batch
32, the machine's threads, each folder timed `--repeats` times, the fastest kept.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from report import command_line, finish
from training_run import add_run_arguments, run_model

from attn.export.graphs.onnx_export import export_model
from attn.export.graphs.quantize import quantize_folder
from attn.export.models import build_model
from attn.runtime.constants import LEXICON, TOKENIZER
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.shortlist import Shortlist
from attn.runtime.tsv import read_tsv, spread


def cut_folder(args: argparse.Namespace, encoder_layers: int, decoder_layers: int, out: Path) -> Path:
    """The run's model with only its first encoder and decoder layers, exported and quantized."""
    config, model, steps = run_model(args)
    config = dataclasses.replace(
        config,
        model=dataclasses.replace(
            config.model, encoder_layers=encoder_layers, decoder_layers=decoder_layers, alignment_layer=0
        ),
    )
    cut = build_model(config.model, model.embedding.num_embeddings)
    kept = cut.state_dict()
    cut.load_state_dict({name: value for name, value in model.state_dict().items() if name in kept})
    cut.eval()
    shortlist = Shortlist.load(args.shortlist_from / LEXICON, model.embedding.num_embeddings)
    export_model(cut, config, args.workdir / TOKENIZER, out / "fp32", {"steps": steps}, shortlist)
    quantize_folder(out / "fp32", out / "int8")
    return out / "int8"


def rate(folder: Path, texts: list[str], pieces: int, repeats: int) -> float:
    translator = LoadedModel(folder, notify=lambda message: None)
    options = translator.default_options(
        beam=5, replace_unk=False, min_length=pieces, max_length_ratio=0.0, max_length_offset=pieces
    )
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        translator.translate(texts, options, 32, sentences=False)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best


def add_forced_length_arguments(parser: argparse.ArgumentParser, repeats: int) -> None:
    """The options of a speed run with forced output lengths: its sentences, the pieces forced on
    each, how often each folder is timed, and the report file."""
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=300)
    parser.add_argument("--pieces", type=int, default=30, help="output pieces forced on every sentence")
    parser.add_argument("--repeats", type=int, default=repeats)
    parser.add_argument("--out", type=Path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser)
    parser.add_argument("--baseline", type=Path, required=True)
    parser.add_argument(
        "--shortlist-from", type=Path, required=True, help="a folder exported from the run, for its lexicon"
    )
    parser.add_argument("--shapes", default="6x2,6x1", help="encoder x decoder layers to cut to, comma-separated")
    add_forced_length_arguments(parser, repeats=2)
    args = parser.parse_args()
    texts = [row.source for row in spread(read_tsv(args.data), args.sentences)]
    rows = [("baseline " + str(args.baseline), rate(args.baseline, texts, args.pieces, args.repeats))]
    with tempfile.TemporaryDirectory() as scratch:
        for shape in args.shapes.split(","):
            encoder_layers, decoder_layers = (int(n) for n in shape.split("x"))
            folder = cut_folder(args, encoder_layers, decoder_layers, Path(scratch) / shape)
            rows.append(
                (
                    f"Transformer {encoder_layers}+{decoder_layers} layers (int8, shortlist)",
                    rate(folder, texts, args.pieces, args.repeats),
                )
            )
            print(rows[-1], flush=True)
    lines = [
        command_line(),
        "",
        f"{len(texts)} test sentences, beam 5, every output forced to {args.pieces} pieces; speed only.",
        "",
        "| folder | sentences/s | × baseline |",
        "|---|---|---|",
        *(f"| {name} | {value:.1f} | {value / rows[0][1]:.2f} |" for name, value in rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
