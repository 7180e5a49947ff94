"""How finely BPE cuts everyday words at each vocabulary size: BPE learned on the en-de mix of the
vocabulary pair (docs/model-history.md, en-de) at 8k / 16k / 24k / 32k pieces; for each, the
README sentence and its translation as pieces, and pieces per dev sentence (both dev files). Needs
../shared/data.

    python -m benchmarks.vocab_segments
"""

from __future__ import annotations

import argparse

from attn.export.config import data_files, load_config
from attn.export.training.data import sample_origins
from attn.export.training.subwords import train_tokenizer
from attn.runtime.tsv import read_tsv

CONFIG = "configs/en-de-transformer.toml"
SAMPLE = 'data.sample={"ding" = 92440, "ding-lex" = 150000, "debdocs" = 8000}'  # the vocabulary pair's mix
SIZES = (8000, 16000, 24000, 32000)


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    cfg = load_config(CONFIG, [SAMPLE])
    rows = sample_origins([r for p in data_files(cfg.data.train) for r in read_tsv(p, False)], cfg.data.sample, 1)
    texts = [r.source for r in rows] + [r.target for r in rows]
    dev = [r for p in data_files(cfg.data.dev) for r in read_tsv(p, False)]
    for size in SIZES:
        tok = train_tokenizer(texts, size, 2)
        print(
            size,
            " ".join(tok.encode("she is eating a green apple").tokens),
            "|",
            " ".join(tok.encode("Sie isst einen grünen Apfel.").tokens),
        )
        en = sum(len(tok.encode(r.source).tokens) for r in dev) / len(dev)
        de = sum(len(tok.encode(r.target).tokens) for r in dev) / len(dev)
        print(f"   dev pieces per sentence: en {en:.1f}, de {de:.1f} ({len(dev)} rows)")


if __name__ == "__main__":
    main()
