"""How many negations a sentence writes, and how many of its source's a translation drops.

On text unlike their training, the models drop a negation now and then, and the sentence then says
the opposite of its source: "Die Wirkung von Vitamin D auf den Krebs wurde ebenfalls noch nicht
deutlich aufgezeigt." → "The effect of Vitamin D on the cancer has also been shown.", while the
beam held "… has also not been shown." a little lower. The choice among the beam's translations
(runtime/number_choice.py) counts such a drop as a fault, as it counts a lost number.

A source counts the words that turn a clause to the negative: "not", "nicht", French's "ne … pas"
(its "ne" alone is no negation: "ne … que" is "only"; "jamais" without it is "ever"). A translation
counts those and the words that may carry the same negation in a word or a phrase of their own
("without", "lossless", "sans", "non", "kostenlos", "Nichtraucher"), so that a right translation
seldom counts fewer than its source: what is counted as dropped is a negation no word carries. A
pair of words that make one negation in one language and two in another ("weder … noch", "neither
… nor", "ni … ni") counts two in each; languages without a list count none.
"""

from __future__ import annotations

import re

_FRENCH_NE = r"\bn(?:e\s+|['’]\s*)(?:\S+\s+){0,3}?"  # "ne"/"n'" and up to three words after it
_SENTENCE_START = r"(?:^|(?<=[.!?«\"]\s))\W*"
CLAUSE_NEGATION = {
    "en": r"\b(?:not|never|nobody|nothing|none|nowhere|neither|nor|cannot)\b|n['’]t\b|\bno\b(?!\.\s*\d)",
    "de": r"\b(?:nicht|nichts|nie|niemals|niemand\w*|nirgends|nirgendwo|kein\w*|weder)\b",
    "fr": r"\b(?:rien|aucun|aucune|ni|nullement|guère)\b"
    r"|(?<!\bun\s)(?<!\ble\s)(?<!\bce\s)(?<!\bde\s)(?<!\bà\s)\bpas\b(?!\s+(?:mal\s+d|à\s+pas))"
    rf"|{_FRENCH_NE}(?:plus(?!\s+que\b)|personne|jamais)\b|\bpersonne\s+n(?:e\b|['’])|{_SENTENCE_START}jamais\b"
    r"|\bnon\b(?=\s*(?:[,.;:!?)]|$|seulement\b))",
}
# What a translation may carry a negation in besides (not counted in a source: "sans perte" is "lossless")
CARRIED = {
    "en": r"\b(?:without|non|lack\w*|fail\w*)\b|\b\w{2,}less(?:ly|ness)?\b",
    "de": r"\b(?:ohne|nein|nicht\w+)\b|\w{2,}los\b",
    "fr": r"\b(?:sans|non|jamais|personne)\b",
}
PAIRED = {"de": re.compile(r"\bweder\b(?=.*\bnoch\b)", re.IGNORECASE)}  # one word written, two counted
SOURCE_PATTERNS = {language: re.compile(pattern, re.IGNORECASE) for language, pattern in CLAUSE_NEGATION.items()}
TRANSLATION_PATTERNS = {
    language: re.compile(f"{pattern}|{CARRIED[language]}", re.IGNORECASE)
    for language, pattern in CLAUSE_NEGATION.items()
}


def negations(text: str, language: str, translation: bool = False) -> int | None:
    """The negations `text` writes in `language` (as a source; as a `translation`, with the words
    that may carry one: CARRIED), or None for a language without a list."""
    pattern = (TRANSLATION_PATTERNS if translation else SOURCE_PATTERNS).get(language)
    if pattern is None:
        return None
    paired = PAIRED.get(language)
    return len(pattern.findall(text)) + (len(paired.findall(text)) if paired else 0)


def negations_lost(source: str, source_lang: str, translation: str, target_lang: str) -> int:
    """How many fewer negations `translation` writes than `source` (0 where it writes as many or
    more, or where either language has no list)."""
    given, written = negations(source, source_lang), negations(translation, target_lang, translation=True)
    if given is None or written is None:
        return 0
    return max(0, given - written)
