"""`attn serve`'s ASGI application (Starlette): LibreTranslate's API, and native endpoints for
what only attn has; the routes are cli/server/spec.py's ENDPOINTS, which /spec describes.

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

import asyncio
import contextlib
import hmac
import json
import logging
import re
import threading
from importlib import metadata
from importlib.resources import files as package_files
from pathlib import Path
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Route

from attn.runtime.constants import BOM, LANGUAGE_NAMES
from attn.runtime.errors import UsageError
from attn.runtime.language_id import detect_language
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.records import input_record
from attn.runtime.registry import pair_owners
from attn.runtime.router import Routes, compose, unchanged
from attn.runtime.search import SEARCH_LIMITS, SearchOptions, check_search_value

from .batcher import Busy, DynamicBatcher
from .files import FILE_FORMATS, TranslatedFiles, download_name
from .html_text import translate_html
from .settings import SERVER_SEARCH_LIMITS, Limits
from .spec import ENDPOINTS, openapi

log = logging.getLogger("attn.serve")

# Search settings a native request may set (sampling included); the rest are the model's.
NATIVE_SEARCH_SETTINGS = tuple(SEARCH_LIMITS) + ("sample", "seed", "replace_unk", "shortlist")


class Models:
    """The served models, by language pair (translation) and by name, each behind its batcher; a
    model of several directions has one batcher per direction (a batch writes one language), the
    name naming its default direction; a pair two models have goes to the one made for it
    (registry.pair_owners)."""

    def __init__(self, translators: list[LoadedModel], batching: dict):
        self.batchers = {t.folder.name: DynamicBatcher(t, **batching) for t in translators}
        self.pairs: dict[tuple[str, str], DynamicBatcher] = {}
        translating = [batcher for batcher in self.batchers.values() if batcher.translator.manifest.task == "translate"]
        for pair, owner in pair_owners([batcher.translator.manifest for batcher in translating]).items():
            batcher = translating[owner]
            translator = batcher.translator
            self.pairs[pair] = (
                batcher
                if pair == (translator.source_lang, translator.target_lang)
                else DynamicBatcher(translator.towards(*pair), **batching)
            )
        # the ways between the served languages: each pair's model, or two through English
        self.routes = Routes(list(self.pairs))

    def every_batcher(self) -> list[DynamicBatcher]:
        return list({id(b): b for b in [*self.batchers.values(), *self.pairs.values()]}.values())

    def named(self, name: str, task: str) -> DynamicBatcher:
        batcher = self.batchers.get(name)
        if batcher is None or batcher.translator.manifest.task != task:
            raise HTTPException(400, f"no {task} model named {name!r} is served (GET /v1/models)")
        return batcher

    def summarizer(self) -> DynamicBatcher:
        """The served summarization model (the first, when there are several)."""
        batcher = next((b for b in self.batchers.values() if b.translator.manifest.task == "summarize"), None)
        if batcher is None:
            raise HTTPException(400, "no summarize model is served (GET /v1/models)")
        return batcher

    def languages(self) -> set[str]:
        return {language for pair in self.pairs for language in pair}

    def for_pair(self, source: str, target: str) -> DynamicBatcher:
        languages = self.languages()
        for language in (source, target):
            if language not in languages:
                raise HTTPException(400, f"{language} is not supported")
        if (source, target) not in self.pairs:
            raise HTTPException(400, f"{source}→{target} is not supported")
        return self.pairs[source, target]


TEXT_FORMATS = ("text", "html")
ALIGNMENTS_AT_ONCE = 2  # /v1/align requests computed at once; more wait no longer than a 503
WEB_PAGE = "index.html"


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
    models = Models(translators, batching or {})
    translated_files = TranslatedFiles()
    aligning = asyncio.Semaphore(ALIGNMENTS_AT_ONCE)
    page = (package_files("attn.cli.server") / "static" / WEB_PAGE).read_text(encoding="utf-8")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for batcher in models.every_batcher():
            batcher.start()
        yield
        for batcher in models.every_batcher():
            await batcher.stop()
        translated_files.remove()

    async def routed(texts: list[str], source: str, target: str, last_options, sentences: bool = True) -> list:
        """Each text's translations and the detections: source "auto" detected per text, a text
        detected in the target language given back, a pair without a model through English
        (runtime/router.py); `last_options(translator)` are the search options of the last model."""
        if source == "auto" and target not in models.languages():
            raise HTTPException(400, f"{target} is not supported")
        detected = await detect(texts, models.languages()) if source == "auto" else [(source, None)] * len(texts)
        results: list = [None] * len(texts)
        for language in dict.fromkeys(code for code, _ in detected):
            chosen = [i for i, (code, _) in enumerate(detected) if code == language]
            hops = models.routes.hops(language, target)
            if hops == [] and source == "auto":  # detected in the target language: given back, as the CLI does
                for i in chosen:
                    results[i] = unchanged(texts[i])
                continue
            if not hops:
                models.for_pair(language, target)  # the 400 that names what is missing
            found = None
            for number, pair in enumerate(hops):
                batcher = models.pairs[pair]
                translator = batcher.translator
                options = last_options(translator) if number == len(hops) - 1 else translator.default_options()
                inputs = [texts[i] for i in chosen] if found is None else [result[0].text for result in found]
                step = await decode(batcher, inputs, options, sentences, limits)
                found = (
                    step
                    if found is None
                    else [[compose(before[0], after) for after in result] for before, result in zip(found, step)]
                )
            for i, result in zip(chosen, found):
                results[i] = result
        return results, detected

    async def translated(texts: list[str], source: str, target: str, alternatives: int = 0) -> list:
        """LibreTranslate's /translate: each text's 1 + `alternatives` translations, and the detections."""

        def options(translator: LoadedModel) -> SearchOptions:
            return translator.default_options(
                n_best=alternatives + 1, beam=max(translator.default_options().beam, alternatives + 1)
            )

        return await routed(texts, source, target, options)

    async def translated_html(documents: list[str], source: str, target: str) -> tuple[list[str], list]:
        detections = []

        async def texts_translated(texts: list[str]) -> list[str]:
            results, detected = await translated(texts, source, target)
            detections.extend(detected)
            return [result[0].text for result in results]

        return [await translate_html(document, texts_translated) for document in documents], detections

    async def translate(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits)
        texts, single = texts_of(fields, limits)
        source, target = required(fields, "source"), required(fields, "target")
        text_format = fields.get("format") or "text"
        if text_format not in TEXT_FORMATS:
            raise HTTPException(400, f"{text_format} format is not supported")
        alternatives = integer(fields.get("alternatives", 0), "alternatives", 0, SEARCH_LIMITS["n_best"][1] - 1)
        if text_format == "html":
            outputs, detected = await translated_html(texts, source, target)
            body: dict = {"translatedText": outputs}
            if alternatives:
                body["alternatives"] = [[] for _ in texts]  # as LibreTranslate: none for HTML
            detected = detected[: len(texts)] if len(detected) >= len(texts) else [(source, 0.0)] * len(texts)
        else:
            results, detected = await translated(texts, source, target, alternatives)
            body = {"translatedText": [r[0].text for r in results]}
            if alternatives:
                body["alternatives"] = [[t.text for t in r[1:]] for r in results]
        if source == "auto":
            body["detectedLanguage"] = [
                {"confidence": round(100 * (p or 0.0), 1), "language": code} for code, p in detected
            ]
        if single:
            body = {key: value[0] for key, value in body.items()}
        return JSONResponse(body)

    async def translate_file(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits)
        upload = fields.get("file")
        if not isinstance(upload, UploadFile):
            raise HTTPException(400, "Invalid request: missing file parameter")
        source, target = required(fields, "source"), required(fields, "target")
        suffix = Path(upload.filename or "").suffix.lower()
        if not upload.filename:
            raise HTTPException(400, "Invalid request: empty file")
        if suffix not in FILE_FORMATS:
            raise HTTPException(400, "Invalid request: file format not supported")
        try:
            text = (await upload.read()).decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "Invalid request: the file is not UTF-8 text") from None
        if len(text) > limits.max_chars:
            raise HTTPException(
                413, f"Invalid request: file ({len(text)} characters) exceeds character limit ({limits.max_chars})"
            )
        mark = BOM if text.startswith(BOM) else ""
        text = text.removeprefix(BOM)
        if suffix == ".txt":
            ending = "\r\n" if "\r\n" in text else "\n"  # a Windows file comes back with Windows line ends
            lines = text.replace("\r\n", "\n").split("\n")
            wanted = [i for i, line in enumerate(lines) if line.strip()]
            results, _ = await translated([lines[i] for i in wanted], source, target) if wanted else ([], [])
            for i, result in zip(wanted, results):
                lines[i] = result[0].text
            output = mark + ending.join(lines)
        else:
            [output], _ = await translated_html([text], source, target)
            output = mark + output
        name = translated_files.store(upload.filename, output)
        return JSONResponse({"translatedFileUrl": f"{str(request.base_url).rstrip('/')}/download_file/{name}"})

    async def download_file(request: Request) -> FileResponse:
        name = request.path_params["name"]
        path = translated_files.path(name)
        if path is None:
            raise HTTPException(404, "Invalid filename")
        return FileResponse(path, filename=download_name(name))

    async def suggest(request: Request) -> JSONResponse:
        raise HTTPException(403, "Suggestions are disabled on this server.")

    async def frontend_settings(request: Request) -> JSONResponse:
        targets = sorted({target for _, target in models.pairs})
        target = "en" if "en" in targets else (targets[0] if targets else "en")
        return JSONResponse(
            {
                "charLimit": limits.max_chars,
                "frontendTimeout": 500,
                "apiKeys": limits.api_keys is not None,
                "keyRequired": limits.api_keys is not None,
                "suggestions": False,
                "filesTranslation": True,
                "supportedFilesFormat": list(FILE_FORMATS),
                "language": {
                    "source": {"code": "auto", "name": "Auto Detect"},
                    "target": {"code": target, "name": LANGUAGE_NAMES.get(target, target)},
                },
            }
        )

    async def spec(request: Request) -> JSONResponse:
        return JSONResponse(openapi(metadata.version("attn")))

    async def web_page(request: Request) -> HTMLResponse:
        return HTMLResponse(page)

    async def detect_route(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits)
        texts, _ = texts_of(fields, limits)
        [(language, probability)] = await detect([" ".join(texts)], models.languages())
        return JSONResponse([{"confidence": round(100 * probability, 1), "language": language}])

    async def languages(request: Request) -> JSONResponse:
        pairs = models.routes.all_pairs()  # pivoted pairs too: /translate takes them through English
        sources = sorted({source for source, _ in pairs})
        return JSONResponse(
            [
                {
                    "code": code,
                    "name": LANGUAGE_NAMES.get(code, code),
                    "targets": sorted(t for s, t in pairs if s == code),
                }
                for code in sources
            ]
        )

    async def native_translate(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits, json_only=True)
        texts, _ = texts_of(fields, limits)
        sentences = fields.get("sentences", True)
        if not isinstance(sentences, bool):
            raise HTTPException(400, "sentences must be true or false")
        if "model" in fields:
            batcher = models.named(str(fields["model"]), "translate")
            results = await decode(batcher, texts, search_options(batcher.translator, fields), sentences, limits)
        else:
            results, _ = await routed(
                texts,
                required(fields, "source"),
                required(fields, "target"),
                lambda translator: search_options(translator, fields),
                sentences,
            )
        return JSONResponse({"results": [input_record(text, r) for text, r in zip(texts, results)]})

    async def native_summarize(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits, json_only=True)
        texts, _ = texts_of(fields, limits)
        batcher = models.named(str(fields["model"]), "summarize") if "model" in fields else models.summarizer()
        results = await decode(batcher, texts, search_options(batcher.translator, fields), False, limits)
        return JSONResponse({"results": [input_record(text, r, "summary") for text, r in zip(texts, results)]})

    async def native_align(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits, json_only=True)
        source, target = required(fields, "source"), required(fields, "target")
        if len(source) + len(target) > limits.max_chars:
            raise HTTPException(
                413,
                f"Invalid request: request ({len(source) + len(target)} characters) exceeds "
                f"character limit ({limits.max_chars})",
            )
        if "model" in fields:
            batcher = models.named(str(fields["model"]), "translate")
        else:
            batcher = models.for_pair(required(fields, "source_lang"), required(fields, "target_lang"))
        if aligning.locked():
            raise HTTPException(
                503, "Slowdown: alignments are being computed; retry later", headers={"Retry-After": "1"}
            )
        # The slot stays taken until the work has ended, also after a timeout's 503, which stops it
        # at its next step: abandoned alignments neither pile up nor run unbounded (probe 0a2dfe1 D20).
        await aligning.acquire()
        stop = threading.Event()
        work = asyncio.ensure_future(asyncio.to_thread(batcher.translator.force, source, target, None, stop))
        work.add_done_callback(lambda done: (aligning.release(), done.cancelled() or done.exception()))
        try:
            translation = await asyncio.wait_for(asyncio.shield(work), limits.timeout)
        except TimeoutError:
            stop.set()
            raise HTTPException(503, f"the request took longer than {limits.timeout:g} s") from None
        return JSONResponse(input_record(source, [translation]))

    async def list_models(request: Request) -> JSONResponse:
        return JSONResponse(
            [
                {
                    "name": name,
                    "task": b.translator.manifest.task,
                    "source_lang": b.translator.source_lang,
                    "target_lang": b.translator.target_lang,
                    "directions": [list(pair) for pair in b.translator.manifest.pairs],
                    "architecture": b.translator.manifest.architecture,
                }
                for name, b in models.batchers.items()
            ]
        )

    async def health(request: Request) -> JSONResponse:
        return JSONResponse(
            {"status": "ok", "models": sorted(models.batchers), "queued": sum(b.queued for b in models.every_batcher())}
        )

    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)

    async def internal_error(request: Request, error: Exception) -> JSONResponse:
        log.exception("internal error on %s", request.url.path)
        return JSONResponse({"error": f"internal error: {type(error).__name__}"}, status_code=500)

    handlers = {
        "web_page": web_page,
        "translate": translate,
        "languages": languages,
        "translate_file": translate_file,
        "download_file": download_file,
        "detect": detect_route,
        "suggest": suggest,
        "frontend_settings": frontend_settings,
        "spec": spec,
        "native_translate": native_translate,
        "native_summarize": native_summarize,
        "native_align": native_align,
        "list_models": list_models,
        "health": health,
    }
    routes = [
        Route(endpoint.path, handlers[endpoint.handler], methods=list(endpoint.methods)) for endpoint in ENDPOINTS
    ]
    cors = Middleware(
        CORSMiddleware, allow_origins=list(cors_origins), allow_methods=["GET", "POST"], allow_headers=["*"]
    )
    hosts = Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[hosts, cors],
        exception_handlers={HTTPException: http_error, Exception: internal_error},
    )
    app.state.models = models
    return OneSlash(app)


class OneSlash:
    """ASGI middleware: "//languages" is "/languages" (a client's base URL that ends in "/")."""

    def __init__(self, app):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and "//" in scope["path"]:
            scope = {**scope, "path": re.sub("/{2,}", "/", scope["path"])}
        await self.app(scope, receive, send)


async def read_fields(request: Request, limits: Limits, json_only: bool = False) -> dict:
    """The request's fields: a JSON object, or (LibreTranslate's clients send these) a form body.
    The body is read up to the limit and no further (413 beyond it); the API key is checked here."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise HTTPException(413, f"Invalid request: body over {limits.max_body_bytes} bytes")
    body = bytearray()
    try:
        async with asyncio.timeout(limits.body_seconds):  # a client trickling its body holds no socket for long
            async for chunk in request.stream():
                body += chunk
                if len(body) > limits.max_body_bytes:
                    raise HTTPException(413, f"Invalid request: body over {limits.max_body_bytes} bytes")
    except TimeoutError:
        raise HTTPException(408, f"Invalid request: the body took over {limits.body_seconds:g} s") from None
    except ClientDisconnect:
        raise HTTPException(499, "the client went away") from None
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    fields = {} if json_only else dict(request.query_params)
    if content_type == "multipart/form-data" and not json_only:
        try:
            form = await _replayed(request, bytes(body)).form(max_files=1, max_fields=1000)
        except Exception as error:  # python-multipart's and Starlette's parse errors
            raise HTTPException(400, f"Invalid request: malformed multipart body ({type(error).__name__})") from None
        fields.update(form.items())
    else:
        try:
            text = bytes(body).decode("utf-8")
        except UnicodeDecodeError:
            raise HTTPException(400, "Invalid request: the body is not UTF-8") from None
        if content_type == "application/json" or json_only:
            try:
                parsed = json.loads(text) if text.strip() else {}
            except ValueError:
                raise HTTPException(400, "Invalid request: the body is not valid JSON") from None
            if not isinstance(parsed, dict):
                raise HTTPException(400, "Invalid request: the body must be a JSON object")
            fields.update(parsed)
        else:
            fields.update(parse_qsl(text, keep_blank_values=True))
    if limits.api_keys is not None:
        key = fields.get("api_key")
        if not isinstance(key, str) or not any(
            hmac.compare_digest(key.encode(), known.encode()) for known in limits.api_keys
        ):
            raise HTTPException(403, "Invalid API key")
    return fields


def _replayed(request: Request, body: bytes) -> Request:
    """The request again, its body (already read, within the limit) given once more."""
    given = False

    async def receive():
        nonlocal given
        if given:
            return {"type": "http.disconnect"}
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(request.scope, receive)


def texts_of(fields: dict, limits: Limits) -> tuple[list[str], bool]:
    """q as a list of texts, and whether it was one string; 400 when missing or mistyped, 413
    over the limits."""
    q = fields.get("q")
    if not q:
        raise HTTPException(400, "Invalid request: missing q parameter")
    single = isinstance(q, str)
    texts = [q] if single else q
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise HTTPException(400, "Invalid request: q must be a string or a list of strings")
    if len(texts) > limits.max_inputs:
        raise HTTPException(413, f"Invalid request: request ({len(texts)}) exceeds text limit ({limits.max_inputs})")
    chars = sum(len(text) for text in texts)
    if chars > limits.max_chars:
        raise HTTPException(413, f"Invalid request: request ({chars}) exceeds character limit ({limits.max_chars})")
    return [as_plain_text(text) for text in texts], single


def as_plain_text(text: str) -> str:
    """A text as Windows tools send it, read as the rest: no byte-order mark, "\n" line ends."""
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def required(fields: dict, name: str) -> str:
    value = fields.get(name)
    if not value:
        raise HTTPException(400, f"Invalid request: missing {name} parameter")
    if not isinstance(value, str):
        raise HTTPException(400, f"Invalid request: {name} must be a string")
    return value


def integer(value, name: str, low: int, high: int) -> int:
    """A form's string or JSON's number as an int in [low, high]; 400 otherwise."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HTTPException(400, f"Invalid request: {name} must be an integer in [{low}, {high}]")
    return value


def search_options(translator: LoadedModel, fields: dict) -> SearchOptions:
    """The model's defaults with the request's search settings, as the command line takes them
    (a beam below n_best is raised to it); a wrong one is a 400 naming it."""
    settings = {name: fields[name] for name in NATIVE_SEARCH_SETTINGS if name in fields}
    try:
        for name, value in settings.items():
            check_search_value(name, value)
            if name in SERVER_SEARCH_LIMITS and value > SERVER_SEARCH_LIMITS[name]:
                raise UsageError(f"{name} must be at most {SERVER_SEARCH_LIMITS[name]} on this server, got {value!r}")
        return translator.search_options(
            settings.pop("beam", None),
            settings.pop("n_best", 1),
            settings.pop("sample", False),
            lambda message: None,
            **settings,
        )
    except UsageError as error:
        raise HTTPException(400, f"Invalid request: {error}") from None


async def detect(texts: list[str], languages: set[str]) -> list[tuple[str, float]]:
    """The language of each text among `languages` (runtime/language_id.py), off the event loop;
    400 when the detector knows none of them."""
    try:
        return await asyncio.to_thread(lambda: [detect_language(text, languages) for text in texts])
    except UsageError as error:
        raise HTTPException(400, f"auto is not supported here: {error}") from None


def check_budget(batcher: DynamicBatcher, texts: list[str], options: SearchOptions, limits: Limits) -> None:
    """413 when the request's source pieces times its beam exceed the limits' budget."""
    pieces = sum(len(ids) for ids in batcher.translator.tokenizer.encode_batch(texts))
    if pieces * options.beam > limits.max_piece_beams:
        raise HTTPException(
            413,
            f"Invalid request: {pieces} source pieces at beam {options.beam} exceed this server's "
            f"budget ({limits.max_piece_beams} piece-beams); send less text or a smaller beam",
        )


async def decode(
    batcher: DynamicBatcher, texts: list[str], options: SearchOptions, sentences: bool, limits: Limits
) -> list:
    """The batcher's results, or 503 when it is full, shutting down, or past the timeout; 413 over
    the work budget (check_budget)."""
    if (
        len(texts) > batcher.max_queued
    ):  # more than may ever wait at once: a retry could never succeed (probe 0a2dfe1 D8)
        raise HTTPException(
            413,
            f"Invalid request: {len(texts)} texts (an HTML document's text nodes count one each) "
            f"at once; this server takes at most {batcher.max_queued}",
        )
    check_budget(batcher, texts, options, limits)
    try:
        return await asyncio.wait_for(batcher.translate(texts, options, sentences), limits.timeout)
    except Busy as error:
        raise HTTPException(503, f"Slowdown: {error}; retry later", headers={"Retry-After": "1"}) from None
    except TimeoutError:
        raise HTTPException(503, f"the request took longer than {limits.timeout:g} s") from None
