"""`attn models install`, `attn models available` and `attn models remove`: public models (OPUS-MT
on the Hugging Face Hub, Argos Translate's index) downloaded, converted and placed where
`attn translate --from --to` and `attn serve` find them (export/install)."""

from __future__ import annotations

import time
from typing import Annotated, Optional

import typer

from attn.export.install.sources import ARGOS_INDEX_VARIABLE, DEFAULT_SOURCE, SOURCES
from attn.runtime.manifest import read_manifest
from attn.runtime.sessions import warn_on_stderr

from .listing import ListFormatOption, check_list_format, print_json, print_rows
from .options import messages_console

INDEX_HELP = f"Argos's package index: a URL or a file (default: ${ARGOS_INDEX_VARIABLE}, else Argos's own)."
AVAILABLE_COLUMNS = ("name", "from", "to", "version")


def install_command(
    names: Annotated[
        list[str],
        typer.Argument(
            help=f"SOURCE:FROM-TO (sources: {', '.join(SOURCES)}), FROM-TO (from {DEFAULT_SOURCE}), "
            "or a Hugging Face repository ORG/NAME holding a Marian checkpoint."
        ),
    ],
    int8: Annotated[bool, typer.Option("--int8", help="Quantize to int8: about 4× smaller, faster.")] = False,
    index: Annotated[Optional[str], typer.Option("--index", help=INDEX_HELP)] = None,
) -> None:
    """Download, verify and convert public models; `attn translate --from --to` and `attn serve`
    then use them. An interrupted download resumes when the command is run again."""
    for name in names:
        install_named(name, int8, index)


def install_named(name: str, int8: bool = False, index: str | None = None) -> None:
    """Install the model `name` (a no-op when it is installed), saying what was done on stderr."""
    from attn.export.install.installer import install, installed_as
    from attn.export.install.sources import find, hub_session, wanted

    console = messages_console()
    asked = wanted(name)
    there = installed_as(asked.folder, asked.name)
    if there is not None:  # known without the network
        precision = read_manifest(there, verify_checksums=False).precision
        again = (
            f" in {precision}; `attn models remove {asked.name}` first to install it in int8"
            if int8 and precision != "int8"
            else ""
        )
        console.print(f"{asked.name} is installed: {there}{again}", highlight=False)
        return
    session = hub_session()
    package = find(name, session, index)
    started = time.perf_counter()
    installed = install(package, session, int8)
    if not installed.new:
        console.print(f"{package.name} is installed: {installed.folder}", highlight=False)
        return
    size = sum(path.stat().st_size for path in installed.folder.iterdir())
    console.print(
        f"installed {package.name} as {installed.folder.name} ({size / 1e6:.1f} MB, licence "
        f"{package.licence or 'unknown: see ' + (package.page or 'its source')}) in "
        f"{time.perf_counter() - started:.0f} s: {installed.folder}",
        highlight=False,
    )


def available_command(
    source: Annotated[
        Optional[str], typer.Option("--source", help=f"Only this source's models: {', '.join(SOURCES)}.")
    ] = None,
    index: Annotated[Optional[str], typer.Option("--index", help=INDEX_HELP)] = None,
    output_format: ListFormatOption = "table",
) -> None:
    """List the public models `attn models install` can install."""
    from attn.export.install.sources import available, hub_session

    if source is not None and source not in SOURCES:
        raise typer.BadParameter(f"choose from {', '.join(SOURCES)}", param_hint="--source")
    check_list_format(output_format)
    packages = available(hub_session(), (source,) if source else SOURCES, index, warn_on_stderr)
    rows = [[package.name, package.source_lang, package.target_lang, package.version] for package in packages]
    if output_format == "json":
        print_json([dict(zip(AVAILABLE_COLUMNS, row)) for row in rows])
    else:
        print_rows(AVAILABLE_COLUMNS, rows)


def remove_command(
    names: Annotated[list[str], typer.Argument(help="Installed models, by folder name or install name.")],
) -> None:
    """Delete models `attn models install` installed (never a shipped one)."""
    from attn.export.install.installer import remove

    for name in names:
        messages_console().print(f"removed {remove(name)}", highlight=False)
