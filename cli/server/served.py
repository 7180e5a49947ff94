"""The served models and how a request's texts reach them: each language pair's batcher, a pair
without a model taken through English (runtime/router.py), "auto" detected per text, and the
limits every decode keeps (413 over the work budget, 503 busy or past the timeout)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.exceptions import HTTPException

from attn.runtime.documents.html import TooDeep, translate_html
from attn.runtime.errors import UsageError
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.misread import text_language
from attn.runtime.registry import pair_owners
from attn.runtime.router import Routes, compose
from attn.runtime.search import SearchOptions
from attn.runtime.translation import TextOptions, unchanged

from .batcher import Busy, DynamicBatcher
from .files import TranslatedFiles
from .settings import Limits

ALIGNMENTS_AT_ONCE = 2  # /v1/align requests computed at once; more wait no longer than a 503


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


@dataclass
class Server:
    """What every handler reads: the served models, the limits, the translated files kept for
    download, the /v1/align slots, and the web page. Handlers find it as `request.app.state.server`."""

    models: Models
    limits: Limits
    page: str
    translated_files: TranslatedFiles = field(default_factory=TranslatedFiles)
    aligning: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(ALIGNMENTS_AT_ONCE))

    async def routed(
        self, texts: list[str], source: str, target: str, last_options, text_options: TextOptions = TextOptions()
    ) -> list:
        """Each text's translations and the detections: source "auto" detected per text, a text
        detected in the target language given back, a pair without a model through English
        (runtime/router.py); `last_options(translator)` are the search options of the last model."""
        if source == "auto" and target not in self.models.languages():
            raise HTTPException(400, f"{target} is not supported")
        if source == "auto":
            detected = await detect(texts, self.models.languages(), self.models.routes.usual_source(target))
        else:
            detected = [(source, None)] * len(texts)
        results: list = [None] * len(texts)
        for language in dict.fromkeys(code for code, _ in detected):
            chosen = [i for i, (code, _) in enumerate(detected) if code == language]
            hops = self.models.routes.hops(language, target)
            if hops == [] and source == "auto":  # detected in the target language: given back, as the CLI does
                for i in chosen:
                    results[i] = unchanged(texts[i])
                continue
            if not hops:
                self.models.for_pair(language, target)  # the 400 that names what is missing
            found = None
            for number, pair in enumerate(hops):
                batcher = self.models.pairs[pair]
                translator = batcher.translator
                options = last_options(translator) if number == len(hops) - 1 else translator.default_options()
                inputs = [texts[i] for i in chosen] if found is None else [result[0].text for result in found]
                step = await decode(batcher, inputs, options, text_options, self.limits)
                found = (
                    step
                    if found is None
                    else [[compose(before[0], after) for after in result] for before, result in zip(found, step)]
                )
            for i, result in zip(chosen, found):
                results[i] = result
        return results, detected

    async def translated(self, texts: list[str], source: str, target: str, alternatives: int = 0) -> list:
        """LibreTranslate's /translate: each text's 1 + `alternatives` translations, and the detections."""

        def options(translator: LoadedModel) -> SearchOptions:
            return translator.default_options(
                n_best=alternatives + 1, beam=max(translator.default_options().beam, alternatives + 1)
            )

        return await self.routed(texts, source, target, options)

    async def translated_html(self, documents: list[str], source: str, target: str) -> tuple[list[str], list]:
        detections = []

        async def texts_translated(texts: list[str]) -> list:
            results, detected = await self.translated(texts, source, target)
            detections.extend(detected)
            return [result[0] for result in results]

        try:
            return [await translate_html(document, texts_translated, target) for document in documents], detections
        except TooDeep as error:
            raise HTTPException(400, f"Invalid request: {error}") from None


async def detect(texts: list[str], languages: set[str], assumed: str | None = None) -> list[tuple[str, float]]:
    """The language of each text among `languages` and its probability, off the event loop, as
    `attn translate` reads it (runtime/misread.py text_language, `assumed` unless the identifier
    is sure of another); 400 when the detector knows none of `languages`."""

    try:
        return await asyncio.to_thread(lambda: [text_language(text, assumed, languages) for text in texts])
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
    batcher: DynamicBatcher, texts: list[str], options: SearchOptions, text_options: TextOptions, limits: Limits
) -> list:
    """The batcher's results, or 503 when it is full, shutting down, or past the timeout; 413 over
    the work budget (check_budget)."""
    if len(texts) > batcher.max_queued:  # more than may ever wait at once: a retry could never succeed
        raise HTTPException(
            413,
            f"Invalid request: {len(texts)} texts (an HTML document's blocks of text count one each) "
            f"at once; this server takes at most {batcher.max_queued}",
        )
    check_budget(batcher, texts, options, limits)
    try:
        return await asyncio.wait_for(batcher.translate(texts, options, text_options), limits.timeout)
    except Busy as error:
        raise HTTPException(503, f"Slowdown: {error}; retry later", headers={"Retry-After": "1"}) from None
    except TimeoutError:
        raise HTTPException(503, f"the request took longer than {limits.timeout:g} s") from None
