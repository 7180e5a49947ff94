"""Gettext catalogs (.po, read and written with polib): each untranslated message is a text (its
msgid; a plural message's msgid_plural too), its translation written to msgstr (msgstr[0] and the
plural forms) and flagged fuzzy, as machine translation for a translator to review. Messages
already translated or obsolete are left alone, and fuzzy ones unless asked (`fuzzy`: then they
are translated anew, still fuzzy); the header, comments, references and flags are kept. A
catalog in another charset than UTF-8 is written in UTF-8, its header saying so.

A message holding HTML (or Pango) markup, its tags paired (`Open <a href="%s">the help page</a>.`),
is read as an HTML fragment is (runtime/documents/html.py, as `--html` reads a line): its text
translated whole, its elements placed on the translation by the alignment, attributes as they were;
read as words, its tags had come back broken and the words between them left untranslated. A
message with a lone `<` or an unpaired `<name>` (`Usage: prog <file>`) is read as words."""

from __future__ import annotations

import re
from functools import lru_cache

from ..constants import primary_language
from ..markup import Aligned
from . import DocumentError, decoded
from .markdown import HTML_TAG, HTML_VOID

CHARSET = re.compile(r"charset=[\w.:-]+")
# the header's Content-Type naming a charset (not xgettext's placeholder; not a message's words)
DECLARED_CHARSET = re.compile(rb'^"Content-Type:[^"\n]*charset=(?!CHARSET\b)[\w.:-]+', re.M)
# GNU gettext's plural forms of the languages attn's models write (a message and its plural:
# msgstr[0] and msgstr[1], as written())
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}


def in_file_order(
    metadata: dict[str, str], read: tuple[str, ...], canonical: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The header fields of `metadata` in the order the file had them (`read`), each field the
    file lacked placed after the field that precedes it in `canonical` (polib's order: gettext's
    fields first, then the rest sorted), which reordered every header not written in it."""
    order = [name for name in read if name in metadata]
    for index, (name, _) in enumerate(canonical):
        if name not in order:
            before = next((earlier for earlier, _ in reversed(canonical[:index]) if earlier in order), None)
            order.insert(0 if before is None else order.index(before) + 1, name)
    return [(name, metadata[name]) for name in order]


@lru_cache(maxsize=1)
def catalog_class():
    """polib's POFile writing its header in the file's own order (in_file_order; `read_order`, set
    once it is read)."""
    import polib

    class FileOrderedCatalog(polib.POFile):
        read_order: tuple[str, ...] = ()

        def ordered_metadata(self):
            return in_file_order(self.metadata, self.read_order, super().ordered_metadata())

    return FileOrderedCatalog


class PoDocument:
    def __init__(self, data: bytes, fuzzy: bool = False):
        import polib

        # polib reads bytes naming a file as that file; its default, UTF-8, where the header names no charset
        declared = polib.detect_encoding(b"\n" + data) if DECLARED_CHARSET.search(data) else None
        self.file = decoded(data, declared)
        text = self.file.text
        try:
            self.catalog = polib.pofile(
                "\n" + text, klass=catalog_class()
            )  # a string naming a file is read as that file
            self.catalog.read_order = tuple(self.catalog.metadata)
        except (OSError, ValueError) as error:  # polib's parse errors are OSErrors
            raise DocumentError(f"not a gettext catalog: {str(error).splitlines()[0][:200]}") from None
        if self.file.read_as:  # read in the charset it declares (or Windows-1252), written in UTF-8, and saying so
            declared = self.catalog.metadata.get("Content-Type", "text/plain; charset=UTF-8")
            self.catalog.metadata["Content-Type"] = CHARSET.sub("charset=UTF-8", declared)
        self.entries = [
            entry
            for entry in self.catalog
            if entry.msgid
            and not entry.obsolete
            and not entry.translated()
            and (fuzzy or not entry.fuzzy)  # polib: fuzzy is not translated
        ]
        # each message's HTML fragment, None for one read as words
        self.fragments = [fragment(source.strip("\n")) for source in self.sources()]

    def filled_template_header(self, language: str) -> None:
        """A template's header placeholders (xgettext's `charset=CHARSET`, `nplurals=INTEGER;
        plural=EXPRESSION;`) filled for the translation in `language`: msgfmt refuses them."""
        metadata = self.catalog.metadata
        metadata["Content-Type"] = metadata.get("Content-Type", "text/plain; charset=UTF-8").replace(
            "charset=CHARSET", "charset=UTF-8"
        )  # written in UTF-8
        if "INTEGER" in metadata.get("Plural-Forms", "") and language in PLURAL_FORMS:
            metadata["Plural-Forms"] = PLURAL_FORMS[language]

    @property
    def language(self) -> str | None:
        """The language the catalog's messages are translated into, as --to takes it (its
        Language header: "pt_BR", "sr@latin", "French" → "pt", "sr", "fr"), None when the header
        leaves it empty (a template)."""
        header = self.catalog.metadata.get("Language", "").strip()
        return primary_language(header) if header else None

    def sources(self) -> list[str]:
        """Each message's msgid (and msgid_plural), as the catalog has it."""
        return [text for entry in self.entries for text in [entry.msgid, entry.msgid_plural] if text]

    def texts(self) -> list[str]:
        """The messages without their edge line breaks, which the model would read as words; a
        message with markup, the texts of its fragment (its runs' and its attributes')."""
        return [
            text
            for source, html in zip(self.sources(), self.fragments)
            for text in (html.texts() if html else [source.strip("\n")])
        ]

    def translated(self, translations: list[Aligned], language: str | None) -> list[str]:
        """Each message's translation (sources()), its markup placed, from the texts' (texts())."""
        found, messages = iter(translations), []
        for source, html in zip(self.sources(), self.fragments):
            if html is None:
                messages.append(next(found).text)
                continue
            written = html.written([next(found) for _ in html.texts()], language)
            written = LINE_MARK.sub("\n", written)
            if not REFERENCE.search(source):  # `&` as the message wrote it, not as `&amp;`
                written = written.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            messages.append(written)
        return messages

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        found = (
            edged(source, translation)
            for source, translation in zip(self.sources(), self.translated(translations, language))
        )
        for entry in self.entries:
            if entry.msgid_plural:
                single, plural = next(found), next(found)
                entry.msgstr_plural = {
                    form: single if form == 0 else plural for form in entry.msgstr_plural or {0: "", 1: ""}
                }
            else:
                entry.msgstr = next(found)
            if not entry.fuzzy:
                entry.flags.append("fuzzy")
        if language and self.entries and not self.language:  # msgfmt and editors read the target from it
            self.catalog.metadata["Language"] = language
            self.filled_template_header(language)
        written = str(self.catalog)
        if not self.catalog.header:  # polib writes an empty header comment as a lone "#"
            written = written.removeprefix("#\n")
        return self.file.encoded(written)


# A line break inside a message with markup, as an element the fragment keeps while it is translated
# (a `<br>`: before a capital, the line is translated apart, as a message's line is), and as written
LINE_BREAK = '<br data-attn-line="">'
LINE_MARK = re.compile(r' *<br data-attn-line=""\s*/?> *')
REFERENCE = re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")  # a character reference


def paired_tags(message: str) -> bool:
    """Whether `message` holds HTML tags, and each element's opening tag has its closing one, as
    markup writes them (a void element, `<br>`, `<img …/>`, needs none); not `Usage: prog <file>`."""
    open_names: list[str] = []
    found = False
    for tag in HTML_TAG.finditer(message):
        found, name = True, tag.group(2).lower()
        if tag.group(1):
            if not open_names or open_names.pop() != name:
                return False
        elif name not in HTML_VOID and not tag.group(0).endswith("/>"):
            open_names.append(name)
    return found and not open_names


def fragment(message: str):
    """The HTML fragment of a message with paired tags (paired_tags), its line breaks kept as
    LINE_BREAK elements; None for one read as words."""
    if not paired_tags(message):
        return None
    from .html import HtmlDocument

    return HtmlDocument(message.replace("\n", LINE_BREAK))


def edged(source: str, translation: str) -> str:
    """The translation with the source's leading and trailing line breaks, which gettext's checks
    require a message's translation to keep ("Done.\\n" → "Fertig.\\n")."""
    core = translation.strip("\n")
    return source[: len(source) - len(source.lstrip("\n"))] + core + source[len(source.rstrip("\n")) :]
