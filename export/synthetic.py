"""Synthetic tasks for tests and the example config: reverse a short sequence of symbols."""

from __future__ import annotations

import random
from pathlib import Path

SYMBOLS = [f"{letter}{digit}" for letter in "abcdefgh" for digit in "0123"]


def reverse_task(count: int, seed: int, min_length: int = 3, max_length: int = 8) -> list[tuple[str, str]]:
    """Pairs (source, target) where the target is the source's symbols in reverse order."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        symbols = [rng.choice(SYMBOLS) for _ in range(rng.randint(min_length, max_length))]
        pairs.append((" ".join(symbols), " ".join(reversed(symbols))))
    return pairs


def write_reverse_task(folder: str | Path, train: int = 6000, dev: int = 200, test: int = 200) -> None:
    """Write train/dev/test TSVs (source, target, origin, group) of the reverse task."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for offset, (split, count) in enumerate([("train", train), ("dev", dev), ("test", test)]):
        lines = [f"{s}\t{t}\treverse\t{split}-{i}\n" for i, (s, t) in enumerate(reverse_task(count, seed=offset))]
        (folder / f"{split}.tsv").write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    import sys

    write_reverse_task(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/reverse")
