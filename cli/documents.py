"""`attn translate -i FILE.docx -o OUT.docx`: a document in, the same document out, translated
(runtime/documents' formats; a .txt input stays lines in, lines out)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from attn.runtime.constants import language_label
from attn.runtime.documents import FORMATS, Document, format_of
from attn.runtime.errors import UsageError
from attn.runtime.router import Routes

from .output import output_file

# formats whose bytes are not text: written to a file only
BINARY = (".docx", ".pptx", ".odt", ".odp", ".epub")
# Data whose structure a translation line by line would break (a JSON file lost its commas): refused
STRUCTURED = (
    ".json",
    ".jsonl",
    ".xml",
    ".xliff",
    ".xlf",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".properties",
    ".arb",
    ".resx",
    ".strings",
    ".csv",
)
# Documents of formats attn does not read, named so (a spreadsheet had been "zip data, not text")
UNREAD = (".xlsx", ".xls", ".ods", ".doc", ".ppt", ".rtf", ".odg", ".pages", ".key", ".numbers")


def document_input(inputs: list[Path] | None, output: Path | None) -> Path | None:
    """The input when it is one document (a format of runtime/documents other than .txt); None
    for lines. An output named as another format is refused (a Word file named .odt or .pdf,
    lines named .docx)."""
    for path in inputs or []:
        if path.suffix.lower() in UNREAD:
            raise UsageError(
                f"{path}: attn does not read {path.suffix.lower()} files; it translates {', '.join(FORMATS)} files "
                f"(save it as one of those, or as text)"
            )
        if path.suffix.lower() in STRUCTURED:
            raise UsageError(
                f"{path}: a {path.suffix.lower()} file is data whose structure a translation line by line would "
                f"break; attn translates {', '.join(FORMATS)} files (a gettext catalog, .po, for messages)"
            )
    documents = [path for path in inputs or [] if format_of(path) not in (None, ".txt")]
    written_as = format_of(output) if output is not None else None
    if not documents:
        if written_as in BINARY:
            raise UsageError(
                f"--output {output}: lines are written as text; a {written_as} file comes from -i FILE{written_as}"
            )
        return None
    if len(inputs) > 1:
        raise UsageError(f"{documents[0]} is a document: it is translated alone, give it as the one --input")
    path = documents[0]
    if output is not None and str(output) != "-" and written_as != format_of(path):  # a .pdf, no suffix
        raise UsageError(
            f"--output {output}: {path} is written as a {format_of(path)} file: "
            f"name it {Path(output).with_suffix(format_of(path))}"
        )
    if format_of(path) in BINARY and (output is None or str(output) == "-") and sys.stdout.isatty():
        raise UsageError(f"{path} is written as a {format_of(path)} file: add -o FILE{format_of(path)}")
    return path


def document_language(path: Path, document: Document, pairs: list, target: str | None, notify) -> str | None:
    """The language a document given without --from (or with --from auto) is read in, into
    `target`: its whole text's (runtime/misread.py document_language: a few words and names decide
    nothing, "Stefan Braun, Jürgen Vogel, … Düsseldorf" had read as German), when a model here
    takes it there or it is `target`; None otherwise (with a note). The default en→de model read a
    German page as English, and a page of fewer than thirty words was never read as German."""
    language, reachable = Routes(pairs).document_source(document.texts(), target)
    if language is None or reachable:
        return language
    into = f" into {language_label(target)}" if target else ""
    notify(f"{path} reads as {language_label(language)}, which no model here translates{into}")
    return None


def read_input(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise UsageError(f"{path}: cannot read it ({error.strerror})") from None


def translate_document(
    document: Document, translate: Callable[[list[str]], list], language: str | None, output: Path | None
) -> int:
    """Translate `document` with `translate` (texts → each one's best translation, in `language`; None:
    not one language) into `output`, written whole or not at all; returns the number of texts
    translated."""
    texts = document.texts()
    written = document.written(translate(texts) if texts else [], language)
    with output_file(output):
        sys.stdout.flush()
        sys.stdout.buffer.write(written)
        sys.stdout.flush()
    return len(texts)
