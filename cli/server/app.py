"""`attn serve`'s ASGI application (Starlette): LibreTranslate's API (cli/server/libretranslate.py),
and native endpoints for what only attn has (cli/server/native.py); the routes are
cli/server/spec.py's ENDPOINTS, which /spec describes.

LibreTranslate-compatible endpoints take shapes and messages as LibreTranslate documents and
answers them; the fields of a request come from its JSON body, its form body (urlencoded or
multipart) and its query string, a body's field before the query string's. Source "auto" detects
each text's language among the served ones; a pair no model translates, but two do through
English, goes through English (runtime/router.py). CORS as LibreTranslate sets it (every origin by
default; `attn serve --cors-origins`), and a path with repeated slashes ("//languages", from a base
URL that ends in "/") is the path with one. The native /v1 endpoints answer with the jsonl
schema's objects (scores, n-best, word alignments, coverage).
Every error is {"error": "…"} with a 4xx (or a 5xx for a failure of ours): 400 malformed or
unsupported, 403 a missing or wrong API key, 404/405 an unknown route, 413 over the size limits,
503 busy, shutting down or past the request timeout. The server keeps serving after any of them.
"""

from __future__ import annotations

import contextlib
import logging
import re
from importlib.resources import files as package_files

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from attn.runtime.loaded_model import LoadedModel

from . import libretranslate, native
from .served import Models, Server
from .settings import Limits
from .spec import ENDPOINTS

log = logging.getLogger("attn.serve")
WEB_PAGE = "index.html"
# each endpoint's handler, by the name ENDPOINTS gives it
HANDLERS = {
    endpoint.handler: getattr(libretranslate, endpoint.handler, None) or getattr(native, endpoint.handler)
    for endpoint in ENDPOINTS
}


def create_app(
    translators: list[LoadedModel],
    limits: Limits = Limits(),
    batching: dict | None = None,
    cors_origins: tuple[str, ...] = ("*",),
    allowed_hosts: tuple[str, ...] = ("*",),
) -> Starlette:
    """The application over loaded models; `batching` goes to each DynamicBatcher; `cors_origins`
    may call it from a browser page of theirs (LibreTranslate's default: every origin); requests
    whose Host header names none of `allowed_hosts` get 400 (a server on the loopback answers
    only to its own names, so a web page cannot reach it through DNS rebinding)."""
    page = (package_files("attn.cli.server") / "static" / WEB_PAGE).read_text(encoding="utf-8")
    server = Server(Models(translators, batching or {}), limits, page)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for batcher in server.models.every_batcher():
            batcher.start()
        yield
        for batcher in server.models.every_batcher():
            await batcher.stop()
        server.translated_files.remove()

    routes = [
        Route(endpoint.path, HANDLERS[endpoint.handler], methods=list(endpoint.methods)) for endpoint in ENDPOINTS
    ]
    cors = Middleware(
        CORSMiddleware, allow_origins=list(cors_origins), allow_methods=["GET", "POST"], allow_headers=["*"]
    )
    hosts = Middleware(HostsInJson, allowed_hosts=list(allowed_hosts))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[hosts, cors],
        exception_handlers={HTTPException: http_error, Exception: internal_error},
    )
    app.state.server = server
    return FramedOnce(OneSlash(app))


async def http_error(request: Request, error: HTTPException) -> JSONResponse:
    return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)


async def internal_error(request: Request, error: Exception) -> JSONResponse:
    log.exception("internal error on %s", request.url.path)
    return JSONResponse({"error": f"internal error: {type(error).__name__}"}, status_code=500)


class HostsInJson:
    """ASGI middleware: Starlette's TrustedHostMiddleware, its refusal of a Host header that names
    none of `allowed_hosts` (400) written in JSON as every other error of the server
    (`{"error": "Invalid host header"}`; a LibreTranslate client reads that, not plain text)."""

    PASSED = "attn.host_passed"  # the scope's key set when a request passed the check

    def __init__(self, app, allowed_hosts: list[str]):
        self.app = app
        self.checked = TrustedHostMiddleware(self.passed, allowed_hosts=allowed_hosts)

    async def passed(self, scope, receive, send):
        scope[self.PASSED] = True
        await self.app(scope, receive, send)

    async def __call__(self, scope, receive, send):
        refused = False

        async def answer(message):
            nonlocal refused
            if not scope.get(self.PASSED) and message["type"] == "http.response.start" and message["status"] == 400:
                refused = True
                await JSONResponse({"error": "Invalid host header"}, status_code=400)(scope, receive, send)
            elif not refused:  # what the app answers; the refusal's plain-text body is not sent
                await send(message)

        await self.checked(scope, receive, answer)


class OneSlash:
    """ASGI middleware: "//languages" is "/languages" (a client's base URL that ends in "/")."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and "//" in scope["path"]:
            scope = {**scope, "path": re.sub("/{2,}", "/", scope["path"])}
        await self.app(scope, receive, send)


class FramedOnce:
    """ASGI middleware: a request that gives both Content-Length and Transfer-Encoding is a 400,
    and its connection closed: a proxy in front that reads the other framing would see another
    request in the body (request smuggling; RFC 9112 6.1)."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            names = {name.lower() for name, _ in scope["headers"]}
            if b"content-length" in names and b"transfer-encoding" in names:
                body = b'{"error":"Invalid request: both Content-Length and Transfer-Encoding"}'
                headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
                await send({"type": "http.response.start", "status": 400, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
