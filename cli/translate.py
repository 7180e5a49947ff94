"""`attn translate`: arguments or standard input → translations on standard output."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.runtime.constants import BATCH_SIZE, language_label
from attn.runtime.coverage import uncovered_runs
from attn.runtime.documents import FORMATS as FORMATS_READ
from attn.runtime.documents import format_of, read_document
from attn.runtime.errors import UsageError
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.mail import is_message
from attn.runtime.manifest import ModelFolderError, read_manifest
from attn.runtime.misread import MisreadInputs, text_language
from attn.runtime.parallel import lines_per_call
from attn.runtime.registry import installed_pairs, resolve_model
from attn.runtime.router import Router, Routes
from attn.runtime.sentences import wraps_sentences
from attn.runtime.sessions import warn_on_stderr
from attn.runtime.text_layout import spaced_as
from attn.runtime.tokenizer import valid_unicode
from attn.runtime.translation import unchanged
from attn.runtime.verbatim import added_numbers, changed_placeholders, lost_numbers

from .documents import document_input, document_language, read_input, translate_document
from .formats import FORMATS, make_format
from .heatmap import Heatmaps, check_heatmap_path
from .lines import DEFAULT_MAX_LINE_CHARS, file_line_batches
from .options import (
    SEARCH_OPTIONS,
    BatchSizeOption,
    DeviceOption,
    FromOption,
    InputOption,
    ModelOption,
    OutputOption,
    QuietOption,
    SearchRequest,
    ThreadsOption,
    ToOption,
    notifier,
    search_options,
)
from .output import output_file, refuse_an_input
from .paragraphs import BLANK, Paragraphs
from .progress import progress_bar, progress_wanted

# A line that is an HTML element whole ("<p>Welcome to our <b>new</b> shop!</p>"): read as text,
# its tags are words to the model, and it lost words and closing tags
HTML_ELEMENT = re.compile(r"\s*<([A-Za-z][A-Za-z0-9]*)\b[^<>]*>.*</\1\s*>\s*$", re.DOTALL)
FormatOption = Annotated[str, typer.Option("--format", "-f", help=f"Output: {', '.join(FORMATS)}.")]
MaxLineCharsOption = Annotated[
    int,
    typer.Option(
        "--max-line-chars",
        min=1,
        help="Longer input lines (paragraphs, with --paragraphs) keep their first this many characters (a note says which).",
    ),
]


def load_translator(
    model: str | None,
    task: str,
    source: str | None,
    target: str | None,
    device: str,
    threads: int,
    notify=warn_on_stderr,
) -> LoadedModel:
    """The model for `task`; a model of the other task is a usage error."""
    translator = LoadedModel(resolve_model(model, task, source, target), device, threads, notify, source, target)
    if translator.manifest.task != task:
        raise ModelFolderError(f"{translator.folder} is a {translator.manifest.task} model, not a {task} model")
    return translator


def check_format(output_format: str, align: bool) -> str:
    """The output format: --format's, or with --align the table (another --format beside it is
    refused: -f jsonl had been dropped without a word)."""
    if output_format not in FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(FORMATS)}", param_hint="--format")
    if align and output_format not in ("text", "table"):
        raise UsageError(
            f"--align prints the alignment table; -f {output_format} writes alignments of its own: give one"
        )
    return "table" if align else output_format


@search_options(*SEARCH_OPTIONS)  # every one
def translate_command(
    text: Annotated[
        Optional[list[str]],
        typer.Argument(
            help="Texts to translate, one per argument. Without any, lines are read from standard input (or --input)."
        ),
    ] = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    inputs: InputOption = None,
    output: OutputOption = None,
    model: ModelOption = None,
    search: SearchRequest = SearchRequest(),
    paragraphs: Annotated[
        bool,
        typer.Option(
            "--paragraphs",
            help="Blank lines separate the inputs: each paragraph is unwrapped, translated sentence by sentence and written as one line, blank lines kept.",
        ),
    ] = False,
    output_format: FormatOption = "text",
    align: Annotated[bool, typer.Option("--align", help="Show each translation's word alignment as a table.")] = False,
    heatmap: Annotated[
        Optional[Path],
        typer.Option("--heatmap", help="Draw alignments to FILE.png|svg|pdf (FILE-N.png for several inputs)."),
    ] = None,
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
    batch_size: BatchSizeOption = BATCH_SIZE,
    max_line_chars: MaxLineCharsOption = DEFAULT_MAX_LINE_CHARS,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="A note on stderr naming the source words each translation may have left out (runs of words that received almost no attention), the format placeholders ({name}, %s) it lost or added, and the numbers of two digits or more it lost or made up (shown with --quiet too).",
        ),
    ] = False,
    fuzzy: Annotated[
        bool,
        typer.Option("--fuzzy", help="With a .po file: translate its fuzzy messages too (left alone otherwise)."),
    ] = False,
    html: Annotated[
        bool,
        typer.Option(
            "--html",
            help="Each input (line, paragraph or argument) is HTML: its text is translated and its tags are placed on the translation by the alignment, as an .html file's are.",
        ),
    ] = False,
    quiet: QuietOption = False,
) -> None:
    """Translate sentences with an installed or given model (default: English → German)."""
    output_format = check_format(output_format, align)
    check_heatmap_path(heatmap, len(text) if text else 2)
    notify = notifier(quiet)
    if source_lang is not None and source_lang == target_lang:
        raise UsageError(f"source and target are both {source_lang}: there is nothing to translate")
    if text and inputs:
        raise UsageError("give texts as arguments or files with --input, not both")
    refuse_an_input(output, inputs or ([] if text else [Path("-")]))
    document = document_input(inputs, output)
    if document is not None:  # read before a model loads: a damaged file is refused first
        parsed = read_document(document, read_input(document), fuzzy)
        try:
            target_lang = parsed.target(target_lang, document)
        except UsageError as error:
            raise UsageError(f"--to {target_lang}: {error}; leave out --to") from None
    if document and (output_format != "text" or heatmap or paragraphs or search.n_best > 1):
        raise UsageError(
            f"{document} is written back as a document: --format, --align, --heatmap, --paragraphs and --n-best do not apply"
        )
    if html and document and FORMATS_READ[format_of(document)][0] != "html":
        raise UsageError(
            f"--html is for lines, arguments and HTML files; {document} is translated as its format says, markup and all (leave out --html)"
        )
    if html and (output_format != "text" or heatmap or search.n_best > 1):
        raise UsageError("--html writes the translated HTML: --format, --align, --heatmap and --n-best do not apply")
    if html:
        html_pages = html_module()
    if text:
        if len(text) == 1 and names_a_file(text[0]):
            if format_of(text[0]) not in (None, ".txt"):
                raise UsageError(f"{text[0]} is a document: `attn translate -i {text[0]} -o FILE` translates it")
            notify(
                f"{text[0]!r} is a file: this translates its name; `attn translate -i {text[0]}` translates its lines"
            )
        wrapped_in = next((number for number, argument in enumerate(text, 1) if wraps_sentences(argument)), None)
        if wrapped_in is not None and not paragraphs:
            notify(
                f"argument {wrapped_in} has lines wrapped inside its sentences, each translated on its own: "
                "--paragraphs reads each paragraph whole"
            )
        batches = iter([[valid_unicode(t) for t in text]])
    else:
        if not inputs and sys.stdin.isatty():
            notify(
                "reading lines from the terminal, one translation per line; Ctrl-D ends "
                '(or give the text as arguments: attn translate "…")'
            )
        batches = file_line_batches(inputs or [Path("-")], lines_per_call(batch_size, threads), max_line_chars, notify)
    pairs = offered_pairs(model)
    if document and source_lang in (None, "auto") and format_of(document) != ".po":
        # a document is in one language, its whole text says which (with --to and --from auto too:
        # a greeting read alone stayed English, or read as French); a catalog's messages are in its
        # source language
        read = document_language(document, parsed, pairs, target_lang, notify)
        if read is not None and read == target_lang:  # read text by text, its short texts had been translated
            notify(f"{document} reads as {language_label(read)}, the target language: written back as it is")
            translate_document(parsed, lambda texts, owners=None: [unchanged(text)[0] for text in texts], read, output)
            return
        if read is not None:
            asked, source_lang = source_lang, read
            if read != default_source(model) and asked is None:
                notify(f"{document} reads as {language_label(read)}: --from sets the language")
    routes = Routes(pairs)
    catalog = document is not None and format_of(document) == ".po"
    if catalog and source_lang is None:  # its messages are in the language programs are written in
        source_lang = routes.usual_source(target_lang)
    if source_lang is None and target_lang is not None and len(routes.sources_into(target_lang)) > 1:
        source_lang = "auto"  # --to alone, and several languages go there (through English too): each input says which

    def load(pair: tuple[str | None, str | None], last: bool = True):
        """The translator of `pair` and its options; a first hop through a middle language gives its best only."""
        translator = load_translator(model, "translate", *pair, device, threads, notify)
        return translator, search.options(translator, notify, last)

    through_middle = (
        source_lang not in (None, "auto")
        and target_lang is not None
        and len(routes.hops(source_lang, target_lang) or ()) == 2
    )
    if (
        source_lang == "auto" and (model is None or len(pairs) > 1)
    ) or through_middle:  # a given model of one direction reads its language
        if not routes.sources_into(target_lang):
            raise ModelFolderError(
                f"no {'installed model' if model is None else f'model {model}'} translates into "
                f"{target_lang} (see `attn models`)"
            )
        # into French or German only English goes directly: an input is read as English unless
        # sure; --from auto alone reads each input's likeliest language ("Questo file non esiste."
        # is Italian, which no model here reads: given back, with a note)
        router = Router(pairs, load, notify, routes.usual_source(target_lang) if target_lang else None)
        n_best = 1 if search.sample else search.n_best
        misread = None  # each input's language is given or detected
        # HTML inputs are read each in one language, as a document is (html_written)
        own_source = routes.usual_source(target_lang)  # read without a note
        reads_fragments = html and source_lang == "auto"
        language = target_lang  # what a translated document declares: the one target, when one is given

        def decode(inputs, batch_size, first_number):
            return router.translate(inputs, source_lang, target_lang, batch_size, first_number, search.text)

        def decode_from(code, inputs, batch_size, first_number):
            """decode's work for inputs read as `code`."""
            return router.translate(inputs, code, target_lang, batch_size, first_number, search.text)
    else:
        translator, options = load((None if source_lang == "auto" else source_lang, target_lang))
        n_best = options.n_best
        language = translator.target_lang
        misread = (
            MisreadInputs(
                translator.source_lang, routes.languages, notify, lambda code: source_advice(code, routes, language)
            )
            if source_lang is None and not html
            else None
        )

        def decode(inputs, batch_size, first_number):
            return translator.translate(inputs, options, batch_size, first_number, search.text)

        rereading = Router(pairs, load, notify)  # its models load on first use
        reads_fragments = html and source_lang is None and len(routes.sources_into(language)) > 1
        own_source = translator.source_lang

        def decode_from(code, inputs, batch_size, first_number):
            """decode's work for inputs read as `code`: the model's own language, or another."""
            if code == own_source:
                return decode(inputs, batch_size, first_number)
            return rereading.translate(inputs, code, language, batch_size, first_number, search.text)

        def reread(inputs, found, first_number):
            """`found` with the inputs that read as another language (misread) translated from it,
            as --from auto translates them (German into German: given back as it is)."""
            numbers = range(first_number, first_number + len(inputs))
            places = misread.check(inputs, [n_best_list[0] for n_best_list in found], numbers)
            for read in set(places.values()):
                if routes.hops(read, language) is not None:
                    chosen = [place for place, code in places.items() if code == read]
                    again = rereading.translate(
                        [inputs[place] for place in chosen],
                        read,
                        language,
                        batch_size,
                        [numbers[place] for place in chosen],
                        search.text,
                    )
                    for place, result in zip(chosen, again):
                        found[place] = result
            return found

    def decode_texts(first_number: int, label, decode_with=None):
        """decode (or `decode_with`) for the texts of a document or of HTML inputs: each text's
        best translation. --check's note names a text by `label(i)`, i its index, or with HTML
        inputs its input's (`owners[i]`, counted from 0 in the call)."""

        def decoded(texts: list[str], owners: list[int] | None = None) -> list:
            # the runtime's notes name an HTML input's text by its input's number
            numbers = first_number if owners is None else [first_number + owner for owner in owners]
            found = (decode_with or decode)(texts, batch_size, numbers)
            for index, result in enumerate(found) if check or catalog else ():  # a lost placeholder breaks a program
                which = label(index if owners is None else owners[index])
                (report_uncovered if check else report_placeholders)(which, result[0], warn_on_stderr)
            return [result[0] for result in found]

        return decoded

    # HTML inputs read each in one language, as a document is (html_written): notes on those read
    # as another than the model's (or than English, with --from auto), the first named, the rest counted
    fragment_notes = (
        MisreadInputs(
            own_source,
            routes.languages,
            notify,
            lambda code: (
                "the target language: written back as it is"
                if code == language
                else source_advice(code, routes, language)
            ),
        )
        if reads_fragments and own_source is not None
        else None
    )  # without a language read where none is given (--from auto --to en), the fragments are read apart unnoted

    def html_written(fragments: list[str], first: int) -> list[str]:
        """HTML inputs translated, their tags placed (translated_fragments); without --from (or with
        --from auto), each read in the one language its whole text reads as, as a document is
        (Routes.document_source): translated from it, or given back where that is the target (a
        German fragment had been translated as English, garbled, where a German line was read as
        German; with --to, each text was read on its own)."""

        def label(owner: int) -> str:
            return f"input {first + owner}"

        decoded = decode_texts(first, label)
        if not reads_fragments:
            return html_pages.translated_fragments(fragments, decoded, language)

        def read_apart(texts: list[str], owners: list[int]) -> list:
            def language_read(own: list[str]) -> str | None:  # None where no model takes it into the target
                code, reachable = routes.document_source(own, language)
                return code if reachable else None

            read = html_pages.fragments_languages(texts, owners, language_read)
            if fragment_notes is not None:  # the inputs (by number) read as another language than the model's
                others: dict[str, list[int]] = {}
                for owner, code in read.items():
                    if code not in (None, own_source):
                        others.setdefault(code, []).append(first + owner)
                fragment_notes.noted(others)

            def written(code: str | None, given: list[str], owned: list[int]) -> list:
                if code is not None and code == language:  # in the target already: written back as it is
                    return [unchanged(text)[0] for text in given]
                if code is None:
                    return decoded(given, owned)
                return decode_texts(first, label, functools.partial(decode_from, code))(given, owned)

            return html_pages.translated_by_language(texts, owners, read, written)

        return html_pages.translated_fragments(fragments, read_apart, language)

    if document:
        translate_document(parsed, decode_texts(1, lambda index: f"{document}, text {index + 1}"), language, output)
        return
    formatter = make_format(output_format, n_best)
    items = paragraph_batches(batches, max_line_chars, notify) if paragraphs else batches
    if paragraphs and text:  # an argument's lines are lines too, its last paragraph ending with it
        lines_of = (iter([valid_unicode(argument).split("\n")]) for argument in text)
        items = (batch for lines in lines_of for batch in paragraph_batches(lines, max_line_chars, notify))
    heatmaps, done = Heatmaps(heatmap, notify), 0
    with output_file(output), progress_bar(progress_wanted(quiet), "paragraphs" if paragraphs else "lines") as advance:
        for batch in items:
            inputs = [item for item in batch if item is not BLANK]
            if html:
                results = iter(html_written(inputs, done + 1))
            else:
                if not done:
                    note_what_inputs_are(batch, notify, lines=not (text or paragraphs))
                found = decode(inputs, batch_size, done + 1)
                if misread:
                    found = reread(inputs, found, done + 1)
                results = iter(map(spaced_as, inputs, found))
            for item in batch:
                if item is BLANK:
                    if formatter.keeps_blank_lines:
                        sys.stdout.write("\n")
                    continue
                result = next(results)
                done += 1
                if html:
                    sys.stdout.write(result + "\n")
                    continue
                formatter.write(item, result)
                heatmaps.add(item, result)
                if check:
                    report_uncovered(f"input {done}", result[0], warn_on_stderr)  # asked for: shown with -q too
            sys.stdout.flush()
            advance(len(inputs))
    for notes in (misread, fragment_notes):
        if notes:
            notes.close()
    heatmaps.write()


def note_what_inputs_are(first_batch: list, notify, lines: bool) -> None:
    """A hint when the first inputs read are not plain text that lines translate well: a line
    that is an HTML element, an e-mail message's header block (`< message.eml` had its header
    names translated and its MIME parts read as sentences) or, of `lines` read from a file, prose
    wrapped at a width inside its sentences (each half-line was translated on its own)."""
    inputs = [text for text in first_batch if text is not BLANK]
    read = "\n".join("" if line is BLANK else line for line in first_batch)
    if marked := next((i for i, text in enumerate(inputs, 1) if HTML_ELEMENT.match(text)), 0):
        notify(f"input {marked} looks like HTML: --html translates its text and places its tags, as an .html file's")
    elif is_message(read):
        notify(
            "the input opens with an e-mail message's headers: saved as FILE.eml, "
            "`attn translate -i FILE.eml -o OUT.eml` translates its text and keeps its headers and parts"
        )
    elif lines and wraps_sentences(read, filled=True):
        notify(
            "the input's lines are wrapped inside its sentences, each translated on its own: "
            "--paragraphs reads each paragraph whole"
        )


def offered_pairs(model: str | None) -> list[tuple[str, str]]:
    """The directions on offer: the given model's, or every installed model's."""
    if model is None:
        return installed_pairs()
    return read_manifest(resolve_model(model, "translate", None, None), verify_checksums=False).pairs


def default_source(model: str | None) -> str | None:
    """The language the model taken without --from or --to reads (its first direction)."""
    try:
        pairs = read_manifest(resolve_model(model, "translate", None, None), verify_checksums=False).pairs
    except ModelFolderError:
        return None
    return pairs[0][0] if pairs else None


def source_advice(language: str, routes: Routes, target: str) -> str:
    """What becomes of inputs read as `language`, for a note on them (runtime/misread.py)."""
    if routes.hops(language, target) is None:
        return "no model here reads that language"
    return f"translated from it, as --from {language} or --from auto would"


def html_module():
    """runtime/documents/html.py (translated_fragments and its helpers), or a UsageError saying what
    to install."""
    try:
        from attn.runtime.documents import html
    except ModuleNotFoundError as error:
        raise UsageError(f"--html needs the Python package {error.name!r}: pip install 'attn[documents]'") from None
    return html


def report_uncovered(which: str, translation, notify) -> None:
    """--check: the runs of source words of `which` ("input 3") that received almost no
    attention, the format placeholders the translation lost or added and the numbers it lost or
    made up, if any."""
    words = translation.alignment.source_words
    runs = uncovered_runs(translation.alignment)
    if runs:
        spans = ", ".join(f"“{' '.join(words[run[0] : run[-1] + 1])}”" for run in runs)
        notify(f"{which}: may have left out {spans} (almost no attention went to them)")
    report_placeholders(which, translation, notify)
    numbers = lost_numbers(" ".join(words), translation.text)
    if numbers:
        notify(
            f"{which}: may have lost the numbers {', '.join(numbers)} (no number of the translation has their digits)"
        )
    numbers = added_numbers(" ".join(words), translation.text)
    if numbers:
        notify(f"{which}: may have made up the numbers {', '.join(numbers)} (no number of the source has their digits)")


def report_placeholders(which: str, translation, notify) -> None:
    """A note naming the format placeholders ({name}, %s) the translation of `which` lost or
    wrote beyond its source's, if any."""
    lost, added = changed_placeholders(" ".join(translation.alignment.source_words), translation.text)
    changes = ([f"lost {' '.join(lost)}"] if lost else []) + (
        [f"wrote {' '.join(added)} beyond the source's"] if added else []
    )
    if changes:
        notify(f"{which}: format placeholders changed: {'; '.join(changes)}")


def names_a_file(text: str) -> bool:
    """Whether a text argument is the path of an existing file (a sentence is too long to be one)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def paragraph_batches(line_batches: Iterator[list[str]], max_chars: int, notify) -> Iterator[list[str | None]]:
    """Batches of paragraphs and blank lines (BLANK), in input order, from batches of lines."""
    grouper = Paragraphs(max_chars, notify)
    for lines in line_batches:
        if batch := list(grouper.feed(lines)):
            yield batch
    if batch := list(grouper.close()):
        yield batch


def align_command(
    source: Annotated[str, typer.Argument(help="Source sentence.")],
    target: Annotated[str, typer.Argument(help="Its translation, to be scored and aligned.")],
    model: ModelOption = None,
    source_lang: FromOption = None,
    target_lang: ToOption = None,
    output_format: FormatOption = "table",
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
) -> None:
    """Score a given translation with the model (teacher forcing) and show its alignment."""
    output_format = check_format(output_format, False)
    source, target = valid_unicode(source), valid_unicode(target)
    for name, text in (("source sentence", source), ("translation", target)):
        if not text.strip():
            raise UsageError(f"the {name} is empty: attn align scores a translation of a sentence")
    if source_lang == "auto" or (source_lang is None and target_lang is not None and model is None):
        # as `attn translate` reads a line: English into German or French unless the identifier is sure
        # of another (it had been "no installed translate model from auto", the help promising it),
        # among the languages the given model reads, or the installed ones
        routes = Routes(offered_pairs(model))
        assumed = routes.usual_source(target_lang)
        offered = set(routes.languages)
        source_lang, _ = text_language(source, assumed, offered - {target_lang} or offered)
    translator = load_translator(model, "translate", source_lang, target_lang, device, threads)
    make_format(output_format, 1).write(source, [translator.force(source, target)])
    sys.stdout.flush()
