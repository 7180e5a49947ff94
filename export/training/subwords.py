"""Train the joint byte-level BPE tokenizer on the training texts."""

from __future__ import annotations

from collections.abc import Iterable

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from attn.runtime.constants import SPECIAL_TOKENS, target_token


def train_tokenizer(
    texts: Iterable[str], vocab_size: int, min_frequency: int, target_languages: Iterable[str] = ()
) -> Tokenizer:
    """A byte-level BPE over NFC-normalised text; ids 0-3 are the special tokens, followed by the
    token of each of `target_languages` (a model of several directions)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        special_tokens=SPECIAL_TOKENS + [target_token(language) for language in target_languages],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(texts, trainer=trainer)
    return tokenizer
