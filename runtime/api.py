"""attn from Python: load models, translate and summarize, with scores, n-best lists and word
alignments (docs/python.md).

    import attn.runtime as attn

    attn.translate("she is eating a green apple")            # 'Sie isst einen grünen Apfel'
    attn.translate("Guten Morgen", source="de", target="fr")  # through English: no German → French model
    translator = attn.load()                                  # every installed model; or load("en-de"), load("path/to/folder")
    result = translator.translate("The file could not be opened.", target="de", beam=5, n_best=3)
    result.text, result.score, result.alignment.pharaoh(), [t.text for t in result.n_best]
    attn.summarize(article)                                   # its 2 key sentences, as `attn summarize` prints
    attn.summarize(article, headline=True)                    # the headline the model writes

Which model serves a text is runtime/router.py's choice, as on the command line: a source of None
is detected for each text among the languages of the loaded models (not when they read only one;
English unless the identifier is sure of another, where English goes directly; "auto" is --from
auto, which without a target reads each text's likeliest language),
a target of None is the detected language's first direction (English → German, German →
English, French → English), a pair no model translates goes through English, and a text already
in the target language comes back as it is. Notes (the languages detected, a long sentence
translated in parts, an input given back unchanged) go to the `attn` logger at INFO level.
"""

from __future__ import annotations

import inspect
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .constants import BATCH_SIZE, language_code
from .errors import UsageError, unknown_name
from .extractive import DEFAULT_SENTENCES, MOST_SENTENCES, summary_sentences
from .loaded_model import LoadedModel
from .mail import message_text
from .manifest import ModelFolderError, read_manifest
from .misread import MisreadInputs
from .registry import installed_models, installed_pairs, pair_owners, pickable, resolve_model
from .router import Router, Routes
from .search import check_search_value
from .sentences import joined
from .sessions import DEVICES
from .text_layout import spaced_as
from .translation import SETTINGS, TEXT_OPTIONS, TextOptions, Translation, unchanged

log = logging.getLogger("attn")


def named_languages(source: str | None, target: str | None) -> None:
    """A UsageError when `source` or `target` is an empty name (the command line's "name a
    language"; had been read as no language, "no model here translates any language into any
    language")."""
    for name, code in (("source", source), ("target", target)):
        if isinstance(code, str) and not code.strip():
            raise UsageError(f"{name} is empty: name a language, a code ('de') or a name ('German'), or leave it out")


def distinct_languages(source: str | None, target: str | None) -> tuple[str | None, str | None]:
    """`source` and `target` as codes, a source "auto" as None (detected, as --from auto and the
    server take it); a UsageError when both are given and the same, as `attn translate -s de -t
    de` and the server refuse them, and an empty one (named_languages)."""
    named_languages(source, target)
    source, target = (None if code is None else language_code(code) for code in (source, target))
    source = None if source == "auto" else source
    if source is not None and source == target:
        raise UsageError(f"source and target are both {source}: there is nothing to translate")
    return source, target


@dataclass(frozen=True)
class Result:
    """One input's outputs: `n_best` (Translations, best first: the best scored, or one scored
    within 0.2 of it that keeps the input's numbers and negations better,
    runtime/number_choice.py, then the others by score, the scores with the reverse model's where
    the beam was ranked again, runtime/reverse_scores.py; one unless more were asked for),
    the `source` language it was read in (given or detected; None for a blank input) and the
    `target` language. `text`, `score` and `alignment` are the best's: the alignment of its words
    (weights (T, S) over target × source words, rows summing to 1; .pharaoh()). A summary's
    `sentences`: those of the document its headline (`text`) drew on most, in document order."""

    n_best: list[Translation]
    source: str | None
    target: str | None
    sentences: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return self.n_best[0].text

    @property
    def score(self) -> float:
        return self.n_best[0].score

    @property
    def alignment(self):
        return self.n_best[0].alignment


class Translator:
    """The models of `folders`, loaded on first use, behind `translate` and `summarize`.
    `device` "cpu" or "cuda"; `threads` on the CPU: batches decoded at once (0: one per core)."""

    def __init__(
        self,
        folders: Sequence[str | Path],
        device: str = "cpu",
        threads: int = 0,
        notify: Callable[[str], None] = log.info,
    ):
        if device not in DEVICES:
            raise ValueError(f"device must be one of {', '.join(DEVICES)}, got {device!r}")
        self.device, self.threads, self.notify = device, counted("threads", threads, 0), notify
        self.folders = [Path(folder) for folder in folders]
        manifests = [read_manifest(folder, verify_checksums=False) for folder in self.folders]
        translating = [(folder, m) for folder, m in zip(self.folders, manifests) if m.task == "translate"]
        self.summarizers = [folder for folder, m in zip(self.folders, manifests) if m.task == "summarize"]
        self.owners = {pair: translating[index][0] for pair, index in pair_owners([m for _, m in translating]).items()}
        self._models: dict[tuple, LoadedModel] = {}
        self._peers: dict[Path, LoadedModel] = {}  # the same by folder resolved (LoadedModel.peers)
        self._loading = threading.Lock()

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The (source, target) directions the loaded models translate directly."""
        return list(self.owners)

    def _model(self, folder: Path, pair: tuple[str | None, str | None]) -> LoadedModel:
        with self._loading:
            if folder not in self._models:
                self._models[folder] = LoadedModel(folder, self.device, self.threads, self.notify, *pair)
                self._models[folder].peers = self._peers
                self._peers[folder.resolve()] = self._models[folder]
            model = self._models[folder]
        return model if None in pair or pair == (model.source_lang, model.target_lang) else model.towards(*pair)

    def translate(
        self,
        texts: str | list[str],
        source: str | None = None,
        target: str | None = None,
        *,
        n_best: int = 1,
        beam: int | None = None,
        sample: bool = False,
        sentences: bool = True,
        batch_size: int = BATCH_SIZE,
        **search,
    ) -> Result | list[Result]:
        """The translation of one text (a Result) or of each of a list (a list of Results, in
        order). `search`: the SearchOptions settings (length_penalty, no_repeat_ngram, …;
        runtime/search.py) and the TextOptions (replace_unk, max_source_pieces, reverse_weight; runtime/translation.py),
        the model's own defaults for the rest; a wrong one is a ValueError naming it. `sentences`
        False translates each text whole. `source` and `target` are codes or names ("de",
        "German"); one that no loaded model reaches, directly or through English, is a
        ValueError."""
        counted("batch_size", batch_size, 1)
        known_settings({"beam": beam, "n_best": n_best, **search}, "translate")
        one_sampled(sample, n_best)
        single, inputs = texts_given(texts)
        if not self.owners:
            raise ModelFolderError("no translation model is loaded")
        likeliest = target is None and isinstance(source, str) and source.strip().lower() == "auto"  # --from auto's
        source, target = distinct_languages(source, target)
        sources = {pair[0] for pair in self.owners}
        assumed = source is None and len(sources) == 1  # one language to read: not detected, but checked
        if assumed:
            source = next(iter(sources))

        text_options = TextOptions(sentences, **{name: search.pop(name) for name in TEXT_OPTIONS if name in search})

        def load(pair, last):
            model = self._model(self.owners[pair], pair)
            return model, model.search_options(beam, n_best if last else 1, sample and last, self.notify, **search)

        routes = Routes(self.pairs)
        router = Router(self.pairs, load, self.notify, None if source or likeliest else routes.usual_source(target))
        self.check_route(source, target)
        detected = router.detect(inputs) if source is None else [source] * len(inputs)
        results = []
        for language in dict.fromkeys(detected):
            chosen = [i for i, code in enumerate(detected) if code == language]
            numbers = [i + 1 for i in chosen]  # in notes, each input's own number
            found = router.translate([inputs[i] for i in chosen], language, target, batch_size, numbers, text_options)
            hops = router.routes.hops(language, target) if language else None
            goal = hops[-1][1] if hops else target or language
            results += [(i, Result(spaced_as(inputs[i], n), language, goal)) for i, n in zip(chosen, found)]
        ordered = [result for _, result in sorted(results, key=lambda item: item[0])]
        if assumed:
            misread = MisreadInputs(source, routes.languages, self.notify, installed_advice)
            misread.check(inputs, ordered, range(1, len(inputs) + 1))
        return ordered[0] if single else ordered

    def check_route(self, source: str | None, target: str | None) -> None:
        """A UsageError unless the loaded models take `source` (a code; None: detected for each
        text) into `target` (None: the source's own direction), directly or through English."""
        routes = Routes(self.pairs)
        if (
            routes.hops(source, target) is None
            if source is not None
            else target is not None and not routes.sources_into(target) and target not in routes.languages
        ):
            offered = ", ".join(f"{s}→{t}" for s, t in self.pairs)
            raise UsageError(
                f"no model here translates {source or 'any language'} into {target or 'any language'} ({offered})"
            )

    def read_as(self, texts: list[str], source: str | None, target: str | None) -> str | None:
        """The language the texts of one document are read in: `source`, or, when it is None, the
        language read on all of them together (runtime/misread.py document_language) if a model
        here takes it into `target` or it is `target` (None: each text's own, as `translate`
        detects it). Text by text, a heading or a table cell of a word or two read as any
        language ("OK" as German), and the page kept its `lang`."""
        source, target = distinct_languages(source, target)
        if source is not None or len({pair[0] for pair in self.pairs}) < 2:
            return source  # one language to read: `translate` decides
        language, reachable = Routes(self.pairs).document_source(texts, target)
        return language if reachable else None

    def translate_read(self, texts: list[str], source: str | None, target: str | None, **search) -> list[Result]:
        """`translate` of the texts of one document read in `source` (read_as); in `target` already,
        they come back as they were."""
        if source is not None and source == (None if target is None else language_code(target)):
            return [Result(unchanged(text), source, source) for text in texts]
        return self.translate([text.strip() for text in texts], source, target, **search)  # the format places its edges

    def translate_html(
        self, texts: str | list[str], source: str | None = None, target: str | None = None, **search
    ) -> str | list[str]:
        """Each HTML text (a fragment or a page) translated as `attn translate --html` translates a
        line: its text translated as `translate` does, its tags placed on the translation by the
        alignment; the HTML back, one string per text. A page that declares its language declares
        the one its texts went into. Needs Beautiful Soup (`pip install 'attn[documents]'`)."""
        one_output(search, "translate_html")
        named_languages(source, target)
        single, fragments = texts_given(texts)
        try:
            from .documents.html import fragments_languages, translated_by_language, translated_fragments
        except ModuleNotFoundError as error:
            raise UsageError(f"HTML needs the Python package {error.name!r}: pip install 'attn[documents]'") from None

        targets = set()

        def translated(found: list[str], owners: list[int]) -> list[Translation]:
            """The texts of the fragments, each fragment's read in one language (read_as)."""
            read = fragments_languages(found, owners, lambda own: self.read_as(own, source, target))
            results = translated_by_language(
                found, owners, read, lambda language, given, _: self.translate_read(given, language, target, **search)
            )
            targets.update(result.target for result in results)
            return [result.n_best[0] for result in results]

        def language() -> str | None:  # the one language the texts went into, if one
            return next(iter(targets)) if len(targets) == 1 else None

        written = translated_fragments(fragments, translated, language)
        return written[0] if single else written

    def translate_document(
        self,
        name: str | Path,
        data: bytes,
        source: str | None = None,
        target: str | None = None,
        *,
        fuzzy: bool = False,
        **search,
    ) -> bytes:
        """A document file's bytes (its format by `name`'s suffix: docs/documents.md) translated:
        each of its texts as `translate` translates it, its markup placed by the alignment; a file
        that declares its language declares the one its texts went into. A gettext catalog is
        translated into its Language header's language (`target` may repeat it, not contradict it:
        a ValueError), its fuzzy messages too with `fuzzy`. Needs the documents extra
        (`pip install 'attn[documents]'`)."""
        one_output(search, "translate_document")
        named_languages(source, target)
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"translate_document takes the file's bytes, got {type(data).__name__}")
        from .documents import read_document

        document = read_document(name, data, fuzzy)
        target = document.target(None if target is None else language_code(target), name)
        texts = document.texts()
        results = self.translate_read(texts, self.read_as(texts, source, target), target, **search) if texts else []
        targets = {result.target for result in results}
        return document.written(results, next(iter(targets)) if len(targets) == 1 else None)

    def summarize(
        self,
        texts: str | list[str],
        *,
        sentences: int = DEFAULT_SENTENCES,
        n_best: int = 1,
        beam: int | None = None,
        batch_size: int = 8,
        **search,
    ) -> Result | list[Result]:
        """The summary of one text (a Result: its headline, and the `sentences` of the text that
        headline drew on most) or of each of a list."""
        if isinstance(sentences, bool) or not isinstance(sentences, int) or not 1 <= sentences <= MOST_SENTENCES:
            raise ValueError(f"sentences must be an integer in [1, {MOST_SENTENCES}], got {sentences!r}")
        counted("batch_size", batch_size, 1)
        known_settings({"beam": beam, "n_best": n_best, **search}, "summarize")
        sample = one_sampled(search.pop("sample", False), n_best)
        single, documents = texts_given(texts)
        documents = [message_text(document) for document in documents]  # an e-mail message: its body
        if not self.summarizers:
            raise ModelFolderError("no summarization model is loaded")
        model = self._model(self.summarizers[0], (None, None))
        text_options = TextOptions(False, **{name: search.pop(name) for name in TEXT_OPTIONS if name in search})
        options = model.search_options(beam, n_best, sample, self.notify, **search)
        found = model.translate(documents, options, batch_size, 1, text_options)
        results = [
            Result(
                n, model.source_lang, model.target_lang, tuple(summary_sentences(d, n[0], sentences, model.source_lang))
            )
            for d, n in zip(documents, found)
        ]
        return results[0] if single else results


def installed_advice(language: str) -> str:
    """How to translate from `language`, for a note on texts read as it (runtime/misread.py)."""
    if all(source != language for source, _ in installed_pairs()):
        return "no installed model reads that language"
    return "attn.load() loads every installed model and detects each text's language"


def known_settings(search: dict, call: str) -> None:
    """A TypeError naming the first of `search`'s names that is no setting of the search or of the
    text translator, and the nearest that is (not the error of an inner class); a ValueError naming
    the first whose value is out of range, by its keyword ("length_penalty", not the command
    line's "length-penalty")."""
    if unknown := unknown_name(search, SETTINGS):
        raise TypeError(f"{call}() got an unknown setting {unknown}")
    for name, value in search.items():
        check_search_value(name, value, field=True)


# Translator.translate's own keywords beside the search settings (SETTINGS): sentences, batch_size
TRANSLATE_KEYWORDS = {
    name
    for name, parameter in inspect.signature(Translator.translate).parameters.items()
    if parameter.kind is parameter.KEYWORD_ONLY and name not in SETTINGS
}


def one_output(search: dict, call: str) -> None:
    """A TypeError or ValueError for a wrong setting of `search`, named as `call` (known_settings),
    and a ValueError for an n_best above 1: `call` writes one text per input, and n-best lists are
    a Result's (Translator.translate)."""
    known_settings({name: value for name, value in search.items() if name not in TRANSLATE_KEYWORDS}, call)
    counted("batch_size", search.get("batch_size", BATCH_SIZE), 1)
    if search.get("n_best", 1) != 1:
        raise ValueError(f"{call} writes one text per input: n-best lists are attn.load().translate(..., n_best=N)'s")


def one_sampled(sample: bool, n_best: int) -> bool:
    """`sample`; a ValueError when it is asked with `n_best` above 1 (the command line gives one,
    with a note)."""
    if sample and n_best > 1:
        raise ValueError(f"sample=True gives one output per text: n_best={n_best} cannot be had with it")
    return sample


def counted(name: str, value, least: int) -> int:
    """`value`, an integer of at least `least`; a ValueError naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be an integer of at least {least}, got {value!r}")
    return value


def texts_given(texts) -> tuple[bool, list[str]]:
    """(whether `texts` is one text, its texts as a list): a text, or a list or other iterable of
    texts; a TypeError for anything else."""
    if isinstance(texts, str):
        return True, [texts]
    if not isinstance(texts, Iterable) or isinstance(texts, (bytes, dict)):
        raise TypeError(f"texts must be a str or a list of str, got {type(texts).__name__}")
    listed = list(texts)
    for index, text in enumerate(listed):
        if not isinstance(text, str):
            raise TypeError(f"texts[{index}] must be a str, got {type(text).__name__}")
    return False, listed


def load(
    model: str | Path | None = None, *, device: str = "cpu", threads: int = 0, notify: Callable[[str], None] = log.info
) -> Translator:
    """A Translator of one model (an installed name such as "en-de", or a model folder), or of
    every installed model when `model` is None (but those used only by name: registry.pickable)."""
    folders = (
        [m.folder for m in pickable(installed_models())]
        if model is None
        else [resolve_model(str(model), "translate", None, None)]
    )
    return Translator(folders, device, threads, notify)


_DEFAULT: list[Translator] = []  # the installed models, loaded by the first one-call translate or summarize


def _installed() -> Translator:
    if not _DEFAULT:
        _DEFAULT.append(load())
    return _DEFAULT[0]


def translate(text: str | list[str], source: str | None = None, target: str | None = None, **search) -> str | list[str]:
    """The best translation of a text (or of each of a list) by the installed models; the
    languages as Translator.translate takes them. The n-best list is a Result's
    (`attn.load().translate(text, n_best=3).n_best`): an n_best here is a ValueError."""
    one_output(search, "attn.translate")
    found = _installed().translate(text, source, target, **search)
    return found.text if isinstance(found, Result) else [result.text for result in found]


def translate_html(
    text: str | list[str], source: str | None = None, target: str | None = None, **search
) -> str | list[str]:
    """An HTML text (or each of a list) translated by the installed models, its tags kept
    (Translator.translate_html)."""
    return _installed().translate_html(text, source, target, **search)


def translate_document(
    name: str | Path, data: bytes, source: str | None = None, target: str | None = None, **search
) -> bytes:
    """A document file's bytes translated by the installed models (Translator.translate_document)."""
    return _installed().translate_document(name, data, source, target, **search)


def summarize(text: str | list[str], *, headline: bool = False, **search) -> str | list[str]:
    """What `attn summarize` prints by default for a text (or for each of a list) with the
    installed summarizer: the sentences its headline drew on most, on one line (whatever the search
    settings); with `headline`, the headline, as `attn summarize --headline` (with `sentences`, a
    ValueError, as the command refuses the two together; n-best headlines are a Result's:
    `attn.load().summarize(text, n_best=3).n_best`)."""
    if headline and "sentences" in search:
        raise ValueError("sentences are those of the document: summarize takes sentences or headline, not both")
    if search.get("n_best", 1) != 1:
        raise ValueError("attn.summarize gives one summary: attn.load().summarize(..., n_best=N) the n-best headlines")
    found = _installed().summarize(text, **search)

    def printed(result: Result) -> str:
        return result.text if headline else joined(list(result.sentences))

    return printed(found) if isinstance(found, Result) else [printed(result) for result in found]
