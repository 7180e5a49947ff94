"""CTranslate2 beside attn in benchmarks/run.py: a model converted by ctranslate2_convert.py, called
like attn's LoadedModel (`default_options`, `translate`) so that both engines are timed by the same
code on the same pieces.

Its settings (measured in run.py's settings table): `inter_threads` = the thread count with one
intra-op thread each (several batches side by side, as our runtime/parallel.py does),
`max_batch_size` = our batch size (CTranslate2 then sorts the inputs by length and cuts them into
batches, as our LoadedModel does), the vocabulary map when the converted folder has one (our
shortlist, written as vmap.txt). What cannot be made equal: CTranslate2 normalises a hypothesis'
score by length ** α where we use GNMT's ((5 + length) / 6) ** α, and it takes one maximum output
length per call where we give each sentence its own (the call's longest is given here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attn.runtime.constants import UNK
from attn.runtime.search import SearchOptions
from attn.runtime.tokenizer import SubwordTokenizer

VOCABULARY_MAP = "vmap.txt"

MaxLengths = Callable[[np.ndarray, SearchOptions], np.ndarray]  # source lengths (B,) → output limits (B,)


@dataclass(frozen=True)
class Translation:
    text: str


class Ctranslate2Engine:
    """A converted folder on the CPU in `compute_type` ("float32", "int8"): `threads` translators
    side by side (inter_threads) or, with `side_by_side=False`, one translator of `threads` intra-op
    threads. `max_lengths` (attn's LoadedModel.max_lengths) bounds the outputs; without it,
    CTranslate2's default bound (256 pieces) holds."""

    def __init__(
        self,
        folder: Path,
        tokenizer: SubwordTokenizer,
        compute_type: str,
        threads: int,
        side_by_side: bool = True,
        vocabulary_map: bool = True,
        max_lengths: MaxLengths | None = None,
    ):
        import ctranslate2  # optional: only the comparison with CTranslate2 needs it

        inter, intra = (threads, 1) if side_by_side else (1, threads)
        self.translator = ctranslate2.Translator(
            str(folder), device="cpu", compute_type=compute_type, inter_threads=inter, intra_threads=intra
        )
        self.use_vmap = vocabulary_map and (folder / VOCABULARY_MAP).exists()
        self.tokenizer, self.max_lengths = tokenizer, max_lengths
        self.ids = {piece: i for i, piece in enumerate(tokenizer.pieces)}

    def default_options(self, beam: int, shortlist: bool = False) -> SearchOptions:
        """LoadedModel.default_options' signature; only the beam reaches CTranslate2 (its shortlist is
        the folder's vmap, chosen at construction: `vocabulary_map`)."""
        return SearchOptions(beam=beam)

    def translate(
        self, texts: list[str], options: SearchOptions, batch: int, text_options=None
    ) -> list[list[Translation]]:
        """Each text read whole (no sentence splitting) → [its best translation]."""
        sources = [self.tokenizer.encode_source(text).ids for text in texts]
        bound = {}
        if self.max_lengths:
            bound["max_decoding_length"] = int(self.max_lengths(np.array([len(s) for s in sources]), options).max())
        pieces = self.tokenizer.pieces
        results = self.translator.translate_batch(
            [[pieces[i] for i in source] for source in sources],
            beam_size=options.beam,
            max_batch_size=batch,
            use_vmap=self.use_vmap,
            **bound,
        )
        return [
            [Translation(self.tokenizer.decode([self.ids.get(piece, UNK) for piece in result.hypotheses[0]]))]
            for result in results
        ]
