"""LibreTranslate's endpoints, as LibreTranslate documents them: the shapes of its requests and
answers, its messages, and its web page's settings; `format: html` and uploaded files keep their
markup (runtime/documents/html.py). A pair no model translates, but two do through English, goes
through English; source "auto" detects each text's language among the served ones."""

from __future__ import annotations

import asyncio
from importlib import metadata
from pathlib import Path
from urllib.parse import quote

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse

from attn.runtime.constants import LANGUAGE_NAMES
from attn.runtime.documents import FORMATS, format_of, read_document
from attn.runtime.errors import UsageError
from attn.runtime.registry import DEFAULT_PAIRS
from attn.runtime.translation import unchanged
from attn.runtime.words import has_words

from .fields import integer, language, read_fields, texts_of
from .files import download_name
from .served import Server
from .served import detect as detect_languages
from .settings import SERVER_SEARCH_LIMITS
from .spec import openapi

TEXT_FORMATS = ("text", "html")
# The web page may be framed by pages of its own origin only (clickjacking).
PAGE_HEADERS = {"Content-Security-Policy": "frame-ancestors 'self'", "X-Frame-Options": "SAMEORIGIN"}


async def translate(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    fields = await read_fields(request, server.limits)
    texts, single = texts_of(fields, server.limits)
    source, target = language(fields, "source"), language(fields, "target")
    text_format = fields.get("format") or "text"
    if text_format not in TEXT_FORMATS:
        raise HTTPException(400, f"{text_format} format is not supported")
    alternatives = integer(fields.get("alternatives", 0), "alternatives", 0, SERVER_SEARCH_LIMITS["n_best"] - 1)
    if text_format == "html":
        outputs, detected = await server.translated_html(texts, source, target)
        body: dict = {"translatedText": outputs}
        if alternatives:
            body["alternatives"] = [[] for _ in texts]  # as LibreTranslate: none for HTML
        detected = detected[: len(texts)] if len(detected) >= len(texts) else [(source, 0.0)] * len(texts)
    else:
        results, detected = await server.translated(texts, source, target, alternatives)
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
    server: Server = request.app.state.server
    fields = await read_fields(request, server.limits, file=True)
    upload = fields.get("file")
    if not isinstance(upload, UploadFile):
        raise HTTPException(400, "Invalid request: missing file parameter")
    source, target = language(fields, "source"), language(fields, "target")
    if not upload.filename:
        raise HTTPException(400, "Invalid request: empty file")
    if format_of(upload.filename) is None:
        raise HTTPException(400, f"Invalid request: file format not supported (supported: {', '.join(FORMATS)})")
    data = await upload.read()
    try:
        document = await asyncio.to_thread(read_document, upload.filename, data)
        target = document.target(target, upload.filename)  # a catalog's own language, which target may not contradict
    except UsageError as error:
        raise HTTPException(400, f"Invalid request: {error}") from None
    texts = document.texts()
    chars = sum(len(text) for text in texts)
    if chars > server.limits.max_chars:
        raise HTTPException(
            413, f"Invalid request: file ({chars} characters) exceeds character limit ({server.limits.max_chars})"
        )
    routes, read = server.models.routes, None
    if source == "auto" and texts:  # one language for the whole file, as `attn translate -i` reads it
        read, reachable = await asyncio.to_thread(routes.document_source, texts, target)
        source = read if reachable else source
    if read == target:  # read as the target language: given back as it is (text by text, short ones were not)
        results = [unchanged(text) for text in texts]
    else:
        results, _ = await server.translated(texts, source, target) if texts else ([], [])
    output = await asyncio.to_thread(document.written, [result[0] for result in results], target)
    written_as = Path(upload.filename).with_suffix(format_of(upload.filename)).name  # a template (.pot) as a .po
    name = server.translated_files.store(written_as, output)
    url = f"{str(request.base_url).rstrip('/')}/download_file/{quote(name)}"  # "Übersicht.docx" percent-encoded
    return JSONResponse({"translatedFileUrl": url})


async def download_file(request: Request) -> FileResponse:
    server: Server = request.app.state.server
    name = request.path_params["name"]
    path = server.translated_files.path(name)
    if path is None:
        raise HTTPException(404, "Invalid filename")
    return FileResponse(path, filename=download_name(name))


async def suggest(request: Request) -> JSONResponse:
    raise HTTPException(403, "Suggestions are disabled on this server.")


def front_end_target(targets: set[str]) -> str:
    """The target a front end (the web page) picks first among `targets`: German, as `attn
    translate` translates by default, else English, else the first."""
    usual = DEFAULT_PAIRS["translate"][1]
    return usual if usual in targets else "en" if "en" in targets or not targets else sorted(targets)[0]


async def frontend_settings(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    target = front_end_target({target for _, target in server.models.pairs})
    return JSONResponse(
        {
            "charLimit": server.limits.max_chars,
            "frontendTimeout": 500,
            "apiKeys": server.limits.api_keys is not None,
            "keyRequired": server.limits.api_keys is not None,
            "suggestions": False,
            "filesTranslation": True,
            "supportedFilesFormat": list(FORMATS),
            "language": {
                "source": {"code": "auto", "name": "Auto Detect"},
                "target": {"code": target, "name": LANGUAGE_NAMES.get(target, target)},
            },
        }
    )


async def spec(request: Request) -> JSONResponse:
    return JSONResponse(openapi(metadata.version("attn")))


async def web_page(request: Request) -> HTMLResponse:
    server: Server = request.app.state.server
    return HTMLResponse(server.page, headers=PAGE_HEADERS)


async def detect(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    fields = await read_fields(request, server.limits)
    texts, _ = texts_of(fields, server.limits)
    if not any(map(has_words, texts)):  # blank or punctuation alone: it had been "de" at confidence 0
        raise HTTPException(400, "Invalid request: q has no words to detect a language in")
    [(language, probability)] = await detect_languages([" ".join(texts)], server.models.languages())
    return JSONResponse([{"confidence": round(100 * probability, 1), "language": language}])


async def languages(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    pairs = server.models.routes.all_pairs()  # pivoted pairs too: /translate takes them through English
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
