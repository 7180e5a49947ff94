"""French weekdays' names with "le" before them into English (runtime/dates.py weekdays: "le samedi"
read "on Saturday", or "Saturday" where a clause opens with it): how many the installed models'
translations name in English without "the" right before them ("opens the Saturday afternoon"),
read so and with "le" left as written (the rule before it), same run.

benchmarks/french_weekdays/fr.tsv (and held-out/fr.tsv, written at the same time and not read
while the rule was chosen): French sentences written for this by a helper who had not seen the
rule, each with the English names of its weekdays ("|" between them).

    python -m benchmarks.french_weekdays [--sentences benchmarks/french_weekdays/held-out] [--show 5] [--out FILE]
"""

from __future__ import annotations

import re
from pathlib import Path
from unittest import mock

from attn.runtime import dates
from benchmarks.sentence_sets import report

SENTENCES = Path("benchmarks/french_weekdays")


def named_right(names: list[str], translation: str) -> int:
    """How many of the weekdays `names` `translation` names, none right after "the"."""
    return sum(
        re.search(rf"\b{name}\b", translation, re.I) is not None
        and re.search(rf"\bthe {name}\b", translation, re.I) is None
        for name in names
    )


def changed(source: str, target: str, sentences: list[tuple[str, list[str]]], before, after) -> str:
    """How many of the translations the rule changed, of how many."""
    return f"{sum(b != a for b, a in zip(before, after))} of {len(sentences)} changed"


def main() -> None:
    report(
        __doc__.splitlines()[0],
        SENTENCES,
        [("fr", "en")],
        lambda: mock.patch.object(dates, "RELATIVE_AFTER", re.compile("")),  # "le" kept before any word
        named_right,
        ('"le" as written', '"le" read'),
        changed,
        ["direction", "weekdays", "named right", "translations"],
        'French weekdays named in English without "the"',
    )


if __name__ == "__main__":
    main()
