"""`attn serve`'s ASGI application (Starlette): LibreTranslate's API, and native endpoints for
what only attn has.

LibreTranslate-compatible (shapes and messages as LibreTranslate documents and answers them):
    POST /translate   q (a string or a list), source, target, format "text", alternatives, api_key
                      → {"translatedText": …, "alternatives": …}; JSON or a form body
    GET  /languages   → [{"code", "name", "targets"}]
    POST /detect      q → [{"confidence", "language"}] among the served models' languages
                      (source "auto" in /translate detects each text the same way)
Native:
    POST /v1/translate  q, source/target or model, search settings, sentences → {"results": [the
                        jsonl schema's objects]} (scores, n-best, word alignments)
    POST /v1/summarize  q, model, search settings → {"results": [objects with "summary"]}
    POST /v1/align      source, target (texts), model or languages → one object: score, alignment
    GET  /v1/models, GET /health
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
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from attn.runtime.errors import UsageError
from attn.runtime.language_id import detect_language
from attn.runtime.registry import pair_owners
from attn.runtime.search import SEARCH_LIMITS, SearchOptions, check_search_value
from attn.runtime.translator import Translator

from ..formats.jsonl import input_record
from ..options import search_options as command_line_options
from .batcher import Busy, DynamicBatcher
from .settings import Limits

log = logging.getLogger("attn.serve")

LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French"}
# Search settings a native request may set (sampling included); the rest are the model's.
NATIVE_SEARCH_SETTINGS = tuple(SEARCH_LIMITS) + ("sample", "seed", "replace_unk", "shortlist")


class Models:
    """The served models, by language pair (translation) and by name, each behind its batcher; a
    model of several directions has one batcher per direction (a batch writes one language), the
    name naming its default direction; a pair two models have goes to the one made for it
    (registry.pair_owners)."""

    def __init__(self, translators: list[Translator], batching: dict):
        self.batchers = {t.folder.name: DynamicBatcher(t, **batching) for t in translators}
        self.pairs: dict[tuple[str, str], DynamicBatcher] = {}
        translating = [batcher for batcher in self.batchers.values() if batcher.translator.manifest.task == "translate"]
        for pair, owner in pair_owners([batcher.translator.manifest for batcher in translating]).items():
            batcher = translating[owner]
            translator = batcher.translator
            self.pairs[pair] = batcher if pair == (translator.source_lang, translator.target_lang) else \
                DynamicBatcher(translator.towards(*pair), **batching)

    def every_batcher(self) -> list[DynamicBatcher]:
        return list({id(b): b for b in [*self.batchers.values(), *self.pairs.values()]}.values())

    def named(self, name: str, task: str) -> DynamicBatcher:
        batcher = self.batchers.get(name)
        if batcher is None or batcher.translator.manifest.task != task:
            raise HTTPException(400, f"no {task} model named {name!r} is served (GET /v1/models)")
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


def create_app(translators: list[Translator], limits: Limits = Limits(), batching: dict | None = None) -> Starlette:
    """The application over loaded models; `batching` goes to each DynamicBatcher."""
    models = Models(translators, batching or {})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        for batcher in models.every_batcher():
            batcher.start()
        yield
        for batcher in models.every_batcher():
            await batcher.stop()

    async def translate(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits)
        texts, single = texts_of(fields, limits)
        source, target = required(fields, "source"), required(fields, "target")
        text_format = fields.get("format") or "text"
        if text_format != "text":
            raise HTTPException(400, f"{text_format} format is not supported")
        alternatives = integer(fields.get("alternatives", 0), "alternatives", 0, SEARCH_LIMITS["n_best"][1] - 1)
        if source == "auto" and target not in models.languages():
            raise HTTPException(400, f"{target} is not supported")
        detected = await detect(texts, models.languages()) if source == "auto" else [(source, None)] * len(texts)
        results: list = [None] * len(texts)
        for language in dict.fromkeys(code for code, _ in detected):
            batcher = models.for_pair(language, target)
            defaults = batcher.translator.default_options()
            options = batcher.translator.default_options(n_best=alternatives + 1, beam=max(defaults.beam, alternatives + 1))
            chosen = [i for i, (code, _) in enumerate(detected) if code == language]
            for i, result in zip(chosen, await decode(batcher, [texts[i] for i in chosen], options, True, limits)):
                results[i] = result
        body: dict = {"translatedText": [r[0].text for r in results]}
        if alternatives:
            body["alternatives"] = [[t.text for t in r[1:]] for r in results]
        if source == "auto":
            body["detectedLanguage"] = [{"confidence": round(100 * p, 1), "language": code} for code, p in detected]
        if single:
            body = {key: value[0] for key, value in body.items()}
        return JSONResponse(body)

    async def detect_route(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits)
        texts, _ = texts_of(fields, limits)
        [(language, probability)] = await detect([" ".join(texts)], models.languages())
        return JSONResponse([{"confidence": round(100 * probability, 1), "language": language}])

    async def languages(request: Request) -> JSONResponse:
        sources = sorted({source for source, _ in models.pairs})
        return JSONResponse([{"code": code, "name": LANGUAGE_NAMES.get(code, code),
                              "targets": sorted(t for s, t in models.pairs if s == code)} for code in sources])

    async def native_translate(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits, json_only=True)
        texts, _ = texts_of(fields, limits)
        if "model" in fields:
            batcher = models.named(str(fields["model"]), "translate")
        else:
            batcher = models.for_pair(required(fields, "source"), required(fields, "target"))
        sentences = fields.get("sentences", True)
        if not isinstance(sentences, bool):
            raise HTTPException(400, "sentences must be true or false")
        results = await decode(batcher, texts, search_options(batcher.translator, fields), sentences, limits)
        return JSONResponse({"results": [input_record(text, r) for text, r in zip(texts, results)]})

    async def native_summarize(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits, json_only=True)
        texts, _ = texts_of(fields, limits)
        batcher = models.named(str(fields.get("model", "summarize-debian")), "summarize")
        results = await decode(batcher, texts, search_options(batcher.translator, fields), False, limits)
        return JSONResponse({"results": [input_record(text, r, "summary") for text, r in zip(texts, results)]})

    async def native_align(request: Request) -> JSONResponse:
        fields = await read_fields(request, limits, json_only=True)
        source, target = required(fields, "source"), required(fields, "target")
        if len(source) + len(target) > limits.max_chars:
            raise HTTPException(413, f"Invalid request: request ({len(source) + len(target)} characters) exceeds "
                                     f"character limit ({limits.max_chars})")
        if "model" in fields:
            batcher = models.named(str(fields["model"]), "translate")
        else:
            batcher = models.for_pair(required(fields, "source_lang"), required(fields, "target_lang"))
        translation = await asyncio.to_thread(batcher.translator.force, source, target)
        return JSONResponse(input_record(source, [translation]))

    async def list_models(request: Request) -> JSONResponse:
        return JSONResponse([{"name": name, "task": b.translator.manifest.task,
                              "source_lang": b.translator.source_lang, "target_lang": b.translator.target_lang,
                              "directions": [list(pair) for pair in b.translator.manifest.pairs],
                              "architecture": b.translator.manifest.architecture}
                             for name, b in models.batchers.items()])

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "models": sorted(models.batchers),
                             "queued": sum(b.queued for b in models.every_batcher())})

    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)

    async def internal_error(request: Request, error: Exception) -> JSONResponse:
        log.exception("internal error on %s", request.url.path)
        return JSONResponse({"error": f"internal error: {type(error).__name__}"}, status_code=500)

    routes = [Route("/translate", translate, methods=["POST"]), Route("/languages", languages, methods=["GET", "POST"]),
              Route("/detect", detect_route, methods=["POST"]),
              Route("/v1/translate", native_translate, methods=["POST"]),
              Route("/v1/summarize", native_summarize, methods=["POST"]),
              Route("/v1/align", native_align, methods=["POST"]), Route("/v1/models", list_models, methods=["GET"]),
              Route("/health", health, methods=["GET"])]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: internal_error})
    app.state.models = models
    return app


async def read_fields(request: Request, limits: Limits, json_only: bool = False) -> dict:
    """The request's fields: a JSON object, or (LibreTranslate's clients send these) a form body.
    The body is read up to the limit and no further (413 beyond it); the API key is checked here."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limits.max_body_bytes:
        raise HTTPException(413, f"Invalid request: body over {limits.max_body_bytes} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.max_body_bytes:
            raise HTTPException(413, f"Invalid request: body over {limits.max_body_bytes} bytes")
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        text = bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, "Invalid request: the body is not UTF-8") from None
    if content_type == "application/json" or json_only:
        try:
            fields = json.loads(text) if text.strip() else {}
        except ValueError:
            raise HTTPException(400, "Invalid request: the body is not valid JSON") from None
        if not isinstance(fields, dict):
            raise HTTPException(400, "Invalid request: the body must be a JSON object")
    else:
        fields = dict(parse_qsl(text, keep_blank_values=True))
    if limits.api_keys is not None:
        key = fields.get("api_key")
        if not isinstance(key, str) or not any(hmac.compare_digest(key.encode(), known.encode()) for known in limits.api_keys):
            raise HTTPException(403, "Invalid API key")
    return fields


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
    return texts, single


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


def search_options(translator: Translator, fields: dict) -> SearchOptions:
    """The model's defaults with the request's search settings, as the command line takes them
    (a beam below n_best is raised to it); a wrong one is a 400 naming it."""
    settings = {name: fields[name] for name in NATIVE_SEARCH_SETTINGS if name in fields}
    try:
        for name, value in settings.items():
            check_search_value(name, value)
        return command_line_options(translator, settings.pop("beam", None), settings.pop("n_best", 1),
                                    settings.pop("sample", False), lambda message: None, **settings)
    except UsageError as error:
        raise HTTPException(400, f"Invalid request: {error}") from None


async def detect(texts: list[str], languages: set[str]) -> list[tuple[str, float]]:
    """The language of each text among `languages` (runtime/language_id.py), off the event loop;
    400 when the detector knows none of them."""
    try:
        return await asyncio.to_thread(lambda: [detect_language(text, languages) for text in texts])
    except UsageError as error:
        raise HTTPException(400, f"auto is not supported here: {error}") from None


async def decode(batcher: DynamicBatcher, texts: list[str], options: SearchOptions, sentences: bool,
                 limits: Limits) -> list:
    """The batcher's results, or 503 when it is full, shutting down, or past the timeout."""
    try:
        return await asyncio.wait_for(batcher.translate(texts, options, sentences), limits.timeout)
    except Busy as error:
        raise HTTPException(503, f"Slowdown: {error}; retry later", headers={"Retry-After": "1"}) from None
    except TimeoutError:
        raise HTTPException(503, f"the request took longer than {limits.timeout:g} s") from None
