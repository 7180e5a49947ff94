"""bf16 autocast against fp32 on this CPU, for one layer the size of a model's feed-forward sublayer:

    python -m benchmarks.bf16_autocast --rows 2048 --repeats 20 --threads 1

Forward and backward of a 256 → 1024 linear layer over `--rows` rows, `--repeats` times, with and
without torch.autocast(bfloat16): the seconds of each and their ratio, beside whether the CPU has
bf16 instructions (export/training/train.py bf16_autocast takes bf16 on a CPU only where it has).
"""

from __future__ import annotations

import argparse
import time

import torch

from attn.export.training.train import bf16_autocast


def seconds(layer: torch.nn.Linear, rows: torch.Tensor, repeats: int, autocast: bool) -> float:
    """Wall-clock seconds of `repeats` forward and backward passes of `layer` over `rows` (N, 256)."""
    started = time.perf_counter()
    for _ in range(repeats):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            out = layer(rows)
        out.float().sum().backward()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2048)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    options = parser.parse_args()
    torch.set_num_threads(options.threads)
    torch.manual_seed(0)
    layer, rows = torch.nn.Linear(256, 1024), torch.randn(options.rows, 256)
    seconds(layer, rows, 2, False)  # warm-up
    fp32 = seconds(layer, rows, options.repeats, False)
    bf16 = seconds(layer, rows, options.repeats, True)
    native = bf16_autocast(True, torch.device("cpu"))
    print(f"CPU capability {torch.backends.cpu.get_cpu_capability()}, bf16 instructions: {'yes' if native else 'no'}")
    print(f"fp32 {fp32:.2f} s, bf16 autocast {bf16:.2f} s: bf16 takes {bf16 / fp32:.1f}× fp32's time")


if __name__ == "__main__":
    main()
