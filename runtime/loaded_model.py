"""LoadedModel: a model folder loaded for one of its directions: its verified graphs as sessions,
tokenizer, output layer and shortlist, the encoder and the search; `translate` hands texts to the
text translator (runtime/texts.py). The Python API over it, for users, is runtime/api.py.

    model = LoadedModel("models/en-de", device="cpu", threads=2)
    [[best, *rest]] = model.translate(["she is eating a green apple"], SearchOptions(beam=5))

On the CPU, `threads` is the number of batches decoded at once, each in single-threaded sessions:
a decoder step is a chain of small products that one core runs nearly as fast as two, while
onnxruntime releases the GIL during a run, so batches side by side keep every core busy
(docs/studies/SPEED-HISTORY.md). On CUDA one batch runs at a time and `threads` goes to the sessions.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import onnxruntime

from .constants import (
    BATCH_SIZE,
    BOS,
    DECODER,
    ENCODER,
    EOS,
    LEXICON,
    OUTPUT_LAYER,
    PAD,
    SOURCE_TOKENIZER,
    SOURCE_WORDS,
    TARGET_WORDS,
    TOKENIZER,
    language_words_file,
    target_token,
)
from .decoder_state import Device, OnnxDecoderState
from .errors import UsageError, first_line
from .graph_check import bind_output_layer, check_finite_weights, check_graphs, check_self_contained
from .graph_contract import SOURCE_IDS, SOURCE_MASK
from .manifest import Manifest, ModelFolderError, VerifiedFile, read_manifest, verified_bytes
from .number_choice import near_the_best
from .output_layer import OutputLayer
from .parallel import inputs_for_workers, worker_count
from .registry import folder_for_pair
from .required_search import Requirement, required_beam_search
from .reverse_scores import ReverseScorer
from .search import (
    MODEL_SEARCH_DEFAULTS,
    SAMPLING_SETTINGS,
    Hypothesis,
    SearchOptions,
    beam_search,
    check_search_value,
    final_score,
    greedy_search,
)
from .sessions import create_session, warn_on_stderr
from .shortlist import Shortlist
from .texts import TextTranslator
from .tokenizer import SubwordTokenizer
from .translation import TextOptions, Translation
from .word_check import WordCheck, document_words, listed_words

# SearchOptions fields whose default a model's manifest may set ([search] of its training config)
MANIFEST_SEARCH_DEFAULTS = ("beam", "length_penalty", "min_length", "no_repeat_ngram")


def graph_checksum(manifest: Manifest, name: str, bound: bool = False) -> str:
    """What the optimized-graph cache knows the graph `name` by (create_session): the manifest's
    checksum of its file; for the decoder with the output layer `bound` into it, a checksum of the two."""
    if not bound:
        return manifest.files[name]
    return hashlib.sha256(f"{manifest.files[name]} bound to {manifest.files[OUTPUT_LAYER]}".encode()).hexdigest()


def loadable_graph(folder: Path, name: str, data: bytes, output_layer: OutputLayer | None = None) -> bytes:
    """The graph's verified bytes (verified_bytes) as a session loads them: checked for external
    data (check_self_contained) and weights that are not finite (check_finite_weights); with `output_layer`, the decoder with that layer's rows for the
    whole vocabulary bound as constants (bind_output_layer)."""
    check_self_contained(folder, name, data)
    check_finite_weights(folder, name, data)
    return data if output_layer is None else bind_output_layer(folder, data, output_layer)


def open_graph(
    folder: Path,
    name: str,
    checksum: str,
    data: Callable[[], bytes],
    device: str,
    threads: int,
    notify: Callable[[str], None],
) -> onnxruntime.InferenceSession:
    """The session of the graph `name` (graph_checksum), whose bytes `data` gives (loadable_graph)
    when no cached optimized graph serves; onnxruntime's errors as a ModelFolderError."""
    try:
        return create_session(folder / name, device, threads, notify, checksum, data)
    except (UsageError, ModelFolderError):  # an unknown device; a graph refused by loadable_graph's checks
        raise
    except (
        Exception
    ) as error:  # onnxruntime's errors (Fail, InvalidProtobuf, UnicodeDecodeError of a damaged graph's message, …)
        raise ModelFolderError(f"{folder}: cannot load ONNX graph ({first_line(error)})") from None


class LoadedModel:
    def __init__(
        self,
        folder: str | Path,
        device: str = "cpu",
        threads: int = 0,
        notify: Callable[[str], None] = warn_on_stderr,
        source_lang: str | None = None,
        target_lang: str | None = None,
    ):
        """The model translates the direction that fits `source_lang` and `target_lang` (its
        first when neither is given); one that fits neither is a UsageError (`-m en-de -t fr`
        wrote German)."""
        self.folder = Path(folder)
        self.notify = notify
        self.manifest: Manifest = read_manifest(self.folder, checked_when_read=(ENCODER, DECODER))
        self.source_lang, self.target_lang = chosen_direction(self.manifest, self.folder, source_lang, target_lang)
        self.loaded_with = (device, threads)  # as asked: the reverse model (reverse_scorer) loads so too
        # the other models the process holds, by their folder resolved: the reverse model is taken
        # from them when it is one (`attn serve` and the Python API share their models so)
        self.peers: dict[Path, LoadedModel] = {}
        device = device_for(self.manifest, self.folder, device, notify)
        self.workers = worker_count(device, threads)
        session_threads = threads if device == "cuda" else 1
        self.session_settings = (device, session_threads, notify)
        self._loaded: dict[str, object] = {}  # what is read on first use (`_once`), shared with the views of `towards`
        # (source, target, sentence) → the model's translation of a probe sentence (TextTranslator.probed),
        # shared with the views of `towards`
        self.probes: dict[tuple[str, str, str], str] = {}
        self._loading = threading.RLock()
        # The sessions open while this thread loads the tokenizer and then checks the graphs'
        # files: a session reads a graph's bytes only when the optimized-graph cache has no copy
        # (made from bytes of the same checksum; SPEED-HISTORY.md, "Cold start: checksums remembered").
        graphs = [VerifiedFile(self.folder, self.manifest, name) for name in (ENCODER, DECODER)]
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="attn-load") as pool:
            opened = [pool.submit(self._session, graph, bound) for graph, bound in zip(graphs, (False, True))]
            self._load_tokenizer()
            for graph in graphs:
                graph.check()
            self.encoder, self.decoder = (session.result() for session in opened)
        check_graphs(self.folder, self.manifest, self.encoder, self.decoder, lambda: self.output_layer)
        self.device = Device("cuda" if "CUDAExecutionProvider" in self.decoder.get_providers() else "cpu")
        self.source_prefix = self._target_prefix()
        self.source_eos = bool(self.manifest.architecture.get("source_eos", True))

    def _session(self, graph: VerifiedFile, bound: bool) -> onnxruntime.InferenceSession:
        """The session of the folder's `graph`, with the output layer `bound` into it or fed to it;
        its bytes are read (and verified) only when no cached optimized graph serves (open_graph)."""
        return open_graph(
            self.folder,
            graph.name,
            graph_checksum(self.manifest, graph.name, bound),
            functools.partial(self._loadable, graph, bound),
            *self.session_settings,
        )

    def _loadable(self, graph: VerifiedFile, bound: bool) -> bytes:
        return loadable_graph(self.folder, graph.name, graph.read(), self.output_layer if bound else None)

    def _once(self, name: str, load: Callable[[], object]):
        """What `load` gives, loaded the first time `name` is asked for: the output layer and the
        shortlist, which a translation over the whole vocabulary never reads (the cached decoder
        holds the output layer), and the shortlist's decoder."""
        with self._loading:
            if name not in self._loaded:
                self._loaded[name] = load()
            return self._loaded[name]

    @property
    def output_layer(self) -> OutputLayer:
        """The output layer, checked against the manifest's vocabulary size."""
        return self._once(OUTPUT_LAYER, self._read_output_layer)

    def _read_output_layer(self) -> OutputLayer:
        vocab_size = self.manifest.architecture["vocab_size"]
        output_layer = OutputLayer.load(self.folder / OUTPUT_LAYER)
        if output_layer.vocab_size != vocab_size:
            raise ModelFolderError(
                f"{self.folder / OUTPUT_LAYER}: {output_layer.vocab_size} rows, "
                f"but the model was trained with {vocab_size} pieces"
            )
        return output_layer

    @property
    def shortlist(self) -> Shortlist | None:
        """The lexical shortlist, when the model has one, checked against the vocabulary."""
        if LEXICON not in self.manifest.files:
            return None
        vocab_size = self.manifest.architecture["vocab_size"]
        return self._once(LEXICON, lambda: Shortlist.load(self.folder / LEXICON, vocab_size))

    @property
    def word_check(self) -> WordCheck | None:
        """The words a summarizer may write beside its document's (runtime/word_check.py), when
        its folder lists them (target_words.txt); None otherwise."""
        if TARGET_WORDS not in self.manifest.files or self.manifest.task != "summarize":
            return None
        return self._once(TARGET_WORDS, lambda: WordCheck(self._words(TARGET_WORDS, listed_words), self.tokenizer))

    def language_words(self, language: str) -> frozenset[str] | None:
        """A translation model's training words in `language` (runtime/untranslated.py), when its
        folder lists them (words.LANGUAGE.txt); None otherwise."""
        name = language_words_file(language)
        if name not in self.manifest.files or self.manifest.task != "translate":
            return None
        return self._once(name, lambda: self._words(name, listed_words))

    @property
    def known_words(self) -> frozenset[str] | None:
        """Every word of a translation model's training data its folder lists, in any language
        (runtime/unlearned_names.py: a name none of them holds is one it never learned): its
        words.LANGUAGE.txt files, or format 6's source_words.txt; None when it lists none."""
        if self.manifest.task != "translate":
            return None
        if SOURCE_WORDS in self.manifest.files:
            return self._once(SOURCE_WORDS, lambda: self._words(SOURCE_WORDS, listed_words))
        languages = sorted({code for pair in self.manifest.pairs for code in pair})
        found = [words for words in map(self.language_words, languages) if words is not None]
        return self._once("known words", lambda: frozenset().union(*found)) if found else None

    def checks_words(self, options: SearchOptions) -> bool:
        """Whether a search with `options` can check the words it writes: with a shortlist a row
        may have no piece that goes on with its word."""
        return not (options.shortlist and self.shortlist)

    def target_word_check(self) -> WordCheck | None:
        """The word check of a translation searched again for words it left untranslated
        (runtime/untranslated.py): the target language's training words, when the folder lists them."""
        words = self.language_words(self.target_lang)
        if words is None:
            return None
        return self._once(f"check {self.target_lang}", lambda: WordCheck(words, self.tokenizer))

    def _words(self, name: str, read: Callable[[str], frozenset[str]]) -> frozenset[str]:
        """The word list `name` of the folder, checked against its checksum, read by `read`."""
        data = verified_bytes(self.folder, self.manifest, name)
        try:
            return read(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise ModelFolderError(f"{self.folder / name}: not UTF-8 text") from None

    def _load_tokenizer(self) -> None:
        """The tokenizer, checked against the manifest."""
        vocab_size = self.manifest.architecture["vocab_size"]
        try:
            source_tokenizer = self.folder / SOURCE_TOKENIZER if SOURCE_TOKENIZER in self.manifest.files else None
            self.tokenizer = SubwordTokenizer.load(self.folder / TOKENIZER, source_tokenizer)
        except Exception as error:  # tokenizers raises plain Exceptions for unreadable files
            raise ModelFolderError(f"{self.folder / TOKENIZER}: cannot load tokenizer ({first_line(error)})") from None
        if vocab_size != self.tokenizer.vocab_size:
            raise ModelFolderError(
                f"{self.folder / TOKENIZER}: {self.tokenizer.vocab_size} pieces, "
                f"but the model was trained with {vocab_size}"
            )

    def _target_prefix(self) -> list[int]:
        """The ids that open every source: the target language's token (runtime/constants.target_token)
        in a model trained with them, which its manifest says by listing its directions (several,
        or one: a both-ways model trained on into one language keeps the token), else none."""
        if not self.manifest.directions:
            return []
        token = self.tokenizer.language_token(self.target_lang)
        if token is None:
            raise ModelFolderError(
                f"{self.folder / TOKENIZER}: no {target_token(self.target_lang)} token, which "
                f"this model of several directions needs to write {self.target_lang}"
            )
        return [token]

    def towards(self, source_lang: str, target_lang: str) -> LoadedModel:
        """This model translating another of its directions, sharing its sessions and tables."""
        view = copy.copy(self)
        view.source_lang, view.target_lang = chosen_direction(self.manifest, self.folder, source_lang, target_lang)
        view.source_prefix = view._target_prefix()
        return view

    def default_options(self, **overrides) -> SearchOptions:
        search = self.manifest.search
        values = {name: search[name] for name in MANIFEST_SEARCH_DEFAULTS if name in search}
        values.update({k: v for k, v in overrides.items() if v is not None or k == "seed"})
        return SearchOptions(**values)

    def search_options(
        self,
        beam: int | None = None,
        n_best: int = 1,
        sample: bool = False,
        notify: Callable[[str], None] | None = None,
        **settings,
    ) -> SearchOptions:
        """The model's defaults overridden by what was given. n-best needs a beam at least as wide:
        a smaller one is raised to n (with a note when the beam was asked for); sampling gives one
        output per input (with a note when more were asked for); how sampling draws (temperature,
        top-k, top-p, seed) is ignored without it, with a note."""
        notify = notify or self.notify
        check_search_value("beam", beam)
        check_search_value("n_best", n_best)
        if sample:
            if n_best > 1:
                notify(f"--sample gives one output per input: --n-best {n_best} ignored")
            return self.default_options(beam=1, n_best=1, sample=True, **settings)
        ignored = [name for name in SAMPLING_SETTINGS if settings.get(name) not in (None, getattr(SearchOptions, name))]
        if ignored:  # had been ignored without a word
            notify(f"{', '.join('--' + name.replace('_', '-') for name in ignored)} apply with --sample: ignored")
        beam_size = beam or self.default_options().beam
        if n_best > beam_size:
            if beam is not None:
                notify(f"--n-best {n_best} needs a beam of {n_best}: --beam {beam} raised to {n_best}")
            beam_size = n_best
        return self.default_options(beam=beam_size, n_best=n_best, **settings)

    @property
    def max_source_pieces(self) -> int:
        return int(self.manifest.search.get("max_source_pieces", MODEL_SEARCH_DEFAULTS["max_source_pieces"]))

    def text_options(self, given: TextOptions | None = None) -> TextOptions:
        """`given` (default: TextOptions()) with the model's own values where it leaves them None."""
        given = given or TextOptions()
        return replace(
            given,
            max_source_pieces=given.max_source_pieces or self.max_source_pieces,
            replace_unk=(
                bool(self.manifest.search.get("replace_unk", MODEL_SEARCH_DEFAULTS["replace_unk"]))
                if given.replace_unk is None
                else given.replace_unk
            ),
            reverse_weight=(
                float(self.manifest.search.get("reverse_weight", MODEL_SEARCH_DEFAULTS["reverse_weight"]))
                if given.reverse_weight is None
                else given.reverse_weight
            ),
        )

    @property
    def reverse_scorer(self) -> ReverseScorer | None:
        """What scores this direction's translations by how well they give back their source
        (runtime/reverse_scores.py): the model of the other direction, this folder's own, else the
        one beside it (in the same parent folder), else the installed one, as a language pair picks
        them (registry.folder_for_pair), one of `peers` when it is one; None, with a note the first
        time, where there is none or it does not load, and for a model that writes its source's
        language."""
        return self._once(f"reverse of {self.source_lang}-{self.target_lang}", self._reverse_scorer)

    def _reverse_scorer(self) -> ReverseScorer | None:
        back = (self.target_lang, self.source_lang)
        if self.source_lang == self.target_lang:
            return None
        if back in self.manifest.pairs:
            return ReverseScorer(self.towards(*back))
        unranked = "translations are not ranked again by how well they give back their source (--reverse-weight)"
        folder = folder_for_pair(back, [self.folder.parent]) or folder_for_pair(back)
        if folder is None:
            self.notify(f"no installed model translates {back[0]}→{back[1]}: {unranked}")
            return None
        peer = self.peers.get(folder.resolve())
        if peer is not None:
            return ReverseScorer(peer.towards(*back))
        try:
            return ReverseScorer(LoadedModel(folder, *self.loaded_with, self.notify, *back))
        except (ModelFolderError, UsageError) as error:
            self.notify(f"{first_line(error)}: {unranked}")
            return None

    def inputs_per_call(self, batch_size: int) -> int:
        """How many inputs to pass to one translate() call so that every worker has batches to take."""
        return inputs_for_workers(batch_size, self.workers)

    def translate(
        self,
        texts: list[str],
        options: SearchOptions | None = None,
        batch_size: int = BATCH_SIZE,
        first_number: int | Sequence[int] = 1,
        text_options: TextOptions | None = None,
        stop: threading.Event | None = None,
    ) -> list[list[Translation]]:
        """n-best translations of each text, in input order (runtime/texts.py: TextTranslator)."""
        return TextTranslator(self).translate(texts, options, batch_size, first_number, text_options, stop)

    def source_ids(self, text: str) -> list[int]:
        """The ids the encoder reads for `text` whole: its pieces and EOS, after `source_prefix`."""
        reader = TextTranslator(self).reader
        return reader.tagged(reader.source_pieces(text)).ids

    def force(
        self,
        source_text: str,
        target_text: str,
        options: SearchOptions | None = None,
        stop: threading.Event | None = None,
    ) -> Translation:
        """Score a given translation by teacher forcing; its attention shows the model's alignment.
        Both texts are read as their words with one space between (a tab, a line break, a no-break
        space or a run of spaces had been read as pieces of their own: a trailing space made a
        third, empty word). Setting `stop` from another thread ends it at its next step (SearchStopped)."""
        options = options or self.default_options()
        source_text, target_text = (" ".join(text.split()) for text in (source_text, target_text))
        texts = TextTranslator(self)
        source = texts.reader.tagged(texts.reader.source_pieces(source_text))
        target = self.tokenizer.encode(target_text)
        state = self.encode([source.ids], shortlist=False, stop=stop)
        log_prob, rows = 0.0, []
        for previous, following in zip([BOS] + target, target + [EOS]):
            log_probs, attention = state.step(np.array([previous], dtype=np.int64))
            log_prob += float(log_probs[0, following])
            rows.append(attention[0])
        attention = np.stack(rows)
        score = final_score(log_prob, attention, len(source.ids), options)
        return texts.translation(source, target, score, attention)

    def encode(
        self, sources: list[list[int]], shortlist: bool = True, stop: threading.Event | None = None
    ) -> OnnxDecoderState:
        """Run the encoder over id sequences (EOS included), right-padded into one batch; the
        decoder will score the batch's shortlist when asked and the model has one, else the
        whole vocabulary."""
        ids, mask = self.encoder_inputs(sources)
        binding = self.encoder.io_binding()
        binding.bind_cpu_input(SOURCE_IDS, ids)
        binding.bind_cpu_input(SOURCE_MASK, mask)
        names = [output.name for output in self.encoder.get_outputs()]
        for name in names:
            binding.bind_output(name, self.device.name)
        self.encoder.run_with_iobinding(binding)
        encoded = dict(zip(names, binding.get_outputs()))
        if shortlist and self.shortlist is not None:
            vocabulary, allowed = self.shortlist.candidates(sources)
            output = {name: self.device.put(value) for name, value in self.output_layer.rows(vocabulary).items()}
            decoder = self.shortlist_decoder
        else:  # the decoder holds the whole output layer
            vocabulary = np.arange(self.manifest.architecture["vocab_size"])
            allowed, output, decoder = None, {}, self.decoder
        return OnnxDecoderState(
            decoder, self.device, self.manifest.state_specs, encoded, ids, mask, vocabulary, output, allowed, stop
        )

    def encoder_inputs(self, sources: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
        """Id sequences (EOS included) → source_ids and source_mask (B, S), right-padded with PAD,
        the mask 1 where the encoder reads."""
        longest = max(len(ids) for ids in sources)
        ids = np.full((len(sources), longest), PAD, dtype=np.int64)
        for row, sequence in enumerate(sources):
            ids[row, : len(sequence)] = sequence
        mask = (ids != PAD) & (
            (ids != EOS) | self.source_eos
        )  # a model that read sources without EOS: its EOS masked out
        return ids, mask.astype(np.int64)

    @property
    def shortlist_decoder(self) -> onnxruntime.InferenceSession:
        """The decoder as exported, taking the output layer's rows for each batch's candidates
        (a shortlist's), opened when a shortlist is first used."""
        return self._once(DECODER, lambda: self._session(VerifiedFile(self.folder, self.manifest, DECODER), False))

    def search(
        self,
        sources: list[list[int]],
        options: SearchOptions,
        stop: threading.Event | None = None,
        untranslatable: list[frozenset[str]] | None = None,
        required: Requirement | None = None,
    ) -> list[list[Hypothesis]]:
        """Greedy/sampling (beam 1) or beam search over a batch of id sequences (EOS included).
        Beam search returns its `beam` hypotheses, best first, so that the text translator
        (TextTranslator.distinct) can pass over those that read the same as a better one and take
        the one that keeps a sentence's numbers or gives back its source best: for one output,
        those within SCORE_MARGIN of the best (runtime/number_choice.py, runtime/reverse_scores.py).
        A summary's words are checked (runtime/word_check.py); a translation's when `untranslatable` gives each source's words it may not copy
        (runtime/untranslated.py): each word written is then the target language's or its source's.
        With `required`, a beam search's translations are those that meet it (runtime/required_search.py)."""
        lengths = np.array([len(s) for s in sources])
        search = greedy_search if options.beam == 1 else beam_search
        every = replace(options, n_best=options.beam)
        constraint = None
        if untranslatable is not None:
            allowed = [
                document_words(self.tokenizer.decode(ids)) - words for ids, words in zip(sources, untranslatable)
            ]
            constraint = self.target_word_check().for_translations(allowed)
        elif self.word_check is not None and self.checks_words(options):
            constraint = self.word_check.for_documents([self.tokenizer.decode(ids) for ids in sources])
        state = self.encode(sources, options.shortlist, stop)
        limits = self.max_lengths(lengths, options)
        if required is not None and options.beam > 1:
            found = required_beam_search(state, limits, lengths, every, required)
        else:
            found = search(state, limits, lengths, every, constraint)
        if constraint is not None and untranslatable is None:  # a summary at its limit mid-word: its whole words
            found = [[constraint.ended(h, i, limits[i]) for h in hypotheses] for i, hypotheses in enumerate(found)]
        if options.n_best > 1:
            return found
        # one output: the hypotheses the number choice may take, not all with their attention
        return [near_the_best(hypotheses) for hypotheses in found]

    def max_lengths(self, source_lengths: np.ndarray, options: SearchOptions) -> np.ndarray:
        """a·|source| + b output tokens, from the options or else the manifest's defaults."""
        defaults = {**MODEL_SEARCH_DEFAULTS, **self.manifest.search}
        ratio = options.max_length_ratio if options.max_length_ratio is not None else defaults["max_length_ratio"]
        offset = options.max_length_offset if options.max_length_offset is not None else defaults["max_length_offset"]
        return np.maximum((ratio * source_lengths + offset).astype(int), options.min_length + 1)


def device_for(manifest: Manifest, folder: Path, device: str, notify: Callable[[str], None]) -> str:
    """`device`, except for an int8 model asked to run on CUDA where onnxruntime has CUDA: its
    CUDA provider has no kernels for the model's int8 products, which then run on the CPU between
    copies, slower than the CPU alone and not as on it (benchmarks/GPU.md); it runs on the CPU,
    and `notify` says so. Without a CUDA provider, the sessions say that (runtime/sessions.py)."""
    cuda = "CUDAExecutionProvider" in onnxruntime.get_available_providers()
    if device == "cuda" and cuda and manifest.int8:
        notify(
            f"{folder.name} is an int8 model: it runs on the CPU (a GPU decodes a model exported or "
            "installed without int8: docs/translate.md)"
        )
        return "cpu"
    return device


def chosen_direction(manifest: Manifest, folder: Path, source: str | None, target: str | None) -> tuple[str, str]:
    """The (source, target) pair a LoadedModel of `folder` translates (see LoadedModel); a source
    "auto" (detected, as the router reads it) is any."""
    source = None if source == "auto" else source
    fitting = manifest.fitting(source, target)
    if manifest.pairs[0] in fitting or source is target is None:
        return manifest.pairs[0]
    if len(fitting) == 1:
        return fitting[0]
    offered = ", ".join(f"{s}→{t}" for s, t in manifest.pairs)
    choose = "choose with --from and --to" if fitting else "leave out --model for an installed model that does"
    raise UsageError(f"{folder} translates {offered}, not {source or '…'}→{target or '…'}: {choose}")
