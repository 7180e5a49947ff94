"""The `attn` command: a Typer app whose errors become one line on stderr and an exit code.

Exit codes: 0 success, 1 unexpected failure, 2 bad usage / config / model folder, 130 interrupted.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import sys
from collections.abc import Callable
from typing import Annotated

import typer

from attn.cli.signals import INTERRUPTED_EXIT_CODE, TERMINATED_EXIT_CODE, Terminated, terminate_as_interrupt
from attn.runtime.errors import UsageError

# Each command's module and function, imported only when that command runs (or all of them, for
# `attn --help`): a translation's cold start pays neither the other commands' imports nor Typer's
# reading of their signatures (docs/studies/SPEED-HISTORY.md, cold start).
COMMANDS = {
    "translate": ("translate", "translate_command"),
    "summarize": ("summarize", "summarize_command"),
    "align": ("translate", "align_command"),
    "eval": ("evaluate", "eval_command"),
    "models": ("models_list", "models_app"),
    "bench": ("bench", "bench_command"),
    "serve": ("serve", "serve_command"),
    "translate-corpus": ("corpus", "translate_corpus_command"),
    "train": ("training", "train_command"),
    "export": ("training", "export_command"),
    "quantize": ("training", "quantize_command"),
    "shortlist": ("training", "shortlist_command"),
    "target-words": ("training", "target_words_command"),
    "language-words": ("training", "language_words_command"),
    "import": ("importing", "import_command"),
}

app = typer.Typer(
    name="attn",
    help="Translate and summarize with attention encoder-decoders, decoded by onnxruntime.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)

# Errors in what the user asked for or handed in: one line, exit 2. Files the user named that
# cannot be opened count among them.
USAGE_ERRORS = (UsageError, FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)
DEBUG = "ATTN_DEBUG"  # ATTN_DEBUG=1: internal failures show their traceback


def guarded(command: Callable) -> Callable:
    """Run a command with its failures turned into one line on stderr and an exit code, before
    Typer's own handlers see them (Typer exits 1 on a closed pipe and prints nothing on Ctrl-C)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        if sys.stdout is None:  # started with stdout closed (`>&-`): the results would go nowhere
            _fail("standard output is closed: redirect it to a file or to /dev/null", 2)
        try:
            result = command(*args, **kwargs)
            sys.stdout.flush()  # a closed pipe shows here, in the command, not at the interpreter's exit
            return result
        except (typer.Exit, typer.Abort, ClickException):
            raise
        except Terminated:
            print("attn: terminated", file=sys.stderr)
            raise typer.Exit(TERMINATED_EXIT_CODE) from None
        except KeyboardInterrupt:
            print("attn: interrupted", file=sys.stderr)
            raise typer.Exit(INTERRUPTED_EXIT_CODE) from None
        except BrokenPipeError:
            # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except SystemExit as error:
            # Rich meets a closed pipe by pointing stdout at /dev/null and exiting 1 (Console.on_broken_pipe)
            if error.code == 1 and _stdout_is_devnull():
                raise typer.Exit(0) from None
            raise
        except ModuleNotFoundError as error:  # an optional dependency of train/export/eval/plot
            _fail(
                f"this command needs the Python package {error.name!r}: pip install 'attn[train]' "
                f"(training, export), 'attn[import]' (import, models install) or 'attn[eval]' (eval)",
                2,
            )
        except USAGE_ERRORS as error:
            _fail(_message(error), 2)
        except MemoryError:
            _fail("out of memory", 1)
        except OSError as error:  # a full disk, an unwritable folder: say so, no traceback
            _fail(_message(error), 1)
        except Exception as error:
            if os.environ.get(DEBUG):
                raise
            _fail(f"internal error: {type(error).__name__}: {_one_line(error)} (ATTN_DEBUG=1 shows the traceback)", 1)

    return run


def _version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version

        print(f"attn {version('attn')}")
        raise typer.Exit(0)


@app.callback()
def _group(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print attn's version and exit.")
    ] = False,
) -> None:
    """Translate and summarize with attention encoder-decoders, decoded by onnxruntime."""


def register(names) -> None:
    """Add the commands `names` to the app, importing their modules."""
    for name in names:
        module, function = COMMANDS[name]
        command = getattr(importlib.import_module(f"{__package__}.{module}"), function)
        if isinstance(command, typer.Typer):  # a command of subcommands (`attn models install`)
            app.add_typer(command, name=name)
        else:
            app.command(name)(guarded(command))


# Typer raises click's exception classes, which newer Typer releases vendor: take them from Typer.
ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
NoSuchOption = importlib.import_module(ClickException.__module__).NoSuchOption
ClickUsageError = importlib.import_module(ClickException.__module__).UsageError
# `attn` alone, whose help click raises as a usage error (click 8.2 and later; none before)
NoArgsIsHelpError = getattr(importlib.import_module(ClickException.__module__), "NoArgsIsHelpError", ())


# Commands whose process ends when they return (plain decoding): it exits without the
# interpreter's teardown, which frees modules and onnxruntime's sessions one by one, about 30 ms of
# a cold start that the operating system does at once (SPEED-HISTORY.md, "Cold start: checksums
# remembered, no teardown").
ONE_SHOT = ("translate", "summarize", "align")


def run_command() -> int:
    """Run the command of sys.argv; its exit code."""
    named = sys.argv[1] if len(sys.argv) > 1 else ""
    register([named] if named in COMMANDS else COMMANDS)
    try:
        with terminate_as_interrupt():
            result = app(standalone_mode=False, prog_name="attn")
    except typer.Exit as exit_:
        return exit_.exit_code
    except NoArgsIsHelpError as error:  # `attn` alone: its help
        error.show()
        return error.exit_code
    except ClickUsageError as error:  # an unknown option, a bad value: one line, as attn's own errors
        if isinstance(error, NoSuchOption) and error.option_name in ("--json", "--jsonl"):
            error.possibilities = ["--format jsonl"]  # click had offered "--to"
        help_with = f" (see '{error.ctx.command_path} --help')" if error.ctx is not None else ""
        print(f"attn: error: {_one_line(error.format_message())}{help_with}", file=sys.stderr)
        if isinstance(error, NoSuchOption) and any(text_as_option(argument) for argument in sys.argv[2:]):
            print("attn: a text that starts with '-' is read as an option: put -- before it", file=sys.stderr)
        return error.exit_code
    except ClickException as error:
        error.show()
        return error.exit_code
    except typer.Abort as abort:
        if isinstance(abort.__cause__, Terminated):
            print("attn: terminated", file=sys.stderr)
            return TERMINATED_EXIT_CODE
        print("attn: interrupted", file=sys.stderr)
        return INTERRUPTED_EXIT_CODE
    return result if isinstance(result, int) else 0


def text_as_option(argument: str) -> bool:
    """Whether a command-line `argument` read as an option is text: a list's line pasted ("- Operating
    temperature: 0-35°C"), which no option's name holds a space of."""
    return argument.startswith("-") and any(character.isspace() for character in argument)


def main() -> None:
    code = run_command()
    if sys.argv[1:2] and sys.argv[1] in ONE_SHOT:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed or vanished stream: nothing more to say
                stream.flush()
        if "logging" in sys.modules:  # the one exit handler such a process may have beside the thread pools' joins
            sys.modules["logging"].shutdown()
        os._exit(code)
    sys.exit(code)


def _stdout_is_devnull() -> bool:
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.stat(os.devnull))
    except (OSError, ValueError):
        return False


def _fail(message: str, code: int):
    print(f"attn: error: {message}", file=sys.stderr)
    raise typer.Exit(code) from None


def _message(error: BaseException) -> str:
    """One line; an OSError as "FILE: reason" rather than Python's "[Errno N] reason: 'FILE'"."""
    if isinstance(error, OSError) and error.strerror:
        files = " → ".join(str(name) for name in (error.filename, error.filename2) if name is not None)
        return f"{files}: {error.strerror}" if files else error.strerror
    return _one_line(error)


def _one_line(error: BaseException | str) -> str:
    return " ".join(str(error).split()) or type(error).__name__
