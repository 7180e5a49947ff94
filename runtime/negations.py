"""How many negations a sentence writes, and how many of its source's a translation drops.

On text unlike their training, the models drop a negation now and then, and the sentence then says
the opposite of its source: "Die Wirkung von Vitamin D auf den Krebs wurde ebenfalls noch nicht
deutlich aufgezeigt." → "The effect of Vitamin D on the cancer has also been shown.", while the
beam held "… has also not been shown." a little lower. The choice among the beam's translations
(runtime/number_choice.py) counts such a drop as a fault, as it counts a lost number. Where no
translation of a beam twice as wide writes it, a search made to write one (runtime/required_search.py)
tries the words of NEGATION_WORDS, and its translation is taken only with the negation where the
attention puts the source's (negations_placed).

A source counts the words that turn a clause to the negative: "not", "nicht", French's "ne … pas"
(its "ne" alone is no negation: "ne … que" is "only"; "jamais" without it is "ever", "pas" after an
article "a step"), not the set phrases that say no negation ("whether or not", "no matter", "never
mind", "not until" that German writes "erst", "de rien", "quelque chose ne va pas" that English
writes "something is wrong", "a no-fly zone"). A translation counts those and the words that may
carry the same negation in a word or a phrase of their own ("without", "lossless", "hardly",
"unable", "sans", "impossible", "kostenlos", "kaum", "Nichtraucher"), so that a right translation
seldom counts fewer than its source ("Could not load image" → "Impossible de charger l'image"): what
is counted as dropped is a negation no word carries. A question tag asks for agreement and negates
nothing ("…, aren't you?", "…, nicht wahr?", "…, n'est-ce pas ?"). A pair that makes one negation
("weder … noch", "neither … nor", "ni … ni") counts one, as "no … or" does. Codes, addresses and
options ("no-reply@example.com", "--no-verify") are no words of the sentence; languages without a
list count none.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from .alignment import answered_in_place
from .constants import primary_language

if TYPE_CHECKING:
    from .alignment import JoinedAlignment, WordAlignment

# the negative words that follow in the same negation: "ne … jamais rien", "n'y a plus personne"; and
# those before it that it makes one with: "Rien ne va plus", "personne n'est plus venu"
_CONCORD = r"(?:\s+(?:plus|jamais|rien|personne|aucune?|nulle\s+part)\b)*"
_START = r"(?:^|(?<=[.!?«\"]\s))\W*"  # a sentence's start
# "pas" after these is a noun, "a step": "un pas", "ses premiers pas", "pas à pas"
_STEPS = "un le les ce ces des du de mes tes ses nos vos leurs faux grands petits premiers derniers quelques à".split()
_NOT_NOUN = "".join(rf"(?<!\b{word}\s)" for word in _STEPS)
# "personne" after these is "a person": "la personne ne vient pas"
_A_PERSON = _NOT_NOUN + "".join(rf"(?<!\b{word}\s)" for word in "la une cette chaque".split())
# "(quelque chose | ce qui) ne va pas" is "(something | what) is wrong": neither its "ne" nor its "pas"
_WRONG = r"(?!(?:(?<=\bchose\s)|(?<=\bce\squi\s))ne\s+va\s+pas\b)"
_WRONG_PAS = r"(?<!\bchose\sne\sva\s)(?<!\bce\squi\sne\sva\s)"
_NE = rf"(?<!\brien\s)(?<!{_A_PERSON}personne\s){_WRONG}\bn(?:e\s+|['’]\s*)(?!importe\b)(?:(?!que\b|qu['’])\S+\s+){{0,3}}?"  # French "ne"/"n'" and up to three words after it
CLAUSE_NEGATION = {
    "en": r"\b(?:nobody|nothing|none|nowhere|neither|nor|cannot)\b|\bnever\b(?!\s+mind\b)|n['’]t\b"
    r"|(?<!\bwhether or )\bnot\b(?!\s+until\b)|\bno\b(?!\.\s*[\w-]*\d|-|\s+matter\b|\s+\d)|(?-i:\bno(?=\s+\d))",
    "de": r"\b(?:nicht|nichts|nie|niemals|niemand\w*|nirgends|nirgendwo|kein\w*|weder)\b",
    "fr": rf"{_NE}(?:pas|plus(?!\s+que\b)|personne|jamais|rien|aucune?|guère|nullement|aucunement)\b{_CONCORD}"
    r"|\b(?:aucune?|ni|nullement|aucunement)\b|(?<!\bde\s)\brien\b(?!\s+que\b)"
    rf"|{_NOT_NOUN}{_WRONG_PAS}\bpas\b(?!-|\s+mal\s+d|\s+à\s+pas)|{_START}jamais\b"
    rf"|{_A_PERSON}\bpersonne\s+n(?:e\b|['’])"
    r"|\bnon\b(?=\s*(?:[,.;:!?)]|$|seulement\b))|\bnulle\s+part\b",
}
# What a translation may carry a negation in besides (not counted in a source: "sans perte" is "lossless")
CARRIED = {
    "en": r"\b(?:without|non|no-\w+|hardly|barely|scarcely|lack\w*|fail\w*|unable|impossible)\b"
    r"|\b(?!(?:neverthe|regard|un|nonethe)less\b)\w{2,}less(?:ly|ness)?\b",
    "de": r"\b(?:ohne|nein|kaum|unmöglich\w*|nicht(?!en?\b)\w+)\b|(?-i:\b[a-zäöüß]\w*los(?:e[nmrs]?)?\b)",
    "fr": r"\b(?:sans|non|à\s+peine|impossible)\b",
}
# The second word of a pair that makes one negation, not counted again
PAIRED = {
    "en": r"\bneither\b(?=.*\bnor\b)",
    "de": r"(?!)",  # "weder … noch": "noch" is not counted
    "fr": r"\bni\b(?=.*\bni\b)",
}
# Words a translation may write a dropped negation with: the search made to write one
# (runtime/second_searches.py negation_pieces) tries each that is one piece of the model's vocabulary; French "n" is "n'"
NEGATION_WORDS = {
    "en": tuple("not no never nothing nobody none cannot without neither nor".split()),
    "de": tuple("nicht nichts nie niemals niemand kein keine keinen keinem keiner keines weder ohne".split()),
    "fr": tuple("ne n pas jamais rien aucun aucune ni sans".split()),
}
# A question tag, which asks for agreement and negates nothing: "…, aren't you?", "…, nicht wahr?"
TAG_QUESTIONS = {
    "en": r",\s*(?:\w+n['’]t\s+(?:i|you|he|she|it|we|they|there|one)|or\s+not|no)\s*\?",
    "de": r",\s*(?:(?:oder\s+)?nicht\s+wahr|oder\s+nicht)\s*\?",
    "fr": r",\s*(?:n['’]est-ce\s+pas|pas\s+vrai|non|ou\s+pas|ou\s+non)\s*\?",
}
# What is no word of the sentence: code in backquotes, addresses and paths, options
NOT_WORDS = re.compile(r"`[^`]*`|\S*[@/\\_=]\S*|(?<!\S)--?[a-z]\S*", re.IGNORECASE)


def _compiled(patterns: dict[str, str], more: dict[str, str] | None = None) -> dict[str, re.Pattern]:
    return {
        language: re.compile(f"{pattern}|{more[language]}" if more else pattern, re.IGNORECASE)
        for language, pattern in patterns.items()
    }


SOURCE_PATTERNS = _compiled(CLAUSE_NEGATION)
TRANSLATION_PATTERNS = _compiled(CLAUSE_NEGATION, CARRIED)
PAIRED_PATTERNS = _compiled(PAIRED)
TAG_PATTERNS = _compiled(TAG_QUESTIONS)


def negations(text: str, language: str, translation: bool = False) -> int | None:
    """The negations `text` writes in `language` (as a source; as a `translation`, with the words
    that may carry one: CARRIED), or None for a language without a list."""
    language = primary_language(language)
    pattern = (TRANSLATION_PATTERNS if translation else SOURCE_PATTERNS).get(language)
    if pattern is None:
        return None
    words = _words_read(text, language)
    return len(pattern.findall(words)) - len(PAIRED_PATTERNS[language].findall(words))


def _words_read(text: str, language: str) -> str:
    """`text` with what is no word of it (NOT_WORDS) and its question tags (TAG_QUESTIONS) blanked
    out, each character by a space: the same length, the same offsets."""
    for pattern in (NOT_WORDS, TAG_PATTERNS[language]):
        text = pattern.sub(lambda match: " " * len(match.group()), text)
    return text


def negation_spans(words: list[str], language: str, translation: bool = False) -> list[list[int]]:
    """The negations a sentence's `words` write (as `negations` counts them), each as the indexes
    of the words it spans ("ne … pas" all three of "ne mange pas"); none in a language without a
    list."""
    language = primary_language(language)
    pattern = (TRANSLATION_PATTERNS if translation else SOURCE_PATTERNS).get(language)
    if pattern is None:
        return []
    text = " ".join(words)
    ends = np.cumsum([len(word) + 1 for word in words])  # each word's end (+ its space) in `text`
    return [
        list(
            range(
                int(np.searchsorted(ends, start, side="right")), int(np.searchsorted(ends, end - 1, side="right")) + 1
            )
        )
        for start, end in (match.span() for match in pattern.finditer(_words_read(text, language)))
    ]


def negations_placed(alignment: WordAlignment | JoinedAlignment, languages: tuple[str, str]) -> int:
    """How many of the source's negations (negation_spans) a translation answers with one of its
    own where the attention puts them (alignment.answered_in_place). `languages`: (source, target)."""
    source_language, target_language = languages
    return answered_in_place(
        alignment,
        lambda words: negation_spans(words, source_language),
        lambda words: [index for span in negation_spans(words, target_language, True) for index in span],
    )


def negations_lost(source: str, source_lang: str, translation: str, target_lang: str) -> int:
    """How many fewer negations `translation` writes than `source` (0 where it writes as many or
    more, or where either language has no list)."""
    given, written = negations(source, source_lang), negations(translation, target_lang, translation=True)
    if given is None or written is None:
        return 0
    return max(0, given - written)
