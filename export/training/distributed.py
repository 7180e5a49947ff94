"""Data-parallel training over the processes torchrun starts (PyTorch DDP), for users who outgrow
one GPU; on CPUs the same code runs with the gloo backend (tested with two processes).

    torchrun --nproc_per_node 4 -m attn.cli train configs/en-de-transformer.toml --device cuda

Every process reads the same batch order (a function of seed and epoch, export/training/data.py) and takes
its own share of each step's `size` batches; gradients are averaged across processes, so the
weights stay the same everywhere. The main process (rank 0) alone writes the tokenizer, evaluates
and writes checkpoints, which resume with any number of processes, or none.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist


@dataclass(frozen=True)
class Workers:
    """This process's place among the training processes (one process: rank 0 of 1)."""

    rank: int = 0
    size: int = 1
    local_rank: int = 0
    device: str = "cpu"  # where this process trains: "cuda:N" for its own GPU under NCCL

    @property
    def main(self) -> bool:
        return self.rank == 0

    def any(self, flag: bool) -> bool:
        """Whether `flag` holds in any process (every process must call this at the same point)."""
        if self.size == 1:
            return flag
        value = torch.tensor([int(flag)], device=self.device)
        dist.all_reduce(value, op=dist.ReduceOp.MAX)
        return bool(value.item())

    def wait(self) -> None:
        """Every process waits here until all have arrived."""
        if self.size > 1:
            dist.barrier()

    def leave(self) -> None:
        if self.size > 1 and dist.is_initialized():
            dist.destroy_process_group()


def join_workers(device: str) -> Workers:
    """Under torchrun (WORLD_SIZE > 1), join the process group: NCCL between GPUs, gloo on CPUs."""
    size = int(os.environ.get("WORLD_SIZE", "1"))
    if size == 1:
        return Workers()
    if not dist.is_initialized():
        dist.init_process_group("nccl" if device == "cuda" else "gloo")
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    return Workers(dist.get_rank(), size, local_rank, f"cuda:{local_rank}" if device == "cuda" else device)
