"""The `attn` command's entry point. Ctrl-C while the command's modules load (Typer, onnxruntime,
tokenizers: its first half second) ends it as Ctrl-C ends a command later on (cli/app.py
`guarded`): `attn: interrupted` on stderr and exit 130, not a traceback."""

from __future__ import annotations

import sys

from attn.cli.signals import INTERRUPTED_EXIT_CODE


def main() -> None:
    try:
        from attn.cli.app import main as run_attn

        run_attn()
    except KeyboardInterrupt:
        print("attn: interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED_EXIT_CODE)
