"""What a request asks, read as LibreTranslate's clients send it: the fields of its JSON body, its
form body (urlencoded or multipart) and its query string, a body's field before the query
string's, within the server's limits; each wrong field a 4xx naming it."""

from __future__ import annotations

import asyncio
import hmac
import json
from urllib.parse import parse_qsl

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request

from attn.runtime.constants import BOM, language_code
from attn.runtime.errors import UsageError, unknown_name
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.search import SearchOptions, check_search_value
from attn.runtime.tokenizer import valid_unicode
from attn.runtime.translation import TEXT_OPTIONS, TextOptions

from .settings import SERVER_SEARCH_LIMITS, Limits


def first_values(pairs) -> dict:
    """Form fields (name, value) by name, a repeated one at its first value, as LibreTranslate
    (Flask) reads `q=a&q=b`."""
    found: dict = {}
    for name, value in pairs:
        found.setdefault(name, value)
    return found


def valid_strings(value):
    """A JSON value with each string's lone surrogates as U+FFFD, as the command line reads them
    (JSON's "\\udfff" escapes one; answered as it was, it had made a 500)."""
    if isinstance(value, str):
        return valid_unicode(value)
    if isinstance(value, list):
        return [valid_strings(item) for item in value]
    if isinstance(value, dict):
        return {valid_strings(key): valid_strings(item) for key, item in value.items()}
    return value


async def read_fields(request: Request, limits: Limits, json_only: bool = False, file: bool = False) -> dict:
    """The request's fields: a JSON object, or (LibreTranslate's clients send these) a form body.
    The body is read up to the limit (a `file` upload's, Limits.max_file_bytes) and no further (413
    beyond it, naming the option that raises it); the API key is checked here."""
    limit = limits.max_file_bytes if file else limits.max_body_bytes
    over = f"Invalid request: body over {limit} bytes ({'--max-file-mb' if file else '--max-chars'} raises it)"
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, over)
    body = bytearray()
    try:
        async with asyncio.timeout(limits.body_seconds):  # a client trickling its body holds no socket for long
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise HTTPException(413, over)
    except TimeoutError:
        raise HTTPException(408, f"Invalid request: the body took over {limits.body_seconds:g} s") from None
    except ClientDisconnect:
        raise HTTPException(499, "the client went away") from None
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    fields = {} if json_only else first_values(request.query_params.multi_items())
    if content_type == "multipart/form-data" and not json_only:
        try:
            form = await _replayed(request, bytes(body)).form(max_files=1, max_fields=1000)
        except Exception as error:  # python-multipart's and Starlette's parse errors
            why = error.detail if isinstance(error, HTTPException) else type(error).__name__  # "Too many files"
            raise HTTPException(400, f"Invalid request: malformed multipart body ({why})") from None
        fields.update(first_values(form.multi_items()))
    else:
        try:
            text = bytes(body).decode("utf-8-sig")  # a byte-order mark before JSON is read past, as RFC 8259 allows
        except UnicodeDecodeError:
            raise HTTPException(400, "Invalid request: the body is not UTF-8") from None
        if content_type == "application/json" or json_only:
            try:
                parsed = valid_strings(json.loads(text) if text.strip() else {})
            except ValueError:
                raise HTTPException(400, "Invalid request: the body is not valid JSON") from None
            except RecursionError:  # Python's decoder recurses once per level
                raise HTTPException(400, "Invalid request: the JSON body is nested too deeply") from None
            if not isinstance(parsed, dict):
                raise HTTPException(400, "Invalid request: the body must be a JSON object")
            fields.update(parsed)
        else:
            fields.update(first_values(parse_qsl(text, keep_blank_values=True)))
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


def check_known(fields: dict, known: tuple[str, ...]) -> None:
    """400 naming a field the endpoint does not read, and the nearest it does: a misspelt setting
    (`"nbest": 3`) was ignored with a 200."""
    if unknown := unknown_name(sorted(set(fields) - {"api_key"}), known):
        raise HTTPException(400, f"Invalid request: unknown field {unknown}")


def required(fields: dict, name: str) -> str:
    value = fields.get(name)
    if not value:
        raise HTTPException(400, f"Invalid request: missing {name} parameter")
    if not isinstance(value, str):
        raise HTTPException(400, f"Invalid request: {name} must be a string")
    return value


def language(fields: dict, name: str) -> str:
    """A required language field as `attn translate` takes one: a code in any case ("EN"), a
    locale's ("fr-FR") or a name (runtime/constants.py language_code); "auto" as it is."""
    return language_code(required(fields, name))


def integer(value, name: str, low: int, high: int) -> int:
    """A form's string or JSON's number as an int in [low, high]; 400 otherwise."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HTTPException(400, f"Invalid request: {name} must be an integer in [{low}, {high}]")
    return value


def text_options(fields: dict) -> TextOptions:
    """The request's TextOptions (runtime/translation.py: sentences, max_source_pieces, replace_unk,
    reverse_weight); a wrong one is a 400 naming it."""
    try:
        return TextOptions(**{name: fields[name] for name in TEXT_OPTIONS if name in fields})
    except UsageError as error:
        raise HTTPException(400, f"Invalid request: {error}") from None


def search_options(translator: LoadedModel, fields: dict) -> SearchOptions:
    """The model's defaults with the request's search settings, as the command line takes them
    (a beam below n_best is raised to it); a wrong one is a 400 naming it."""
    settings = {name: fields[name] for name in SearchOptions.__dataclass_fields__ if name in fields}
    try:
        for name, value in settings.items():
            check_search_value(name, value, SERVER_SEARCH_LIMITS.get(name), field=True)
        return translator.search_options(
            settings.pop("beam", None),
            settings.pop("n_best", 1),
            settings.pop("sample", False),
            lambda message: None,
            **settings,
        )
    except UsageError as error:
        raise HTTPException(400, f"Invalid request: {error}") from None
