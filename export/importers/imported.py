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

from attn.export.config import Config, ModelConfig
from attn.export.graphs.onnx_export import ExportError, export_model
from attn.export.graphs.staging import STAGING, check_replaceable
from attn.export.models.transformer import Transformer
from attn.runtime.constants import SPECIAL_TOKENS, UNK
from attn.runtime.errors import UsageError
from attn.runtime.tokenizer import METASPACE_WORD_START, UNMATCHABLE

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
    def convert(
        self, checkpoint: Path, source_lang: str | None, target_lang: str | None, alignment_layer: int
    ) -> Converted:
        """The checkpoint as attn's Transformer; a CheckpointError names what cannot be converted."""

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
        try:
            return write_imported(converted, out)
        except ExportError as error:  # a model that gives non-finite values, a folder the runtime refuses
            raise CheckpointError(f"{checkpoint}: {error}") from None


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


def write_imported(converted: Converted, out: Path) -> dict:
    """Export the converted model with tokenizers made from its SentencePiece models into the
    verified folder `out`; returns a summary."""
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
        target_file, source_file = scratch / "tokenizer.json", scratch / "source_tokenizer.json"
        unigram_tokenizer(converted.target_spm, "the target's SentencePiece model", pieces, writes=True).save(
            str(target_file)
        )
        unigram_tokenizer(converted.source_spm, "the source's SentencePiece model", pieces, writes=False).save(
            str(source_file)
        )
        largest = export_model(model, settings, target_file, out, converted.origin, source_tokenizer_file=source_file)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "pieces": len(pieces),
        "parameters": sum(p.numel() for p in model.parameters()),
        "max_onnx_difference": largest,
        "source_lang": settings.task.source_lang,
        "target_lang": settings.task.target_lang,
    }


def read_spm(path: Path) -> bytes:
    return read_part(path)


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
        raise CheckpointError(
            f"{where}: a SentencePiece model of type {proto.trainer_spec.model_type}; attn imports unigram models"
        )
    scores = {piece.piece: piece.score for piece in proto.pieces if piece.type in (NORMAL, USER_DEFINED)}
    if not scores:
        raise CheckpointError(f"{where}: holds no pieces (every word would be unknown)")
    if not all(math.isfinite(score) for score in scores.values()):
        raise CheckpointError(f"{where}: a piece's score is not a finite number")
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
    if spec.precompiled_charsmap:
        check_charsmap(spec.precompiled_charsmap, where)
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
