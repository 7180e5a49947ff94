"""Where one decoder step spends its time: onnxruntime's per-node profile of the decoder graph,
summed by node over the steps of a beam, largest first.

    python benchmarks/profile_step.py --model models/en-de --sentences 32 --beams 5 --source 25

Random source ids; the runtime's own decoder state (runtime/decoder_state.py) carries the rows:
each sentence's beams, the whole vocabulary (or with --shortlist the batch's shortlist), caches that grow step by step. One thread.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
from pathlib import Path

import numpy as np
import onnxruntime

from attn.runtime.constants import DECODER
from attn.runtime.loaded_model import LoadedModel, loadable_graph
from attn.runtime.manifest import verified_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=32)
    parser.add_argument("--beams", type=int, default=5)
    parser.add_argument("--source", type=int, default=25, help="source pieces")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--top", type=int, default=12, help="nodes listed")
    parser.add_argument(
        "--shortlist", action="store_true", help="score the batch's shortlist (off by default, as in attn)"
    )
    args = parser.parse_args()
    translator = LoadedModel(args.model, threads=1)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.enable_profiling = True
    # the graph the translator decodes with: with a shortlist, as exported; else with the output
    # layer bound as constants (runtime/bound_graph.py)
    bound_to = None if args.shortlist else translator.output_layer
    graph = loadable_graph(args.model, DECODER, verified_bytes(args.model, translator.manifest, DECODER), bound_to)
    profiled = onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(0)
    sources = rng.integers(4, translator.output_layer.vocab_size, (args.sentences, args.source)).tolist()
    state = translator.encode(sources, shortlist=args.shortlist)
    state.decoder = profiled
    rows = args.sentences * args.beams
    state.select(np.repeat(np.arange(args.sentences), args.beams))
    for _ in range(args.steps):
        state.step(state.vocabulary[rng.integers(4, len(state.vocabulary), rows)])
    trace = profiled.end_profiling()
    per_node = collections.Counter()
    for event in json.load(open(trace)):
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            per_node[f"{event['args']['op_name']} {event['name'][: -len('_kernel_time')]}"] += event["dur"]
    os.remove(trace)
    total = sum(per_node.values())
    print(
        f"{args.model}: {total / args.steps / 1000:.2f} ms per step in nodes ({args.sentences} sentences × "
        f"{args.beams} beams, {args.source} source pieces, {len(state.vocabulary)} candidates, {args.steps} steps)"
    )
    for node, micros in per_node.most_common(args.top):
        print(f"{micros / total * 100:5.1f} %  {node}")


if __name__ == "__main__":
    main()
