"""How much of the dev targets the shortlist's frequent pieces cover in a model of both
directions of a pair: one list over both target languages against one per language (what
runtime/shortlist.py keeps), counted on the training mix of a config, in the pieces of its run's
tokenizer. Frequent pieces only: the sources' own pieces and their lexical translations, which
every sentence adds, are left out.

    attn train configs/en-fr-both-ways.toml --workdir /tmp/efb-dry --set train.max_steps=1   # the tokenizer
    python benchmarks/shortlist_coverage.py configs/en-fr-both-ways.toml /tmp/efb-dry/tokenizer.json
"""

from __future__ import annotations

import sys

import numpy as np

from attn.export.config import data_files, load_config
from attn.export.training.data import sample_origins
from attn.runtime.tokenizer import SubwordTokenizer
from attn.runtime.tsv import read_tsv

SIZES = (1000, 2000)


def piece_counts(tokenizer: SubwordTokenizer, texts: list[str]) -> np.ndarray:
    """How often each piece (V,) occurs in the texts."""
    return np.bincount(
        np.concatenate([np.asarray(ids, dtype=np.int64) for ids in tokenizer.encode_batch(texts)]),
        minlength=tokenizer.vocab_size,
    )


def covered(counts: np.ndarray, chosen: np.ndarray) -> float:
    return float(counts[chosen].sum() / counts.sum())


def main() -> None:
    config = load_config(sys.argv[1])
    tokenizer = SubwordTokenizer.load(sys.argv[2])
    rows = sample_origins(
        [row for path in data_files(config.data.train) for row in read_tsv(path)], config.data.sample, config.train.seed
    )
    dev = [row for path in data_files(config.data.dev) for row in read_tsv(path)]
    sides = {
        config.task.target_lang: (
            piece_counts(tokenizer, [r.target for r in rows]),
            piece_counts(tokenizer, [r.target for r in dev]),
        ),
        config.task.source_lang: (
            piece_counts(tokenizer, [r.source for r in rows]),
            piece_counts(tokenizer, [r.source for r in dev]),
        ),
    }
    both = sum(train for train, _ in sides.values())
    print("| frequent pieces | language | one list over both | its own list |")
    print("|---|---|---|---|")
    for size in SIZES:
        joint = np.argsort(-both, kind="stable")[:size]
        for language, (train, dev_counts) in sides.items():
            own = np.argsort(-train, kind="stable")[:size]
            print(f"| {size:,} | {language} | {covered(dev_counts, joint):.1%} | {covered(dev_counts, own):.1%} |")


if __name__ == "__main__":
    main()
