"""What every `attn import` shares: the interface of an importer (`Importer`: read a foreign
checkpoint as attn's Transformer, its pieces and its settings; a new format is a subclass), the
tokenizers made from SentencePiece models, and the export of the converted Transformer with them,
verified against PyTorch (export/importers/marian.py, export/importers/argos.py).

Tokenizers: a SentencePiece unigram model becomes a `tokenizers` Unigram model in attn's id space
(pieces with the SentencePiece scores, its normalization rules, "▁" word starts), so the runtime
needs neither sentencepiece nor torch. Pieces a side's model does not have (the other language's,
and the special tokens) keep their ids under an UNMATCHABLE prefix: never cut from a text, as
SentencePiece never cuts them.

An importer checks everything it can before PyTorch is loaded (config, sizes, vocabulary,
languages, SentencePiece models): a checkpoint attn refuses is refused in a moment, not after the
seconds PyTorch takes to start.
"""

from __future__ import annotations

import dataclasses
import math
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from attn.export.config import Config, ModelConfig
from attn.export.graphs.staging import STAGING, check_replaceable
from attn.runtime.constants import SOURCE_TOKENIZER, SPECIAL_TOKENS, TOKENIZER, UNK
from attn.runtime.errors import UsageError
from attn.runtime.manifest import LANGUAGE
from attn.runtime.tokenizer import METASPACE_WORD_START, UNMATCHABLE

if TYPE_CHECKING:
    from sentencepiece.sentencepiece_model_pb2 import ModelProto

    from attn.export.models.transformer import Transformer

NEVER = -1e9  # the output bias of a row no output may hold (attn's added pad): e^-1e9 is 0
UNIGRAM, NORMAL, USER_DEFINED = 1, 1, 4  # sentencepiece_model.proto: TrainerSpec.model_type, SentencePiece.type


class CheckpointError(UsageError):
    """A model attn cannot convert; the message names the file or key."""


@dataclass(frozen=True)
class Converted:
    """A foreign model in attn's terms: the Transformer (eval mode), its pieces by attn id, the
    settings of its folder ([task] languages, [model], [search]), the SentencePiece models of its
    source and target sides (checked_sentencepiece), and what the manifest's `training` block
    records of its origin."""

    model: Transformer
    pieces: list[str]
    settings: Config
    source_spm: ModelProto
    target_spm: ModelProto
    origin: dict


class Importer(ABC):
    """One foreign format. `convert` reads a checkpoint; `write` is the import every format
    shares: tokenizers, ONNX export checked against the converted PyTorch model, the folder
    written whole or not at all."""

    kind: str  # "a folder" or "a file": what `convert` reads
    expected: str  # what the checkpoint is, for the error when it is not there

    @abstractmethod
    def convert(
        self, checkpoint: Path, source_lang: str | None, target_lang: str | None, alignment_layer: int
    ) -> Converted:
        """The checkpoint as attn's Transformer; a CheckpointError names what cannot be converted,
        found before PyTorch is loaded where the weights are not needed to find it."""

    def write(
        self,
        checkpoint: Path,
        out: Path,
        source_lang: str | None,
        target_lang: str | None,
        alignment_layer: int,
        provenance: dict | None = None,
    ) -> dict:
        """Convert `checkpoint` into the verified model folder `out`; returns its summary.
        `provenance` (where it was installed from) joins the origin in the manifest's `training`
        block. A checkpoint whose parts contradict each other (a shape, a count, a key of the
        wrong kind) is a CheckpointError naming it, whichever reader found out."""
        found = checkpoint.is_dir() if self.kind == "a folder" else checkpoint.is_file()
        if not found:
            raise CheckpointError(f"{checkpoint}: not {self.kind} ({self.expected} is expected)")
        check_replaceable(out)  # before the weights are read: a large model takes minutes to convert
        try:
            converted = self.convert(checkpoint, source_lang, target_lang, alignment_layer)
        except UsageError:
            raise
        except DAMAGED as error:
            raise CheckpointError(
                f"{checkpoint}: damaged or not of the kind attn converts "
                f"({type(error).__name__}: {' '.join(str(error).split())[:200]})"
            ) from None
        if provenance:
            converted = dataclasses.replace(converted, origin=converted.origin | provenance)
        return write_imported(converted, out, checkpoint)


# What the readers of a hand-made or damaged checkpoint raise on contradictions (the probe's list).
DAMAGED = (
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    ZeroDivisionError,
    RecursionError,
    AttributeError,
    zipfile.BadZipFile,
    RuntimeError,
    OverflowError,
)
# Sizes an importer checks before it allocates anything: a checkpoint that declares more is refused.
LARGEST = {
    "embedding_size": 8192,
    "encoder_layers": 64,
    "decoder_layers": 64,
    "heads": 64,
    "feedforward_size": 65536,
    "position_table_size": 1 << 16,
    "vocab_size": 1 << 20,
}
LARGEST_PARAMETERS = 1 << 30  # about 4.3 GB in fp32, several times the largest OPUS-MT models
LEAST_POSITIONS = 16  # rows of a stored position table: a sentence of a few pieces and its end


def checked_size(settings: ModelConfig, vocab_size: int, where: str) -> ModelConfig:
    """`settings` when every size is positive and within LARGEST and the heads divide the width;
    else a CheckpointError naming the size (before any weight is allocated)."""
    sizes = {key: getattr(settings, key) for key in LARGEST if key != "vocab_size"} | {"vocab_size": vocab_size}
    for key, value in sizes.items():
        least = 0 if key == "position_table_size" else 1
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= LARGEST[key]:
            raise CheckpointError(
                f"{where}: {key} {value!r} is outside what attn converts ({least} to {LARGEST[key]:,})"
            )
    if settings.embedding_size % settings.heads:
        raise CheckpointError(f"{where}: {settings.heads} heads do not divide the width {settings.embedding_size}")
    if settings.position_table_size and settings.position_table_size < LEAST_POSITIONS:
        raise CheckpointError(
            f"{where}: a position table of {settings.position_table_size} rows (a model reads at least {LEAST_POSITIONS})"
        )
    parameters = parameter_count(settings, vocab_size)
    if parameters > LARGEST_PARAMETERS:  # each size within bounds, together hundreds of GB
        raise CheckpointError(f"{where}: {parameters:,} parameters, more than attn converts ({LARGEST_PARAMETERS:,})")
    return settings


def checked_pair(source: str | None, target: str | None, unknown: str) -> tuple[str, str]:
    """The pair (source, target) when both are language codes a model folder may hold and they
    differ; else a CheckpointError (`unknown`: the message when either is not known)."""
    if not source or not target:
        raise CheckpointError(unknown)
    for side, code in (("source", source), ("target", target)):
        if not LANGUAGE.fullmatch(code):
            raise CheckpointError(f"the {side} language {code!r} is not a language code (such as en or pt_BR)")
    if source == target:
        raise CheckpointError(f"--from and --to are both {source}")
    return source, target


def parameter_count(settings: ModelConfig, vocab_size: int) -> int:
    """About how many parameters a Transformer of these sizes holds (its matrices: one embedding,
    the position table, each layer's attention and feed-forward products)."""
    width, feedforward = settings.embedding_size, settings.feedforward_size
    encoder_layer = 4 * width * width + 2 * width * feedforward
    decoder_layer = 8 * width * width + 2 * width * feedforward
    return (
        (vocab_size + settings.position_table_size) * width
        + settings.encoder_layers * encoder_layer
        + settings.decoder_layers * decoder_layer
    )


def write_imported(converted: Converted, out: Path, checkpoint: Path) -> dict:
    """Export the converted model with tokenizers made from its SentencePiece models into the
    verified folder `out`; returns a summary. A model that gives non-finite values, or a folder
    the runtime refuses, is a CheckpointError naming `checkpoint`."""
    from attn.export.graphs.onnx_export import ExportError, export_model

    model, pieces, settings = converted.model, converted.pieces, converted.settings
    check_replaceable(out)  # still replaceable, before anything is made beside it (`--out /` made a folder in / first)
    out.resolve().parent.mkdir(parents=True, exist_ok=True)  # as `attn export` makes its --out's parents
    try:  # named as a staging folder of this process: a later run sweeps it if this one is killed
        scratch = Path(
            tempfile.mkdtemp(prefix=f".{out.name}.{STAGING}-{os.getpid()}-tokenizers-", dir=out.resolve().parent)
        )
    except OSError as error:
        raise UsageError(f"--out {out}: cannot write beside it ({error.strerror})") from None
    try:
        target_file, source_file = scratch / TOKENIZER, scratch / SOURCE_TOKENIZER
        unigram_tokenizer(converted.target_spm, pieces, writes=True).save(str(target_file))
        unigram_tokenizer(converted.source_spm, pieces, writes=False).save(str(source_file))
        largest = export_model(model, settings, target_file, out, converted.origin, source_tokenizer_file=source_file)
    except ExportError as error:
        raise CheckpointError(f"{checkpoint}: {error}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "pieces": len(pieces),
        "parameters": sum(p.numel() for p in model.parameters()),
        "max_onnx_difference": largest,
        "source_lang": settings.task.source_lang,
        "target_lang": settings.task.target_lang,
    }


LARGEST_PART = 256 << 20  # bytes of a config, vocabulary or SentencePiece model an import reads


def read_part(path: Path, limit: int = LARGEST_PART) -> bytes:
    """A checkpoint's file, when it is a regular file of at most `limit` bytes (a FIFO would hang
    the read and /dev/zero fill the memory); else a CheckpointError naming it."""
    if not path.exists():
        raise CheckpointError(f"{path}: missing")
    if not path.is_file():
        raise CheckpointError(f"{path}: not a regular file")
    if path.stat().st_size > limit:
        raise CheckpointError(f"{path}: {path.stat().st_size:,} bytes, more than such a file holds ({limit:,})")
    return path.read_bytes()


def checked_sentencepiece(spm: bytes, where: str) -> ModelProto:
    """The SentencePiece model `spm` parsed, when it is a unigram model with pieces, finite scores
    and a normalization table that can be read; else a CheckpointError naming `where`."""
    from sentencepiece import sentencepiece_model_pb2

    proto = sentencepiece_model_pb2.ModelProto()
    try:
        proto.ParseFromString(spm)
    except Exception as error:  # protobuf's DecodeError
        raise CheckpointError(f"{where}: not a SentencePiece model ({error})") from None
    if proto.trainer_spec.model_type != UNIGRAM:
        raise CheckpointError(
            f"{where}: a SentencePiece model of type {proto.trainer_spec.model_type}; attn imports unigram models"
        )
    scores = piece_scores(proto)
    if not scores:
        raise CheckpointError(f"{where}: holds no pieces (every word would be unknown)")
    if not all(math.isfinite(score) for score in scores.values()):
        raise CheckpointError(f"{where}: a piece's score is not a finite number")
    if proto.normalizer_spec.precompiled_charsmap:
        check_charsmap(proto.normalizer_spec.precompiled_charsmap, where)
    return proto


def piece_scores(proto: ModelProto) -> dict[str, float]:
    """The score of each piece a SentencePiece model cuts text into (its normal and user-defined pieces)."""
    return {piece.piece: piece.score for piece in proto.pieces if piece.type in (NORMAL, USER_DEFINED)}


def unigram_tokenizer(proto: ModelProto, pieces: list[str], writes: bool):
    """A `tokenizers` Tokenizer that cuts text as the SentencePiece unigram model `proto`
    (checked_sentencepiece) does, giving each piece its index in `pieces` (attn's ids). A source
    tokenizer (`writes` false) holds the pieces the model lacks as UNMATCHABLE; the target's
    (`writes`) spells every piece, since the decoder may write any, and scores the other side's
    below all of its own."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers

    scores = piece_scores(proto)
    entries = [(UNMATCHABLE + token, 0.0) for token in SPECIAL_TOKENS]
    if writes:  # the model may write any piece: each keeps its spelling, the other side's least likely
        least = min(scores.values(), default=0.0) - 10.0
        entries += [(piece, scores.get(piece, least)) for piece in pieces[len(SPECIAL_TOKENS) :]]
    else:
        entries += [
            (piece, scores[piece]) if piece in scores else (UNMATCHABLE + piece, 0.0)
            for piece in pieces[len(SPECIAL_TOKENS) :]
        ]
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


def check_charsmap(charsmap: bytes, where: str) -> None:
    """The normalization table is read first in a child process: a damaged one makes the
    tokenizers library abort the process it runs in (a Rust panic), which must not be ours."""
    trial = (
        "import sys\nfrom tokenizers import normalizers\n"
        "normalizers.Precompiled(sys.stdin.buffer.read()).normalize_str('Abc 123 é')"
    )
    try:
        result = subprocess.run([sys.executable, "-c", trial], input=charsmap, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise CheckpointError(f"{where}: its normalization table (precompiled_charsmap) cannot be read") from None
    if result.returncode != 0:
        raise CheckpointError(f"{where}: its normalization table (precompiled_charsmap) is damaged")
