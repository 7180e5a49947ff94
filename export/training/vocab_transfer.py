"""Moving trained weights to another tokenizer (fast vocabulary transfer, Gee et al. 2022): every
tensor but the vocabulary-indexed ones stays as it is; in those (the embedding, shared with the
output layer, and the output bias), a piece both tokenizers have keeps its row, and each new
piece starts as the mean of the rows of the old pieces that spell it (the old BPE applied to the
new piece's bytes: "Ġeating" → "Ġe" + "ating"). A run started from a model with a vocabulary of a
different size (`[train] init_new_vocab`) begins with it.
"""

from __future__ import annotations

from pathlib import Path

import torch
from tokenizers import Tokenizer

from attn.export.models import EncoderDecoder


def spellings(old_file: Path, new_file: Path) -> list[list[int]]:
    """For each id of the new tokenizer, the old ids that spell its piece (one id when the old
    tokenizer has the same piece)."""
    old, new = Tokenizer.from_file(str(old_file)), Tokenizer.from_file(str(new_file))
    old_ids = old.get_vocab()
    return [
        [old_ids[piece]] if piece in old_ids else [old_ids[t.value] for t in old.model.tokenize(piece)]
        for piece in (new.id_to_token(i) for i in range(new.get_vocab_size()))
    ]


def vocabulary_tensor_names(model: EncoderDecoder) -> list[str]:
    """The names of `model`'s parameters indexed by piece id on their first axis."""
    indexed = {id(model.embedding.weight), *(id(parameter) for parameter in model.output_layer)}
    return [name for name, parameter in model.named_parameters() if id(parameter) in indexed]


def transfer_vocabulary(
    weights: dict[str, torch.Tensor], names: list[str], spelled: list[list[int]]
) -> dict[str, torch.Tensor]:
    """`weights` with each tensor of `names` ((V_old, …) → (V_new, …)) rebuilt row by row from
    `spelled` (spellings); a piece with an empty spelling gets zeros."""
    moved = dict(weights)
    for name in names:
        old = weights[name]
        rows = torch.zeros((len(spelled), *old.shape[1:]), dtype=old.dtype)
        for new_id, old_ids in enumerate(spelled):
            if old_ids:
                rows[new_id] = old[old_ids].mean(dim=0)
        moved[name] = rows
    return moved
