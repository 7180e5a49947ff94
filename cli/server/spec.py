"""The endpoints `attn serve` answers, in one table: Starlette's routes (cli/server/app.py) and the
OpenAPI description of `GET /spec` are both made from ENDPOINTS."""

from __future__ import annotations

from dataclasses import dataclass, field


def _form(*names: str, required: tuple[str, ...] = ()) -> dict:
    properties = {name: {"type": "string"} for name in names}
    return {"type": "object", "properties": properties, "required": list(required)}


def _body(schema: dict, multipart: bool = False) -> dict:
    types = (
        ["multipart/form-data"]
        if multipart
        else ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]
    )
    return {"required": True, "content": {kind: {"schema": schema} for kind in types}}


ERROR = {
    "description": "error",
    "content": {"application/json": {"schema": {"type": "object", "properties": {"error": {"type": "string"}}}}},
}
ERRORS = {"400": ERROR, "403": ERROR, "413": ERROR, "503": ERROR}


def _translate_form() -> dict:
    translate = _form("q", "source", "target", "format", "alternatives", "api_key", required=("q", "source", "target"))
    translate["properties"]["q"] = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    translate["properties"]["format"] = {"type": "string", "enum": ["text", "html"], "default": "text"}
    translate["properties"]["alternatives"] = {"type": "integer", "minimum": 0, "default": 0}
    return translate


def _upload_form() -> dict:
    upload = _form("source", "target", "api_key", required=("file", "source", "target"))
    upload["properties"]["file"] = {"type": "string", "format": "binary"}
    return upload


JSON_ONLY = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}


@dataclass(frozen=True)
class Endpoint:
    """One route: its path, methods, the name of its handler (cli/server/libretranslate.py or native.py), and what /spec says of it
    (`described` false: served, but not part of the API, as the web page and /spec itself)."""

    path: str
    methods: tuple[str, ...]
    handler: str
    summary: str = ""
    answer: str = ""
    body: dict | None = None
    errors: dict = field(default_factory=lambda: ERRORS)
    parameters: tuple[dict, ...] = ()
    described: bool = True


ENDPOINTS = (
    Endpoint("/", ("GET",), "web_page", described=False),
    Endpoint(
        "/translate",
        ("POST",),
        "translate",
        "Translate text or HTML",
        "translatedText (and alternatives, detectedLanguage)",
        _body(_translate_form()),
    ),
    Endpoint(
        "/languages",
        ("GET", "POST"),
        "languages",
        "Languages and their targets (through English included)",
        "[{code, name, targets}]",
        errors={},
    ),
    Endpoint(
        "/translate_file",
        ("POST",),
        "translate_file",
        "Translate a .txt or .html file",
        "translatedFileUrl",
        _body(_upload_form(), multipart=True),
    ),
    Endpoint(
        "/download_file/{name}",
        ("GET",),
        "download_file",
        "A translated file",
        "the file",
        errors={"404": ERROR},
        parameters=({"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},),
    ),
    Endpoint(
        "/detect",
        ("POST",),
        "detect",
        "Detect the language of a text",
        "[{confidence, language}]",
        _body(_form("q", "api_key", required=("q",))),
    ),
    Endpoint("/suggest", ("POST",), "suggest", "Suggestions (disabled on this server)", errors={"403": ERROR}),
    Endpoint("/frontend/settings", ("GET",), "frontend_settings", "Settings for web front-ends", "settings", errors={}),
    Endpoint("/spec", ("GET",), "spec", described=False),
    Endpoint(
        "/v1/translate",
        ("POST",),
        "native_translate",
        "Translations with scores, n-best and alignments",
        "results",
        JSON_ONLY,
    ),
    Endpoint("/v1/summarize", ("POST",), "native_summarize", "Summaries with alignments", "results", JSON_ONLY),
    Endpoint("/v1/align", ("POST",), "native_align", "Score and align a given translation", "alignment", JSON_ONLY),
    Endpoint("/v1/models", ("GET",), "list_models", "Served models", "models", errors={}),
    Endpoint("/health", ("GET",), "health", "Health", "ok", errors={}),
)


def openapi(version: str) -> dict:
    """The OpenAPI description of ENDPOINTS (each described one under its first method)."""
    paths = {}
    for endpoint in ENDPOINTS:
        if not endpoint.described:
            continue
        operation = {
            "summary": endpoint.summary,
            "responses": {**({"200": {"description": endpoint.answer}} if endpoint.answer else {}), **endpoint.errors},
        }
        if endpoint.body is not None:
            operation["requestBody"] = endpoint.body
        if endpoint.parameters:
            operation["parameters"] = list(endpoint.parameters)
        paths[endpoint.path] = {endpoint.methods[0].lower(): operation}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "attn serve",
            "version": version,
            "description": "LibreTranslate's API (fields from JSON, a form or the query string), and attn's "
            "own /v1 endpoints with scores, n-best lists and word alignments.",
        },
        "paths": paths,
    }
