"""The `attn` command: a Typer app whose errors become one line on stderr and an exit code.

Exit codes: 0 success, 1 unexpected failure, 2 bad usage / config / model folder, 130 interrupted.
"""

from __future__ import annotations

import os
import sys

import typer

from attn.runtime.manifest import ModelFolderError

from .bench import bench_command
from .evaluate import eval_command
from .models_list import models_command
from .summarize import summarize_command
from .training import export_command, quantize_command, train_command
from .translate import align_command, translate_command

app = typer.Typer(
    name="attn",
    help="Translate and summarize with attention encoder-decoders, decoded by onnxruntime.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("translate")(translate_command)
app.command("summarize")(summarize_command)
app.command("align")(align_command)
app.command("eval")(eval_command)
app.command("models")(models_command)
app.command("bench")(bench_command)
app.command("train")(train_command)
app.command("export")(export_command)
app.command("quantize")(quantize_command)

USAGE_ERRORS = (ModelFolderError, ValueError, FileNotFoundError, PermissionError, IsADirectoryError)
# Typer raises click's exception classes, which newer Typer releases vendor: take them from Typer.
ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def main() -> None:
    try:
        result = app(standalone_mode=False)
    except typer.Exit as exit_:
        sys.exit(exit_.exit_code)
    except ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("attn: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except ModuleNotFoundError as error:  # an optional dependency of train/export/eval
        print(f"attn: error: this command needs the Python package {error.name!r}: "
              f"pip install 'attn[train]' (training, export) or 'attn[eval]' (eval)", file=sys.stderr)
        sys.exit(2)
    except USAGE_ERRORS as error:
        print(f"attn: error: {_one_line(error)}", file=sys.stderr)
        sys.exit(2)
    except OSError as error:  # a full disk, an unwritable folder: say so, no traceback
        print(f"attn: error: {_one_line(error)}", file=sys.stderr)
        sys.exit(1)
    sys.exit(result if isinstance(result, int) else 0)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
