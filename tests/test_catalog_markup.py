"""A gettext message holding HTML (or Pango) markup is read as an HTML fragment is, as `--html`
reads a line (runtime/documents/html.py): its text translated whole, its elements placed on the
translation by the alignment. Read as words, `Open <a href="%s">the help page</a> for more
information.` had come back as `Öffnen <a href="%s">the Hilfeseite</a>the Hilfeseite</a>de
Hilfeseite</a>de Hilfeseite <a href="%s">`, and `Click <b>Save</b>` kept "Save" English."""

from __future__ import annotations

import re

import pytest

from attn.runtime.documents import read_document

from .test_markdown_footnotes import capitals

polib = pytest.importorskip("polib")
pytest.importorskip("bs4")

HEADER = 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
HELP = 'Open <a href="%s">the help page</a> for more information.'
SAVE = "Click <b>Save</b> to keep your changes."
TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)[^<>]*>")


def po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def catalog(*messages: str | tuple[str, str]) -> bytes:
    entries = []
    for message in messages:
        if isinstance(message, tuple):
            entries.append(
                f'msgid {po_string(message[0])}\nmsgid_plural {po_string(message[1])}\nmsgstr[0] ""\nmsgstr[1] ""\n'
            )
        else:
            entries.append(f'msgid {po_string(message)}\nmsgstr ""\n')
    return (HEADER + "\n".join(entries)).encode()


def translated(data: bytes, translate=capitals) -> dict:
    document = read_document("app.po", data)
    out = document.written([translate(text) for text in document.texts()], "de")
    return {entry.msgid: entry for entry in polib.pofile(out.decode())}


def balanced(message: str) -> list[str]:
    """The tags of `message`, in order, asserting that each element opens once and closes after."""
    names, stack = [], []
    for tag in TAG.finditer(message):
        if tag.group(1):
            assert stack and stack.pop() == tag.group(2), message
        elif tag.group(2) not in ("br", "img"):
            stack.append(tag.group(2))
        names.append(tag.group(0))
    assert not stack, message
    return names


@pytest.mark.unit
def test_a_message_with_markup_is_read_without_its_tags_and_written_with_them():
    data = catalog(HELP, SAVE)
    assert read_document("app.po", data).texts() == [
        "Open the help page for more information.",
        "Click Save to keep your changes.",
    ]
    found = translated(data)
    assert found[HELP].msgstr == 'OPEN <a href="%s">THE HELP PAGE</a> FOR MORE INFORMATION.'
    assert found[SAVE].msgstr == "CLICK <b>SAVE</b> TO KEEP YOUR CHANGES."
    assert found[HELP].fuzzy and found[SAVE].fuzzy


@pytest.mark.unit
def test_a_messages_elements_go_around_the_words_aligned_to_theirs_each_once():
    """The words reordered (German puts the verb last): each element comes back once, well nested,
    around the words aligned to its own, its attributes and placeholders as they were."""
    reversed_order = lambda text: capitals(text, list(range(len(text.split())))[::-1])  # noqa: E731
    found = translated(catalog(HELP, SAVE), reversed_order)
    help_text = found[HELP].msgstr
    assert balanced(help_text) == ['<a href="%s">', "</a>"] and help_text.count("%s") == 1
    assert re.search(r'<a href="%s">PAGE HELP THE</a>', help_text)
    assert balanced(found[SAVE].msgstr) == ["<b>", "</b>"] and "<b>SAVE</b>" in found[SAVE].msgstr


@pytest.mark.unit
def test_a_message_without_paired_tags_is_read_as_words():
    """`<file>` in a usage line is no element: read as words, as before."""
    usage, less = "Usage: prog <file>", "Enter a value < 10 or <b>none"
    data = catalog(usage, less)
    assert read_document("app.po", data).texts() == [usage, less]
    found = translated(data)
    assert found[usage].msgstr == usage.upper() and found[less].msgstr == less.upper()


@pytest.mark.unit
def test_a_message_with_markup_keeps_its_line_breaks_ampersands_plurals_and_placeholders():
    wrapped = "Saved.\n<b>Check</b> the {name} & try again.\n"
    escaped = "Save &amp; <i>close</i>"
    plural = ("Delete <b>%d</b> file?", "Delete <b>%d</b> files?")
    titled = '<a title="Open it" href="/x/{id}">Here</a>'
    data = catalog(wrapped, escaped, plural, titled)
    texts = read_document("app.po", data).texts()
    assert texts == [
        "Saved.\nCheck the {name} & try again.",
        "Save & close",
        "Delete %d file?",
        "Delete %d files?",
        "Here",
        "Open it",
    ]
    found = translated(data)
    assert found[wrapped].msgstr == "SAVED.\n<b>CHECK</b> THE {NAME} & TRY AGAIN.\n"  # the line break, `&` as written
    assert found[escaped].msgstr == "SAVE &amp; <i>CLOSE</i>"  # a message with references keeps them
    assert found[plural[0]].msgstr_plural == {0: "DELETE <b>%D</b> FILE?", 1: "DELETE <b>%D</b> FILES?"}
    assert found[titled].msgstr == '<a title="OPEN IT" href="/x/{id}">HERE</a>'  # a title is a text of its own


@pytest.mark.system
def test_the_shipped_model_translates_a_messages_markup_as_html_is_translated():
    """The catalog's messages with markup come back well formed, each element once, their words
    those of the sentence without its tags (the same call's translation: no near tie between
    calls); the placeholder note has nothing to say."""
    from attn.runtime import load
    from attn.runtime.documents.html import translated_fragments

    translator = load("en-de")
    document = read_document("app.po", catalog(HELP, SAVE))
    texts = document.texts()
    found = translator.translate(texts)
    entries = {entry.msgid: entry for entry in polib.pofile(document.written(found, "de").decode())}
    for message, expected_tags, translation in [
        (HELP, ['<a href="%s">', "</a>"], found[0]),
        (SAVE, ["<b>", "</b>"], found[1]),
    ]:
        msgstr = entries[message].msgstr
        assert balanced(msgstr) == expected_tags
        assert TAG.sub("", msgstr) == translation.text
        assert re.search(r">[^<]*\w[^<]*</", msgstr)  # the element holds words
        # --html places the same translation's markup alike
        assert translated_fragments([message], lambda _texts, _owners: [translation], "de") == [msgstr]
    assert entries[HELP].msgstr.count("%s") == 1
