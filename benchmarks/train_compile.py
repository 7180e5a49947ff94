"""Eager against torch.compile (inductor, dynamic shapes) for training steps of the en-de Transformer
(configs/en-de-transformer.toml, 8,000 pieces) on random batches of four typical shapes, one thread,
bf16 autocast and label smoothing as the trainer runs them, alternating rounds after the compiled
warm-up:

    python benchmarks/train_compile.py

Result and what it means: benchmarks/studies/TRAIN-COMPILE.md."""

from __future__ import annotations

import time

import torch
import torch.nn.functional as F

from attn.export.config import load_config
from attn.export.models import build_model

VOCAB = 8000
SHAPES = [(240, 22, 24), (300, 18, 19), (160, 34, 36), (120, 45, 48)]  # (sentences, source, target pieces)
ROUNDS = 3


def random_batch(sentences: int, source_length: int, target_length: int) -> tuple[torch.Tensor, ...]:
    """source (B, S), mask (B, S), target_in (B, T), target_out (B, T) of random piece ids."""
    return (
        torch.randint(4, VOCAB, (sentences, source_length)),
        torch.ones(sentences, source_length, dtype=torch.bool),
        torch.randint(4, VOCAB, (sentences, target_length)),
        torch.randint(4, VOCAB, (sentences, target_length)),
    )


def main() -> None:
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = build_model(load_config("configs/en-de-transformer.toml").model, VOCAB).train()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    batches = [random_batch(*shape) for shape in SHAPES]

    def train_on_all(forward) -> float:
        started = time.perf_counter()
        for source, mask, target_in, target_out in batches:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                scores, _ = forward(source, mask, target_in)
            loss = F.cross_entropy(scores.float().reshape(-1, VOCAB), target_out.reshape(-1), label_smoothing=0.1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return time.perf_counter() - started

    compiled = torch.compile(model, dynamic=True)
    print(f"compiled warm-up (the four shapes once): {train_on_all(compiled):.1f} s", flush=True)
    print("| round | eager s | compiled s | compiled / eager |\n|---|---|---|---|")
    for round_number in range(1, ROUNDS + 1):
        eager_seconds, compiled_seconds = train_on_all(model), train_on_all(compiled)
        print(
            f"| {round_number} | {eager_seconds:.2f} | {compiled_seconds:.2f} | {compiled_seconds / eager_seconds:.2f}× |",
            flush=True,
        )


if __name__ == "__main__":
    main()
