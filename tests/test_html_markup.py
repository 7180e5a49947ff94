"""HTML's inline markup placed by the alignment (runtime/documents/html.py over runtime/markup.py),
on the shipped models in the four directions and marked-up sentences of our own
(tests/fixtures/markup/): markup never changes the words, every element comes back once with its
attributes, well formed and nested as it was, and sentences are translated whole."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("bs4")
from bs4 import BeautifulSoup, Comment, Tag  # noqa: E402

from attn.runtime import load  # noqa: E402
from attn.runtime.documents.html import HTML_OUT, TEXT_ATTRIBUTES, VERBATIM, translate_html  # noqa: E402

pytestmark = pytest.mark.system

FIXTURES = Path(__file__).parent / "fixtures" / "markup"
DIRECTIONS = [("en", "de"), ("en", "fr"), ("de", "en"), ("fr", "en")]


@pytest.fixture(scope="module")
def translator():
    return load()


def translated(translator, html: str, source: str, target: str) -> str:
    async def translate(texts: list[str]) -> list:
        return translator.translate(texts, source, target)

    return asyncio.run(translate_html(html, translate))


def elements(soup: BeautifulSoup) -> Counter:
    """Each element (its name, attributes, a text attribute's name only, and the names of its
    ancestors) and comment, counted."""
    found = Counter()
    for node in soup.descendants:
        if isinstance(node, Tag):
            ancestors = tuple(parent.name for parent in node.parents)
            attributes = {name: "…" if name in TEXT_ATTRIBUTES else value for name, value in node.attrs.items()}
            found[node.name, str(sorted(attributes.items())), ancestors] += 1
        elif isinstance(node, Comment):
            found["comment", str(node)] += 1
    return found


def blocks(source: str) -> list[str]:
    return (FIXTURES / f"{source}.html").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("source, target", DIRECTIONS, ids=[f"{s}-{t}" for s, t in DIRECTIONS])
def test_markup_never_changes_the_words_and_every_element_comes_back_once(translator, source, target):
    for html in blocks(source):
        output = translated(translator, html, source, target)
        before, after = BeautifulSoup(html, "html.parser"), BeautifulSoup(output, "html.parser")
        assert elements(after) == elements(before), (html, output)
        assert BeautifulSoup(output, "html.parser").decode(formatter=HTML_OUT) == output  # well formed as written
        if not before.find(VERBATIM):  # a kbd or code element comes back as it was, in place of its words
            for line_break in before.find_all("br") + after.find_all("br"):  # it parts words, as a space
                line_break.replace_with(" ")
            plain = translator.translate(" ".join(before.get_text().split()), source, target).text
            assert " ".join(after.get_text().split()) == plain, (html, output)


def test_a_sentence_is_translated_whole_not_cut_at_its_tags(translator):
    """LibreTranslate and attn before translated each piece between tags alone."""
    html = '<p>Click <b>Save</b> to keep your <a href="x">changes</a>.</p>'
    output = BeautifulSoup(translated(translator, html, "en", "de"), "html.parser")
    plain = translator.translate("Click Save to keep your changes.", "en", "de").text
    assert output.get_text() == plain and output.find("b").get_text() and output.find("a").get_text()


def test_each_link_of_a_menu_is_translated_alone(translator):
    """A row of links with separators between them (a menu) had been one text, each link's words
    placed on another's ("<a href="/">|</a>", "Kontakte | Kontakt")."""
    html = '<nav><a href="/">Home</a> | <a href="/p">Our products</a> | <a href="/c">Contact</a></nav>'
    output = BeautifulSoup(translated(translator, html, "en", "de"), "html.parser")
    links = {link["href"]: link.get_text() for link in output.find_all("a")}
    alone = [translator.translate(text, "en", "de").text for text in ("Home", "Our products", "Contact")]
    assert list(links.values()) == alone and list(links) == ["/", "/p", "/c"]
    assert output.get_text() == " | ".join(alone)
    # two buttons with a space between them: each alone
    buttons = "<div><button>Save</button> <button>Cancel</button></div>"
    labels = [
        button.get_text()
        for button in BeautifulSoup(translated(translator, buttons, "en", "de"), "html.parser").find_all("button")
    ]
    assert labels == [translator.translate(text, "en", "de").text for text in ("Save", "Cancel")]
    # two links that are one sentence's parts stay one text
    sentence = '<p><a href="/a">Click here</a> <a href="/b">to download the file</a>.</p>'
    whole = BeautifulSoup(translated(translator, sentence, "en", "de"), "html.parser").get_text()
    assert whole == translator.translate("Click here to download the file.", "en", "de").text


def test_a_footnotes_mark_is_not_read_as_the_words_part(translator):
    """ "expected<sup>1</sup>" had been read "expected1", and the word lost."""
    html = "<p>The results were better than expected<sup>1</sup> in the first quarter.</p>"
    output = BeautifulSoup(translated(translator, html, "en", "de"), "html.parser")
    mark = output.find("sup").extract()
    assert mark.get_text() == "1" and not output.find("sup")
    assert (
        output.get_text()
        == translator.translate("The results were better than expected in the first quarter.", "en", "de").text
    )


def test_a_void_element_between_words_stays_between_words(translator):
    """An image, a line break or a comment between two words came back glued to the next word."""
    html = '<p>Click the button <img src="b.png"> to save, and <br> then close <!-- note --> the window.</p>'
    output = translated(translator, html, "en", "de")
    for void in ('<img src="b.png">', "<br>", "<!-- note -->"):
        assert void in output and not re.search(re.escape(void) + r"\w", output), output
    opening = translated(translator, '<p><img src="a.png"> Hello world</p>', "en", "de")  # one opening the block too
    assert opening.startswith('<p><img src="a.png"> '), opening


def test_a_document_type_declaring_entities_is_kept_and_nothing_expanded(translator):
    """A DOCTYPE with an internal subset came back mangled (a declaration turned into a comment,
    `]>` into `]&gt;`) and `&lol2;` into `&amp;lol2`."""
    prolog = '<!DOCTYPE html [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;">\n]>\n'
    output = translated(translator, prolog + "<p>The file &lol2; could not be opened.</p>", "en", "de")
    assert output.startswith(prolog) and "&lol2;" in output and "&amp;" not in output and "lollol" not in output
