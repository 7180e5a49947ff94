"""Where a beam-search run spends its time: cProfile of LoadedModel.translate, split into
onnxruntime's runs (by who called them) and the search's own Python, then the top functions.

    python benchmarks/profile_search.py --model models/en-de --data ../shared/data/en-de/test.tsv.gz \\
        --sentences 500 --threads 1 --whole-lines
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv, spread

# (label, file name, function, what to count): "onnxruntime", the session runs that function
# called; "cumulative", the function with all it called; "own", its own lines only
PARTS = [
    ("decoder steps, in onnxruntime", "decoder_state.py", "_run", "onnxruntime"),
    ("each row's best (best_columns), in onnxruntime", "decoder_state.py", "largest", "onnxruntime"),
    ("encoder, in onnxruntime", "loaded_model.py", "encode", "onnxruntime"),
    ("beam reorders (take_rows), in onnxruntime", "decoder_state.py", "take", "onnxruntime"),
    ("shortlist renormalization (restrict)", "shortlist.py", "restrict", "cumulative"),
    ("each row's best on the host (largest_per_row: greedy on the CPU)", "search.py", "largest_per_row", "cumulative"),
    ("constraints on the host (constrain)", "search.py", "constrain", "cumulative"),
    ("constraints on the device's best (best_allowed)", "search.py", "best_allowed", "own"),
    ("merging rows into groups (best_of_groups)", "search.py", "best_of_groups", "cumulative"),
    ("beam_search's own lines", "search.py", "beam_search", "own"),
]
SESSION_RUN = ("onnxruntime_inference_collection.py", "run_with_iobinding")


def breakdown(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Seconds of each part of PARTS."""
    found = []
    for label, file_name, function, counted in PARTS:
        seconds = 0.0
        for (path, _, name), (_, _, own, cumulative, callers) in stats.stats.items():
            if counted == "onnxruntime" and (path.endswith(SESSION_RUN[0]) and name == SESSION_RUN[1]):
                seconds += sum(
                    cum
                    for (caller, _, caller_name), (_, _, _, cum) in callers.items()
                    if caller.endswith(file_name) and caller_name == function
                )
            elif counted != "onnxruntime" and path.endswith(file_name) and name == function:
                seconds += own if counted == "own" else cumulative
        found.append((label, seconds))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sentences", type=int, default=200)
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--whole-lines", action="store_true", help="read each line whole (no sentence splitting)")
    args = parser.parse_args()
    texts = [row.source for row in spread(read_tsv(args.data), args.sentences)]
    translator = LoadedModel(args.model, threads=args.threads)
    options = translator.default_options(beam=args.beam, replace_unk=False)
    sentences = not args.whole_lines
    translator.translate(texts[:10], options, sentences=sentences)  # warm-up
    start = time.perf_counter()
    translator.translate(texts, options, 32, sentences=sentences)
    plain = time.perf_counter() - start
    profile = cProfile.Profile()
    profile.runcall(translator.translate, texts, options, 32, sentences=sentences)
    stats = pstats.Stats(profile)
    print(
        f"{len(texts)} inputs, beam {args.beam}: {plain:.2f} s unprofiled ({len(texts) / plain:.1f} inputs/s), "
        f"{stats.total_tt:.2f} s profiled"
    )
    for label, seconds in breakdown(stats):
        print(f"  {label:45s} {seconds:6.2f} s  {100 * seconds / stats.total_tt:4.1f} %")
    stats.sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
