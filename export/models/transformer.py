"""The Transformer encoder-decoder (Vaswani et al. 2017) behind the EncoderDecoder interface:
pre-norm layers (a layer norm before each sublayer, one after the stack), multi-head scaled
dot-product self-attention and encoder-decoder attention, sinusoidal positions, one embedding
matrix shared by source, target and output layer (the vocabulary is joint), dropout on the
sublayers' outputs and on the attention weights. [model] layer_norm, activation, embedding_scale
and positions give the variants of models trained elsewhere (post-norm Marian: export/importers/marian.py).

Exported as the runtime expects (runtime/graph_contract.py): the encoder computes the memory and,
once per sentence, every decoder layer's encoder-decoder keys and values (SOURCE states
SENTENCE states cross_keys_L, cross_values_L, (G, H, S, D/H), one per sentence); the decoder is
one step over N = G·k rows (a sentence's k beams together) that takes the self-attention keys and
values of the steps so far (CACHE states self_keys_L, self_values_L, (N, H, T, D/H), empty before
the first step) and returns them grown by one position. The step's `attention` (N, S) is
encoder-decoder attention of layer `alignment_layer`, averaged over heads.

With [model] copy, a pointer-generator (See et al. 2017): that same attention is the copy
distribution, and p_gen = σ(w · [decoder output; the alignment layer's encoder-decoder context;
input embedding] + b) weighs it against the vocabulary's (model.pointer_mixture); the decoder
graph then takes the source ids, one row per sentence.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from attn.export.config import ModelConfig
from attn.export.models.attention import MASKED
from attn.export.models.base import EncoderDecoder, OutputParameters, pointer_mixture
from attn.export.models.decoder import OutputRows
from attn.runtime.constants import PAD
from attn.runtime.graph_contract import CACHE, SENTENCE, StateSpec


def sinusoids(positions: Tensor, size: int, scheme: str = "tensor2tensor") -> Tensor:
    """positions (...) float → (..., size): the sines of the first half of the features, the
    cosines of the second, at frequencies 10000^(-i/(size/2 - 1)) (scheme "tensor2tensor":
    wavelengths from 2π to 10000·2π) or 10000^(-2i/size) ("marian", as Marian and Hugging Face's
    MarianMTModel compute them), i = 0 … size/2 - 1."""
    half = size // 2
    steps = torch.arange(half, dtype=torch.float32, device=positions.device)
    spacing = max(half - 1, 1) if scheme == "tensor2tensor" else half
    frequencies = torch.exp(steps * (-math.log(10000.0) / spacing))
    angles = positions.unsqueeze(-1).float() * frequencies
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)


class MultiHeadAttention(nn.Module):
    """Scaled dot-product attention over `heads` projections of width size / heads."""

    def __init__(self, size: int, heads: int, dropout: float):
        super().__init__()
        self.heads, self.head_size = heads, size // heads
        self.query, self.key, self.value, self.out = (nn.Linear(size, size) for _ in range(4))
        self.dropout = nn.Dropout(dropout)

    def split(self, x: Tensor) -> Tensor:
        """(B, T, D) → (B, H, T, D/H)."""
        return x.view(x.shape[0], x.shape[1], self.heads, self.head_size).transpose(1, 2)

    def keys_values(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """x (B, S, D) → keys, values (B, H, S, D/H)."""
        return self.split(self.key(x)), self.split(self.value(x))

    def attend(self, x: Tensor, keys: Tensor, values: Tensor, allowed: Tensor | None) -> tuple[Tensor, Tensor]:
        """queries from x (N, T, D) over keys, values (G, H, S, D/H), N = G·k: row n reads group
        n // k (k = 1: each row its own; k > 1 with T = 1: a sentence's k beams in one product);
        allowed (G, 1 or T, S) bool or None → output (N, T, D), weights (N, H, T, S)."""
        rows, steps = x.shape[0], x.shape[1]
        groups = keys.shape[0]
        queries = self.query(x).reshape(groups, -1, self.heads, self.head_size).transpose(1, 2)  # (G, H, k·T, D/H)
        scores = torch.matmul(queries, keys.transpose(-1, -2)) / math.sqrt(self.head_size)
        if allowed is not None:
            scores = scores.masked_fill(~allowed.unsqueeze(1), MASKED)
        weights = torch.softmax(scores.float(), dim=-1).to(values.dtype)
        context = torch.matmul(self.dropout(weights), values)  # (G, H, k·T, D/H)
        context = context.transpose(1, 2).reshape(rows, steps, self.heads * self.head_size)
        weights = weights.reshape(groups, self.heads, -1, steps, weights.shape[-1]).transpose(1, 2)
        return self.out(context), weights.reshape(rows, self.heads, steps, weights.shape[-1])


ACTIVATIONS = {"relu": nn.ReLU, "swish": nn.SiLU, "gelu": nn.GELU}  # [model] activation → module


class FeedForward(nn.Sequential):
    def __init__(self, size: int, hidden: int, dropout: float, activation: str = "relu"):
        super().__init__(
            nn.Linear(size, hidden), ACTIVATIONS[activation](), nn.Dropout(dropout), nn.Linear(hidden, size)
        )


class NormedLayer(nn.Module):
    """Where a layer's norms sit: before each sublayer ("pre": x + sublayer(norm(x))) or after each
    residual sum ("post": norm(x + sublayer(x))), as [model] layer_norm says."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.post = config.layer_norm == "post"
        self.dropout = nn.Dropout(config.dropout)

    def read(self, norm: nn.LayerNorm, x: Tensor) -> Tensor:
        """What the sublayer whose norm is `norm` reads of x (..., D)."""
        return x if self.post else norm(x)

    def add(self, norm: nn.LayerNorm, x: Tensor, output: Tensor) -> Tensor:
        """x (..., D) with that sublayer's output (..., D) added."""
        summed = x + self.dropout(output)
        return norm(summed) if self.post else summed

    def start_as_identity(self) -> None:
        """Zero the projections by which each sublayer adds to x (attention's output, the
        feed-forward's second linear): a pre-norm layer then passes x through unchanged, so a
        model grown deeper by such layers computes what it did before (training moves them off
        zero at its first step). A post-norm layer would still normalise x: refused."""
        if self.post:
            raise ValueError("a post-norm layer cannot start as the identity")
        modules = list(self.modules())
        projections = [m.out for m in modules if isinstance(m, MultiHeadAttention)]
        projections += [m[-1] for m in modules if isinstance(m, FeedForward)]
        with torch.no_grad():
            for projection in projections:
                projection.weight.zero_()
                projection.bias.zero_()


class EncoderLayer(NormedLayer):
    def __init__(self, config: ModelConfig):
        super().__init__(config)
        size = config.embedding_size
        self.attention_norm, self.feedforward_norm = nn.LayerNorm(size), nn.LayerNorm(size)
        self.attention = MultiHeadAttention(size, config.heads, config.attention_dropout)
        self.feedforward = FeedForward(size, config.feedforward_size, config.dropout, config.activation)

    def forward(self, x: Tensor, allowed: Tensor) -> Tensor:
        """x (B, S, D), allowed (B, 1, S) → (B, S, D)."""
        read = self.read(self.attention_norm, x)
        x = self.add(self.attention_norm, x, self.attention.attend(read, *self.attention.keys_values(read), allowed)[0])
        return self.add(self.feedforward_norm, x, self.feedforward(self.read(self.feedforward_norm, x)))


class DecoderLayer(NormedLayer):
    def __init__(self, config: ModelConfig):
        super().__init__(config)
        size = config.embedding_size
        self.self_norm, self.cross_norm, self.feedforward_norm = (nn.LayerNorm(size) for _ in range(3))
        self.self_attention = MultiHeadAttention(size, config.heads, config.attention_dropout)
        self.cross_attention = MultiHeadAttention(size, config.heads, config.attention_dropout)
        self.feedforward = FeedForward(size, config.feedforward_size, config.dropout, config.activation)

    def self_input(self, x: Tensor) -> Tensor:
        """What self-attention reads of x (N, T, D): its queries, and this step's keys and values."""
        return self.read(self.self_norm, x)

    def forward(
        self,
        x: Tensor,
        read: Tensor,
        self_keys: Tensor,
        self_values: Tensor,
        causal: Tensor | None,
        cross_keys: Tensor,
        cross_values: Tensor,
        source_allowed: Tensor,
    ) -> tuple[Tensor, Tensor]:
        """x (N, T, D) and its `self_input` `read` over self-attention keys/values (N, H, T', D/H)
        (T' = T in training with the causal mask (1, T, T); the cache plus this step when
        decoding, unmasked) and the source's (G, H, S, D/H), N = G·k (MultiHeadAttention.attend)
        → (N, T, D), encoder-decoder weights (N, H, T, S) and context (N, T, D)."""
        x = self.add(self.self_norm, x, self.self_attention.attend(read, self_keys, self_values, causal)[0])
        attended, weights = self.cross_attention.attend(
            self.read(self.cross_norm, x), cross_keys, cross_values, source_allowed
        )
        x = self.add(self.cross_norm, x, attended)
        return (
            self.add(self.feedforward_norm, x, self.feedforward(self.read(self.feedforward_norm, x))),
            weights,
            attended,
        )


class Transformer(EncoderDecoder):
    def __init__(self, config: ModelConfig, vocab_size: int):
        super().__init__()
        self.config = config
        size = config.embedding_size
        self.embedding = nn.Embedding(vocab_size, size, padding_idx=PAD)
        nn.init.normal_(self.embedding.weight, std=size**-0.5)  # × √D on input: unit scale; tied logits O(1)
        with torch.no_grad():
            self.embedding.weight[PAD].zero_()
        self.output_bias = nn.Parameter(torch.zeros(vocab_size))
        self.dropout = nn.Dropout(config.dropout)
        self.encoder_layers = nn.ModuleList(EncoderLayer(config) for _ in range(config.encoder_layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(config) for _ in range(config.decoder_layers))
        stack_norm = nn.LayerNorm if config.layer_norm == "pre" else nn.Identity  # post-norm layers end normed
        self.encoder_norm, self.decoder_norm = stack_norm(size), stack_norm(size)
        # positions "table": one row per position, as the model that learned or stored them had it
        self.position_table = (
            nn.Parameter(torch.zeros(config.position_table_size, size)) if config.positions == "table" else None
        )
        self.alignment_layer = config.alignment_layer % config.decoder_layers
        self.switch = nn.Linear(3 * size, 1) if config.copy else None
        layers = range(config.decoder_layers)
        self.states = tuple(
            StateSpec(f"cross_{kind}_{layer}", SENTENCE) for layer in layers for kind in ("keys", "values")
        ) + tuple(StateSpec(f"self_{kind}_{layer}", CACHE) for layer in layers for kind in ("keys", "values"))

    def state_axes(self, name: str, output: bool = False) -> dict[int, str]:
        if name.startswith("cross_"):
            return {0: "sentences", 2: "source"}
        return {0: "batch", 2: "steps_next" if output else "steps"}

    @property
    def output_layer(self) -> OutputParameters:
        """The shared embedding matrix and the output bias."""
        return OutputParameters(self.embedding.weight, self.output_bias)

    def embed(self, tokens: Tensor, positions: Tensor) -> Tensor:
        """tokens (B, T), positions (B or 1, T) → (B, T, D)."""
        size = self.config.embedding_size
        scale = math.sqrt(size) if self.config.embedding_scale else 1.0
        if self.position_table is not None:
            placed = self.position_table[positions.long()]
        else:
            placed = sinusoids(positions, size, self.config.positions)
        return self.dropout(self.embedding(tokens) * scale + placed)

    def encode(self, source: Tensor, mask: Tensor) -> dict[str, Tensor]:
        """source ids (B, S), mask (B, S) → each decoder layer's encoder-decoder keys and values
        (B, H, S, D/H), and its empty self-attention caches (B, H, 0, D/H)."""
        allowed = (mask != 0).unsqueeze(1)  # (B, 1, S)
        x = self.embed(source, torch.arange(source.shape[1], device=source.device).unsqueeze(0))
        for layer in self.encoder_layers:
            x = layer(x, allowed)
        memory = self.encoder_norm(x)
        encoded = {}
        for index, layer in enumerate(self.decoder_layers):
            keys, values = layer.cross_attention.keys_values(memory)
            encoded[f"cross_keys_{index}"], encoded[f"cross_values_{index}"] = keys, values
        for index in range(len(self.decoder_layers)):
            empty = encoded[f"cross_keys_{index}"][:, :, :0]  # (B, H, 0, D/H): no step yet
            encoded[f"self_keys_{index}"], encoded[f"self_values_{index}"] = empty, empty
        return encoded

    def forward(self, source: Tensor, mask: Tensor, target_in: Tensor) -> tuple[Tensor, Tensor]:
        """Teacher forcing, all target positions at once under a causal mask: source (B, S), mask
        (B, S), target_in (B, T) → logits (B, T, V), attention (B, T, S)."""
        encoded = self.encode(source, mask)
        steps = target_in.shape[1]
        causal = torch.ones(steps, steps, dtype=torch.bool, device=target_in.device).tril().unsqueeze(0)  # (1, T, T)
        x = self.embed(target_in, torch.arange(steps, device=target_in.device).unsqueeze(0))
        return self._decode(
            x, encoded, mask, source, lambda index, layer, read: (*layer.self_attention.keys_values(read), causal)
        )

    def decode_step(
        self,
        previous: Tensor,
        encoded: dict[str, Tensor],
        mask: Tensor,
        source: Tensor | None,
        rows: OutputRows | None = None,
    ) -> tuple[Tensor, dict[str, Tensor], Tensor]:
        """previous tokens (N,) at position T (the caches' length), the SENTENCE states and mask
        (G, S) of N = G·k rows, and with copy the source's column ids among the C (G, S)
        → log-probabilities (N, C), the caches grown to T + 1, attention (N, S)."""
        cache = encoded["self_keys_0"]
        position = torch.ones_like(cache[:, 0, :, 0]).sum(dim=1, keepdim=True)  # (B, 1): T, traced, not constant
        x = self.embed(previous.unsqueeze(1), position)
        grown: dict[str, Tensor] = {}

        def attend_cache(index: int, layer: DecoderLayer, read: Tensor):
            keys, values = layer.self_attention.keys_values(read)
            grown[f"self_keys_{index}"] = torch.cat([encoded[f"self_keys_{index}"], keys], dim=2)
            grown[f"self_values_{index}"] = torch.cat([encoded[f"self_values_{index}"], values], dim=2)
            return grown[f"self_keys_{index}"], grown[f"self_values_{index}"], None

        scores, attention = self._decode(x, encoded, mask, source, attend_cache, rows)
        # squeeze, not [:, 0]: onnxruntime runs a Squeeze in place, a Gather copies the (N, C) scores
        return torch.log_softmax(scores.squeeze(1).float(), dim=-1), grown, attention.squeeze(1)

    def _decode(
        self,
        x: Tensor,
        encoded: dict[str, Tensor],
        mask: Tensor,
        source: Tensor | None,
        self_keys_values,
        rows: OutputRows | None = None,
    ) -> tuple[Tensor, Tensor]:
        """The decoder stack over x (N, T, D) of N = G·k rows; `self_keys_values(index, layer, what
        self-attention reads)` gives each layer's self-attention keys, values and mask → scores (N, T, C) whose
        log_softmax is the log-probabilities (the logits, or with copy the mixture's log-probabilities
        over source's columns (G, S)), attention (N, T, S)."""
        source_allowed = (mask != 0).unsqueeze(1)
        embedded, attention, context = x, None, None
        for index, layer in enumerate(self.decoder_layers):
            read = layer.self_input(x)
            keys, values, causal = self_keys_values(index, layer, read)
            x, weights, attended = layer(
                x,
                read,
                keys,
                values,
                causal,
                encoded[f"cross_keys_{index}"],
                encoded[f"cross_values_{index}"],
                source_allowed,
            )
            if index == self.alignment_layer:
                attention, context = weights.mean(dim=1), attended
        weight, bias = rows if rows is not None else (self.embedding.weight.t(), self.output_bias)
        output = self.decoder_norm(x)
        logits = torch.matmul(output, weight) + bias
        if self.switch is None:
            return logits, attention
        switch = self.switch(torch.cat([output, context, embedded], dim=-1))  # (N, T, 1)
        groups = source.shape[0]  # a sentence's k rows read its one source row
        scores = pointer_mixture(
            logits.reshape(groups, -1, logits.shape[-1]),
            attention.reshape(groups, -1, attention.shape[-1]),
            switch.reshape(groups, -1, 1),
            source,
        )
        return scores.reshape(logits.shape), attention
