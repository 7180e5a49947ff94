"""What int8 costs an imported Marian model that translates: attn's and CTranslate2's, same weights.

benchmarks/imported_speed.py times an OPUS-MT-shaped model with random weights, where BLEU means
nothing. Here a small MarianMTModel (width 256, 3 + 3 layers, 4 heads, 4,000 SentencePiece pieces
each side: tests/tiny_marian.py) is trained on the CPU on a corpus of ../shared/data, English into
German (`--train`, `--steps` batches of 64 pairs), then imported (`attn import marian`) and
quantized (`attn quantize`); CTranslate2's own converter converts the same checkpoint, which it
runs at float32 and int8. Each engine translates the first `--rows` rows of `--test`, greedy and
at beam 5, every line as one input and nothing repaired (benchmarks/report.py WHOLE: the search
alone, as CTranslate2 runs it), each sentence held to attn's length limit (a·|source| + b pieces;
left to its own 256, CTranslate2 spelled a loop of the small model on to the end); BLEU and chrF
against the references (sacreBLEU), and how many translations are the other engine's.
`--checkpoint DIR` keeps the trained checkpoint there, and a later run reads it from there instead
of training again.

    python -m benchmarks.imported_int8_quality --steps 2500 --out docs/studies/IMPORTED-INT8.md
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv
from benchmarks.imported_speed import COMPUTE_TYPES, converted
from benchmarks.report import DATA, WHOLE, bleu_and_chrf, command_line, cpu_name, finish, table
from tests.tiny_marian import build_tiny_marian

BEAMS = (1, 5)


def trained(folder: Path, train: Path, steps: int) -> tuple[Path, str]:
    """The checkpoint in `folder`, trained there unless it holds one; and how it came to be."""
    if (folder / "config.json").exists():
        return folder, f"read from {folder}"
    import torch

    pairs = read_tsv(train)
    started = time.monotonic()
    build_tiny_marian(
        folder,
        teaching_steps=steps,
        width=256,
        layers=3,
        heads=4,
        pairs=([row.source for row in pairs], [row.target for row in pairs]),
        pieces=4000,
        batch_size=64,
        learning_rate=1e-3,
    )
    minutes = (time.monotonic() - started) / 60
    return (
        folder,
        f"trained {steps:,} steps here ({minutes:.1f} minutes on {cpu_name()}, {torch.get_num_threads()} threads) "
        f"on {train.name}",
    )


def held_to_limits(engine, sources: list[list[str]], limits: list[int], beam: int) -> list[list[str]]:
    """CTranslate2's best pieces for each source, each held to its own length limit (sources of one
    limit translated together)."""
    found: list[list[str]] = [[] for _ in sources]
    by_limit = defaultdict(list)
    for index, limit in enumerate(limits):
        by_limit[limit].append(index)
    for limit, indices in by_limit.items():
        results = engine.translate_batch(
            [sources[i] for i in indices], beam_size=beam, max_batch_size=32, max_decoding_length=limit
        )
        for index, result in zip(indices, results):
            found[index] = result.hypotheses[0]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=Path, default=DATA / "en-de" / "tatoeba-train.tsv.gz")
    parser.add_argument("--test", type=Path, default=DATA / "en-de" / "tatoeba-test.tsv.gz")
    parser.add_argument("--rows", type=int, default=2000, help="the test file's first rows")
    parser.add_argument("--steps", type=int, default=2500, help="training batches of 64 pairs")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--checkpoint", type=Path, default=None, help="keep (or read) the checkpoint here")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    import ctranslate2  # optional: only the comparison needs it
    import torch

    torch.set_num_threads(args.threads)
    tests = read_tsv(args.test)[: args.rows]
    sources, references = [row.source for row in tests], [row.target for row in tests]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        checkpoint, origin = trained(args.checkpoint or scratch / "marian", args.train, args.steps)
        converted(checkpoint, scratch)
        for precision, compute_type in COMPUTE_TYPES.items():
            translator = LoadedModel(scratch / precision, threads=args.threads)
            engine = ctranslate2.Translator(
                str(scratch / "ct2"), device="cpu", compute_type=compute_type, intra_threads=args.threads
            )
            tokenizer = translator.tokenizer
            source_ids = [tokenizer.encode_source(text).ids for text in sources]
            source_pieces = [[tokenizer.pieces[i] for i in ids] for ids in source_ids]
            piece_ids = {piece: index for index, piece in enumerate(tokenizer.pieces)}
            for beam in BEAMS:
                options = translator.default_options(beam=beam)
                limits = translator.max_lengths(np.array([len(ids) for ids in source_ids]), options).tolist()
                ours = [found[0] for found in translator.translate(sources, options, text_options=WHOLE)]
                theirs = held_to_limits(engine, source_pieces, limits, beam)
                same = sum([tokenizer.pieces[i] for i in mine.tokens] == found for mine, found in zip(ours, theirs))
                texts = [tokenizer.decode([piece_ids[p] for p in found]) for found in theirs]
                rows.append(
                    [
                        f"{precision}, beam {beam}",
                        *bleu_and_chrf([mine.text for mine in ours], references),
                        *bleu_and_chrf(texts, references),
                        f"{same:,} of {len(tests):,}",
                    ]
                )
    finish(
        [
            "# int8 against fp32 on an imported Marian model that translates",
            "",
            command_line(),
            "",
            f"A MarianMTModel {origin}; the first {len(tests):,} rows of {args.test.name}, "
            f"each line one input, nothing repaired, each held to attn's length limit. CTranslate2 "
            f"{ctranslate2.__version__}.",
            "",
            table(["setting", "attn BLEU", "attn chrF", "CTranslate2 BLEU", "CTranslate2 chrF", "same pieces"], rows),
        ],
        args.out,
    )


if __name__ == "__main__":
    main()
