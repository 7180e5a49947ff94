"""Attention score functions.

Every scorer splits into a source-side part, computed once per sentence by the encoder
(`project_keys`, `project_values`), and a per-step part (`forward`). All products are nn.Linear
or matmul, so they export as Gemm/MatMul.

Shapes: B batch, S source positions, M memory size, Q query size, K key size, V value size.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

MASKED = -1e9  # score of a padding position: e^-1e9 is 0, and no row is ever all padding


class Attention(nn.Module):
    """Base: identity keys and values, masked softmax; subclasses define `score`."""

    def __init__(self, memory_size: int):
        super().__init__()
        self.value_size = memory_size

    def project_keys(self, memory: Tensor) -> Tensor:
        """memory (B, S, M) → keys (B, S, K)."""
        return memory

    def project_values(self, memory: Tensor) -> Tensor:
        """memory (B, S, M) → values (B, S, V)."""
        return memory

    def score(self, query: Tensor, keys: Tensor) -> Tensor:
        """query (B, Q), keys (B, S, K) → scores (B, S)."""
        raise NotImplementedError

    def forward(
        self, query: Tensor, keys: Tensor, values: Tensor, mask: Tensor, coverage: Tensor | None = None
    ) -> tuple[Tensor, Tensor]:
        """query (B, Q), keys (B, S, K), values (B, S, V), mask (B, S) 1 = real, coverage (B, S)
        the attention summed over earlier steps (scorers that take it) → context (B, V),
        weights (B, S) summing to 1 over real positions."""
        scores = self.score(query, keys) if coverage is None else self.score(query, keys, coverage)
        scores = torch.where(mask > 0, scores, torch.full_like(scores, MASKED))
        weights = torch.softmax(scores, dim=-1)
        context = torch.matmul(weights.unsqueeze(1), values).squeeze(1)
        return context, weights


class AdditiveAttention(Attention):
    """Bahdanau: vᵀ tanh(W q + U h). Luong's `concat`, vᵀ tanh(W [q; h]), is the same function
    (W [q; h] = W_q q + W_h h), so both names build this class; the query differs by decoder style.
    With coverage (See et al. 2017) the score is vᵀ tanh(W q + U h_j + w_c c_j), c_j the attention
    position j has received so far: the scorer can learn to avoid what it has already covered."""

    def __init__(self, query_size: int, memory_size: int, attention_size: int, coverage: bool = False):
        super().__init__(memory_size)
        self.key_layer = nn.Linear(memory_size, attention_size, bias=False)
        self.query_layer = nn.Linear(query_size, attention_size, bias=True)
        self.energy_layer = nn.Linear(attention_size, 1, bias=False)
        self.coverage_layer = nn.Linear(1, attention_size, bias=False) if coverage else None
        for layer in (self.key_layer, self.query_layer, self.energy_layer):
            nn.init.xavier_uniform_(layer.weight)

    def project_keys(self, memory: Tensor) -> Tensor:
        return self.key_layer(memory)

    def score(self, query: Tensor, keys: Tensor, coverage: Tensor | None = None) -> Tensor:
        """query (B, Q), keys (B, S, K), coverage (B, S) → scores (B, S)."""
        features = keys + self.query_layer(query).unsqueeze(1)
        if coverage is not None:
            features = features + self.coverage_layer(coverage.unsqueeze(-1))
        return self.energy_layer(torch.tanh(features)).squeeze(-1)


class DotAttention(Attention):
    """Luong dot: qᵀ h (query and memory sizes must be equal)."""

    def score(self, query: Tensor, keys: Tensor) -> Tensor:
        return torch.matmul(keys, query.unsqueeze(-1)).squeeze(-1)


class GeneralAttention(DotAttention):
    """Luong general: qᵀ W h, with W h precomputed as the keys."""

    def __init__(self, query_size: int, memory_size: int):
        super().__init__(memory_size)
        self.key_layer = nn.Linear(memory_size, query_size, bias=False)

    def project_keys(self, memory: Tensor) -> Tensor:
        return self.key_layer(memory)


class ScaledDotAttention(Attention):
    """(W_q q)ᵀ (W_k h) / √K over values W_v h; keys and values precomputed."""

    def __init__(self, query_size: int, memory_size: int, attention_size: int):
        super().__init__(memory_size)
        self.value_size = attention_size
        self.query_layer = nn.Linear(query_size, attention_size, bias=False)
        self.key_layer = nn.Linear(memory_size, attention_size, bias=False)
        self.value_layer = nn.Linear(memory_size, attention_size, bias=False)
        self.scale = 1.0 / math.sqrt(attention_size)

    def project_keys(self, memory: Tensor) -> Tensor:
        return self.key_layer(memory)

    def project_values(self, memory: Tensor) -> Tensor:
        return self.value_layer(memory)

    def score(self, query: Tensor, keys: Tensor) -> Tensor:
        projected = self.query_layer(query) * self.scale
        return torch.matmul(keys, projected.unsqueeze(-1)).squeeze(-1)


def build_attention(
    score: str, query_size: int, memory_size: int, attention_size: int, coverage: bool = False
) -> Attention:
    """The scorer named in the config; only the additive scorer reads coverage (config.py checks)."""
    if score in ("additive", "concat"):
        return AdditiveAttention(query_size, memory_size, attention_size, coverage)
    if score == "dot":
        return DotAttention(memory_size)
    if score == "general":
        return GeneralAttention(query_size, memory_size)
    if score == "scaled_dot":
        return ScaledDotAttention(query_size, memory_size, attention_size)
    raise ValueError(f"unknown attention score {score!r}")
