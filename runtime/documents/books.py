"""E-books (.epub): each XHTML document the book's package lists (EbookLib reads the package),
its table of contents (EPUB 3's nav document) included, is translated as HTML is
(runtime/documents/html.py), read as XML from the archive as it is, and so are the labels of
EPUB 2's table of contents (the NCX's `<text>`s) and the book's title and description (the
package's `dc:title` and `dc:description`, unless the description is HTML); the book is written
back as the same archive, entry by entry, with only those replaced: heads and styles, the other
metadata, images and reading order stay as they were, but for the language the book and its
translated chapters declare (the package's first `dc:language`, their `xml:lang` and `lang`),
which becomes the translation's."""

from __future__ import annotations

import html.entities
import io
import posixpath
import re
import zipfile
from collections.abc import Callable
from urllib.parse import unquote

from ..errors import first_line
from ..markup import Aligned
from . import DocumentError, damaged, redeclared
from .html import HtmlDocument
from .office import check_zip

CONTAINER = "META-INF/container.xml"
NCX = "application/x-dtbncx+xml"  # the NCX's media type in the package
NCX_NAMESPACE = "{http://www.daisy.org/z3986/2005/ncx/}"
DUBLIN_CORE = "{http://purl.org/dc/elements/1.1/}"
DC_LANGUAGE = DUBLIN_CORE + "language"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
LABELLED = ("docTitle", "navLabel", "navInfo")  # an author's name (docAuthor) stays
NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")  # XML 1.0's Char


def xml_tree(data: bytes):
    """The root element of an archive member's XML, its entities never expanded, nothing fetched."""
    from lxml import etree

    return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))


# An entity of HTML's ("&nbsp;", "&eacute;"), which XML without HTML's DTD does not define: the
# chapter's parser dropped it ("Open&nbsp;the file." read "Openthe file.")
HTML_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})


def with_html_entities_read(text: str) -> str:
    """`text` with each entity of HTML's that XML's five are not written as its character's
    reference ("&nbsp;" → "&#160;"; "&AMP;", HTML's too, → "&#38;", which XML reads as "&")."""

    def reference(found: re.Match) -> str:
        characters = html.entities.html5.get(f"{found[1]};")  # the name whole: "&notice;" is none
        if found[1] in XML_ENTITIES or characters is None:  # XML's own, or one HTML does not name
            return found[0]
        return "".join(f"&#{ord(character)};" for character in characters)

    return HTML_ENTITY.sub(reference, text)


class XmlLabels:
    """Labels of an XML document (those `chosen(root)` gives that hold nothing but text, with a
    letter or digit), one text each, written back in place, the document's type and prolog kept,
    the root's `xml:lang` made the translation's. A document that is not well-formed XML (which
    EbookLib recovers from) is left as it is."""

    def __init__(self, data: bytes, chosen: Callable):
        from lxml import etree

        try:
            self.tree = xml_tree(data)
        except etree.XMLSyntaxError:
            self.tree, self.labels = None, []
        else:
            self.labels = [
                label for label in chosen(self.tree) if len(label) == 0 and any(c.isalnum() for c in label.text or "")
            ]

    def texts(self) -> list[str]:
        return [" ".join(label.text.split()) for label in self.labels]

    def written(self, translations: list[Aligned], language: str | None = None) -> str:
        from lxml import etree

        for label, translation in zip(self.labels, translations):
            label.text = NOT_XML.sub("", translation.text)  # lxml refuses what XML cannot hold
        if language and self.tree.get(XML_LANG) is not None:
            self.tree.set(XML_LANG, redeclared(self.tree.get(XML_LANG), language))
        return etree.tostring(self.tree.getroottree(), xml_declaration=True, encoding="utf-8").decode("utf-8")


def ncx_labels(root) -> list:
    """The NCX's labels: the book's title, each entry's and list's `<text>`."""
    return [
        label
        for name in LABELLED
        for parent in root.iter(NCX_NAMESPACE + name)
        for label in parent.iter(NCX_NAMESPACE + "text")
    ]


def package_labels(root) -> list:
    """The package's title and description; not a description written as HTML, which its
    escaped tags would take apart."""
    return [
        *root.iter(DUBLIN_CORE + "title"),
        *(found for found in root.iter(DUBLIN_CORE + "description") if "<" not in (found.text or "")),
    ]


def package_path(archive: zipfile.ZipFile) -> str:
    """The name of the package document in the archive (META-INF/container.xml's rootfile)."""
    from lxml import etree

    try:
        container = xml_tree(archive.read(CONTAINER))
    except (KeyError, etree.XMLSyntaxError) as error:
        raise damaged("EPUB book", error) from None
    rootfile = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile")
    if rootfile is None or not rootfile.get("full-path"):
        raise DocumentError(f"not an EPUB book ({CONTAINER} names no package)")
    return rootfile.get("full-path")


def declared_package(data: bytes, language: str) -> bytes | None:
    """The package document's bytes with its first `dc:language` (the book's language) set to
    `language`; None when it declares none or is not well-formed XML (which EbookLib recovers from)."""
    from lxml import etree

    try:
        tree = xml_tree(data)
    except etree.XMLSyntaxError:
        return None
    found = tree.find(f".//{DC_LANGUAGE}")
    if found is None:
        return None
    found.text = redeclared(found.text or "", language)
    return etree.tostring(tree.getroottree(), xml_declaration=True, encoding="utf-8")


class EpubDocument:
    def __init__(self, data: bytes):
        import ebooklib
        from ebooklib import epub
        from lxml import etree

        check_zip(data, "an EPUB book")
        self.data = data
        try:
            # the NCX read too: without it EbookLib cannot read some books' table of contents
            book = epub.read_epub(io.BytesIO(data), options={"ignore_ncx": False})
        except Exception as error:  # EbookLib raises what its zip and XML readers raise
            raise damaged("EPUB book", error) from None
        self.chapters: list[tuple[str, HtmlDocument | XmlLabels]] = []
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            self.package = package_path(archive)
            folder = posixpath.dirname(self.package)
            self.chapters.append((self.package, XmlLabels(archive.read(self.package), package_labels)))
            for item in [*book.get_items_of_type(ebooklib.ITEM_DOCUMENT), *book.get_items_of_media_type(NCX)]:
                name = posixpath.normpath(posixpath.join(folder, unquote(item.get_name())))
                try:
                    data = archive.read(name)
                except KeyError:
                    raise DocumentError(f"not an EPUB book (its package lists {name}, which it lacks)") from None
                if item.media_type == NCX:  # XML in the encoding it declares
                    self.chapters.append((name, XmlLabels(data, ncx_labels)))
                    continue
                try:
                    chapter = with_html_entities_read(data.decode("utf-8"))
                except UnicodeDecodeError:
                    raise DocumentError(f"{name}: not UTF-8 text") from None
                try:  # the parser below reads on past an error (a chapter came back untranslated, unsaid)
                    xml_tree(NOT_XML.sub("", chapter).encode("utf-8"))  # and leaves out what XML cannot hold
                except etree.XMLSyntaxError as error:
                    raise DocumentError(f"{name}: not well-formed XHTML ({first_line(error)})") from None
                self.chapters.append((name, HtmlDocument(chapter, parser="xml")))

    def texts(self) -> list[str]:
        return [text for _, document in self.chapters for text in document.texts()]

    def written(self, translations: list[Aligned], language: str | None = None) -> bytes:
        replaced, start = {}, 0
        for name, document in self.chapters:
            count = len(document.texts())
            if count:
                replaced[name] = document.written(translations[start : start + count], language).encode("utf-8")
            start += count
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(self.data)) as source, zipfile.ZipFile(out, "w") as book:
            if language and replaced:
                package = replaced.get(self.package) or source.read(self.package)
                replaced[self.package] = declared_package(package, language) or package
            for entry in source.infolist():  # in order, each compressed as it was: `mimetype` first, stored
                book.writestr(entry, replaced.get(entry.filename) or source.read(entry))
        return out.getvalue()
