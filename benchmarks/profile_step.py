"""Where one decoder step spends its time: onnxruntime's per-node profile of the decoder graph,
summed by node over repeated steps, largest first.

    python benchmarks/profile_step.py --model models/en-de --rows 160 --source 25 --candidates 1700

Random source ids and a random candidate set of the given size; one thread.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
from pathlib import Path

import numpy as np
import onnxruntime

from attn.runtime.constants import DECODER, ENCODER, OUTPUT_LAYER
from attn.runtime.graph_contract import PREVIOUS_TOKENS, SOURCE_IDS, SOURCE_MASK
from attn.runtime.output_layer import OutputLayer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--rows", type=int, default=160, help="sentences × beams")
    parser.add_argument("--source", type=int, default=25, help="source pieces")
    parser.add_argument("--candidates", type=int, default=1700, help="output columns (shortlist size)")
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    encoder = onnxruntime.InferenceSession(str(args.model / ENCODER), options, providers=["CPUExecutionProvider"])
    options.enable_profiling = True
    decoder = onnxruntime.InferenceSession(str(args.model / DECODER), options, providers=["CPUExecutionProvider"])
    layer = OutputLayer.load(args.model / OUTPUT_LAYER)
    rng = np.random.default_rng(0)
    ids = rng.integers(4, layer.vocab_size, (args.rows, args.source))
    mask = np.ones_like(ids)
    names = [output.name for output in encoder.get_outputs()]
    encoded = dict(zip(names, encoder.run(None, {SOURCE_IDS: ids, SOURCE_MASK: mask})))  # every state, by name
    candidates = np.sort(rng.choice(layer.vocab_size, args.candidates, replace=False))
    feeds = {PREVIOUS_TOKENS: np.full(args.rows, 5, np.int64), SOURCE_MASK: mask, **encoded, **layer.rows(candidates)}
    if SOURCE_IDS in {i.name for i in decoder.get_inputs()}:
        feeds[SOURCE_IDS] = np.searchsorted(candidates, ids).clip(max=len(candidates) - 1)
    for _ in range(args.steps):
        decoder.run(None, feeds)
    trace = decoder.end_profiling()
    per_node = collections.Counter()
    for event in json.load(open(trace)):
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            per_node[f'{event["args"]["op_name"]} {event["name"][: -len("_kernel_time")]}'] += event["dur"]
    os.remove(trace)
    total = sum(per_node.values())
    print(f"{args.model}: {total / args.steps / 1000:.2f} ms per step in nodes "
          f"({args.rows} rows, {args.source} source pieces, {args.candidates} candidates)")
    for node, micros in per_node.most_common(12):
        print(f"{micros / total * 100:5.1f} %  {node}")


if __name__ == "__main__":
    main()
