"""Translator: a model folder's sessions, tokenizer and search behind one call.

    translator = Translator("models/en-de", device="cpu", threads=2)
    [[best, *rest]] = translator.translate(["she is eating a green apple"], SearchOptions(beam=5))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime

from .alignment import WordAlignment, merge_to_words
from .constants import BOS, DECODER, ENCODER, EOS, PAD, TOKENIZER
from .manifest import Manifest, ModelFolderError, read_manifest
from .search import Hypothesis, SearchOptions, beam_search, final_score, greedy_search
from .sessions import create_session, warn_on_stderr
from .tokenizer import SourcePieces, SubwordTokenizer
from .verbatim import copy_verbatim


@dataclass
class Translation:
    """One output of one input: text, its pieces' ids, score, attention (T, S) over the source
    pieces (EOS row and column included), and the word-level alignment."""

    text: str
    tokens: list[int]
    score: float
    attention: np.ndarray
    alignment: WordAlignment


class OnnxDecoderState:
    """The encoded batch and recurrent states of the exported graphs, reordered along axis 0."""

    def __init__(self, decoder: onnxruntime.InferenceSession, state_names: list[str], encoded: list[np.ndarray], mask: np.ndarray):
        self.decoder = decoder
        self.state_names = state_names
        self.memory, self.keys = encoded[0], encoded[1]
        self.states = dict(zip(state_names, encoded[2:]))
        self.mask = mask
        self.output_names = ["log_probs", *(f"new_{n}" for n in state_names), "attention"]

    def step(self, previous: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        feeds = {"previous_tokens": previous, "memory": self.memory, "keys": self.keys,
                 "source_mask": self.mask, **self.states}
        log_probs, *new_states, attention = self.decoder.run(self.output_names, feeds)
        self.states = dict(zip(self.state_names, new_states))
        return log_probs, attention

    def select(self, rows: np.ndarray) -> None:
        self.memory, self.keys, self.mask = self.memory[rows], self.keys[rows], self.mask[rows]
        self.states = {name: value[rows] for name, value in self.states.items()}


class Translator:
    def __init__(self, folder: str | Path, device: str = "cpu", threads: int = 0,
                 notify: Callable[[str], None] = warn_on_stderr):
        self.folder = Path(folder)
        self.manifest: Manifest = read_manifest(self.folder)
        try:
            self.tokenizer = SubwordTokenizer.load(self.folder / TOKENIZER)
        except Exception as error:  # tokenizers raises plain Exceptions for unreadable files
            raise ModelFolderError(f"{self.folder / TOKENIZER}: cannot load tokenizer ({error})") from None
        vocab_size = self.manifest.architecture.get("vocab_size")
        if vocab_size != self.tokenizer.vocab_size:
            raise ModelFolderError(f"{self.folder / TOKENIZER}: {self.tokenizer.vocab_size} pieces, "
                                   f"but the model was trained with {vocab_size}")
        try:
            self.encoder = create_session(self.folder / ENCODER, device, threads, notify)
            self.decoder = create_session(self.folder / DECODER, device, threads, notify)
        except onnxruntime.capi.onnxruntime_pybind11_state.Fail as error:
            raise ModelFolderError(f"{self.folder}: cannot load ONNX graph ({error})") from None

    def default_options(self, **overrides) -> SearchOptions:
        search = self.manifest.search
        values = {"beam": search.get("beam", 5), "length_penalty": search.get("length_penalty", 1.0),
                  "replace_unk": search.get("replace_unk", False)}
        values.update({k: v for k, v in overrides.items() if v is not None or k == "seed"})
        return SearchOptions(**values)

    def encode_sources(self, texts: list[str]) -> list[SourcePieces]:
        return [self.tokenizer.encode_source(text) for text in texts]

    def translate(self, texts: list[str], options: SearchOptions | None = None, batch_size: int = 32) -> list[list[Translation]]:
        """n-best translations of each text, in input order. Blank texts give one empty translation."""
        options = options or self.default_options()
        sources = self.encode_sources(texts)
        results = [[self._translation(source, [], 0.0, np.zeros((0, len(source.ids)), np.float32))] for source in sources]
        order = sorted((i for i, text in enumerate(texts) if text.strip()), key=lambda i: len(sources[i].ids))
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            for index, hypotheses in zip(chunk, self.search([sources[i].ids for i in chunk], options)):
                results[index] = [self._translation(sources[index], h.tokens, h.score, h.attention, options.replace_unk)
                                  for h in hypotheses]
        return results

    def force(self, source_text: str, target_text: str, options: SearchOptions | None = None) -> Translation:
        """Score a given translation by teacher forcing; its attention shows the model's alignment."""
        options = options or self.default_options()
        source = self.tokenizer.encode_source(source_text)
        target = self.tokenizer.encode(target_text)
        ids = np.array([source.ids], dtype=np.int64)
        mask = np.ones_like(ids)
        state = OnnxDecoderState(self.decoder, self.manifest.state_names,
                                 self.encoder.run(None, {"source_ids": ids, "source_mask": mask}), mask)
        log_prob, rows = 0.0, []
        for previous, following in zip([BOS] + target, target + [EOS]):
            log_probs, attention = state.step(np.array([previous], dtype=np.int64))
            log_prob += float(log_probs[0, following])
            rows.append(attention[0])
        attention = np.stack(rows)
        score = final_score(log_prob, attention, len(source.ids), options)
        return self._translation(source, target, score, attention)

    def _translation(self, source: SourcePieces, tokens: list[int], score: float, attention: np.ndarray,
                     replace_unk: bool = False) -> Translation:
        words, word_of_piece = self.tokenizer.target_words(tokens)
        alignment = merge_to_words(attention, source.word_of_piece, word_of_piece, source.words, words)
        if replace_unk:
            alignment = WordAlignment(alignment.source_words, copy_verbatim(alignment), alignment.weights)
            return Translation(" ".join(alignment.target_words), tokens, score, attention, alignment)
        return Translation(self.tokenizer.decode(tokens), tokens, score, attention, alignment)

    def search(self, sources: list[list[int]], options: SearchOptions) -> list[list[Hypothesis]]:
        """Encode a batch of id sequences (EOS included) and run greedy/sampling (beam 1) or beam search."""
        longest = max(len(ids) for ids in sources)
        ids = np.full((len(sources), longest), PAD, dtype=np.int64)
        for row, sequence in enumerate(sources):
            ids[row, : len(sequence)] = sequence
        mask = (ids != PAD).astype(np.int64)
        encoded = self.encoder.run(None, {"source_ids": ids, "source_mask": mask})
        state = OnnxDecoderState(self.decoder, self.manifest.state_names, encoded, mask)
        lengths = np.array([len(s) for s in sources])
        search = greedy_search if options.beam == 1 else beam_search
        return search(state, self.max_lengths(lengths, options), lengths, options)

    def max_lengths(self, source_lengths: np.ndarray, options: SearchOptions) -> np.ndarray:
        """a·|source| + b output tokens, from the options or else the manifest's defaults."""
        defaults = self.manifest.search
        ratio = options.max_length_ratio if options.max_length_ratio is not None else defaults.get("max_length_ratio", 2.0)
        offset = options.max_length_offset if options.max_length_offset is not None else defaults.get("max_length_offset", 10)
        return np.maximum((ratio * source_lengths + offset).astype(int), options.min_length + 1)
