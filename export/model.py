"""The attention encoder-decoders behind one interface (`EncoderDecoder`), and the RNN one:
shared embeddings → bi-RNN encoder → attention decoder, optionally a pointer-generator (copy)
over the source pieces. The Transformer is in transformer.py; `build_model` picks by
[model] architecture."""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import Tensor, nn

from attn.runtime.constants import BOS, EOS, PAD

from attn.runtime.graph_contract import StateSpec, rnn_states

from .config import ModelConfig
from .decoder import AttentionDecoder, OutputRows
from .encoder import BiRNNEncoder

MIN_PROBABILITY = 1e-30  # floor under the copy distribution before its log (e^-69: no weight)


def log_sigmoid(x: Tensor) -> Tensor:
    """log σ(x) = min(x, 0) − log(1 + e^−|x|), written out: exported as Log(Sigmoid), onnxruntime's
    approximate Sigmoid loses the relative precision of tiny values, and p_gen can be tiny."""
    return torch.clamp(x, max=0.0) - torch.log(1.0 + torch.exp(-torch.abs(x)))


def pointer_mixture(logits: Tensor, attention: Tensor, switch: Tensor, source: Tensor) -> Tensor:
    """The pointer-generator's log-probabilities (See et al. 2017), log(p_gen · P_vocab + (1 −
    p_gen) · P_copy): logits (B, [T,] C), attention (B, [T,] S), switch (B, [T,] 1) the logit of
    p_gen, source (B, S) the column of each source position among the C → (B, [T,] C). P_copy puts
    each source position's attention on that position's column; mixed in log space so that rare
    tokens keep log_softmax's accuracy."""
    log_vocabulary = torch.log_softmax(logits.float(), dim=-1)
    switch = switch.float()
    index = source.view(source.shape[0], *([1] * (attention.dim() - 2)), source.shape[1]).expand_as(attention)
    copied = torch.zeros_like(log_vocabulary).scatter_add(-1, index, attention.float())
    generated = log_sigmoid(switch) + log_vocabulary
    copying = log_sigmoid(-switch) + torch.log(copied.clamp_min(MIN_PROBABILITY))
    larger = torch.maximum(generated, copying)  # log(e^a + e^b) = m + log(e^(a-m) + e^(b-m))
    return larger + torch.log(torch.exp(generated - larger) + torch.exp(copying - larger))


class OutputParameters(NamedTuple):
    """The output layer: weight (V, R), bias (V,)."""

    weight: Tensor
    bias: Tensor


class EncoderDecoder(nn.Module):
    """What training, export and the benchmarks use of a model, whatever its architecture.

    states: every state the graphs pass, in the encoder's output order, with its kind
    (runtime/graph_contract.py). encode(source (B, S), mask (B, S)) → {name: tensor} for all of
    them; decode_step(previous (B,), encoded, mask, source ids (B, S), rows) → log-probabilities
    (B, C), the new ROW and CACHE states {name: tensor}, attention (B, S); forward(source, mask,
    target_in (B, T)) → scores (B, T, V) for the loss, attention (B, T, S)."""

    config: ModelConfig
    embedding: nn.Embedding
    states: tuple[StateSpec, ...]

    def state_axes(self, name: str, output: bool = False) -> dict[int, str]:
        """The dynamic axes of a state's tensor for the ONNX export (`output`: of its new value)."""
        raise NotImplementedError

    @property
    def output_layer(self) -> OutputParameters:
        raise NotImplementedError

    @torch.no_grad()
    def greedy(self, source: Tensor, mask: Tensor, max_length: int) -> list[list[int]]:
        """Batched greedy decoding in PyTorch (dev BLEU, and the eager baseline of benchmarks)."""
        encoded = self.encode(source, mask)
        batch = source.shape[0]
        previous = source.new_full((batch,), BOS)
        finished = torch.zeros(batch, dtype=torch.bool, device=source.device)
        outputs = []
        for _ in range(max_length):
            log_probs, new_states, _ = self.decode_step(previous, encoded, mask, source)
            encoded.update(new_states)
            previous = log_probs.argmax(dim=-1).masked_fill(finished, PAD)
            outputs.append(previous)
            finished |= previous == EOS
            if finished.all():
                break
        rows = torch.stack(outputs, dim=1).tolist() if outputs else [[] for _ in range(batch)]
        return [[t for t in row[: row.index(EOS)] if t != PAD] if EOS in row else row for row in rows]


def build_model(config: ModelConfig, vocab_size: int) -> EncoderDecoder:
    """The architecture [model] names, with freshly initialised weights."""
    if config.architecture == "transformer":
        from .transformer import Transformer

        return Transformer(config, vocab_size)
    return Seq2Seq(config, vocab_size)


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

    def output_scores(self, attentional: Tensor, attention: Tensor, switch: Tensor | None,
                      source: Tensor, rows: OutputRows | None = None) -> Tensor:
        """attentional (B, [T,] R), attention (B, [T,] S), switch (B, [T,] 1) the logit of p_gen,
        source (B, S) → scores (B, [T,] C) whose log_softmax is the log-probabilities: the
        logits, or with copy the log-probabilities themselves, log(p_gen · P_vocab + (1 − p_gen) ·
        P_copy), P_copy putting each source position's attention on that position's column;
        mixed in log space so that rare tokens keep log_softmax's accuracy. The C columns are the
        vocabulary (source holds piece ids), or with `rows` the shortlist's candidates (source
        holds each piece's column among them)."""
        logits = self.decoder.logits(attentional, rows)
        return logits if switch is None else pointer_mixture(logits, attention, switch, source)

    def decode_step(self, previous: Tensor, encoded: dict[str, Tensor], mask: Tensor, source: Tensor,
                    rows: OutputRows | None = None) -> tuple[Tensor, dict[str, Tensor], Tensor]:
        """previous tokens (B,), the encoded states, source (B, S) → log-probabilities (B, C) over
        the vocabulary or the candidates of `rows` (see output_scores), the new recurrent states,
        attention (B, S)."""
        states = {name: encoded[name] for name in self.decoder.state_names}
        step = self.decoder.step(self.embedding(previous), states, encoded["keys"], encoded["memory"], mask)
        scores = self.output_scores(step.attentional, step.attention, step.switch, source, rows)
        return torch.log_softmax(scores, dim=-1), step.states, step.attention
