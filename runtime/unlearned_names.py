"""Names the model never learned, set aside where its translation lost them.

A name that no sentence the model learned from holds reaches it as pieces it has not seen
together, and it spelled them into something else: in news-dev, "Didier Deschamps" → "Didier
Deschmarken", "Claude Makelele" → "Claude Makelelelele", "Dan Fogelman" → "Dan Firbir", "Tony
Accurso" → "Unterrepreneurso". In a language that writes a word with a capital inside a sentence
only for a name (English, French: CAPITALIZED_NAMES; German writes every noun so), such a word is
one whose letters none of the model's training words holds in any case (LoadedModel.known_words:
its folder's words.LANGUAGE.txt, `attn language-words`): not the sentence's first word, not one in capitals alone
(an acronym the target writes otherwise: "ECB" → "EZB"), nor a learned word with a suffix that
makes a people or a doctrine of it ("Londoners", "Parisians", "Berlinois": DERIVED), which the
target writes in its own way. A translation that lost one of them (the output does not hold it
as written, nor with a genitive's "s") is searched again with them set aside, as a title's name is
(runtime/set_aside.py: a placeholder the model copies, the name put back in its place), and the
second translation is taken where it keeps more of them and leaves out no more source words
(better_kept, runtime/second_searches.py). Chosen on news-dev (docs/studies/UNLEARNED-NAMES.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .coverage import low_runs, received_attention
from .sentences import ABBREVIATIONS, within_sentence
from .titles import WRITTEN

CAPITALIZED_NAMES = frozenset({"en", "fr"})
# A word as a name is written: letters, maybe joined by hyphens or apostrophes ("Victor-Gadbois",
# "O'Brien"), not a part of a longer such word nor of one with digits ("Kowalczyk2000": a handle)
NAME_WORD = re.compile(r"(?<![\w'’-])[^\W\d_]+(?:['’-][^\W\d_]+)*(?!\w)")
LETTERS = re.compile(r"[^\W\d_]+")  # the runs of letters a training source's words are listed by
# Capitalized words that are no names besides the abbreviations (runtime/sentences.py
# ABBREVIATIONS: "Gov. Kowalczyk"): the titles as runtime/titles.py writes them for a target ("Mr."
# read "Herr" into German)
TITLE_WORDS = frozenset(title.rstrip(".").lower() for forms in WRITTEN.values() for title in forms.values())
NOT_NAMES = {language: TITLE_WORDS | ABBREVIATIONS[language] for language in CAPITALIZED_NAMES}
# Suffixes that make a people, a follower or a doctrine of a word ("Londoners", "Thatcherism",
# "Berlinois", "Londoniens"): such a word of a learned stem of four letters or more is the target's
# to write ("Londoner", "Berliner"), not a name to copy
DERIVED = {
    "en": ("ers", "er", "ians", "ian", "ans", "an", "ese", "ites", "ite", "isms", "ism", "ists", "ist"),
    "fr": ("iennes", "ienne", "iens", "ien", "oises", "oise", "ois", "aises", "aise", "ais", "ains", "aine", "ain")
    + ("ismes", "isme", "istes", "iste"),
}
STEM = 4
# What may stand before a sentence's first word, and what ends the sentence before it
OPENING = " \t\"'“”‘’«»„‚‹›([{¿¡-–—•*"
SENTENCE_END = ".!?:…"
# What a name may have after it in a translation that keeps it: a German genitive's "s" or
# apostrophe ("Oyelarans Mut", "Deschamps' erste Monate"), an English possessive
NAME_ENDING = r"(?:s|['’]s?)?"


def training_words(text: str) -> set[str]:
    """The words of a training source as a words.LANGUAGE.txt lists them: its runs of letters, lower-cased."""
    return {letters.lower() for letters in LETTERS.findall(text)}


def unlearned_names(sentence: str, language: str, known: frozenset[str]) -> list[tuple[int, int]]:
    """(start, end) of each name of `sentence` (a sentence of `language`) that the model never
    learned: of a word (NAME_WORD), from its first run of letters that opens with a capital to its
    last (without a French elided word before it, "d'Accurso", an English possessive's "'s" after
    it, or a part in small letters, "Oyelaran-funded"), within the sentence, not in capitals alone,
    not a title or abbreviation (NOT_NAMES), one such run of whose `known` does not hold
    (lower-cased) nor derives from a word it holds (derived). Two such names with one space
    between are one ("Didier Deschamps"). None in a language that capitalizes more than names."""
    if language not in CAPITALIZED_NAMES:
        return []
    spans: list[tuple[int, int]] = []
    for match in NAME_WORD.finditer(sentence):
        runs = [run for run in LETTERS.finditer(match.group()) if run.group()[0].isupper()]
        if not runs:
            continue
        start, end = match.start() + runs[0].start(), match.start() + runs[-1].end()
        word = sentence[start:end]
        if (
            len(word) < 2  # an initial
            or word.isupper()
            or word.lower() in NOT_NAMES[language]
            or all(run.group().lower() in known or derived(run.group(), language, known) for run in runs)
            or opens_sentence(sentence, start, language)
        ):
            continue
        if spans and sentence[spans[-1][1] : start] == " ":
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def opens_sentence(sentence: str, start: int, language: str) -> bool:
    """Whether the word at `start` of `sentence` opens a sentence: nothing but opening marks before
    it, or the end of a sentence (SENTENCE_END) but a point that runtime/sentences.py reads within
    one (an abbreviation or title, "Gov.", "e.g.", or an initial, "Dan J. Fogelman")."""
    before = sentence[:start].rstrip(OPENING)
    if not before:
        return True
    if before[-1] == ".":
        return not within_sentence(sentence, len(before), language)
    return before[-1] in SENTENCE_END


def derived(word: str, language: str, known: frozenset[str]) -> bool:
    """Whether `word` is a word `known` holds (a stem of STEM letters or more) with one of
    `language`'s DERIVED suffixes."""
    lower = word.lower()
    return any(
        lower.endswith(suffix) and len(lower) - len(suffix) >= STEM and lower[: -len(suffix)] in known
        for suffix in DERIVED[language]
    )


def names_kept(names: list[str], text: str) -> int:
    """How many of `names` `text` holds as written, maybe with a NAME_ENDING, not inside a longer word."""
    return sum(re.search(rf"(?<!\w){re.escape(name)}{NAME_ENDING}(?!\w)", text) is not None for name in names)


def better_kept(kept: Callable[[str], int], again, first) -> bool:
    """Whether `again`, the translation searched again with what it must keep set aside (names,
    quantities: runtime/quantities.py), keeps more of them than `first` (`kept`: how many a text
    keeps) and leaves out no more source words (left_out: "I met Didier Deschamps's brother" had
    come back without the brother). Each has `text` and `alignment`."""
    if kept(again.text) <= kept(first.text):
        return False
    return left_out(again.alignment) <= left_out(first.alignment)


def left_out(alignment) -> int:
    """How many source words of four letters or more received almost no attention (runtime/coverage.py
    low_runs, each word alone; "the", "and" are often translated into nothing)."""
    return sum(map(len, low_runs(received_attention(alignment), alignment.source_words, run=1, chars=4)))
