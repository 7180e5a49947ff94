"""GitHub's footnotes in Markdown: a definition is a text of its own on its own line, however many
follow each other, and a reference is set aside from its sentence (which the model then reads as
it reads it without one) and written after the words it followed. The shipped model had read
"power.[^1]" as one word and left "power" English, and joined two definitions on consecutive
lines into one, the second no longer defined."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.documents import read_document

pytest.importorskip("markdown_it")

DEFINITION = re.compile(r"^\[\^([^\]\s]+)\]: \S", re.M)  # a definition opening its line
REFERENCE = re.compile(r"\[\^([^\]\s]+)\](?!:)")
TRIAL = (  # a newcomer's file (m3.md)
    "The lamp uses very little power.[^1]\n\n"
    "Our customers love the new design[^2] and the warm light.\n\n"
    "This paragraph is wrapped\nover two lines in the source file.[^3]\n\n"
    "[^1]: Measured at full brightness.\n"
    "[^2]: Survey from May.\n"
    "[^3]: The wrapping is removed in the translation.\n"
)


@dataclass
class Translated:
    text: str
    alignment: WordAlignment


def capitals(text: str, order: list[int] | None = None) -> Translated:
    """`text` in capitals, its words in `order` (source word indices, in target order), each
    linked to its own source word."""
    words = text.split()
    order = list(range(len(words))) if order is None else order
    weights = np.zeros((len(order), len(words)), np.float32)
    weights[np.arange(len(order)), order] = 1
    target = [words[index].upper() for index in order]
    return Translated(" ".join(target), WordAlignment(words, target, weights))


def written(source: str, translated=None) -> str:
    document = read_document("notes.md", source.encode())
    texts = document.texts()
    return document.written([(translated or capitals)(text) for text in texts]).decode()


def defined_and_referenced(markdown: str) -> tuple[list[str], list[str]]:
    return DEFINITION.findall(markdown), REFERENCE.findall(markdown)


@pytest.mark.unit
def test_footnote_definitions_on_consecutive_lines_stay_each_on_its_own_line():
    document = read_document("notes.md", TRIAL.encode())
    texts = document.texts()
    assert texts[-3:] == [
        "Measured at full brightness.",
        "Survey from May.",
        "The wrapping is removed in the translation.",
    ]
    out = written(TRIAL)
    definitions, references = defined_and_referenced(out)
    assert definitions == ["1", "2", "3"] and sorted(references) == ["1", "2", "3"]
    assert out.splitlines()[-3:] == [
        "[^1]: MEASURED AT FULL BRIGHTNESS.",
        "[^2]: SURVEY FROM MAY.",
        "[^3]: THE WRAPPING IS REMOVED IN THE TRANSLATION.",
    ]
    # right after a paragraph's line, a definition is a block of its own too
    assert written("Some text here.\n[^1]: A note.\n") == "SOME TEXT HERE.\n[^1]: A NOTE.\n"


@pytest.mark.unit
def test_a_footnote_reference_is_not_part_of_the_text_the_model_reads():
    texts = read_document("notes.md", TRIAL.encode()).texts()
    assert texts[:3] == [
        "The lamp uses very little power.",
        "Our customers love the new design and the warm light.",
        "This paragraph is wrapped over two lines in the source file.",
    ]
    assert not any("[^" in text for text in texts)
    out = written(TRIAL)
    assert out.splitlines()[:5] == [
        "THE LAMP USES VERY LITTLE POWER.[^1]",
        "",
        "OUR CUSTOMERS LOVE THE NEW DESIGN[^2] AND THE WARM LIGHT.",
        "",
        "THIS PARAGRAPH IS WRAPPED OVER TWO LINES IN THE SOURCE FILE.[^3]",
    ]


@pytest.mark.unit
def test_a_reference_follows_its_word_or_its_sentence_wherever_the_translation_puts_them():
    """After a word, a reference follows that word's translation; after a sentence's end, the end
    of the sentence's translation, whichever word the translation ends with."""
    reordered = written("Love the design[^2] and light.\n", lambda text: capitals(text, [4, 3, 2, 1, 0]))
    assert reordered == "LIGHT. AND DESIGN[^2] THE LOVE\n"
    final = written("It uses power.[^1]\n", lambda text: capitals(text, [2, 0, 1]))
    assert final == "POWER. IT USES[^1]\n"  # "uses" linked last: the sentence ends there
    two = written("First one.[^1] Then two.[^2]\n", lambda text: capitals(text, [1, 0, 3, 2]))
    assert two == "ONE. FIRST[^1] TWO. THEN[^2]\n"


@pytest.mark.unit
def test_footnote_references_keep_their_company_and_their_markup():
    cases = {
        "see this[^1] and [that] or [^2]\n\n[^1]: a note\n\n[^2]: https://x.org\n": (
            "SEE THIS[^1] AND \\[THAT\\] OR [^2]\n\n[^1]: A NOTE\n\n[^2]: https://x.org\n"
        ),
        "word[^1][^2] and *in[^3]* a [link](u)[^4] or `code`[^5] now.\n": (
            "WORD[^1][^2] AND *IN[^3]* A [LINK](u)[^4] OR `code`[^5] NOW.\n"
        ),
        "[^1] opens it.\n": "[^1] OPENS IT.\n",  # nothing before it to follow
        "in a wo[^1]rd here.\n": "IN A WO[^1]RD HERE.\n",  # glued to what follows: in its word, as it was
        "*It uses power.*[^1] Next.\n": "*IT USES POWER.*[^1] NEXT.\n",
        "A picture ![i](p.png)[^1] here.\n": "A PICTURE ![I](p.png)[^1] HERE.\n",
    }
    for source, expected in cases.items():
        assert written(source) == expected
        assert REFERENCE.findall(written(source)) == REFERENCE.findall(source)


@pytest.mark.system
def test_the_shipped_model_translates_a_sentence_with_a_footnote_as_without_one():
    from attn.runtime import load

    translator = load("en-de")
    document = read_document("m3.md", TRIAL.encode())
    texts = document.texts()
    found = translator.translate(texts)
    out = document.written(found).decode()
    definitions, references = defined_and_referenced(out)
    assert definitions == ["1", "2", "3"] and sorted(references) == ["1", "2", "3"]
    lines = out.splitlines()
    assert len(lines) == len(TRIAL.splitlines()) - 1  # the wrapped paragraph on one line
    for line, translation in zip(lines[0:5:2], found[:3]):  # the words are the sentence's without the reference
        assert REFERENCE.sub("", line) == translation.text
        assert re.search(r"\S\[\^\d\]", line)  # glued to a word
    assert lines[0].endswith(".[^1]") and lines[4].endswith(".[^3]")  # after the sentence's end


@pytest.mark.unit
def test_a_reference_after_a_sentence_that_opens_with_markup_keeps_the_markup():
    """The reference's span starts with its sentence and is listed after the markup that opens it:
    taking spans in the order they were listed had made them siblings ("****Important note.")."""
    assert written("**Important** note.[^1]\n\n[^1]: A note.\n").splitlines()[0] == "**IMPORTANT** NOTE.[^1]"
    assert written("*A* b c.[^1] More text here.\n\n[^1]: A note.\n").splitlines()[0] == (
        "*A* B C.[^1] MORE TEXT HERE."
    )
