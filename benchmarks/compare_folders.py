"""Decoding speed and BLEU of several model folders on the same sentences, in one process.

    python -m benchmarks.compare_folders BASELINE OTHER [...] --data ../shared/data/en-de/test.tsv.gz \\
        --sentences 500 --beams 1,5 --threads 1,2 --repeats 3 --out docs/studies/ROW-SCALES.md

Each setting times every folder in turn, round after round (the machine is shared and noisy:
alternating keeps slow spells from landing on one folder only), and keeps each folder's fastest
round; every row gives the ratio to the first folder in the same setting. Search: the folders'
defaults, replace-unk off, batch 32; with --shortlist a folder that has a shortlist decodes with it
(the shortlist is opt-in: a folder's default search leaves it off). With --cpu-fusions each folder
also runs with the onnxruntime fusions that attn's CPU sessions leave out, in a row of its own.
"""

from __future__ import annotations

import argparse
import platform
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import sacrebleu

from attn.cli.bench import timed_in_turn
from attn.runtime import sessions
from attn.runtime.constants import BATCH_SIZE
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.sessions import CPU_FUSIONS_LEFT_OUT
from attn.runtime.translation import TextOptions
from attn.runtime.tsv import read_tsv, spread
from benchmarks.report import command_line


def alternating_runs(
    engines: list[LoadedModel],
    sources: list[str],
    beam: int,
    batch: int,
    repeats: int,
    sentences: bool = True,
    shortlist: bool = False,
) -> tuple[list[float], list[list[str]]]:
    """Each engine translates `sources` (its default search at `beam`, replace-unk off, not ranked
    again by the reverse model: the search's speed, as report.UNREPAIRED; each line
    split into sentences or, `sentences=False`, read whole) `repeats` times, engine after engine,
    so that a slow spell of the shared machine lands on all of them → each engine's fastest
    seconds and its translations."""
    text_options = TextOptions(sentences, replace_unk=False, reverse_weight=0.0)

    def translating(engine: LoadedModel) -> Callable[[], list[str]]:
        options = engine.default_options(beam=beam, shortlist=shortlist)
        return lambda: [found[0].text for found in engine.translate(sources, options, batch, text_options=text_options)]

    timings = timed_in_turn([translating(engine) for engine in engines], repeats)
    return [seconds for _, seconds in timings], [outputs for outputs, _ in timings]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--swap-columns", action="store_true", help="Read the file's second column as the source.")
    parser.add_argument("--from", dest="source_lang", help="The direction a folder of several translates from.")
    parser.add_argument("--to", dest="target_lang", help="The direction a folder of several translates into.")
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--beams", default="1,5")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--batch-size", type=int, default=BATCH_SIZE)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shortlist", action="store_true", help="Folders with a shortlist decode with it.")
    parser.add_argument(
        "--cpu-fusions",
        action="store_true",
        help="Each folder also with the onnxruntime fusions that attn's CPU sessions leave out "
        "(runtime/sessions.py CPU_FUSIONS_LEFT_OUT), in its own row.",
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = spread([row for row in read_tsv(args.data, args.swap_columns) if row.source.strip()], args.sentences)
    sources, references = [row.source for row in rows], [row.target for row in rows]
    lines = [
        command_line(),
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}; {len(rows)} sentences of "
        f"`{args.data.name}`{' read swapped' if args.swap_columns else ''} (every n-th row); batch {args.batch_size}; fastest of {args.repeats} "
        "alternating rounds.",
        "",
        "| folder | threads | beam | sentences/s | × first row | BLEU | outputs as the first row's |",
        "|---|---|---|---|---|---|---|",
    ]
    kinds = [False, True] if args.cpu_fusions else [False]
    labels = [
        f"{folder}{' with ' + ', '.join(CPU_FUSIONS_LEFT_OUT) if fused else ''}"
        for folder in args.folders
        for fused in kinds
    ]
    for threads in map(int, args.threads.split(",")):
        engines = []
        for folder in args.folders:
            for fused in kinds:
                with mock.patch.object(sessions, "CPU_FUSIONS_LEFT_OUT", ()) if fused else nullcontext():
                    engines.append(
                        LoadedModel(folder, threads=threads, source_lang=args.source_lang, target_lang=args.target_lang)
                    )
        for beam in map(int, args.beams.split(",")):
            best, outputs = alternating_runs(
                engines, sources, beam, args.batch_size, args.repeats, shortlist=args.shortlist
            )
            for i, label in enumerate(labels):
                bleu = sacrebleu.corpus_bleu(outputs[i], [references]).score
                same = sum(a == b for a, b in zip(outputs[i], outputs[0]))
                lines.append(
                    f"| {label} | {threads} | {beam} | {len(sources) / best[i]:.1f} | "
                    f"{best[0] / best[i]:.2f} | {bleu:.2f} | {same} of {len(sources)} |"
                )
                print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
