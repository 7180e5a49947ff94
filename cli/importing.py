"""`attn import`: models trained elsewhere as attn model folders (export/importers/marian.py,
export/importers/argos.py); PyTorch, sentencepiece and safetensors are imported only inside the command
(`pip install 'attn[import]'`)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.export.importers import ALIGNMENT_LAYER
from attn.runtime.errors import UsageError

from .options import OutFolderOption, messages_console


class Origin(str, Enum):
    marian = "marian"
    argos = "argos"


def import_command(
    origin: Annotated[
        Origin,
        typer.Argument(
            help="What the checkpoint is: marian (a Hugging Face MarianMT folder, e.g. Helsinki-NLP/opus-mt-en-de) or argos (an Argos Translate .argosmodel package)."
        ),
    ],
    checkpoint: Annotated[
        Path,
        typer.Argument(
            help="marian: the folder (config.json, model.safetensors or pytorch_model.bin, source.spm, target.spm, vocab.json); argos: the .argosmodel file."
        ),
    ],
    out: OutFolderOption("The model folder to write"),
    source_lang: Annotated[
        Optional[str],
        typer.Option(
            "--from",
            "-s",
            help="Source language code (default: marian, from tokenizer_config.json or an opus-mt-xx-yy folder name; argos, from metadata.json).",
        ),
    ] = None,
    target_lang: Annotated[
        Optional[str], typer.Option("--to", "-t", help="Target language code (default: as --from).")
    ] = None,
    alignment_layer: Annotated[
        int,
        typer.Option(
            "--alignment-layer",
            help="The decoder layer whose encoder-decoder attention, heads averaged, gives the alignments (negative: from the top).",
        ),
    ] = ALIGNMENT_LAYER,
    source_eos: Annotated[
        Optional[bool],
        typer.Option(
            "--source-eos/--no-source-eos",
            help="argos: whether the model read its sources with </s> at the end (default: its config.json's add_source_eos; Argos packages read them without).",
        ),
    ] = None,
) -> None:
    """Convert a model trained elsewhere into an attn model folder: ONNX graphs checked against
    PyTorch, tokenizers the runtime reads without sentencepiece. Use it with --model."""
    if origin is Origin.marian:
        from attn.export.importers.marian import MarianImporter

        if source_eos is not None:
            raise UsageError("--source-eos/--no-source-eos applies to argos packages (a Marian model reads </s>)")
        importer = MarianImporter()
    else:
        from attn.export.importers.argos import ArgosImporter

        importer = ArgosImporter(source_eos)
    summary = importer.write(checkpoint, out, source_lang, target_lang, alignment_layer)
    messages_console().print(
        f"wrote {out}: {summary['source_lang']}→{summary['target_lang']}, {summary['pieces']:,} pieces, "
        f"{summary['parameters']:,} parameters, largest onnxruntime-PyTorch difference {summary['max_onnx_difference']:.1e}"
    )
