"""Decoding on a GPU: onnxruntime's CUDA execution provider checked and timed against the same
machine's CPU provider, in one run (issue 64).

    python -m benchmarks.gpu_decoding --model models/en-de --model work/ship/en-de-open2-fp32 \\
        --data ../shared/data/en-de/test.tsv.gz --sentences 1000 --device cuda --out gpu-report.md

For each model folder: the providers each graph got; correctness on `--device`
(its outputs against the CPU provider's at the default search, a differing row shown with both
scores so that a near tie can be told from a fault; alone, shuffled in batches of 13 and in
batches of 32; greedy against beam 1; on CUDA, the same with TF32 on, onnxruntime's default);
sentences/s at each `--batches` size, beam 1 and 5, beside the CPU provider on all the machine's
cores at batch 32; where one batch's time goes (encoder, decoder steps, the device's row gathers
and top-k, and the rest: the Python search loop, bindings and copies); which provider ran each
node (onnxruntime's profiling). An int8 model, which the runtime runs on the CPU when CUDA is
asked for (runtime/loaded_model.py device_for), gets only the last, on the device. `--serve`
also starts `attn serve --device DEVICE` on the first model and sends it a request. With `--device cpu` every check runs on the CPU provider (what the suite runs).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import onnxruntime

from attn.runtime import loaded_model, sessions
from attn.runtime.constants import BATCH_SIZE
from attn.runtime.errors import first_line
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.search import SearchOptions, beam_search, greedy_search
from attn.runtime.tsv import read_tsv, spread
from benchmarks.report import WHOLE, command_line, cpu_name, finish, table

CPU_BATCH = BATCH_SIZE  # the CPU provider's batch in the speed table: the runtime's default


def gpu_name() -> str:
    """The GPU and its driver as nvidia-smi names them, or why not."""
    try:
        found = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        return found.stdout.strip() or found.stderr.strip()
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"no nvidia-smi ({error})"


@contextmanager
def session_clock():
    """Seconds spent in InferenceSession.run_with_iobinding, per session, while in the block:
    yields a dict id(session) → seconds."""
    spent: dict[int, float] = defaultdict(float)
    original = onnxruntime.InferenceSession.run_with_iobinding

    def timed(session, *args, **kwargs):
        start = time.perf_counter()
        try:
            return original(session, *args, **kwargs)
        finally:
            spent[id(session)] += time.perf_counter() - start

    onnxruntime.InferenceSession.run_with_iobinding = timed
    try:
        yield spent
    finally:
        onnxruntime.InferenceSession.run_with_iobinding = original


@contextmanager
def profiled():
    """Every session made in the block traces its runs (onnxruntime's profiling, JSON)."""
    original = onnxruntime.SessionOptions
    numbers = itertools.count()

    class Profiling(original):
        def __init__(self):
            super().__init__()
            self.enable_profiling = True
            # a prefix of each session's own: onnxruntime names a trace by its start, to the
            # millisecond, and the encoder's and the decoder's had been one file, read and removed once
            self.profile_file_prefix = str(
                Path(tempfile.gettempdir()) / f"attn-placement-{os.getpid()}-{next(numbers)}"
            )

    onnxruntime.SessionOptions = Profiling
    try:
        yield
    finally:
        onnxruntime.SessionOptions = original


@contextmanager
def any_precision_on_the_device():
    """An int8 model is loaded on the device asked for, not moved to the CPU (to see why it is)."""
    original = loaded_model.device_for
    loaded_model.device_for = lambda manifest, folder, device, notify: device
    try:
        yield
    finally:
        loaded_model.device_for = original


@contextmanager
def cuda_options(**options: str):
    """The runtime's CUDA provider options changed while in the block."""
    saved = dict(sessions.CUDA_OPTIONS)
    sessions.CUDA_OPTIONS.update(options)
    try:
        yield
    finally:
        sessions.CUDA_OPTIONS.clear()
        sessions.CUDA_OPTIONS.update(saved)


def placement_lines(folder: Path, device: str, texts: list[str]) -> list[str]:
    """Which provider ran each node of the encoder and decoder, from onnxruntime's profiling of one
    batch of 32 at the default search; the CPU's share of the nodes' time."""
    with profiled(), any_precision_on_the_device():
        model = LoadedModel(folder, device=device, threads=0, notify=lambda message: None)
    model.translate(texts[:32], model.default_options(), 32, text_options=WHOLE)
    rows = []
    for name, session in (("encoder", model.encoder), ("decoder", model.decoder)):
        trace = Path(session.end_profiling())
        events = [
            e for e in json.loads(trace.read_text()) if e.get("cat") == "Node" and "provider" in e.get("args", {})
        ]
        trace.unlink()
        nodes, spent = {}, defaultdict(float)
        for event in events:
            nodes[event["name"]] = (event["args"]["provider"], event["args"]["op_name"])
            spent[event["args"]["provider"]] += event["dur"]
        on_cpu = Counter(op for provider, op in nodes.values() if provider == "CPUExecutionProvider")
        copies = sum(op.startswith("Memcpy") for _, op in nodes.values())
        cpu_share = spent["CPUExecutionProvider"] / (sum(spent.values()) or 1)
        ops = ", ".join(f"{op} {count}" for op, count in on_cpu.most_common()) or "none"
        rows.append([name, len(nodes), sum(on_cpu.values()), ops, copies, f"{100 * cpu_share:.0f}%"])
    return [
        "",
        f"Where the nodes ran on {device} (onnxruntime's profiling, one batch of 32; int8 kept on the device):",
        "",
        table(["graph", "nodes", "on the CPU", "their operators", "copies", "CPU share of node time"], rows),
    ]


def tf32_lines(folder: Path, cpu_model: LoadedModel, texts: list[str], alone: int) -> list[str]:
    """Correctness and one speed figure with TF32 on, onnxruntime's default (the runtime turns it off)."""
    with cuda_options(use_tf32="1"):
        model = LoadedModel(folder, device="cuda", threads=0, notify=lambda message: None)
    options = model.default_options()
    return (
        ["", "With TF32 on (onnxruntime's default; the runtime's sessions above run with it off):"]
        + correctness(model, cpu_model, texts, alone)
        + [f"- beam {options.beam}, batch 128: {rate(model, texts, options, 128):.1f} sentences/s"]
    )


def texts_of(translations) -> list[str]:
    return [t[0].text for t in translations]


def rate(model: LoadedModel, texts: list[str], options: SearchOptions, batch: int) -> float:
    """Sentences/s translating `texts` whole in batches of `batch` (after one warm-up batch)."""
    model.translate(texts[:batch], options, batch, text_options=WHOLE)
    start = time.perf_counter()
    model.translate(texts, options, batch, text_options=WHOLE)
    return len(texts) / (time.perf_counter() - start)


def correctness(device_model: LoadedModel, cpu_model: LoadedModel, texts: list[str], alone: int) -> list[str]:
    """The correctness lines of one model: `--device` against the CPU provider, and against itself."""
    options = device_model.default_options()
    on_cpu = cpu_model.translate(texts, options, 32, text_options=WHOLE)
    on_device = device_model.translate(texts, options, 32, text_options=WHOLE)
    differing = [i for i, (a, b) in enumerate(zip(texts_of(on_cpu), texts_of(on_device))) if a != b]
    lines = [
        f"- default search (beam {options.beam}, shortlist {'on' if options.shortlist else 'off'}), batches of 32:"
    ]
    lines.append(f"  {len(texts) - len(differing)} of {len(texts)} outputs as on the CPU provider")
    for i in differing[:5]:
        lines.append(
            f"  - row {i}: CPU {on_cpu[i][0].text!r} ({on_cpu[i][0].score:.4f}) / "
            f"device {on_device[i][0].text!r} ({on_device[i][0].score:.4f})"
        )
    reference = texts_of(on_device)
    single = [device_model.translate([text], options, 1, text_options=WHOLE)[0][0].text for text in texts[:alone]]
    order = np.random.default_rng(0).permutation(len(texts))
    mixed = texts_of(device_model.translate([texts[i] for i in order], options, 13, text_options=WHOLE))
    unshuffled = [""] * len(texts)
    for position, index in enumerate(order):
        unshuffled[index] = mixed[position]
    lines.append(
        f"- on the device: {sum(a == b for a, b in zip(single, reference))} of {alone} alone and "
        f"{sum(a == b for a, b in zip(unshuffled, reference))} of {len(texts)} shuffled in batches of 13 "
        "as in batches of 32"
    )
    ids = [device_model.source_ids(text) for text in texts[:alone]]
    lengths = np.array([len(s) for s in ids])
    limits = device_model.max_lengths(lengths, options)
    plain = SearchOptions(beam=1)
    greedy = greedy_search(device_model.encode(ids, shortlist=False), limits, lengths, plain)
    beam = beam_search(device_model.encode(ids, shortlist=False), limits, lengths, plain)
    same = sum(g[0].tokens == b[0].tokens for g, b in zip(greedy, beam))
    gap = max(abs(g[0].score - b[0].score) for g, b in zip(greedy, beam))
    lines.append(f"- greedy = beam 1 on the device: {same} of {alone} the same tokens, scores within {gap:.1e}")
    return lines


def speed_lines(
    device_model: LoadedModel, cpu_model: LoadedModel, texts: list[str], batches: list[int], alone: int
) -> list[str]:
    """The speed table: [search, batch, device sentences/s, CPU sentences/s at CPU_BATCH, ratio]."""
    rows = []
    for beam in (1, 5):
        options = device_model.default_options(beam=beam)
        on_cpu = rate(cpu_model, texts, options, CPU_BATCH)
        for batch in batches:
            sample = texts[:alone] if batch == 1 else texts
            on_device = rate(device_model, sample, options, batch)
            rows.append([f"beam {beam}", batch, f"{on_device:.1f}", f"{on_cpu:.1f}", f"{on_device / on_cpu:.2f}×"])
    return [
        "",
        f"Sentences/s (whole lines, default search otherwise; the CPU provider on all {os.cpu_count()} cores "
        f"at batch {CPU_BATCH}; batch 1 on the first {alone}):",
        "",
        table(["search", "device batch", "device", "CPU", "ratio"], rows),
    ]


def time_lines(model: LoadedModel, texts: list[str], batches: list[int]) -> list[str]:
    """Where one batch's time goes, at each batch size."""
    shares = [time_shares(model, texts, batch) for batch in batches]
    return [
        "",
        "Where one batch's time goes on the device (default search):",
        "",
        table(["batch", "encoder", "decoder steps", "row gathers, top-k", "the rest", "seconds"], shares),
    ]


def time_shares(model: LoadedModel, texts: list[str], batch: int) -> list:
    """[batch, encoder %, decoder %, device helpers %, rest %, seconds] of one timed translation."""
    options = model.default_options()
    model.translate(texts[:batch], options, batch, text_options=WHOLE)
    with session_clock() as spent:
        start = time.perf_counter()
        model.translate(texts[:batch], options, batch, text_options=WHOLE)
        total = time.perf_counter() - start
    encoder = spent.pop(id(model.encoder), 0.0)
    decoders = {model.decoder} | ({model.shortlist_decoder} if options.shortlist and model.shortlist else set())
    decoder = sum(spent.pop(id(session), 0.0) for session in decoders)
    helpers = sum(spent.values())
    rest = total - encoder - decoder - helpers
    return [batch] + [f"{100 * part / total:.0f}%" for part in (encoder, decoder, helpers, rest)] + [f"{total:.3f}"]


def serve_answers(folder: Path, device: str) -> str:
    """Start `attn serve --device DEVICE --models FOLDER`, send one /translate request, stop it:
    the answer or why none came."""
    with socket.socket() as probe:  # a port free now (the server binds it a moment later)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "attn.cli", "serve", "--device", device, "--models", str(folder), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        body = json.dumps(
            {"q": "The meeting starts at nine.", "source": manifest["source_lang"], "target": manifest["target_lang"]}
        ).encode()
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and server.poll() is None:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/translate", data=body, headers={"Content-Type": "application/json"}
            )
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    return f"HTTP {answer.status}: {answer.read().decode()}"
            except OSError:
                time.sleep(1)
        return "no answer"
    finally:
        server.terminate()
        try:
            log = server.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            server.kill()
            log = server.communicate()[0]
        print(log[-3000:], file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, action="append", required=True, help="A model folder (repeatable).")
    parser.add_argument("--data", type=Path, required=True, help="A TSV file; its first column is translated.")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--alone", type=int, default=100, help="How many are also translated one at a time.")
    parser.add_argument("--batches", default="1,32,128,512", help="Batch sizes timed on the device.")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    parser.add_argument("--serve", action="store_true", help="Also check that `attn serve --device` answers.")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    texts = [" ".join(row.source.split()) for row in spread(read_tsv(args.data), args.sentences)]
    batches = [int(size) for size in args.batches.split(",")]
    alone = min(args.alone, len(texts))
    lines = [
        command_line(),
        "",
        f"- machine: {gpu_name()}; CPU {cpu_name()}, {os.cpu_count()} cores",
        f"- onnxruntime {onnxruntime.__version__}, providers {', '.join(onnxruntime.get_available_providers())}",
        f"- data: {len(texts)} rows of `{args.data.name}` (every n-th)",
    ]
    for folder in args.model:
        notes: list[str] = []
        device_model = LoadedModel(folder, device=args.device, threads=0, notify=notes.append)
        cpu_model = LoadedModel(folder, device="cpu", threads=0, notify=lambda message: None)
        precision = device_model.manifest.precision
        lines += [
            "",
            f"## `{folder}` ({precision}) on {args.device}",
            "",
            f"- sessions: encoder {device_model.encoder.get_providers()}, decoder "
            f"{device_model.decoder.get_providers()}; search on {device_model.device.name}",
        ]
        lines += [f"- note: {note}" for note in notes]
        on_device = device_model.device.name == args.device
        sections = {
            "correctness": lambda: correctness(device_model, cpu_model, texts, alone) if on_device else [],
            "tf32": lambda: tf32_lines(folder, cpu_model, texts, alone) if on_device and args.device == "cuda" else [],
            "speed": lambda: speed_lines(device_model, cpu_model, texts, batches, alone) if on_device else [],
            "time": lambda: time_lines(device_model, texts, batches) if on_device else [],
            "placement": lambda: placement_lines(folder, args.device, texts),
        }
        for name, section in sections.items():
            try:
                lines += section()
            except Exception as error:  # a check that breaks on the device is reported, the others still run
                lines.append(f"- {name} failed: {type(error).__name__}: {first_line(error)}")
            if args.out:  # what is done so far, should a later check hang
                args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.serve:
        lines += [
            "",
            f"`attn serve --device {args.device}` on `{args.model[0]}`: {serve_answers(args.model[0], args.device)}",
        ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
