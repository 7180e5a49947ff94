"""An imported Marian model (`attn import marian`) against CTranslate2 on the same weights, same run.

The model: a MarianMTModel of OPUS-MT's shape (width 512, 6 + 6 layers, 8 heads, FFN 2048, swish;
a 32,000-piece vocabulary), random weights (tests/tiny_marian.py makes it; nothing is downloaded).
attn imports it (`attn import marian`, then `attn quantize`); CTranslate2's own converter
(`ct2-transformers-converter`) converts the same checkpoint. Random weights never end a sentence,
so every output is forced to exactly `--pieces` pieces in both engines (attn: min_length and the
length bound; CTranslate2: min_decoding_length and max_decoding_length): the same work, which the
"same output" column checks token for token. Speed only; BLEU means nothing here.

    python -m benchmarks.imported_speed --out docs/studies/IMPORTED-SPEED.md
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from attn.cli.bench import timed_in_turn
from attn.runtime.constants import BATCH_SIZE
from attn.runtime.loaded_model import LoadedModel
from benchmarks.report import WHOLE, command
from tests.tiny_marian import build_tiny_marian, fixture_lines

# attn's folder (under the scratch folder) and CTranslate2's compute type of each precision
COMPUTE_TYPES = {"fp32": "float32", "int8": "int8"}


def converted(checkpoint: Path, scratch: Path) -> None:
    """The Marian `checkpoint` imported (`attn import marian`) into `scratch`/fp32 and quantized into
    `scratch`/int8, and converted by CTranslate2's converter into `scratch`/ct2."""
    attn = [sys.executable, "-m", "attn.cli"]
    subprocess.run([*attn, "import", "marian", str(checkpoint), "--out", str(scratch / "fp32")], check=True)
    subprocess.run([*attn, "quantize", str(scratch / "fp32"), "--out", str(scratch / "int8")], check=True)
    subprocess.run(
        ["ct2-transformers-converter", "--model", str(checkpoint), "--output_dir", str(scratch / "ct2")],
        check=True,
        capture_output=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--pieces", type=int, default=20, help="every output's length, in pieces")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    import ctranslate2  # optional: only the comparison needs it

    english, _ = fixture_lines()
    texts = english[: args.sentences]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        checkpoint = build_tiny_marian(
            scratch / "opus-shape", teaching_steps=0, width=512, layers=6, heads=8, extra_pieces=32000 - 490
        )
        converted(checkpoint, scratch)
        for precision, compute_type in COMPUTE_TYPES.items():
            translator = LoadedModel(scratch / precision, threads=args.threads)
            engine = ctranslate2.Translator(
                str(scratch / "ct2"),
                device="cpu",
                compute_type=compute_type,
                inter_threads=args.threads,
                intra_threads=1,
            )
            pieces = translator.tokenizer.pieces
            sources = [translator.tokenizer.encode_source(text).ids for text in texts]
            for beam in (1, 5):
                options = translator.default_options(
                    beam=beam,
                    min_length=args.pieces,
                    max_length_ratio=0.0,
                    max_length_offset=args.pieces,
                )

                def ours():
                    return [
                        found[0].tokens
                        for found in translator.translate(texts, options, args.batch_size, text_options=WHOLE)
                    ]

                def theirs():
                    results = engine.translate_batch(
                        [[pieces[i] for i in source] for source in sources],
                        beam_size=beam,
                        max_batch_size=args.batch_size,
                        min_decoding_length=args.pieces,
                        max_decoding_length=args.pieces + 1,
                    )
                    return [result.hypotheses[0] for result in results]

                (attn_out, attn_seconds), (ct2_out, ct2_seconds) = timed_in_turn([ours, theirs], args.repeats)
                same = sum([pieces[i] for i in mine] == found for mine, found in zip(attn_out, ct2_out))
                rows.append(
                    f"| {precision}, beam {beam} | {len(texts) / attn_seconds:.1f} | {len(texts) / ct2_seconds:.1f} "
                    f"| **{ct2_seconds / attn_seconds:.2f}×** | {same} of {len(texts)} |"
                )
    cpu = subprocess.run(
        ["bash", "-c", "lscpu | grep 'Model name' | cut -d: -f2"], capture_output=True, text=True
    ).stdout.strip()
    report = "\n".join(
        [
            "# An imported OPUS-MT-shaped model: attn against CTranslate2",
            "",
            f"`{command()}`, "
            f"{cpu or platform.processor()}, {args.threads} threads, batch {args.batch_size}, "
            f"fastest of {args.repeats} rounds, the two engines in turn; "
            f"every output {args.pieces} pieces (the model's weights are random: see the script's docstring); "
            f"CTranslate2 {ctranslate2.__version__}, inter_threads {args.threads}.",
            "",
            "| setting | attn sentences/s | CTranslate2 sentences/s | attn ÷ CTranslate2 | same output |",
            "|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
