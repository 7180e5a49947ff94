"""What every attention encoder-decoder offers training, export and the benchmarks
(`EncoderDecoder`), and the pointer-generator's mixture they share."""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import Tensor, nn

from attn.export.config import ModelConfig
from attn.runtime.constants import BOS, EOS, PAD
from attn.runtime.graph_contract import StateSpec

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
