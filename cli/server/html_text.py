"""`format: "html"`: the text of an HTML fragment or page translated, its markup kept.

The document is parsed with Beautiful Soup (Python's own html.parser under it); each text node
outside script, style and preformatted code is one text to translate, its surrounding whitespace
kept; tags, attributes, comments and the doctype come back as they were. Character references
come back as characters where they do not need escaping (`&nbsp;` as U+00A0, `&amp;` as `&amp;`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bs4 import BeautifulSoup, NavigableString

UNTRANSLATED = frozenset({"script", "style", "code", "pre", "kbd", "samp", "var", "textarea", "noscript", "template"})


def text_nodes(soup: BeautifulSoup) -> list[NavigableString]:
    """The translatable text nodes: plain strings (not comments, CDATA or declarations) with a
    letter or digit in them, outside UNTRANSLATED elements."""
    return [
        node
        for node in soup.find_all(string=True)
        if type(node) is NavigableString
        and any(c.isalnum() for c in node)
        and not any(parent.name in UNTRANSLATED for parent in node.parents)
    ]


async def translate_html(html: str, translate: Callable[[list[str]], Awaitable[list[str]]]) -> str:
    """`html` with every text node replaced by `translate`'s output for it (one call for all)."""
    soup = BeautifulSoup(html, "html.parser")
    nodes = text_nodes(soup)
    if not nodes:
        return html
    translations = await translate([" ".join(node.split()) for node in nodes])
    for node, translation in zip(nodes, translations):
        text = str(node)
        leading, trailing = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
        node.replace_with(NavigableString(leading + translation + trailing))
    return str(soup)
