"""The attention encoder-decoder: shared embeddings → bi-RNN encoder → attention decoder."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from attn.runtime.constants import BOS, EOS, PAD

from .config import ModelConfig
from .decoder import AttentionDecoder
from .encoder import BiRNNEncoder


class Seq2Seq(nn.Module):
    def __init__(self, config: ModelConfig, vocab_size: int):
        super().__init__()
        self.config = config
        self.embedding = nn.Embedding(vocab_size, config.embedding_size, padding_idx=PAD)
        nn.init.normal_(self.embedding.weight, std=config.embedding_size**-0.5)  # O(1) tied logits
        with torch.no_grad():
            self.embedding.weight[PAD].zero_()
        self.embedding_dropout = nn.Dropout(config.dropout)
        self.encoder = BiRNNEncoder(
            config.cell, config.embedding_size, config.encoder_hidden, config.encoder_layers, config.dropout
        )
        self.decoder = AttentionDecoder(config, self.encoder.output_size, vocab_size, self.embedding)

    @property
    def state_names(self) -> tuple[str, ...]:
        return self.decoder.state_names

    def encode(self, source: Tensor, mask: Tensor) -> tuple[Tensor, Tensor, dict[str, Tensor]]:
        """source ids (B, S), mask (B, S) → values (B, S, V), keys (B, S, K), initial states."""
        memory = self.encoder(self.embedding_dropout(self.embedding(source)), mask)
        attention = self.decoder.attention
        values, keys = attention.project_values(memory), attention.project_keys(memory)
        return values, keys, self.decoder.initial_states(memory, mask)

    def forward(self, source: Tensor, mask: Tensor, target_in: Tensor) -> Tensor:
        """Teacher forcing: source (B, S), mask (B, S), target_in (B, T) → logits (B, T, V)."""
        values, keys, states = self.encode(source, mask)
        embedded = self.embedding_dropout(self.embedding(target_in))
        attentional = []
        for t in range(target_in.shape[1]):
            output, states, _ = self.decoder.step(embedded[:, t], states, keys, values, mask)
            attentional.append(output)
        return self.decoder.logits(torch.stack(attentional, dim=1))

    def decode_step(
        self, previous: Tensor, states: dict[str, Tensor], keys: Tensor, values: Tensor, mask: Tensor
    ) -> tuple[Tensor, dict[str, Tensor], Tensor]:
        """previous tokens (B,) → log-probabilities (B, V), new states, attention (B, S)."""
        output, states, weights = self.decoder.step(self.embedding(previous), states, keys, values, mask)
        return torch.log_softmax(self.decoder.logits(output), dim=-1), states, weights

    @torch.no_grad()
    def greedy(self, source: Tensor, mask: Tensor, max_length: int) -> list[list[int]]:
        """Batched greedy decoding in PyTorch (dev BLEU, and the eager baseline of benchmarks)."""
        values, keys, states = self.encode(source, mask)
        batch = source.shape[0]
        previous = torch.full((batch,), BOS, dtype=torch.long)
        finished = torch.zeros(batch, dtype=torch.bool)
        outputs = []
        for _ in range(max_length):
            log_probs, states, _ = self.decode_step(previous, states, keys, values, mask)
            previous = log_probs.argmax(dim=-1).masked_fill(finished, PAD)
            outputs.append(previous)
            finished |= previous == EOS
            if finished.all():
                break
        rows = torch.stack(outputs, dim=1).tolist() if outputs else [[] for _ in range(batch)]
        return [[t for t in row[: row.index(EOS)] if t != PAD] if EOS in row else row for row in rows]
