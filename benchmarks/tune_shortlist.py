"""Choose the shortlist's sizes on dev: BLEU, speed and candidates for every (frequent, per source)
pair, from one exported folder whose lexicon was learned with the largest sizes (a smaller table
is a truncation of it: the same frequency order, the same per-source ranking).

    python benchmarks/tune_shortlist.py work/sl-fp32 ../shared/data/en-de/dev.tsv.gz 600

Beam 5, replace-unk off, one thread; candidates are counted over batches of 32 in file order.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import sacrebleu

from attn.runtime.search import SearchOptions
from attn.runtime.shortlist import Shortlist
from attn.runtime.translator import Translator
from attn.runtime.tsv import read_tsv, spread

FREQUENT = (200, 500, 1000, 2000)
PER_SOURCE = (5, 10, 20, 50)


def main() -> None:
    folder, data, sentences = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rows = spread(read_tsv(data), sentences)
    texts, references = [row.source for row in rows], [row.target for row in rows]
    translator = Translator(folder, threads=1)
    learned = translator.shortlist
    sources = [translator.tokenizer.encode_source(text).ids for text in texts]

    def score(options: SearchOptions) -> tuple[float, float]:
        start = time.perf_counter()
        outputs = [result[0].text for result in translator.translate(texts, options, 32)]
        seconds = time.perf_counter() - start
        return sacrebleu.corpus_bleu(outputs, [references]).score, len(texts) / seconds

    bleu, rate = score(SearchOptions(beam=5, replace_unk=False, shortlist=False))
    print(f"full vocab: BLEU {bleu:.2f}  {rate:.1f} sent/s", flush=True)
    for frequent in FREQUENT:
        for per_source in PER_SOURCE:
            translator.shortlist = Shortlist(learned.frequent[:frequent], learned.translations[:, :per_source])
            sizes = [len(translator.shortlist.candidates(sources[i : i + 32])[0]) for i in range(0, len(sources), 32)]
            bleu, rate = score(SearchOptions(beam=5, replace_unk=False))
            print(f"frequent {frequent} per_source {per_source}: BLEU {bleu:.2f}  {rate:.1f} sent/s  "
                  f"candidates/batch {np.mean(sizes):.0f}", flush=True)


if __name__ == "__main__":
    main()
