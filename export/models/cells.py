"""Recurrent cells written as two nn.Linear products each, so that one decoder step exports as
Gemm/MatMul plus element-wise ops (which int8 dynamic quantization covers, unlike the ONNX GRU op).

Gate layouts and equations follow torch.nn.GRUCell / LSTMCell. States are (B, H).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


class GRUCell(nn.Module):
    """x (B, I), hidden (B, H) → new hidden (B, H)."""

    state_names = ("hidden",)

    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.input_layer = nn.Linear(input_size, 3 * hidden_size)
        self.hidden_layer = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x: Tensor, states: tuple[Tensor, ...]) -> tuple[Tensor, tuple[Tensor, ...]]:
        (hidden,) = states
        x_r, x_z, x_n = self.input_layer(x).chunk(3, dim=-1)
        h_r, h_z, h_n = self.hidden_layer(hidden).chunk(3, dim=-1)
        reset = torch.sigmoid(x_r + h_r)
        update = torch.sigmoid(x_z + h_z)
        candidate = torch.tanh(x_n + reset * h_n)
        new_hidden = (1.0 - update) * candidate + update * hidden
        return new_hidden, (new_hidden,)


class LSTMCell(nn.Module):
    """x (B, I), (hidden, cell) (B, H) each → output (B, H), new (hidden, cell)."""

    state_names = ("hidden", "cell")

    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.input_layer = nn.Linear(input_size, 4 * hidden_size)
        self.hidden_layer = nn.Linear(hidden_size, 4 * hidden_size, bias=False)

    def forward(self, x: Tensor, states: tuple[Tensor, ...]) -> tuple[Tensor, tuple[Tensor, ...]]:
        hidden, cell = states
        gates = self.input_layer(x) + self.hidden_layer(hidden)
        i, f, g, o = gates.chunk(4, dim=-1)
        new_cell = torch.sigmoid(f) * cell + torch.sigmoid(i) * torch.tanh(g)
        new_hidden = torch.sigmoid(o) * torch.tanh(new_cell)
        return new_hidden, (new_hidden, new_cell)


def build_cell(cell: str, input_size: int, hidden_size: int) -> nn.Module:
    return GRUCell(input_size, hidden_size) if cell == "gru" else LSTMCell(input_size, hidden_size)
