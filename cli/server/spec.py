"""`GET /spec`: the OpenAPI description of the endpoints `attn serve` answers."""

from __future__ import annotations


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


def openapi(version: str) -> dict:
    translate = _form("q", "source", "target", "format", "alternatives", "api_key", required=("q", "source", "target"))
    translate["properties"]["q"] = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    translate["properties"]["format"] = {"type": "string", "enum": ["text", "html"], "default": "text"}
    translate["properties"]["alternatives"] = {"type": "integer", "minimum": 0, "default": 0}
    upload = _form("source", "target", "api_key", required=("file", "source", "target"))
    upload["properties"]["file"] = {"type": "string", "format": "binary"}
    json_only = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "attn serve",
            "version": version,
            "description": "LibreTranslate's API (fields from JSON, a form or the query string), and attn's "
            "own /v1 endpoints with scores, n-best lists and word alignments.",
        },
        "paths": {
            "/translate": {
                "post": {
                    "summary": "Translate text or HTML",
                    "requestBody": _body(translate),
                    "responses": {
                        "200": {"description": "translatedText (and alternatives, detectedLanguage)"},
                        **ERRORS,
                    },
                }
            },
            "/translate_file": {
                "post": {
                    "summary": "Translate a .txt or .html file",
                    "requestBody": _body(upload, multipart=True),
                    "responses": {"200": {"description": "translatedFileUrl"}, **ERRORS},
                }
            },
            "/download_file/{name}": {
                "get": {
                    "summary": "A translated file",
                    "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "the file"}, "404": ERROR},
                }
            },
            "/detect": {
                "post": {
                    "summary": "Detect the language of a text",
                    "requestBody": _body(_form("q", "api_key", required=("q",))),
                    "responses": {"200": {"description": "[{confidence, language}]"}, **ERRORS},
                }
            },
            "/languages": {
                "get": {
                    "summary": "Languages and their targets",
                    "responses": {"200": {"description": "[{code, name, targets}]"}},
                }
            },
            "/suggest": {"post": {"summary": "Suggestions (disabled on this server)", "responses": {"403": ERROR}}},
            "/frontend/settings": {
                "get": {"summary": "Settings for web front-ends", "responses": {"200": {"description": "settings"}}}
            },
            "/v1/translate": {
                "post": {
                    "summary": "Translations with scores, n-best and alignments",
                    "requestBody": json_only,
                    "responses": {"200": {"description": "results"}, **ERRORS},
                }
            },
            "/v1/summarize": {
                "post": {
                    "summary": "Summaries with alignments",
                    "requestBody": json_only,
                    "responses": {"200": {"description": "results"}, **ERRORS},
                }
            },
            "/v1/align": {
                "post": {
                    "summary": "Score and align a given translation",
                    "requestBody": json_only,
                    "responses": {"200": {"description": "alignment"}, **ERRORS},
                }
            },
            "/v1/models": {"get": {"summary": "Served models", "responses": {"200": {"description": "models"}}}},
            "/health": {"get": {"summary": "Health", "responses": {"200": {"description": "ok"}}}},
        },
    }
