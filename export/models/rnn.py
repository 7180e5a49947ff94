"""The RNN encoder-decoder: shared embeddings → bi-RNN encoder → attention decoder, optionally a
pointer-generator (copy) over the source pieces."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from attn.export.config import ModelConfig
from attn.export.models.base import EncoderDecoder, OutputParameters, pointer_mixture
from attn.export.models.decoder import AttentionDecoder, OutputRows
from attn.export.models.encoder import BiRNNEncoder
from attn.runtime.constants import PAD
from attn.runtime.graph_contract import StateSpec, rnn_states


class Seq2Seq(EncoderDecoder):
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
    def states(self) -> tuple[StateSpec, ...]:
        """memory (B, S, V) and keys (B, S, K) per sentence, then the recurrent states per row:
        hidden (B, L, H), cell (B, L, H) for LSTM, feed (B, R) for Luong, coverage (B, S)."""
        return tuple(rnn_states(list(self.decoder.state_names)))

    def state_axes(self, name: str, output: bool = False) -> dict[int, str]:
        return {0: "batch", 1: "source"} if name in ("memory", "keys", "coverage") else {0: "batch"}

    @property
    def output_layer(self) -> OutputParameters:
        return OutputParameters(self.decoder.output_layer.weight, self.decoder.output_layer.bias)

    def encode(self, source: Tensor, mask: Tensor) -> dict[str, Tensor]:
        """source ids (B, S), mask (B, S) → memory (the attention's values, B, S, V), keys (B, S, K),
        and the initial recurrent states."""
        memory = self.encoder(self.embedding_dropout(self.embedding(source)), mask)
        attention = self.decoder.attention
        values, keys = attention.project_values(memory), attention.project_keys(memory)
        return {"memory": values, "keys": keys, **self.decoder.initial_states(memory, mask)}

    def forward(self, source: Tensor, mask: Tensor, target_in: Tensor) -> tuple[Tensor, Tensor]:
        """Teacher forcing: source (B, S), mask (B, S), target_in (B, T)
        → scores (B, T, V) (see output_scores), attention (B, T, S)."""
        encoded = self.encode(source, mask)
        values, keys = encoded.pop("memory"), encoded.pop("keys")
        states = encoded
        embedded = self.embedding_dropout(self.embedding(target_in))
        steps = []
        for t in range(target_in.shape[1]):
            step = self.decoder.step(embedded[:, t], states, keys, values, mask)
            states = step.states
            steps.append(step)
        attention = torch.stack([step.attention for step in steps], dim=1)
        switch = torch.stack([step.switch for step in steps], dim=1) if self.config.copy else None
        attentional = torch.stack([step.attentional for step in steps], dim=1)
        return self.output_scores(attentional, attention, switch, source), attention

    def output_scores(
        self,
        attentional: Tensor,
        attention: Tensor,
        switch: Tensor | None,
        source: Tensor,
        rows: OutputRows | None = None,
    ) -> Tensor:
        """attentional (B, [T,] R), attention (B, [T,] S), switch (B, [T,] 1) the logit of p_gen,
        source (B, S) → scores (B, [T,] C) whose log_softmax is the log-probabilities: the
        logits, or with copy the log-probabilities themselves, log(p_gen · P_vocab + (1 − p_gen) ·
        P_copy), P_copy putting each source position's attention on that position's column;
        mixed in log space so that rare tokens keep log_softmax's accuracy. The C columns are the
        vocabulary (source holds piece ids), or with `rows` the shortlist's candidates (source
        holds each piece's column among them)."""
        logits = self.decoder.logits(attentional, rows)
        return logits if switch is None else pointer_mixture(logits, attention, switch, source)

    def decode_step(
        self, previous: Tensor, encoded: dict[str, Tensor], mask: Tensor, source: Tensor, rows: OutputRows | None = None
    ) -> tuple[Tensor, dict[str, Tensor], Tensor]:
        """previous tokens (B,), the encoded states, source (B, S) → log-probabilities (B, C) over
        the vocabulary or the candidates of `rows` (see output_scores), the new recurrent states,
        attention (B, S)."""
        states = {name: encoded[name] for name in self.decoder.state_names}
        step = self.decoder.step(self.embedding(previous), states, encoded["keys"], encoded["memory"], mask)
        scores = self.output_scores(step.attentional, step.attention, step.switch, source, rows)
        return torch.log_softmax(scores, dim=-1), step.states, step.attention
