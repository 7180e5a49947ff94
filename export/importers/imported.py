"""What every `attn import` shares: the interface of an importer (`Importer`: read a foreign
checkpoint as attn's Transformer, its pieces and its settings; a new format is a subclass), the
tokenizers made from SentencePiece models, and the export of the converted Transformer with them,
verified against PyTorch (export/importers/marian.py, export/importers/argos.py).

Tokenizers: a SentencePiece unigram model becomes a `tokenizers` Unigram model in attn's id space
(pieces with the SentencePiece scores, its normalization rules, "▁" word starts), so the runtime
needs neither sentencepiece nor torch. Pieces a side's model does not have (the other language's,
and the special tokens) keep their ids under an UNMATCHABLE prefix: never cut from a text, as
SentencePiece never cuts them.
"""

from __future__ import annotations

import shutil
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from attn.runtime.constants import SPECIAL_TOKENS, UNK
from attn.runtime.errors import UsageError
from attn.runtime.tokenizer import METASPACE_WORD_START, UNMATCHABLE

from attn.export.config import Config
from attn.export.graphs.onnx_export import export_model
from attn.export.models.transformer import Transformer

NEVER = -1e9  # the output bias of a row no output may hold (attn's added pad): e^-1e9 is 0
UNIGRAM, NORMAL, USER_DEFINED = 1, 1, 4  # sentencepiece_model.proto: TrainerSpec.model_type, SentencePiece.type


class CheckpointError(UsageError):
    """A model attn cannot convert; the message names the file or key."""


@dataclass(frozen=True)
class Converted:
    """A foreign model in attn's terms: the Transformer (eval mode), its pieces by attn id, the
    settings of its folder ([task] languages, [model], [search]), the SentencePiece models of its
    source and target sides, and what the manifest's `training` block records of its origin."""

    model: Transformer
    pieces: list[str]
    settings: Config
    source_spm: bytes
    target_spm: bytes
    origin: dict


class Importer(ABC):
    """One foreign format. `convert` reads a checkpoint; `write` is the import every format
    shares: tokenizers, ONNX export checked against the converted PyTorch model, the folder
    written whole or not at all."""

    kind: str  # "a folder" or "a file": what `convert` reads
    expected: str  # what the checkpoint is, for the error when it is not there

    @abstractmethod
    def convert(self, checkpoint: Path, source_lang: str | None, target_lang: str | None,
                alignment_layer: int) -> Converted:
        """The checkpoint as attn's Transformer; a CheckpointError names what cannot be converted."""

    def write(self, checkpoint: Path, out: Path, source_lang: str | None, target_lang: str | None,
              alignment_layer: int) -> dict:
        """Convert `checkpoint` into the verified model folder `out`; returns its summary."""
        found = checkpoint.is_dir() if self.kind == "a folder" else checkpoint.is_file()
        if not found:
            raise CheckpointError(f"{checkpoint}: not {self.kind} ({self.expected} is expected)")
        return write_imported(self.convert(checkpoint, source_lang, target_lang, alignment_layer), out)


def write_imported(converted: Converted, out: Path) -> dict:
    """Export the converted model with tokenizers made from its SentencePiece models into the
    verified folder `out`; returns a summary."""
    model, pieces, settings = converted.model, converted.pieces, converted.settings
    scratch = Path(tempfile.mkdtemp(prefix=f".{out.name}.tokenizers-", dir=out.resolve().parent))
    try:
        target_file, source_file = scratch / "tokenizer.json", scratch / "source_tokenizer.json"
        unigram_tokenizer(converted.target_spm, "the target's SentencePiece model", pieces, writes=True).save(str(target_file))
        unigram_tokenizer(converted.source_spm, "the source's SentencePiece model", pieces, writes=False).save(str(source_file))
        largest = export_model(model, settings, target_file, out, converted.origin, source_tokenizer_file=source_file)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"pieces": len(pieces), "parameters": sum(p.numel() for p in model.parameters()), "max_onnx_difference": largest,
            "source_lang": settings.task.source_lang, "target_lang": settings.task.target_lang}


def read_spm(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CheckpointError(f"{path}: missing") from None


def unigram_tokenizer(spm: bytes, where: str, pieces: list[str], writes: bool):
    """A `tokenizers` Tokenizer that cuts text as the SentencePiece unigram model `spm` does,
    giving each piece its index in `pieces` (attn's ids). A source tokenizer (`writes` false) holds
    the pieces the model lacks as UNMATCHABLE; the target's (`writes`) spells every piece, since the
    decoder may write any, and scores the other side's below all of its own."""
    from sentencepiece import sentencepiece_model_pb2
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers

    proto = sentencepiece_model_pb2.ModelProto()
    try:
        proto.ParseFromString(spm)
    except Exception as error:  # protobuf's DecodeError
        raise CheckpointError(f"{where}: not a SentencePiece model ({error})") from None
    if proto.trainer_spec.model_type != UNIGRAM:
        raise CheckpointError(f"{where}: a SentencePiece model of type {proto.trainer_spec.model_type}; attn imports unigram models")
    scores = {piece.piece: piece.score for piece in proto.pieces if piece.type in (NORMAL, USER_DEFINED)}
    entries = [(UNMATCHABLE + token, 0.0) for token in SPECIAL_TOKENS]
    if writes:  # the model may write any piece: each keeps its spelling, the other side's least likely
        least = min(scores.values(), default=0.0) - 10.0
        entries += [(piece, scores.get(piece, least)) for piece in pieces[len(SPECIAL_TOKENS):]]
    else:
        entries += [(piece, scores[piece]) if piece in scores else (UNMATCHABLE + piece, 0.0)
                    for piece in pieces[len(SPECIAL_TOKENS):]]
    tokenizer = Tokenizer(models.Unigram(entries, unk_id=UNK, byte_fallback=False))
    spec = proto.normalizer_spec
    steps = [normalizers.Precompiled(spec.precompiled_charsmap)] if spec.precompiled_charsmap else []
    if spec.remove_extra_whitespaces:
        steps += [normalizers.Strip(left=False, right=True), normalizers.Replace(Regex(" {2,}"), " ")]
    tokenizer.normalizer = normalizers.Sequence(steps)
    prepend = "always" if spec.add_dummy_prefix else "never"
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE_WORD_START, prepend_scheme=prepend)
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE_WORD_START, prepend_scheme=prepend)
    return tokenizer
