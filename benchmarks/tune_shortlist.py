"""Choose the shortlist's sizes on dev: BLEU, speed and candidates for every (frequent, per source)
pair, from one exported folder whose lexicon was learned with the largest sizes (a smaller table
is a truncation of it: the same frequency order, the same per-source ranking).

    python -m benchmarks.tune_shortlist work/sl-fp32 ../shared/data/en-de/dev.tsv.gz 600 \\
        [--frequent 200,500,1000,2000] [--per-source 5,10,20,50]

The model's default search (its manifest's; the first tables, before that default, used beam 5 and
replace-unk off), one thread; candidates are counted over batches of 32 in file order.
A folder's lexicon is learned wide with `attn shortlist CONFIG MODEL --out WIDE --set
shortlist.frequent=… --set shortlist.per_source=…`.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import sacrebleu

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.search import SearchOptions
from attn.runtime.shortlist import Shortlist
from attn.runtime.tsv import read_tsv, spread


def size_list(text: str) -> list[int]:
    return [int(size) for size in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("data")
    parser.add_argument("sentences", type=int)
    parser.add_argument("--frequent", type=size_list, default=[200, 500, 1000, 2000])
    parser.add_argument("--per-source", type=size_list, default=[5, 10, 20, 50])
    args = parser.parse_args()
    folder, data, sentences = args.folder, args.data, args.sentences
    rows = spread(read_tsv(data), sentences)
    texts, references = [row.source for row in rows], [row.target for row in rows]
    translator = LoadedModel(folder, threads=1)
    learned = translator.shortlist
    sources = [translator.tokenizer.encode_source(text).ids for text in texts]

    def score(options: SearchOptions) -> tuple[float, float]:
        start = time.perf_counter()
        outputs = [result[0].text for result in translator.translate(texts, options, 32)]
        seconds = time.perf_counter() - start
        return sacrebleu.corpus_bleu(outputs, [references]).score, len(texts) / seconds

    bleu, rate = score(translator.default_options(shortlist=False))
    print(f"full vocab: BLEU {bleu:.2f}  {rate:.1f} sent/s", flush=True)
    for frequent in args.frequent:
        for per_source in args.per_source:
            translator.shortlist = Shortlist(learned.frequent[:frequent], learned.translations[:, :per_source])
            sizes = [len(translator.shortlist.candidates(sources[i : i + 32])[0]) for i in range(0, len(sources), 32)]
            bleu, rate = score(translator.default_options(shortlist=True))
            print(
                f"frequent {frequent} per_source {per_source}: BLEU {bleu:.2f}  {rate:.1f} sent/s  "
                f"candidates/batch {np.mean(sizes):.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
