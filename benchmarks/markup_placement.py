"""Inline markup placed by the alignment against cut at the tags, on sentences whose professional
translations place the same tags (the data's `markup-dev`: Salesforce help).

    python -m benchmarks.markup_placement --data ../shared/data/en-de/markup-dev.tsv.gz --from en --to de \\
        [--out docs/studies/MARKUP-PLACEMENT.md]

Each row whose source has inline tags is translated as HTML twice with the same model: by
runtime/documents/html.py (each sentence whole, its tags placed by the word alignment) and by
cutting at the tags (each piece of text between tags translated alone, as LibreTranslate does and
attn did). Scored against the reference: the words (BLEU and chrF with the tags removed), the
words and tags together (BLEU over the text with each tag a token of its own), the content of each
tagged span (chrF of its words against the same tag's words in the reference, matched by name in
order; and the share equal to the reference's) and whether every tag of the source came back.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from collections import Counter, defaultdict

import sacrebleu
from bs4 import BeautifulSoup, NavigableString, Tag

from attn.runtime.documents.html import UNTRANSLATED, translate_html
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.registry import resolve_model
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, table

TAG = re.compile(r"<[^>]+>")


def plain(html: str) -> str:
    return " ".join(BeautifulSoup(html, "html.parser").get_text().split())


def with_tag_tokens(html: str) -> str:
    """The text with every tag a token of its own (attributes dropped): "a <b> b </b> c"."""
    soup = BeautifulSoup(html, "html.parser")
    out = []
    for node in soup.descendants:
        if isinstance(node, Tag):
            out.append(f"<{node.name}>")
        elif isinstance(node, NavigableString):
            out.append(str(node))
    text = " ".join(out)
    return " ".join(text.split())


def spans(html: str) -> dict[str, list[str]]:
    """Each tag name → the words inside each element of that name, in document order."""
    found = defaultdict(list)
    for element in BeautifulSoup(html, "html.parser").find_all(True):
        found[element.name].append(" ".join(element.get_text().split()))
    return found


def tags(html: str) -> Counter:
    return Counter(element.name for element in BeautifulSoup(html, "html.parser").find_all(True))


async def by_alignment(model: LoadedModel, html: str) -> str:
    async def translate(texts):
        return [found[0] for found in model.translate(texts)]

    return await translate_html(html, translate)


def cut_at_tags(model: LoadedModel, html: str) -> str:
    """Each text node translated alone, its surrounding whitespace kept."""
    soup = BeautifulSoup(html, "html.parser")
    nodes = [
        node
        for node in soup.find_all(string=True)
        if type(node) is NavigableString
        and any(c.isalnum() for c in node)
        and not any(parent.name in UNTRANSLATED for parent in node.parents)
    ]
    if nodes:
        for node, found in zip(nodes, model.translate([" ".join(node.split()) for node in nodes])):
            text = str(node)
            leading, trailing = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
            node.replace_with(NavigableString(leading + found[0].text + trailing))
    return str(soup)


def scores(outputs: list[str], references: list[str], sources: list[str]) -> list[str]:
    bleu = sacrebleu.corpus_bleu([plain(o) for o in outputs], [[plain(r) for r in references]]).score
    chrf = sacrebleu.corpus_chrf([plain(o) for o in outputs], [[plain(r) for r in references]]).score
    tagged = sacrebleu.corpus_bleu(
        [with_tag_tokens(o) for o in outputs], [[with_tag_tokens(r) for r in references]], tokenize="none"
    ).score
    span_chrf, equal, count = 0.0, 0, 0
    for output, reference in zip(outputs, references):
        ours, theirs = spans(output), spans(reference)
        for name, texts in theirs.items():
            for index, text in enumerate(texts):
                mine = ours.get(name, [])[index] if index < len(ours.get(name, [])) else ""
                span_chrf += sacrebleu.sentence_chrf(mine, [text]).score
                equal += mine == text
                count += 1
    kept = sum(tags(o) == tags(s) for o, s in zip(outputs, sources))
    return [
        f"{bleu:.2f}",
        f"{chrf:.2f}",
        f"{tagged:.2f}",
        f"{span_chrf / max(count, 1):.2f}",
        f"{100 * equal / max(count, 1):.1f} %",
        f"{kept} of {len(outputs)}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--from", dest="source", required=True)
    parser.add_argument("--to", dest="target", required=True)
    parser.add_argument("--model", default=None, help="a model folder (default: the installed model of the pair)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    model = LoadedModel(
        resolve_model(args.model, "translate", args.source, args.target),
        source_lang=args.source,
        target_lang=args.target,
        notify=lambda message: None,
    )
    rows = [row for row in read_tsv(args.data) if TAG.search(row.source) and TAG.search(row.target)]
    sources, references = [row.source for row in rows], [row.target for row in rows]
    aligned = [asyncio.run(by_alignment(model, source)) for source in sources]
    cut = [cut_at_tags(model, source) for source in sources]
    report = "\n".join(
        [
            command_line(),
            "",
            f"{len(rows)} rows of `{args.data.rsplit('/', 1)[-1]}` with inline tags on both sides; "
            f"model `{model.folder}` ({args.source}→{args.target}), its default search.",
            "",
            table(
                [
                    "markup",
                    "BLEU (words)",
                    "chrF (words)",
                    "BLEU (words and tags)",
                    "span chrF",
                    "spans equal",
                    "all tags back",
                ],
                [["placed by the alignment", *scores(aligned, references, sources)]]
                + [["cut at the tags", *scores(cut, references, sources)]],
            ),
            "",
        ]
    )
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(report)


if __name__ == "__main__":
    main()
