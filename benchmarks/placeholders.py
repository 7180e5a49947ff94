"""Format placeholders (`%s`, `%d`, `%1`, `%(name)s`, `{0}`) through translation: kept by the model
as it is, or masked by stand-ins before translation and put back after.

    python -m benchmarks.placeholders --data ../shared/data/en-de/l10n-dev.tsv.gz --from en --to de \\
        [--out docs/studies/PLACEHOLDERS.md]

The rows of the data whose source holds a placeholder, translated by the installed model of the
direction at its default search: as they are, and with each placeholder replaced by a stand-in
(`X1`, `10`, `PH1`, …) that is put back after; a masked output that lost or repeated a stand-in
falls back to the unmasked one. Scored: the rows whose output holds exactly the source's
placeholders (as a multiset), and chrF and BLEU against the reference.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

import sacrebleu

import attn.runtime as attn
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table

PLACEHOLDER = re.compile(r"%(?:\(\w+\))?(?:\d+\$)?[-#0+]*\d*(?:\.\d+)?[sdifFeEgGxXcu]|\{\w*\}|%\d+")
STAND_INS = ("X{}", "{}0", "PH{}")  # the stand-in of the i-th placeholder, i from 1


def masked(text: str, stand_in: str) -> tuple[str, dict[str, str]]:
    """The text with its placeholders replaced by stand-ins, and stand-in → placeholder."""
    found: dict[str, str] = {}

    def replace(match: re.Match) -> str:
        token = stand_in.format(len(found) + 1)
        found[token] = match.group(0)
        return token

    return PLACEHOLDER.sub(replace, text), found


def unmasked(output: str, found: dict[str, str], fallback: str) -> tuple[str, bool]:
    """The output with its stand-ins replaced back (the longest first: X10 before X1), or
    `fallback` when a stand-in is missing or repeated; whether it fell back."""
    if any(output.count(token) != 1 for token in found):
        return fallback, True
    for token in sorted(found, key=len, reverse=True):
        output = output.replace(token, found[token])
    return output, False


def kept(outputs: list[str], sources: list[str]) -> int:
    return sum(Counter(PLACEHOLDER.findall(o)) == Counter(PLACEHOLDER.findall(s)) for o, s in zip(outputs, sources))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--from", dest="source", required=True)
    parser.add_argument("--to", dest="target", required=True)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = [row for row in read_tsv(args.data) if PLACEHOLDER.search(row.source)]
    sources, references = [row.source for row in rows], [row.target for row in rows]
    translator = attn.load(notify=lambda note: None)

    def translated(texts: list[str]) -> list[str]:
        return [result.text for result in translator.translate(texts, args.source, args.target)]

    plain = translated(sources)
    results = [("as they are", plain, 0)]
    for stand_in in STAND_INS:
        masks = [masked(source, stand_in) for source in sources]
        back = [unmasked(o, found, p) for o, (_, found), p in zip(translated([m for m, _ in masks]), masks, plain)]
        results.append((f"masked as {stand_in.format('N')}", [o for o, _ in back], sum(f for _, f in back)))
    rows_out = [
        [
            name,
            f"{kept(outputs, sources)} of {len(rows)}",
            fallbacks,
            f"{sacrebleu.corpus_chrf(outputs, [references]).score:.2f}",
            f"{sacrebleu.corpus_bleu(outputs, [references]).score:.2f}",
        ]
        for name, outputs, fallbacks in results
    ]
    lines = [
        command_line(),
        "",
        f"{len(rows)} rows of `{Path(args.data).name}` with a placeholder in the source; {args.source}→{args.target}, "
        "the installed model's default search.",
        "",
        table(["placeholders", "rows keeping them", "fell back", "chrF", "BLEU"], rows_out),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
