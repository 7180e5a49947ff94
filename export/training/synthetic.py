"""Synthetic tasks for tests and the example configs: reverse a short sequence of symbols, or
rotate it by one (the first symbol moves to the end; read backwards, the last moves to the front,
so that one source has a different target in each direction)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

SYMBOLS = [f"{letter}{digit}" for letter in "abcdefgh" for digit in "0123"]


def symbol_task(
    change: Callable[[list[str]], list[str]], count: int, seed: int, min_length: int = 3, max_length: int = 8
) -> list[tuple[str, str]]:
    """Pairs (source, target) of random symbol sequences and `change` of each."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        symbols = [rng.choice(SYMBOLS) for _ in range(rng.randint(min_length, max_length))]
        pairs.append((" ".join(symbols), " ".join(change(symbols))))
    return pairs


TASKS = {"reverse": lambda symbols: symbols[::-1], "rotate": lambda symbols: symbols[1:] + symbols[:1]}


def write_task(folder: str | Path, name: str = "reverse", train: int = 6000, dev: int = 200, test: int = 200) -> None:
    """Write train/dev/test TSVs (source, target, origin, group) of the task `name` (TASKS)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for offset, (split, count) in enumerate([("train", train), ("dev", dev), ("test", test)]):
        pairs = symbol_task(TASKS[name], count, seed=offset)
        lines = [f"{s}\t{t}\t{name}\t{split}-{i}\n" for i, (s, t) in enumerate(pairs)]
        (folder / f"{split}.tsv").write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    import sys

    task = sys.argv[1] if len(sys.argv) > 1 else "reverse"
    write_task(sys.argv[2] if len(sys.argv) > 2 else f"tests/fixtures/{task}", task)
