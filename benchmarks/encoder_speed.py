"""How long each model folder's encoder takes over one batch, side by side, in one process:

    python -m benchmarks.encoder_speed PER-ROW-FOLDER models/en-de --batch 32 --source 20

Random source ids (the same for every folder, all positions read), one thread, each graph run
`--runs` times per round, folder after folder, `--rounds` rounds; each folder's fastest round,
in milliseconds per run, and its ratio to the first folder.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import onnxruntime

from attn.runtime.constants import ENCODER
from attn.runtime.graph_contract import SOURCE_IDS, SOURCE_MASK
from attn.runtime.manifest import read_manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--batch", type=int, default=32, help="sources per run")
    parser.add_argument("--source", type=int, default=20, help="pieces per source")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    sessions = [
        onnxruntime.InferenceSession(str(folder / ENCODER), options, providers=["CPUExecutionProvider"])
        for folder in args.folders
    ]
    vocab_size = min(read_manifest(folder).architecture["vocab_size"] for folder in args.folders)
    ids = np.random.default_rng(0).integers(4, vocab_size, (args.batch, args.source)).astype(np.int64)
    feeds = {SOURCE_IDS: ids, SOURCE_MASK: np.ones_like(ids)}
    best = [float("inf")] * len(sessions)
    for _ in range(args.rounds):
        for i, session in enumerate(sessions):
            session.run(None, feeds)
            start = time.perf_counter()
            for _ in range(args.runs):
                session.run(None, feeds)
            best[i] = min(best[i], (time.perf_counter() - start) / args.runs * 1000)
    print(f"{platform.processor() or platform.machine()}, 1 thread, {args.batch} sources × {args.source} pieces")
    for folder, milliseconds in zip(args.folders, best):
        print(f"{folder}: {milliseconds:.2f} ms ({best[0] / milliseconds:.2f}× the first)")


if __name__ == "__main__":
    main()
