"""The PyTorch models: the RNN encoder-decoder (rnn.py) and the Transformer (transformer.py),
both `EncoderDecoder`s (base.py); `build_model` picks by [model] architecture."""

from __future__ import annotations

from attn.export.config import ModelConfig
from attn.export.models.base import EncoderDecoder
from attn.export.models.rnn import Seq2Seq
from attn.export.models.transformer import Transformer


def build_model(config: ModelConfig, vocab_size: int) -> EncoderDecoder:
    """The architecture [model] names, with freshly initialised weights."""
    if config.architecture == "transformer":
        return Transformer(config, vocab_size)
    return Seq2Seq(config, vocab_size)
