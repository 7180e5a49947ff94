"""Where a beam-search batch spends its time: cProfile of Translator.translate, top functions.

    python benchmarks/profile_search.py --model models/en-de --data ../shared/data/en-de/test.tsv.gz
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from attn.runtime.translator import Translator
from attn.runtime.tsv import read_tsv, spread


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=200)
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    texts = [row.source for row in spread(read_tsv(args.data), args.sentences)]
    translator = Translator(args.model, threads=args.threads)
    options = translator.default_options(beam=args.beam, replace_unk=False)
    translator.translate(texts[:10], options)  # warm-up
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.runcall(translator.translate, texts, options, 32)
    print(f"{len(texts)} inputs, beam {args.beam}: {time.perf_counter() - start:.2f} s")
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
