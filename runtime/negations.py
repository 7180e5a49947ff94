"""How many negations a sentence writes, and how many of its source's a translation drops.

On text unlike their training, the models drop a negation now and then, and the sentence then says
the opposite of its source: "Die Wirkung von Vitamin D auf den Krebs wurde ebenfalls noch nicht
deutlich aufgezeigt." → "The effect of Vitamin D on the cancer has also been shown.", while the
beam held "… has also not been shown." a little lower. The choice among the beam's translations
(runtime/number_choice.py) counts such a drop as a fault, as it counts a lost number.

A source counts the words that turn a clause to the negative: "not", "nicht", French's "ne … pas"
(its "ne" alone is no negation: "ne … que" is "only"; "jamais" without it is "ever", "pas" after
an article "a step"), not the set phrases that say no negation ("whether or not", "no matter",
"de rien", "a no-fly zone"). A translation counts those and the words that may carry the same
negation in a word or a phrase of their own ("without", "lossless", "hardly", "sans", "kostenlos",
"kaum", "Nichtraucher"), so that a right translation seldom counts fewer than its source: what is
counted as dropped is a negation no word carries. A pair that makes one negation ("weder … noch",
"neither … nor", "ni … ni") counts one, as "no … or" does. Codes, addresses and options
("no-reply@example.com", "--no-verify") are no words of the sentence; languages without a list
count none.
"""

from __future__ import annotations

import re

from .constants import primary_language

_NE = r"\bn(?:e\s+|['’]\s*)(?!importe\b)(?:\S+\s+){0,3}?"  # French "ne"/"n'" and up to three words after it
_START = r"(?:^|(?<=[.!?«\"]\s))\W*"  # a sentence's start
# "pas" after these is a noun, "a step": "un pas", "ses premiers pas", "pas à pas"
_STEPS = "un le les ce ces des du de mes tes ses nos vos leurs faux grands petits premiers derniers quelques à".split()
_NOT_NOUN = "".join(rf"(?<!\b{word}\s)" for word in _STEPS)
CLAUSE_NEGATION = {
    "en": r"\b(?:never|nobody|nothing|none|nowhere|neither|nor|cannot)\b|n['’]t\b"
    r"|(?<!\bwhether or )\bnot\b|\bno\b(?!\.\s*\d|-|\s+matter\b|\s+\d)|(?-i:\bno(?=\s+\d))",
    "de": r"\b(?:nicht|nichts|nie|niemals|niemand\w*|nirgends|nirgendwo|kein\w*|weder)\b",
    "fr": rf"{_NE}(?:pas|plus(?!\s+que\b)|personne|jamais|rien|aucune?|guère|nullement|aucunement)\b"
    r"|\b(?:aucune?|ni|nullement|aucunement)\b|(?<!\bde\s)\brien\b(?!\s+que\b)"
    rf"|{_NOT_NOUN}\bpas\b(?!-|\s+mal\s+d|\s+à\s+pas)|{_START}jamais\b"
    rf"|{_NOT_NOUN}(?<!\bla\s)(?<!\bune\s)(?<!\bcette\s)(?<!\bchaque\s)\bpersonne\s+n(?:e\b|['’])"
    r"|\bnon\b(?=\s*(?:[,.;:!?)]|$|seulement\b))|\bnulle\s+part\b",
}
# What a translation may carry a negation in besides (not counted in a source: "sans perte" is "lossless")
CARRIED = {
    "en": r"\b(?:without|non|no-\w+|hardly|barely|scarcely|lack\w*|fail\w*)\b"
    r"|\b(?!(?:neverthe|regard|un|nonethe)less\b)\w{2,}less(?:ly|ness)?\b",
    "de": r"\b(?:ohne|nein|kaum|nicht(?!en?\b)\w+)\b|(?-i:\b[a-zäöüß]\w*los(?:e[nmrs]?)?\b)",
    "fr": r"\b(?:sans|non|à\s+peine)\b",
}
# The second word of a pair that makes one negation, not counted again
PAIRED = {
    "en": r"\bneither\b(?=.*\bnor\b)",
    "de": r"(?!)",  # "weder … noch": "noch" is not counted
    "fr": r"\bni\b(?=.*\bni\b)",
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


def negations(text: str, language: str, translation: bool = False) -> int | None:
    """The negations `text` writes in `language` (as a source; as a `translation`, with the words
    that may carry one: CARRIED), or None for a language without a list."""
    language = primary_language(language)
    pattern = (TRANSLATION_PATTERNS if translation else SOURCE_PATTERNS).get(language)
    if pattern is None:
        return None
    words = NOT_WORDS.sub(" ", text)
    return len(pattern.findall(words)) - len(PAIRED_PATTERNS[language].findall(words))


def negations_lost(source: str, source_lang: str, translation: str, target_lang: str) -> int:
    """How many fewer negations `translation` writes than `source` (0 where it writes as many or
    more, or where either language has no list)."""
    given, written = negations(source, source_lang), negations(translation, target_lang, translation=True)
    if given is None or written is None:
        return 0
    return max(0, given - written)
