"""Names the model never learned, set aside where its translation lost them.

A name that no sentence the model learned from holds reaches it as pieces it has not seen
together, and it spelled them into something else: in news-dev, "Didier Deschamps" → "Didier
Deschmarken", "Claude Makelele" → "Claude Makelelelele", "Dan Fogelman" → "Dan Firbir", "Tony
Accurso" → "Unterrepreneurso". In a language that writes a word with a capital inside a sentence
only for a name (English, French: CAPITALIZED_NAMES; German writes every noun so), such a word is
one whose letters none of the model's training sources holds in any case (its folder's
source_words.txt, `attn source-words`): not the sentence's first word, not one in capitals alone
(an acronym the target writes otherwise: "ECB" → "EZB"), nor a learned word with a suffix that
makes a people or a doctrine of it ("Londoners", "Parisians", "Berlinois": DERIVED), which the
target writes in its own way. A translation that lost one of them
(the output does not hold it as written) is searched again with them set aside, as a title's name
is (runtime/set_aside.py: a placeholder the model copies, the name put back in its place), and the
second translation is taken where it keeps more of them (runtime/texts.py). Chosen on news-dev
(docs/studies/UNLEARNED-NAMES.md).
"""

from __future__ import annotations

import re

from .words import elided_head

CAPITALIZED_NAMES = frozenset({"en", "fr"})
# A word as a name is written: letters, maybe joined by hyphens or apostrophes ("Victor-Gadbois",
# "O'Brien"), not a part of a longer such word
NAME_WORD = re.compile(r"(?<![\w'’-])[^\W\d_]+(?:['’-][^\W\d_]+)*")
LETTERS = re.compile(r"[^\W\d_]+")  # the runs of letters a training source's words are listed by
POSSESSIVE = ("'s", "’s")
# Suffixes that make a people, a follower or a doctrine of a word ("Londoners", "Thatcherism",
# "Berlinois", "Londoniens"): such a word of a learned stem of four letters or more is the target's
# to write ("Londoner", "Berliner"), not a name to copy
DERIVED = {
    "en": ("ers", "er", "ians", "ian", "ans", "an", "ese", "ites", "ite", "isms", "ism", "ists", "ist"),
    "fr": ("iennes", "ienne", "iens", "ien", "oises", "oise", "ois", "aises", "aise", "ais", "ains", "aine", "ain")
    + ("ismes", "isme", "istes", "iste"),
}
STEM = 4  # English: "Tremblay's party" names "Tremblay"
# What may stand before a sentence's first word, and what ends the sentence before it
OPENING = " \t\"'“”‘’«»„‚‹›([{¿¡-–—•*"
SENTENCE_END = ".!?:…"


def source_words(text: str) -> frozenset[str]:
    """The words of a source_words.txt (one per line, lower-cased)."""
    return frozenset(text.split())


def training_words(text: str) -> set[str]:
    """The words of a training source as source_words.txt lists them: its runs of letters, lower-cased."""
    return {letters.lower() for letters in LETTERS.findall(text)}


def unlearned_names(sentence: str, language: str, known: frozenset[str]) -> list[tuple[int, int]]:
    """(start, end) of each name of `sentence` (a sentence of `language`) that the model never
    learned: a word (NAME_WORD) that opens with a capital, within the sentence, not in capitals
    alone, a run of whose letters that opens with a capital `known` does not hold (lower-cased)
    nor derives from a word it holds (derived); without a French elided word before it ("d'") or an English possessive's "'s" after it. Two
    such names with one space between are one ("Didier Deschamps"). None in a language that
    capitalizes more than names."""
    if language not in CAPITALIZED_NAMES:
        return []
    spans: list[tuple[int, int]] = []
    for match in NAME_WORD.finditer(sentence):
        start, end = match.start() + elided_head(match.group(), language), match.end()
        if sentence[start:end].endswith(POSSESSIVE):
            end -= 2
        word = sentence[start:end]
        if (
            not word[:1].isupper()
            or (len(word) > 1 and word.isupper())
            or all(
                run.lower() in known or derived(run, language, known)
                for run in LETTERS.findall(word)
                if run[0].isupper()
            )
        ):
            continue
        before = sentence[:start].rstrip(OPENING)
        if not before or before[-1] in SENTENCE_END:
            continue
        if spans and sentence[spans[-1][1] : start] == " ":
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def derived(word: str, language: str, known: frozenset[str]) -> bool:
    """Whether `word` is a word `known` holds (a stem of STEM letters or more) with one of
    `language`'s DERIVED suffixes."""
    lower = word.lower()
    return any(
        lower.endswith(suffix) and len(lower) - len(suffix) >= STEM and lower[: -len(suffix)] in known
        for suffix in DERIVED[language]
    )


def names_kept(names: list[str], text: str) -> int:
    """How many of `names` `text` holds as written (not inside a longer word)."""
    return sum(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None for name in names)
