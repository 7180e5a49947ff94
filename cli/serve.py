"""`attn serve`: the installed (or given) models over HTTP, LibreTranslate's API included
(cli/server/app.py). Needs the serve extra: pip install "attn[serve]"."""

from __future__ import annotations

import logging
import signal
import socket
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.runtime.constants import BATCH_SIZE
from attn.runtime.errors import UsageError
from attn.runtime.registry import installed_models, pickable, resolve_model
from attn.runtime.sessions import warn_on_stderr

from .options import BatchSizeOption, DeviceOption, ThreadsOption
from .server.settings import KEEP_ALIVE_SECONDS, MAX_BATCH, MAX_CONNECTIONS, MAX_QUEUED, MAX_WAIT_SECONDS, Limits


def raise_file_limit() -> None:
    """The soft limit of open files raised to the hard one, where the system allows it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


class OncePerMinute(logging.Filter):
    """Lets a log record whose message starts with `prefix` through at most once a minute."""

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix, self.last = prefix, float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith(self.prefix):
            return True
        now = time.monotonic()
        if now - self.last < 60:
            return False
        self.last = now
        return True


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]", "::1")


def served_host_names(host: str) -> tuple[str, ...]:
    """The Host headers answered: on a loopback address only the machine's own names (no DNS
    rebinding from a web page); on any other address, every name."""
    return LOOPBACK_NAMES if host in LOOPBACK_NAMES or host.startswith("127.") else ("*",)


def check_decodes(translator) -> None:
    """One short greedy translation before serving: a folder whose weights are not finite (its
    checksums re-written) is refused at start, naming it, not with a 500 on every request."""
    try:
        translator.translate(["a"], translator.default_options(beam=1, max_length_ratio=0.0, max_length_offset=1))
    except UsageError as error:
        raise UsageError(f"{translator.folder}: {error}") from None


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 5000,
    models: Annotated[
        Optional[list[str]],
        typer.Option(
            "--models", help="A model folder or installed name to serve (repeatable). Default: every installed model."
        ),
    ] = None,
    api_keys: Annotated[
        Optional[Path],
        typer.Option("--api-keys", help="File of API keys, one per line: requests without one of them get 403."),
    ] = None,
    max_chars: Annotated[
        int, typer.Option("--max-chars", min=1, help="Characters per request, at most (413 beyond).")
    ] = Limits.max_chars,
    max_inputs: Annotated[
        int, typer.Option("--max-inputs", min=1, help="Texts per request, at most (413 beyond).")
    ] = Limits.max_inputs,
    max_file_mb: Annotated[
        int,
        typer.Option(
            "--max-file-mb",
            min=1,
            help="Megabytes of a /translate_file upload, at most (413 beyond; its text: --max-chars).",
        ),
    ] = Limits.max_file_mb,
    max_batch: Annotated[
        int,
        typer.Option(
            "--max-batch", min=1, help="Texts gathered into one decode batch, at most (1: one request at a time)."
        ),
    ] = MAX_BATCH,
    max_wait_ms: Annotated[
        float,
        typer.Option(
            "--max-wait-ms",
            min=0.0,
            help="How long a batch waits for more requests when requests come concurrently (a lone client never waits).",
        ),
    ] = 1000 * MAX_WAIT_SECONDS,
    max_queued: Annotated[
        int, typer.Option("--max-queued", min=1, help="Texts waiting per model, at most (503 beyond).")
    ] = MAX_QUEUED,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.001, help="Seconds a request may take (503 beyond).")
    ] = Limits.timeout,
    cors_origins: Annotated[
        Optional[list[str]],
        typer.Option(
            "--cors-origins",
            help="Origins whose web pages may call the API (repeatable). Default: every origin, as LibreTranslate.",
        ),
    ] = None,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            min=1,
            help="Connections served at once, at most (503 beyond): slow clients cannot hold every socket.",
        ),
    ] = MAX_CONNECTIONS,
    header_seconds: Annotated[
        float,
        typer.Option(
            "--header-seconds",
            min=0.001,
            help="Seconds a client has to send a request's line and headers before its connection is closed.",
        ),
    ] = Limits.header_seconds,
    install: Annotated[
        Optional[list[str]],
        typer.Option(
            "--install",
            help="Public models to install first where missing, named as for `attn models install` "
            "(opus-mt:en-de, argos:de-en); repeatable or comma-separated.",
        ),
    ] = None,
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
    batch_size: BatchSizeOption = BATCH_SIZE,
) -> None:
    """Serve translation and summarization over HTTP (LibreTranslate-compatible /translate)."""
    try:
        import uvicorn

        from .server.app import create_app
        from .server.protocol import with_header_deadline
    except ModuleNotFoundError as error:
        raise UsageError(f"attn serve needs the Python package {error.name!r}: pip install 'attn[serve]'") from None
    from attn.runtime.loaded_model import LoadedModel

    listening = bound_socket(host, port)  # before anything loads: a port in use is told at once
    if install:
        from .models_install import install_named

        for name in (name.strip() for names in install for name in names.split(",")):
            if name:
                install_named(name)
    folders = (
        [resolve_model(name, "translate", None, None) for name in models]
        if models
        else [installed.folder for installed in pickable(installed_models())]
    )
    if not folders:
        raise UsageError("no models to serve: install some or pass --models")
    named = {}
    for folder in folders:  # the server knows a model by its folder's name (/v1/models, "model" in requests)
        if folder.name in named and named[folder.name].resolve() != folder.resolve():
            raise UsageError(
                f"--models {named[folder.name]} and {folder} have the same name, {folder.name!r}: "
                f"the server knows a model by its folder's name; rename one"
            )
        named[folder.name] = folder
    folders = list(named.values())
    translators = [
        LoadedModel(folder, device, threads, notify=logging.getLogger("attn.serve").info) for folder in folders
    ]
    peers = {translator.folder.resolve(): translator for translator in translators}
    for translator in translators:
        translator.peers = peers  # a reverse model (runtime/reverse_scores.py) is a served one
        check_decodes(translator)
    keys = None
    if api_keys is not None:
        try:
            text = api_keys.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"--api-keys {api_keys}: not a UTF-8 text file (one key per line)") from None
        except OSError as error:
            raise UsageError(f"--api-keys {api_keys}: {error.strerror}") from None
        keys = frozenset(
            line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
        )
        if not keys:
            raise UsageError(f"{api_keys}: no API keys in it (one per line)")
    app = create_app(
        translators,
        Limits(
            max_chars=max_chars,
            max_inputs=max_inputs,
            max_file_mb=max_file_mb,
            timeout=timeout,
            api_keys=keys,
            header_seconds=header_seconds,
        ),
        {"max_batch": max_batch, "max_wait": max_wait_ms / 1000, "max_queued": max_queued, "batch_size": batch_size},
        tuple(cors_origins or ["*"]),
        served_host_names(host),
    )
    # On SIGTERM uvicorn stops accepting connections and lets requests in flight finish, then raises
    # the signal again for the handler before its own: the default, which ends the process (not
    # cli/signals.py's, which would report a run cut short).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # A client that sends nothing on an idle connection is dropped after KEEP_ALIVE_SECONDS; one that
    # trickles its headers is dropped after --header-seconds (cli/server/protocol.py), its body
    # gets 408 after Limits.body_seconds (cli/server/fields.py read_fields), the rest of a body
    # answered unread is dropped for LINGER_SECONDS at most (cli/server/protocol.py). Slow clients
    # holding sockets must not exhaust the process's file descriptors: the soft limit is raised to
    # the hard one, connections beyond --max-connections get 503 at once, and should accept() fail
    # all the same, asyncio's error is logged once a minute, not 100,000 times.
    raise_file_limit()
    logging.getLogger("asyncio").addFilter(OncePerMinute("socket.accept() out of system resource"))
    settings = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info",
        timeout_graceful_shutdown=max(timeout, 1.0),
        http=with_header_deadline(header_seconds),
        limit_concurrency=max_connections,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
    address = host if ":" not in host else f"[{host}]"  # an IPv6 address in a URL
    warn_on_stderr(
        f"serving {', '.join(named)} at http://{address}:{listening.getsockname()[1]}/ "
        "(its web page; LibreTranslate's API: /translate, /languages, /detect); Ctrl-C stops"
    )
    uvicorn.Server(settings).run(sockets=[listening])


def bound_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host` and `port`, as uvicorn binds one (IPv6 for an address with a
    colon; an address that a server just left is reused); a UsageError when it cannot be (a port
    in use: uvicorn said so after the models had loaded, and exited 3)."""
    listening = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host.strip("[]"), port))
        listening.listen()  # a second server bound beside it, not yet listening, would pass too
    except OSError as error:
        listening.close()
        raise UsageError(f"--host {host} --port {port}: cannot listen there ({error.strerror or error})") from None
    return listening
