"""The corpora's TSV format: source, target[, origin[, group]], optionally gzipped."""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

Item = TypeVar("Item")


@dataclass(frozen=True)
class Row:
    source: str
    target: str
    origin: str


def read_tsv(path: str | Path) -> list[Row]:
    """Rows of a (gzipped) TSV; lines with fewer than two columns are skipped."""
    opener = gzip.open if str(path).endswith(".gz") else open
    rows = []
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            columns = line.rstrip("\n").split("\t")
            if len(columns) >= 2:
                rows.append(Row(columns[0], columns[1], columns[2] if len(columns) > 2 else ""))
    return rows


def spread(items: list[Item], count: int) -> list[Item]:
    """At most `count` items, every n-th one: a sample that covers the whole file (all origins)."""
    return items[:: max(1, len(items) // max(1, count))][:count]
