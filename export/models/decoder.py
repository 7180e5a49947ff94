"""The attention decoder: one step at a time, in Bahdanau or Luong style.

Bahdanau: the query is the previous top-layer state; the context feeds the RNN input;
          attentional vector a_i = tanh(W [s_i; c_i; y_{i-1}]).
Luong:    the RNN reads [y_{i-1}; a_{i-1}] (input feeding); the query is the new state s_i;
          a_i = tanh(W [c_i; s_i]).
Logits are output_layer(a_i); the output layer may share the embedding matrix.
With `copy`, a switch p_gen = σ(w · readout input + b) says how much of the next token's probability
comes from the vocabulary distribution rather than from copying a source position (base.py mixes).

Recurrent states are batch-first so that search reorders all of them along axis 0:
hidden (B, L, H), cell (B, L, H) for LSTM, feed (B, R) for Luong, coverage (B, S) with coverage.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import Tensor, nn

from attn.export.config import ModelConfig
from attn.export.models.attention import build_attention
from attn.export.models.cells import build_cell


class OutputRows(NamedTuple):
    """The output layer for C candidate tokens: weight (R, C), its rows for them transposed (a
    MatMul operand that int8 quantization leaves as it is), and bias (C,)."""

    weight: Tensor
    bias: Tensor


class StepOutput(NamedTuple):
    """attentional (B, R), the new states, attention (B, S), switch (B, 1) the logit of p_gen
    (None without copy)."""

    attentional: Tensor
    states: dict[str, Tensor]
    attention: Tensor
    switch: Tensor | None


class AttentionDecoder(nn.Module):
    def __init__(self, config: ModelConfig, memory_size: int, vocab_size: int, embedding: nn.Embedding):
        super().__init__()
        self.style = config.style
        hidden, emb = config.decoder_hidden, config.embedding_size
        self.readout_size = emb if config.tie_embeddings else hidden
        self.attention = build_attention(config.score, hidden, memory_size, config.attention_size, config.coverage)
        context = self.attention.value_size
        if self.style == "bahdanau":
            rnn_input, readout_input = emb + context, hidden + context + emb
        else:
            rnn_input, readout_input = emb + self.readout_size, context + hidden
        self.cells = nn.ModuleList(
            build_cell(config.cell, rnn_input if layer == 0 else hidden, hidden)
            for layer in range(config.decoder_layers)
        )
        self.bridge = nn.Linear(memory_size, config.decoder_layers * hidden)
        self.readout = nn.Linear(readout_input, self.readout_size)
        self.switch = nn.Linear(readout_input, 1) if config.copy else None
        self.output_layer = nn.Linear(self.readout_size, vocab_size)
        if config.tie_embeddings:
            self.output_layer.weight = embedding.weight
        self.dropout = nn.Dropout(config.dropout)
        self.layers, self.hidden_size = config.decoder_layers, hidden
        self.state_names = (
            self.cells[0].state_names
            + (("feed",) if self.style == "luong" else ())
            + (("coverage",) if config.coverage else ())
        )

    def initial_states(self, memory: Tensor, mask: Tensor) -> dict[str, Tensor]:
        """memory (B, S, M), mask (B, S) → states from tanh(W · masked mean of memory)."""
        weights = mask.to(memory.dtype).unsqueeze(-1)
        mean = (memory * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)
        hidden = torch.tanh(self.bridge(mean)).view(-1, self.layers, self.hidden_size)
        states = {"hidden": hidden}
        if "cell" in self.state_names:
            states["cell"] = torch.zeros_like(hidden)
        if "feed" in self.state_names:
            states["feed"] = memory.new_zeros(memory.shape[0], self.readout_size)
        if "coverage" in self.state_names:
            states["coverage"] = torch.zeros_like(mask, dtype=memory.dtype)
        return states

    def step(
        self, embedded: Tensor, states: dict[str, Tensor], keys: Tensor, values: Tensor, mask: Tensor
    ) -> StepOutput:
        """embedded (B, E) of the previous token, keys (B, S, K), values (B, S, V), mask (B, S)
        → the step's attentional vector, new states, attention weights and copy switch."""
        coverage = states.get("coverage")
        if self.style == "bahdanau":
            query = states["hidden"][:, -1]
            context, weights = self.attention(query, keys, values, mask, coverage)
            top, new_states = self._run_layers(torch.cat([embedded, context], dim=-1), states)
            readout_input = torch.cat([top, context, embedded], dim=-1)
        else:
            top, new_states = self._run_layers(torch.cat([embedded, states["feed"]], dim=-1), states)
            context, weights = self.attention(top, keys, values, mask, coverage)
            readout_input = torch.cat([context, top], dim=-1)
        attentional = torch.tanh(self.readout(readout_input))
        if self.style == "luong":
            new_states["feed"] = attentional
        if coverage is not None:
            new_states["coverage"] = coverage + weights
        switch = self.switch(readout_input) if self.switch is not None else None
        return StepOutput(attentional, new_states, weights, switch)

    def logits(self, attentional: Tensor, rows: OutputRows | None = None) -> Tensor:
        """attentional (..., R) → unnormalised scores (..., C) over the output layer's rows: all V
        of them, or the C given `rows` (a vocabulary shortlist)."""
        weight, bias = rows if rows is not None else (self.output_layer.weight.t(), self.output_layer.bias)
        return torch.matmul(self.dropout(attentional), weight) + bias

    def _run_layers(self, x: Tensor, states: dict[str, Tensor]) -> tuple[Tensor, dict[str, Tensor]]:
        """Run the stacked cells; x (B, I) → top output (B, H) and the new hidden/cell states."""
        per_layer = []
        for layer, cell in enumerate(self.cells):
            layer_states = tuple(states[name][:, layer] for name in cell.state_names)
            output, new_layer_states = cell(x, layer_states)
            per_layer.append(new_layer_states)
            x = self.dropout(output) if layer < self.layers - 1 else output
        new_states = {
            name: torch.stack([layer_states[i] for layer_states in per_layer], dim=1)
            for i, name in enumerate(self.cells[0].state_names)
        }
        return x, new_states
