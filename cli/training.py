"""`attn train`, `attn export`, `attn quantize` and `attn shortlist`: PyTorch is imported only inside these commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.runtime.constants import TOKENIZER

from .options import OutFolderOption, messages_console

ConfigArgument = Annotated[Path, typer.Argument(help="Training config (TOML); see configs/.")]
SetOption = Annotated[
    Optional[list[str]],
    typer.Option("--set", help="Override a config value: section.key=value (repeatable), e.g. --set model.copy=false."),
]
TrainDeviceOption = Annotated[
    Optional[str],
    typer.Option(
        "--device",
        help="Train on cpu or cuda (default: the config's [train] device; a GPU when one is visible). Checkpoints resume on either.",
    ),
]
WorkdirOption = Annotated[
    Optional[Path],
    typer.Option("--workdir", "-w", help="Run folder (checkpoints, tokenizer); default work/<config name>."),
]


def _workdir(config_path: Path, workdir: Path | None) -> Path:
    return workdir or Path("work") / config_path.stem


def _overrides(overrides: list[str] | None, device: str | None) -> list[str]:
    return [*(overrides or ()), *([f"train.device={device}"] if device is not None else [])]


def train_command(
    config: ConfigArgument, workdir: WorkdirOption = None, overrides: SetOption = None, device: TrainDeviceOption = None
) -> None:
    """Train (or resume) until the config's step limit or time budget, on every CPU core or a GPU."""
    from attn.export.config import load_config

    settings = load_config(config, _overrides(overrides, device))  # a config's mistakes before PyTorch loads
    from attn.export.training.train import Trainer

    console = messages_console()
    summary = Trainer(settings, _workdir(config, workdir), console).train()
    if not summary:  # a process of torchrun other than the main one
        return
    console.print(
        f"trained {summary['steps']} steps in {summary['train_minutes']} min; "
        f"best dev BLEU {summary['best_dev_bleu']} at step {summary['best_step']}"
    )


def export_command(
    config: ConfigArgument,
    out: OutFolderOption("Model folder to write"),
    workdir: WorkdirOption = None,
    average: Annotated[
        int,
        typer.Option(
            "--average", min=0, help="Export the mean of the last N kept checkpoints instead of the best one."
        ),
    ] = 0,
    train: Annotated[
        bool,
        typer.Option(
            "--train/--no-train", help="Train to the config's limits first, or export the checkpoints as they are."
        ),
    ] = True,
    blend: Annotated[
        Optional[Path],
        typer.Option(
            "--blend",
            help="An exported model folder of the same architecture and vocabulary (the one the run started "
            "from): export the mean of its weights and the run's, each half.",
        ),
    ] = None,
    overrides: SetOption = None,
    device: TrainDeviceOption = None,
) -> None:
    """Train (resuming; nothing to do when finished), then export the best checkpoint (or an
    average of the last ones, or that blended with a folder's weights) to ONNX, verified against
    PyTorch."""
    from attn.export.config import load_config
    from attn.export.graphs.staging import check_replaceable

    check_replaceable(out)  # a --out that will be refused is refused before any training
    settings = load_config(config, _overrides(overrides, device))  # and a config's mistakes before PyTorch loads
    from attn.export.graphs.lexicon import run_shortlist
    from attn.export.graphs.onnx_export import export_model
    from attn.export.training.train import Trainer, blended, check_exportable, chosen_weights

    console = messages_console()
    run = _workdir(config, workdir)
    if not train:
        check_exportable(run, average)
    trainer = Trainer(settings, run, console)
    summary = trainer.train() if train else trainer.recorded_summary()
    training = {k: v for k, v in summary.items() if k != "history"}
    weights, steps = chosen_weights(run, average)
    if average:
        training["averaged_steps"] = steps
    chosen = f"the mean of steps {', '.join(map(str, steps))}" if average else f"step {steps[0]}"
    if blend is not None:
        from attn.export.training.exported_weights import exported_weights

        weights = blended(weights, exported_weights(blend), blend)
        training["blended_with"] = blend.name
        chosen += f", blended half and half with {blend}"
    trainer.model.to("cpu").load_state_dict(weights)  # exported and verified on the CPU
    shortlist = run_shortlist(trainer.corpus, trainer.config.shortlist, console)
    largest = export_model(trainer.model, trainer.config, run / TOKENIZER, out, training, shortlist)
    console.print(f"exported {chosen} to {out}; onnxruntime vs PyTorch: max |difference| {largest:.2e}")


def CopyOutOption(holding: str):
    """The --out option of a command that writes a copy of a model folder holding `holding`."""
    return OutFolderOption(f"Folder for the copy with {holding}", "; may be MODEL")


def shortlist_command(
    config: ConfigArgument,
    model: Annotated[Path, typer.Argument(help="Exported model folder whose shortlist to learn again.")],
    out: CopyOutOption("the new shortlist"),
    overrides: SetOption = None,
) -> None:
    """Learn a model's target-vocabulary shortlist again, with the config's [shortlist] sizes on its
    training data, and write a copy of the model folder with it; the graphs stay as they are."""
    from attn.export.config import load_config
    from attn.export.graphs.shortlist_folder import write_with_shortlist

    console = messages_console()
    shortlist = write_with_shortlist(model, load_config(config, _overrides(overrides, None)), out, console)
    console.print(
        f"wrote {out}: {len(shortlist.frequent)} frequent pieces, "
        f"{shortlist.translations.shape[1]} translations per source piece"
    )


def target_words_command(
    config: ConfigArgument,
    model: Annotated[Path, typer.Argument(help="Exported summarization model folder.")],
    out: CopyOutOption("the words"),
    overrides: SetOption = None,
) -> None:
    """Write a copy of a summarizer's folder with the words of its training targets: its beam
    search then writes no word that is neither the document's nor one of them."""
    from attn.export.config import load_config
    from attn.export.graphs.word_lists import write_target_words

    words = write_target_words(model, load_config(config, _overrides(overrides, None)), out)
    messages_console().print(f"wrote {out}: {words:,} words of the training targets")


def language_words_command(
    config: ConfigArgument,
    model: Annotated[Path, typer.Argument(help="Exported translation model folder.")],
    out: CopyOutOption("the words"),
    languages: Annotated[
        Optional[list[str]],
        typer.Option(
            "--language",
            help="A language of the config's pair whose words to list (repeatable; default: both).",
        ),
    ] = None,
    overrides: SetOption = None,
) -> None:
    """Write a copy of a translation model's folder with the words of its training data in each
    language (words.LANGUAGE.txt): a name none of them holds is set aside where a translation lost
    it, and a source word the target's list lacks, left as it was, is searched again."""
    from attn.export.config import load_config
    from attn.export.graphs.word_lists import write_language_words

    counts = write_language_words(model, load_config(config, _overrides(overrides, None)), out, languages)
    messages_console().print(f"wrote {out}: " + ", ".join(f"{name} {count:,} words" for name, count in counts.items()))


def quantize_command(
    model: Annotated[Path, typer.Argument(help="Exported model folder.")],
    out: OutFolderOption("Folder for the int8 copy"),
    calibrate: Annotated[
        Optional[list[Path]],
        typer.Option(
            "--calibrate",
            help="A TSV corpus (source<TAB>target) whose sources calibrate fixed activation scales for "
            "the encoder (faster; each the largest value seen); a model that also translates "
            "back reads both columns; repeatable.",
        ),
    ] = None,
    swap_columns: Annotated[
        bool,
        typer.Option(
            "--swap-columns",
            help="Read the --calibrate files' second column as the source (a de→en model from en-de files).",
        ),
    ] = False,
) -> None:
    """Write an int8 (dynamic quantization) copy of an exported model folder."""
    from attn.export.graphs.calibrated_scales import calibration_sources
    from attn.export.graphs.quantize import quantize_folder
    from attn.runtime.manifest import read_manifest

    sizes = quantize_folder(
        model, out, calibration_sources(calibrate, read_manifest(model), swap_columns) if calibrate else None
    )
    messages_console().print("sizes (bytes): " + ", ".join(f"{k} {v:,}" for k, v in sizes.items()))
