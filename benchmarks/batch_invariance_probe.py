"""Does a sentence translate the same in any company? A larger probe than the test suite's
240-line slice: N test sentences translated in batches of 32, in batches of 7, shuffled in batches
of 13, and (a subset) one at a time, with the model's shortlist on and off; counts the outputs
equal to the batches-of-32 run. Written to docs/studies/BATCH-INVARIANCE.md.

    python -m benchmarks.batch_invariance_probe --model models/en-de \\
        --data ../shared/data/en-de/test.tsv.gz --sentences 2000 --alone 400

A model of the other direction reads the file's second column (`--swap-columns`: de-en on the
en-de files); a model of several directions translates the one `--from` and `--to` name.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv, spread
from benchmarks.report import command_line, finish


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--alone", type=int, default=400, help="how many of them also translated one at a time")
    parser.add_argument("--swap-columns", action="store_true", help="Read the file's second column as the source.")
    parser.add_argument("--from", dest="source_lang", help="The direction a model of several translates from.")
    parser.add_argument("--to", dest="target_lang", help="The direction a model of several translates into.")
    parser.add_argument(
        "--out", type=Path, help="Also write the report here (docs/studies/BATCH-INVARIANCE.md is one)."
    )
    args = parser.parse_args()
    texts = [" ".join(row.source.split()) for row in spread(read_tsv(args.data, args.swap_columns), args.sentences)]
    translator = LoadedModel(
        args.model, notify=lambda message: None, source_lang=args.source_lang, target_lang=args.target_lang
    )
    shuffled = np.random.default_rng(0).permutation(len(texts))
    lines = [
        command_line(),
        "",
        f"{len(texts)} sentences of `{args.data.name}`{' read swapped' if args.swap_columns else ''} (every n-th "
        f"row), model `{args.model}`, default search; "
        "outputs equal to those of batches of 32:",
        "",
        "| shortlist | batches of 7 | shuffled, batches of 13 | one at a time | differing rows |",
        "|---|---|---|---|---|",
    ]
    for shortlist in (True, False) if translator.shortlist else (False,):
        options = translator.default_options(shortlist=shortlist)
        reference = [r[0].text for r in translator.translate(texts, options, 32)]
        sevens = [r[0].text for r in translator.translate(texts, options, 7)]
        mixed = translator.translate([texts[i] for i in shuffled], options, 13)
        unshuffled = [""] * len(texts)
        for position, index in enumerate(shuffled):
            unshuffled[index] = mixed[position][0].text
        step = max(1, len(texts) // max(args.alone, 1))
        alone_rows = list(range(0, len(texts), step))[: args.alone]
        alone = {i: translator.translate([texts[i]], options)[0][0].text for i in alone_rows}
        differing = sorted(
            {i for i in range(len(texts)) if sevens[i] != reference[i] or unshuffled[i] != reference[i]}
            | {i for i, text in alone.items() if text != reference[i]}
        )
        lines.append(
            f"| {'on' if shortlist else 'off'} | {sum(a == b for a, b in zip(sevens, reference))}/{len(texts)} | "
            f"{sum(a == b for a, b in zip(unshuffled, reference))}/{len(texts)} | "
            f"{sum(alone[i] == reference[i] for i in alone)}/{len(alone)} | {', '.join(map(str, differing)) or 'none'} |"
        )
        print(lines[-1], flush=True)
    finish(lines, args.out)


if __name__ == "__main__":
    main()
