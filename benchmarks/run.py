"""Decoding speed of a model folder, measured side by side in one process, written to RESULTS.md.

    python -m benchmarks.run configs/en-de-transformer.toml work/en-de-transformer-6x1 --average 5 \
        --model work/ship-avg --baseline work/en-de-row2 --ctranslate2 work/en-de-ct2 \
        --data ../shared/data/en-de/test.tsv.gz --sentences 500 --threads 2 --repeats 2

Compares, on the same sentences and the same search code (runtime/search.py), replace-unk off:
onnxruntime vs PyTorch eager (the training checkpoint), greedy and beam 5, over the whole
vocabulary and (onnxruntime) over the model's shortlist; fp32 vs int8 with the BLEU of each, with
and without the shortlist; with `--ctranslate2`, attn against CTranslate2 on the same weights
(benchmarks/against_ctranslate2.py); batch sizes; cold start of `attn translate` as a fresh process; peak
memory.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

from attn.cli.bench import attn_command, cold_start, peak_memory_mb, timed
from attn.export.graphs.calibrated_scales import calibration_sources
from attn.export.graphs.quantize import quantize_folder
from attn.export.models import EncoderDecoder
from attn.runtime.decoder_state import group_positions, sentence_groups
from attn.runtime.graph_contract import SENTENCE
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.parallel import map_in_threads
from attn.runtime.search import BestOfFullStep, SearchOptions, beam_search, greedy_search
from attn.runtime.tsv import read_tsv, spread
from benchmarks.against_ctranslate2 import ctranslate2_section
from benchmarks.compare_folders import alternating_runs
from benchmarks.report import UNREPAIRED, WHOLE, command, cpu_name, rate_row, table
from benchmarks.training_run import add_run_arguments, run_model


class TorchDecoderState(BestOfFullStep):
    """The PyTorch model behind the runtime's DecoderState protocol (eager, no_grad); states kept
    per row or per sentence by kind, as OnnxDecoderState keeps them."""

    def __init__(self, model: EncoderDecoder, ids: np.ndarray, mask: np.ndarray):
        self.model = model
        self.vocabulary = np.arange(model.embedding.num_embeddings)
        self.grouped = {spec.name for spec in model.states if spec.kind == SENTENCE}
        with torch.no_grad():
            self.ids, self.mask = torch.from_numpy(ids), torch.from_numpy(mask)
            self.encoded = model.encode(self.ids, self.mask)
        self.sentence = self.groups = np.arange(len(ids))

    @torch.no_grad()
    def step(self, previous: np.ndarray):
        log_probs, new_states, attention = self.model.decode_step(
            torch.from_numpy(previous), self.encoded, self.mask, self.ids
        )
        self.encoded.update(new_states)
        return log_probs.numpy(), attention.numpy()

    def select(self, rows: np.ndarray) -> None:
        self.sentence = self.sentence[rows]
        per_row = torch.from_numpy(rows)
        if self.grouped:
            groups = sentence_groups(self.sentence)
            per_sentence = torch.from_numpy(group_positions(self.groups, groups))
            self.groups = groups
        else:
            per_sentence = per_row
        self.ids, self.mask = self.ids[per_sentence], self.mask[per_sentence]
        self.encoded = {
            name: value[per_sentence if name in self.grouped else per_row] for name, value in self.encoded.items()
        }


def torch_translate(
    translator: LoadedModel, model: EncoderDecoder, texts: list[str], options: SearchOptions, batch: int, workers: int
) -> list[str]:
    """Same batching and search as LoadedModel.translate, with PyTorch computing each step,
    `workers` batches at a time."""
    sources = [translator.tokenizer.encode_source(t).ids for t in texts]
    order = sorted(range(len(texts)), key=lambda i: len(sources[i]))
    batches = [order[start : start + batch] for start in range(0, len(order), batch)]

    def search_batch(chunk: list[int]):
        longest = max(len(sources[i]) for i in chunk)
        ids = np.zeros((len(chunk), longest), dtype=np.int64)
        for row, i in enumerate(chunk):
            ids[row, : len(sources[i])] = sources[i]
        mask = (ids != 0).astype(np.int64)
        lengths = mask.sum(axis=1)
        search = greedy_search if options.beam == 1 else beam_search
        return search(TorchDecoderState(model, ids, mask), translator.max_lengths(lengths, options), lengths, options)

    outputs = [""] * len(texts)
    for chunk, found in zip(batches, map_in_threads(search_batch, batches, workers)):
        for i, hypotheses in zip(chunk, found):
            outputs[i] = translator.tokenizer.decode(hypotheses[0].tokens)
    return outputs


def threads_label(threads: int, workers: int) -> str:
    if threads == 1:
        return "1 thread"
    return f"{threads} threads, " + ("one batch at a time" if workers == 1 else f"{workers} batches at a time")


def mean_candidates(translator: LoadedModel, texts: list[str], batch: int) -> float:
    """Shortlist candidates per batch, batches formed as LoadedModel.translate forms them."""
    sources = sorted((translator.tokenizer.encode_source(t).ids for t in texts), key=len)
    sizes = [len(translator.shortlist.candidates(sources[i : i + batch])[0]) for i in range(0, len(sources), batch)]
    return float(np.mean(sizes))


def import_breakdown(command: list[str]) -> list[tuple[str, int]]:
    """The largest top-level imports of `command` (cumulative µs, from python -X importtime)."""
    trace = subprocess.run([sys.executable, "-X", "importtime", *command[1:]], capture_output=True, text=True).stderr
    cumulative = {}
    for line in trace.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, total, name = [part.strip() for part in line[len("import time:") :].split("|")]
            if total.isdigit() and not name.startswith(" ") and "." not in name:
                cumulative[name] = int(total)
    return sorted(cumulative.items(), key=lambda item: -item[1])[:6]


def against_baseline(
    baseline: Path, folders: list[Path], texts: list[str], references: list[str], tokenizer, threads: int, repeats: int
) -> list[list[str]]:
    """Beam-5 rows of the baseline folder and `folders` (fp32 and int8 of the model), each with the
    default search (the whole vocabulary), timed in alternating rounds, with the ratio to the
    baseline."""
    names = [f"baseline {baseline}", "this model, fp32", "this model, int8"]
    engines = [LoadedModel(folder, threads=threads) for folder in [baseline, *folders]]
    best, outputs = alternating_runs(engines, texts, 5, 32, repeats)
    return [
        rate_row(name, found, seconds, references, tokenizer) + [f"{best[0] / seconds:.2f}×"]
        for name, found, seconds in zip(names, outputs, best)
    ]


def baseline_section(rows: list[list[str]]) -> str:
    if not rows:
        return ""
    header = ["folder", "sentences/s", "target tokens/s", "BLEU", "× baseline"]
    return (
        f"## Against the shipped model it would replace (beam 5, batch 32, each folder's default search, "
        f"alternating rounds)\n\n{table(header, rows)}\n\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Decoding speed of a model folder against PyTorch eager on "
        "the weights it was exported from (the run: config and work folder)."
    )
    add_run_arguments(parser)
    parser.add_argument("--model", type=Path, required=True, help="the folder exported from the run's weights")
    parser.add_argument(
        "--baseline", type=Path, help="the shipped folder the model would replace: beam-5 speed of both, side by side"
    )
    parser.add_argument(
        "--ctranslate2",
        type=Path,
        help="the same weights converted by ctranslate2_convert.py: both engines side by side",
    )
    parser.add_argument(
        "--calibrate",
        type=Path,
        action="append",
        help="a TSV file whose sources calibrate the int8 "
        "copy's encoder scales, as `attn quantize --calibrate` did the shipped model's; repeatable",
    )
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2, help="time each setting this often, keep the fastest")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    args = parser.parse_args()

    rows = read_tsv(args.data)
    rows = spread(rows, args.sentences)
    texts, references = [r.source for r in rows], [r.target for r in rows]
    torch.set_num_threads(args.threads)
    translator = LoadedModel(args.model, threads=args.threads)
    _, model, _ = run_model(args)
    tokenizer = translator.tokenizer

    shortlists = (False, True) if translator.shortlist else (False,)
    engine_rows, fastest_torch = [], {}
    for beam in (1, 5):
        for threads in sorted({1, args.threads}):
            torch_rates = []
            for intra_op, workers in sorted({(threads, 1), (1, threads)}):
                torch.set_num_threads(intra_op)
                torch_options = translator.default_options(beam=beam, shortlist=False)
                outputs, seconds = timed(
                    lambda: torch_translate(translator, model, texts, torch_options, 32, workers), args.repeats
                )
                torch_rates.append(len(texts) / seconds)
                engine_rows.append(
                    rate_row(
                        f"PyTorch eager, beam {beam}, {threads_label(threads, workers)}",
                        outputs,
                        seconds,
                        references,
                        tokenizer,
                    )
                )
            fastest_torch[beam, threads] = max(torch_rates)
            engine = translator if threads == args.threads else LoadedModel(args.model, threads=threads)
            for shortlist in shortlists:  # the engines differ, nothing else; then the shortlist on top
                options = engine.default_options(beam=beam, shortlist=shortlist)
                # lines read whole, as torch_translate reads them (no sentence splitting)
                outputs, seconds = timed(
                    lambda: [r[0].text for r in engine.translate(texts, options, 32, text_options=WHOLE)], args.repeats
                )
                name = (
                    f"onnxruntime{' + shortlist' if shortlist else ''}, beam {beam}, {threads_label(threads, threads)}"
                )
                engine_rows.append(rate_row(name, outputs, seconds, references, tokenizer))
                engine_rows.append(
                    [
                        f"{name} / fastest PyTorch at {threads} thread{'s' * (threads > 1)}",
                        f"{len(texts) / seconds / fastest_torch[beam, threads]:.2f}×",
                        "",
                        "",
                    ]
                )
    torch.set_num_threads(args.threads)

    with tempfile.TemporaryDirectory() as scratch:
        int8_folder = Path(scratch) / "int8"
        calibration = calibration_sources(args.calibrate, read_manifest(args.model)) if args.calibrate else None
        quantize_folder(args.model, int8_folder, calibration)
        precision_rows, shortlist_rows = [], []
        rates = {}
        for name, folder in (("fp32", args.model), ("int8", int8_folder)):
            engine = LoadedModel(folder, threads=args.threads)
            size = sum(f.stat().st_size for f in folder.iterdir())
            for shortlist in shortlists:
                options = engine.default_options(beam=5, shortlist=shortlist)
                outputs, seconds = timed(
                    lambda: [r[0].text for r in engine.translate(texts, options, 32, text_options=UNREPAIRED)],
                    args.repeats,
                )
                rates[name, shortlist] = len(texts) / seconds
                row = rate_row(name, outputs, seconds, references, tokenizer)
                if not shortlist:
                    precision_rows.append(row + [f"{size / 1e6:.1f} MB"])
                candidates = mean_candidates(engine, texts, 32) if shortlist else engine.output_layer.vocab_size
                shortlist_rows.append(
                    [f"{name}, {'shortlist' if shortlist else 'whole vocabulary'}", *row[1:], f"{candidates:.0f}"]
                )
            if translator.shortlist:
                shortlist_rows.append(
                    [f"{name}: shortlist / whole", f"{rates[name, True] / rates[name, False]:.2f}×", "", "", ""]
                )
        precision_rows.append(["int8 / fp32", f"{rates['int8', False] / rates['fp32', False]:.2f}×", "", "", ""])
        if translator.shortlist:
            precision_rows.append(
                [
                    "int8 + shortlist / fp32 whole vocabulary",
                    f"{rates['int8', True] / rates['fp32', False]:.2f}×",
                    "",
                    "",
                    "",
                ]
            )
            precision_rows.append(
                [
                    "int8 + shortlist / fastest PyTorch eager (above)",
                    f"{rates['int8', True] / fastest_torch[5, args.threads]:.2f}×",
                    "",
                    "",
                    "",
                ]
            )
        baseline_rows = (
            against_baseline(
                args.baseline, [args.model, int8_folder], texts, references, tokenizer, args.threads, args.repeats
            )
            if args.baseline
            else []
        )
        ctranslate2_rows = (
            ctranslate2_section(
                args.ctranslate2,
                {"fp32": args.model, "int8": int8_folder},
                texts,
                references,
                args.threads,
                args.repeats,
            )
            if args.ctranslate2
            else ""
        )

    batch_rows = []
    for batch in (1, 8, 32, 64):
        options = translator.default_options(beam=5)
        subset = texts[:200]
        outputs, seconds = timed(
            lambda: [r[0].text for r in translator.translate(subset, options, batch, text_options=UNREPAIRED)],
            args.repeats,
        )
        batch_rows.append(
            [batch, f"{len(subset) / seconds:.1f}", f"{sum(len(tokenizer.encode(o)) for o in outputs) / seconds:.0f}"]
        )

    fresh_process = attn_command(args.model, "translate", "she is eating a green apple")
    median, imports = cold_start(fresh_process, runs=5), import_breakdown(fresh_process)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_peak = peak_memory_mb(fresh_process)

    report = f"""# Decoding benchmarks

Command: `{command()}`

Machine: {platform.machine()} ({cpu_name()}), {os.cpu_count()} cores, Python {platform.python_version()},
{args.threads} threads (onnxruntime: that many batches side by side, runtime/parallel.py); {len(texts)} sentences of `{args.data.name}` (every n-th row, all origins);
each time is the fastest of {args.repeats} runs (this machine is shared: single runs move by up to a quarter).

## onnxruntime vs PyTorch eager (same search code, batch 32)

Both engines over the whole vocabulary; then onnxruntime over the model's target-vocabulary
shortlist (runtime/shortlist.py), which the PyTorch baseline does not have. With several
threads, PyTorch runs both ways: one batch at a time with its intra-op threads, and one batch
per thread (single-threaded ops, runtime/parallel.py), as the runtime does; each ratio is to
the faster of the two.

{table(["engine", "sentences/s", "target tokens/s", "BLEU"], engine_rows)}

## fp32 vs int8 (dynamic quantization of MatMul/Gemm, int8 output layer rows{", the encoder's scales calibrated" if args.calibrate else ""}; beam 5, batch 32, whole vocabulary)

{table(["precision", "sentences/s", "target tokens/s", "BLEU", "folder size"], precision_rows)}

## Target-vocabulary shortlist (beam 5, batch 32)

{table(["model", "sentences/s", "target tokens/s", "BLEU", "candidates per batch"], shortlist_rows)}

{baseline_section(baseline_rows)}{ctranslate2_rows}## Batch size (beam 5, first 200 of the sentences, the default search; sentences × beams form the batch dimension)

{table(["sentences per batch", "sentences/s", "target tokens/s"], batch_rows)}

## Cold start: `attn translate -m {args.model} "she is eating a green apple"` as a fresh process

Median of 5 runs: {median:.2f} s. Largest top-level imports (cumulative µs):
{", ".join(f"{name} {micros:,}" for name, micros in imports)}.

## Memory

Peak resident memory of this benchmark process (PyTorch and both runtimes loaded): {peak:.0f} MB;
of one `attn translate -m {args.model} "…"` process: {child_peak:.0f} MB.
"""
    args.out.write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
