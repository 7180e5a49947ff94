"""attn's own endpoints, for what only attn has: n-best lists with scores, word alignments and
coverage (the jsonl schema's objects, runtime/records.py), summaries, the alignment of a given
translation, and the served models."""

from __future__ import annotations

import asyncio
import threading

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from attn.runtime.extractive import DEFAULT_SENTENCES, MOST_SENTENCES, summary_sentences
from attn.runtime.mail import message_text
from attn.runtime.records import input_record
from attn.runtime.translation import SETTINGS

from .fields import check_known, integer, language, read_fields, required, search_options, text_options, texts_of
from .served import Server, decode


async def native_translate(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    fields = await read_fields(request, server.limits, json_only=True)
    check_known(fields, ("q", "source", "target", "model", *SETTINGS))
    texts, _ = texts_of(fields, server.limits)
    chosen = text_options(fields)
    detected = None
    if "model" in fields:
        batcher = server.models.named(str(fields["model"]), "translate")
        results = await decode(batcher, texts, search_options(batcher.translator, fields), chosen, server.limits)
    else:
        source = language(fields, "source")
        results, found = await server.routed(
            texts, source, language(fields, "target"), lambda translator: search_options(translator, fields), chosen
        )
        detected = found if source == "auto" else None
    records = [input_record(text, r) for text, r in zip(texts, results)]
    if detected is not None:  # source "auto": the language each text was read in, as /translate's detectedLanguage
        for record, (code, likelihood) in zip(records, detected):
            record["detected_language"] = {"language": code, "confidence": round(100 * (likelihood or 0.0), 1)}
    return JSONResponse({"results": records})


async def native_summarize(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    fields = await read_fields(request, server.limits, json_only=True)
    check_known(fields, ("q", "model", *SETTINGS))  # "sentences" among them: see below
    texts, _ = texts_of(fields, server.limits)
    texts = [message_text(text) for text in texts]  # an e-mail message: its body (runtime/mail.py)
    batcher = (
        server.models.named(str(fields["model"]), "summarize") if "model" in fields else server.models.summarizer()
    )
    # "sentences": how many of the document's sentences each record holds beside the headline, as
    # `attn summarize -f jsonl` writes them (the text is read whole, never split into sentences)
    count = integer(fields.get("sentences", DEFAULT_SENTENCES), "sentences", 1, MOST_SENTENCES)
    results = await decode(
        batcher,
        texts,
        search_options(batcher.translator, fields),
        text_options({**fields, "sentences": False}),
        server.limits,
    )
    language = batcher.translator.source_lang
    return JSONResponse(
        {
            "results": [
                {**input_record(text, r, "summary"), "sentences": summary_sentences(text, r[0], count, language)}
                for text, r in zip(texts, results)
            ]
        }
    )


async def native_align(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    fields = await read_fields(request, server.limits, json_only=True)
    check_known(fields, ("source", "target", "source_lang", "target_lang", "model"))
    source, target = required(fields, "source"), required(fields, "target")
    if len(source) + len(target) > server.limits.max_chars:
        raise HTTPException(
            413,
            f"Invalid request: request ({len(source) + len(target)} characters) exceeds "
            f"character limit ({server.limits.max_chars})",
        )
    if "model" in fields:
        batcher = server.models.named(str(fields["model"]), "translate")
    else:
        batcher = server.models.for_pair(required(fields, "source_lang"), required(fields, "target_lang"))
    if server.aligning.locked():
        raise HTTPException(503, "Slowdown: alignments are being computed; retry later", headers={"Retry-After": "1"})
    # The slot stays taken until the work has ended, also after a timeout's 503, which stops it
    # at its next step: abandoned alignments neither pile up nor run unbounded.
    await server.aligning.acquire()
    stop = threading.Event()
    work = asyncio.ensure_future(asyncio.to_thread(batcher.translator.force, source, target, None, stop))
    work.add_done_callback(lambda done: (server.aligning.release(), done.cancelled() or done.exception()))
    try:
        translation = await asyncio.wait_for(asyncio.shield(work), server.limits.timeout)
    except TimeoutError:
        stop.set()
        raise HTTPException(503, f"the request took longer than {server.limits.timeout:g} s") from None
    return JSONResponse(input_record(source, [translation]))


async def list_models(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
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
            for name, b in server.models.batchers.items()
        ]
    )


async def health(request: Request) -> JSONResponse:
    server: Server = request.app.state.server
    return JSONResponse(
        {
            "status": "ok",
            "models": sorted(server.models.batchers),
            "queued": sum(b.queued for b in server.models.every_batcher()),
        }
    )
