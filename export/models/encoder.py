"""Bidirectional RNN encoder that handles right padding without packing.

The backward direction runs a forward RNN over each sentence reversed *within its own length*,
so padding never precedes real tokens in either direction: a sentence encodes the same alone and
in a padded batch, and the graph exports with plain Gather + RNN ops (no packed sequences).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


def reverse_within_length(x: Tensor, lengths: Tensor) -> Tensor:
    """x (B, S, D), lengths (B,) → x with positions 0..len-1 reversed per row, padding in place."""
    positions = torch.arange(x.shape[1], device=x.device).unsqueeze(0)  # (1, S)
    last = (lengths - 1).unsqueeze(1)  # (B, 1)
    index = torch.where(positions <= last, last - positions, positions)  # (B, S)
    return torch.gather(x, 1, index.unsqueeze(-1).expand_as(x))


class BiRNNEncoder(nn.Module):
    """embeddings (B, S, E) + mask (B, S) → memory (B, S, 2H)."""

    def __init__(self, cell: str, input_size: int, hidden_size: int, layers: int, dropout: float):
        super().__init__()
        rnn = nn.GRU if cell == "gru" else nn.LSTM
        self.forward_layers = nn.ModuleList()
        self.backward_layers = nn.ModuleList()
        for layer in range(layers):
            size = input_size if layer == 0 else 2 * hidden_size
            self.forward_layers.append(rnn(size, hidden_size))
            self.backward_layers.append(rnn(size, hidden_size))
        self.dropout = nn.Dropout(dropout)
        self.output_size = 2 * hidden_size

    def forward(self, embedded: Tensor, mask: Tensor) -> Tensor:
        lengths = mask.sum(dim=1)
        x = embedded
        for forward_rnn, backward_rnn in zip(self.forward_layers, self.backward_layers):
            forward_out = _run_time_major(forward_rnn, x)
            backward_out = reverse_within_length(
                _run_time_major(backward_rnn, reverse_within_length(x, lengths)), lengths
            )
            x = self.dropout(torch.cat([forward_out, backward_out], dim=-1))
        return x * mask.unsqueeze(-1).to(x.dtype)


def _run_time_major(rnn: nn.Module, x: Tensor) -> Tensor:
    """Run a uni-directional RNN over (B, S, D) in time-major layout (ONNX layout 0), from an
    explicit zero state so that the exported graph has no batch size baked in."""
    zeros = x.new_zeros(1, x.shape[0], rnn.hidden_size)
    initial = (zeros, zeros) if isinstance(rnn, nn.LSTM) else zeros
    output, _ = rnn(x.transpose(0, 1), initial)
    return output.transpose(0, 1)
