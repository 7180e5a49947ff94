"""`attn summarize`: documents → one-line summaries on standard output.

By default all of standard input (or each FILE) is one document, which the model reads as one
text and whose lines (or a document file's paragraphs) tell where its sentences end; with --lines
every line is a document, so N lines in give N summaries out, in order.
What is printed by default is extractive: the DEFAULT_SENTENCES sentences of the document that
the model's generated headline attended to most, in document order (runtime/extractive.py;
`--sentences N` for another count; chosen in docs/studies/SUMMARY-FORMS.md). `--headline` prints
the headline itself, as do the options that only a generated text has (--n-best, --format,
--align, --max-length); a `-f jsonl` record holds both, the sentences under "sentences". A compressed or binary input is refused, not summarized.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer

from attn.runtime.constants import BOM, language_label
from attn.runtime.documents import format_of, read_document
from attn.runtime.errors import UsageError
from attn.runtime.extractive import DEFAULT_SENTENCES, MOST_SENTENCES, summary_sentences
from attn.runtime.language_id import detect_language
from attn.runtime.mail import body_ends_before, message_text
from attn.runtime.sentences import joined
from attn.runtime.sessions import warn_on_stderr
from attn.runtime.verbatim import EDGE_PUNCTUATION
from attn.runtime.words import has_words

from .documents import read_input
from .formats import make_format
from .formats.jsonl import JsonlFormat
from .heatmap import Heatmaps, check_heatmap_path
from .lines import (
    DEFAULT_MAX_LINE_CHARS,
    UTF8_MAX_BYTES,
    LineSplitter,
    decode_line,
    file_line_batches,
    note_not_utf8,
    refuse_binary,
    utf8_chunks,
)
from .options import (
    BatchSizeOption,
    DeviceOption,
    InputOption,
    ModelOption,
    OutputOption,
    QuietOption,
    SearchRequest,
    ThreadsOption,
    notifier,
    search_options,
)
from .output import output_file, refuse_an_input
from .progress import progress_bar, progress_wanted
from .translate import FormatOption, check_format, load_translator


@search_options("beam", "n_best", "length_penalty", "min_length", "no_repeat_ngram", "max_source_pieces")
def summarize_command(
    files: Annotated[
        Optional[list[Path]],
        typer.Argument(help="Documents to summarize, one per file ('-': standard input). Without any, standard input."),
    ] = None,
    inputs: InputOption = None,
    output: OutputOption = None,
    lines: Annotated[
        bool, typer.Option("--lines", help="Every line is a document: one summary per line, order kept.")
    ] = False,
    headline: Annotated[
        bool,
        typer.Option("--headline", help="Print the model's generated headline instead of sentences of the document."),
    ] = False,
    sentences: Annotated[
        Optional[int],
        typer.Option(
            "--sentences",
            min=1,
            max=MOST_SENTENCES,
            help=f"Print the N sentences of the document that its generated headline drew on most, in document order (default {DEFAULT_SENTENCES}).",
        ),
    ] = None,
    model: ModelOption = None,
    max_length: Annotated[
        Optional[int], typer.Option("--max-length", min=1, help="At most this many pieces. Default: the model's.")
    ] = None,
    search: SearchRequest = SearchRequest(),
    output_format: FormatOption = "text",
    align: Annotated[
        bool, typer.Option("--align", help="Show which document words each summary word drew on, as a table.")
    ] = False,
    heatmap: Annotated[
        Optional[Path],
        typer.Option("--heatmap", help="Draw that attention to FILE.png|svg|pdf (FILE-N.png for several documents)."),
    ] = None,
    device: DeviceOption = "cpu",
    threads: ThreadsOption = 0,
    batch_size: BatchSizeOption = 16,
    max_chars: Annotated[
        int,
        typer.Option(
            "--max-chars", min=1, help="A longer document (or line, with --lines) keeps its first this many characters."
        ),
    ] = DEFAULT_MAX_LINE_CHARS,
    quiet: QuietOption = False,
) -> None:
    """Summarize documents in one line each with an installed or given summarization model: the
    sentences its headline drew on most, or the headline (--headline)."""
    output_format = check_format(output_format, align)
    check_heatmap_path(heatmap)
    refuse_an_input(output, [*(files or []), *(inputs or [])] or [Path("-")])
    refuse_text_as_a_file(files or [])
    notify = notifier(quiet)
    summarizer = load_translator(model, "summarize", None, None, device, threads, notify)
    options = search.options(
        summarizer,
        notify,
        max_length_ratio=None if max_length is None else 0.0,
        max_length_offset=max_length,
    )
    jsonl = output_format == "jsonl"  # a record holds the headline and the sentences
    shown = options.n_best > 1 or output_format not in ("text", "jsonl") or max_length is not None  # a headline's
    if sentences and (headline or shown):
        raise UsageError(
            "--sentences prints sentences of the document: it takes neither --headline, --n-best, --align, "
            "--max-length nor a --format other than jsonl"
        )
    count = sentences or DEFAULT_SENTENCES
    prints_sentences = not (headline or shown or jsonl)
    formatter = (
        JsonlFormat(options.n_best, text_key="summary")
        if output_format == "jsonl"
        else make_format(output_format, options.n_best)
    )
    heatmaps = Heatmaps(heatmap, notify)
    done = 0
    batches = _document_batches(
        [*(files or []), *(inputs or [])] or [Path("-")],
        lines,
        summarizer.inputs_per_call(batch_size),
        max_chars,
        notify,
    )
    with output_file(output), progress_bar(progress_wanted(quiet), "documents") as advance:
        for documents in batches:
            if not quiet:
                _note_other_languages(documents, done + 1, summarizer, notify)
            results = summarizer.translate(documents, options, batch_size, done + 1, search.text)
            done += len(documents)
            for document, result in zip(documents, results):
                if prints_sentences:
                    sys.stdout.write(
                        joined(summary_sentences(document, result[0], count, summarizer.source_lang)) + "\n"
                    )
                elif jsonl:
                    formatter.write(
                        document,
                        result,
                        sentences=summary_sentences(document, result[0], count, summarizer.source_lang),
                    )
                else:
                    formatter.write(document, result)
                heatmaps.add(document, result)
            sys.stdout.flush()
            advance(len(documents))
    heatmaps.write()


LANGUAGE_CHECKED_WORDS = 20  # a shorter document's language is not told reliably
KNOWN_SHARE = 0.5  # of a document's words, at least this share among the training targets': its language


def _note_other_languages(documents: list[str], first_number: int, summarizer, notify) -> None:
    """One note for the documents (of LANGUAGE_CHECKED_WORDS words or more) written in another
    language than the summarizer reads: it would only copy their sentences. A document most of
    whose words its training targets hold (target_words.txt, read for the word check anyway) is
    taken as its language; only another is identified (py3langid, whose load costs 0.4 s)."""
    language, words = summarizer.source_lang, summarizer.word_check
    other: dict[str, list[int]] = {}
    for number, document in enumerate(documents, first_number):
        tokens = [word.strip(EDGE_PUNCTUATION) for word in document.split()]
        tokens = [token for token in tokens if token.isalpha()]
        if len(tokens) < LANGUAGE_CHECKED_WORDS:
            continue
        if words is not None:
            known = sum(token in words.targets or token.lower() in words.targets for token in tokens)
            if known >= KNOWN_SHARE * len(tokens):
                continue
        found, _ = detect_language(document, [language])
        if found != language:
            other.setdefault(found, []).append(number)
    for found, numbers in other.items():
        named = ", ".join(map(str, numbers[:5])) + (", …" if len(numbers) > 5 else "")
        notify(
            f"input{'s' if len(numbers) > 1 else ''} {named} read{'' if len(numbers) > 1 else 's'} as "
            f"{language_label(found)}, and the summarizer reads {language_label(language)}: translate first "
            f"(attn translate --to {language})"
        )


def refuse_text_as_a_file(files: list[Path]) -> None:
    """A text given where a file is named (`attn summarize "The council voted…"`) is refused saying
    where a text goes, before a model loads: a name of several words that is no file."""
    for file in files:
        if len(str(file).split()) > 1 and not file.exists():
            raise UsageError(
                f"{str(file)[:40]!r} is no file: attn summarize reads documents from files or standard input "
                '(echo "TEXT" | attn summarize)'
            )


def _document_batches(
    files: list[Path], lines: bool, inputs_per_call: int, max_chars: int, notify=warn_on_stderr
) -> Iterator[list[str]]:
    """Batches of documents. Without --lines every file is read (at most `max_chars` characters
    of each kept) and checked before the first is summarized, so a blank one is an error before
    any output."""
    if lines:
        documents = [file for file in files if format_of(file) not in (None, ".txt", ".eml")]
        if documents:  # its bytes had been refused as "zip data, not text"
            raise UsageError(
                f"{documents[0]} is a document, summarized whole: --lines is for lines of text (leave it out)"
            )
        yield from file_line_batches(files, inputs_per_call, max_chars, notify, "summarize")
        return
    documents = []
    for file in files:
        name = "standard input" if str(file) == "-" else str(file)
        if str(file) == "-":
            head, chunks = _head(utf8_chunks(sys.stdin.fileno()))
            if HTML_PAGE.match(head.decode("utf-8", "replace")):  # a saved page piped in: read as a .html file
                page = _page_bytes(head, chunks, notify)
                document = _document_text(Path("standard input.html"), max_chars, notify, page)
            else:
                document = _read_document(itertools.chain([head], chunks), name, max_chars, notify)
        elif format_of(file) not in (None, ".txt", ".eml"):  # HTML, Word, subtitles: their text, in order
            # (a saved message is read as text: its own words, runtime/mail.py)
            document = _document_text(file, max_chars, notify)
        else:
            with file.open("rb") as handle:
                document = _read_document(utf8_chunks(handle.fileno()), name, max_chars, notify)
        if not has_words(document):  # empty, or punctuation alone
            raise UsageError(f"nothing to summarize: {name} holds no words")
        documents.append(document)
    for start in range(0, len(documents), inputs_per_call):
        yield documents[start : start + inputs_per_call]


SUBTITLES = (".srt", ".vtt")  # formats whose blocks are cues, cut anywhere in a sentence


# An HTML page, as a browser saves one ("<!DOCTYPE html>", "<html lang=…>"): its markup had been
# summarized as words
HTML_PAGE = re.compile(
    r"\ufeff?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*(?:<!doctype\s+html|<html[\s>])", re.IGNORECASE | re.DOTALL
)  # after a byte-order mark, an XML declaration, comments ("<!-- saved from url=… -->")


def _document_text(path: Path, max_chars: int, notify=warn_on_stderr, data: bytes | None = None) -> str:
    """The texts of a document file (runtime/documents; its `data`, or else read from `path`),
    each block's whitespace folded, blocks apart as paragraphs (subtitle cues as one text), its
    first `max_chars` characters kept (with a note)."""
    data = read_input(path) if data is None else data
    # a block (a paragraph, a heading, a list item) ends its sentences; a subtitle cue does not
    separator = " " if format_of(path) in SUBTITLES else "\n\n"
    text = separator.join(" ".join(block.split()) for block in read_document(path, data).texts() if block.strip())
    if len(text) > max_chars:
        notify(f"{path}: longer than --max-chars {max_chars}: its first {max_chars} characters summarized")
        text = text[:max_chars]
    return text


LINE_BREAK = b"\x1f"  # a line break while the input is read as one line (a control character no text holds)


HEAD_BYTES = 1024  # what is read of standard input before telling a web page from text
MAX_PAGE_BYTES = 64 * 2**20  # a page piped in is read to this size (its markup dwarfs its text)


def _head(chunks: Iterator[bytes]) -> tuple[bytes, Iterator[bytes]]:
    """The first HEAD_BYTES of `chunks` (or all, when there are fewer), and the chunks after them."""
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= HEAD_BYTES:
            break
    return head, chunks


def _page_bytes(head: bytes, chunks: Iterator[bytes], notify=warn_on_stderr) -> bytes:
    """A web page piped in, to MAX_PAGE_BYTES (with a note beyond it); its text is cut to
    --max-chars after its markup is read (a page's first 100,000 characters had been mostly CSS)."""
    page = bytearray(head)
    for chunk in chunks:
        page += chunk
        if len(page) > MAX_PAGE_BYTES:
            notify(
                f"standard input is a web page over {MAX_PAGE_BYTES // 2**20} MB: its first {MAX_PAGE_BYTES // 2**20} MB are read"
            )
            break
    return bytes(page[:MAX_PAGE_BYTES])


def _read_document(chunks: Iterator[bytes], name: str, max_chars: int, notify=warn_on_stderr) -> str:
    """The whole input, each line's whitespace folded, its line breaks kept (they tell where
    sentences end: runtime/sentences.py document_sentences; the model reads the lines as one
    text); beyond `max_chars` characters the rest is left unread, with a note."""
    splitter = LineSplitter(UTF8_MAX_BYTES * max_chars)
    first = True
    for chunk in chunks:
        if first:
            refuse_binary(chunk, name, "summarize")
            first = False
        splitter.feed(chunk.replace(b"\n", LINE_BREAK))  # one line for the splitter; line breaks kept
        if splitter.cut:  # past --max-chars: the rest is left unread (`attn summarize /dev/zero` ends)
            break
    [(data, cut)] = splitter.close() or [(b"", False)]
    raw = data.replace(LINE_BREAK, b"\n").split(b"\n")
    lines = [decode_line(line) for line in raw]
    lines[0] = lines[0].removeprefix(BOM)  # a file saved "with BOM", as attn translate reads it
    for number, (line, text) in enumerate(zip(raw, lines), 1):
        if not line.isascii() and note_not_utf8(line, number, name, notify):
            break  # the first such line is named: a Latin-1 file has many
    text = "\n".join(lines)
    whole = not cut or body_ends_before(text)  # what is read is all of it, or a message's body, whole
    lines = message_text(text).split("\n")  # an e-mail message: its body (runtime/mail.py)
    document = "\n".join(" ".join(line.split()) for line in lines).strip()
    if not whole or len(document) > max_chars:
        notify(f"{name} is longer than {max_chars} characters (--max-chars): only its first {max_chars} are read")
        document = document[:max_chars]
    return document
