"""Back-translated training pairs (Sennrich et al. 2016): real text of one language beside a
model's translation of it, learned toward the real side only ([data] one_way).

    cut -f1 ROWS.tsv > REAL.txt
    attn translate -m MODEL -s en -t fr -i REAL.txt > SYNTHETIC.txt
    python -m attn.export.training.back_translation ROWS.tsv SYNTHETIC.txt --out PAIRS.tsv.gz

Each row of ROWS.tsv (real text, anything, origin[, group]) keeps its real first column and takes
its line of SYNTHETIC.txt as the second (`--real-column 2` writes them the other way round); its
origin gets the prefix "bt-", so that [data] sample, hold_out and one_way can name it apart from
the real pairs. A translation that loops (a word sequence repeated) or whose length is far from
the real text's teaches nothing but the loop: such rows are left out.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from attn.export.training.train import write_rows
from attn.runtime.errors import UsageError
from attn.runtime.tsv import Row, read_tsv

ORIGIN_PREFIX = "bt-"
# A translation is kept when its words number between these multiples of the real text's.
LENGTH_RATIO = (0.5, 2.0)
# A translation loops when one of its word sequences of this length occurs this often in it (a
# long real text that repeats itself so is left out too: 20 of the 19,121 rows of
# configs/fr-en-general.toml).
LOOP_WORDS, LOOP_REPEATS = 3, 3


def loops(text: str) -> bool:
    """Whether some sequence of LOOP_WORDS words occurs LOOP_REPEATS times or more in `text`."""
    words = text.split()
    sequences = Counter(tuple(words[start : start + LOOP_WORDS]) for start in range(len(words) - LOOP_WORDS + 1))
    return any(count >= LOOP_REPEATS for count in sequences.values())


def usable(real: str, synthetic: str) -> bool:
    """Whether `synthetic` (a model's translation of `real`) is worth learning from."""
    low, high = LENGTH_RATIO
    return low <= len(synthetic.split()) / max(1, len(real.split())) <= high and not loops(synthetic)


def back_translated_rows(rows: list[Row], translations: list[str], real_column: int = 1) -> list[Row]:
    """The usable rows, each its real text (its source) beside its translation, in the column
    `real_column` (1 or 2), its origin prefixed with ORIGIN_PREFIX."""
    if len(rows) != len(translations):
        raise UsageError(f"{len(rows)} rows but {len(translations)} translations: one line each, in order")
    kept = [
        Row(row.source, translation, ORIGIN_PREFIX + row.origin)
        for row, translation in zip(rows, translations)
        if usable(row.source, translation)
    ]
    return kept if real_column == 1 else [row.swapped() for row in kept]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=Path, help="TSV (gzipped or not) whose first column is the real text")
    parser.add_argument("translations", type=Path, help="the first column translated, one line per row")
    parser.add_argument("--out", type=Path, required=True, help="the pairs, a gzipped TSV")
    parser.add_argument("--real-column", type=int, choices=(1, 2), default=1, help="where the real text goes")
    options = parser.parse_args(argv)
    try:
        if not options.out.name.endswith(".gz"):
            raise UsageError(f"{options.out}: the pairs are written gzipped: name the file *.tsv.gz")
        rows = read_tsv(options.rows)
        # lines as `attn translate` writes them: ended by "\n" alone
        text = options.translations.read_text(encoding="utf-8").removesuffix("\n")
        translations = [line.removesuffix("\r") for line in text.split("\n")] if text else []
        kept = back_translated_rows(rows, translations, options.real_column)
        write_rows(options.out, kept)
    except (UsageError, OSError, UnicodeDecodeError) as error:
        print(f"back_translation: {error}", file=sys.stderr)
        return 1
    print(f"{len(kept)} of {len(rows)} rows kept ({len(rows) - len(kept)} looping or of a far length)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
