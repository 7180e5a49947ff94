"""Streets with their house numbers set aside from the search (runtime/street_addresses.py): how
many of a sentence's address parts the installed models' translations hold as written, with the
streets set aside and without (source_reading.py's street_spans replaced by one that finds none), same run.

benchmarks/street_addresses/LANG.tsv (and held-out/LANG.tsv, written at the same time and not read
while the rule was chosen): sentences written for this by a helper who had not seen the rule, each
with the parts of its address a translation must keep as written ("|" between them: the street
with its number, the postcode; none in a sentence without an address: "Die Straße war nass.",
"Room 12"). Also counted: the sentences without an address whose translation the rule changed.

    python -m benchmarks.street_addresses [--sentences benchmarks/street_addresses/held-out] [--show 5] [--out FILE]
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from benchmarks.report import DIRECTIONS
from benchmarks.sentence_sets import kept_as_written, report

SENTENCES = Path("benchmarks/street_addresses")


def changed_without(source: str, target: str, sentences: list[tuple[str, list[str]]], unread, read) -> str:
    """How many of `sentences` without an address the rule changed the translation of, of how many."""
    without = [(before, after) for (_, parts), before, after in zip(sentences, unread, read) if not parts]
    return f"{sum(before != after for before, after in without)} of {len(without)}"


def main() -> None:
    report(
        __doc__.splitlines()[0],
        SENTENCES,
        [(source, target) for _, source, target, _ in DIRECTIONS],
        lambda: mock.patch("attn.runtime.source_reading.street_spans", lambda *arguments: []),
        kept_as_written,
        ("as the model writes them", "streets set aside"),
        changed_without,
        ["direction", "addresses", "kept", "sentences without an address changed"],
        "Address parts kept as written",
    )


if __name__ == "__main__":
    main()
