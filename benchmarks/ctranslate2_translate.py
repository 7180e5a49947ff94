"""A one-command CTranslate2 translator, for cold start and peak memory beside `attn translate`:

    python -m benchmarks.ctranslate2_translate work/en-de-ct2 models/en-de/tokenizer.json \\
        --compute-type int8 --beam 5 "she is eating a green apple"

Texts from the arguments, else one per line from standard input; translations on standard output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from attn.runtime.constants import BATCH_SIZE
from attn.runtime.tokenizer import SubwordTokenizer
from benchmarks.ctranslate2_engine import Ctranslate2Engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder written by ctranslate2_convert.py")
    parser.add_argument("tokenizer", type=Path, help="the tokenizer.json of the model it was converted from")
    parser.add_argument("texts", nargs="*")
    parser.add_argument("--compute-type", default="int8")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    args = parser.parse_args()
    engine = Ctranslate2Engine(args.folder, SubwordTokenizer.load(args.tokenizer), args.compute_type, args.threads)
    texts = args.texts or [line.rstrip("\n") for line in sys.stdin]
    for found in engine.translate(texts, engine.default_options(args.beam), args.batch_size):
        print(found[0].text)


if __name__ == "__main__":
    main()
