"""Which language a text is in, among those the installed models translate from (`--from auto`,
`attn serve`'s /detect): py3langid, chosen over lingua and langdetect on the test splits' English,
German and French texts (docs/studies/LANGUAGE-ID.md: the most accurate of the three and the
fastest; 4.5 MB against lingua's 96 MB). Loaded on first use (about 0.7 s), never at start-up.

A text that is clearly in another language (the identifier, choosing among all the languages it
knows, gives one outside the candidates OTHER_LANGUAGE_PROBABILITY or more, or hardly any of the
text's letters are Latin where every candidate is written in Latin letters) is reported as that
language, so that French text with no French model installed is refused instead of translated
as if it were English, and Chinese or Russian is not read as German."""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from .errors import UsageError
from .words import has_words

_LOCK = threading.Lock()  # set_languages changes the one identifier: one detection at a time
DETECTED_CHARS = 2000  # a text's head is enough to tell its language
# At 0.8 the open-set check named a language outside {en, de} for none of the test splits'
# 21,275 English and German texts and caught 86.6 % of the 7,115 French ones (docs/studies/LANGUAGE-ID.md)
OTHER_LANGUAGE_PROBABILITY = 0.8
# A text taken to be in one language (the only one a model reads, or the one most models translate
# from) is read as another only at this probability, among the languages on offer: at it, none of
# the dev files' English texts was read as German or French (benchmarks/misread_inputs.py)
OVERRULING_PROBABILITY = 0.9
# Languages written in Latin letters (of those the identifier knows; one not named here is never
# assumed to be). A short text in another script falls below the probability above ("这是一个测试。":
# zh at 0.75, "Это тест.": ru at 0.47), and the models of these languages read it as bytes they never
# saw and write U+FFFD: its letters tell.
LATIN_SCRIPT = frozenset(
    "af an az br bs ca cs cy da de en eo es et eu fi fo fr fy ga gd gl hr ht hu id is it jv la lb lt "
    "lv mg ms mt nb nl nn no oc pl pt qu ro rw se sk sl sn so sq st sv sw tl tr vi vo wa xh yo zu".split()
)


@lru_cache(maxsize=1)
def _identifier():
    """The identifier and every language of its model, read before any `set_languages` (which
    narrows `nb_classes` to the subset it was last given)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)
    return identifier, frozenset(identifier.nb_classes)


def known_languages() -> frozenset[str]:
    """The ISO 639-1 codes the identifier can tell apart."""
    return _identifier()[1]


def latin_letters(text: str) -> tuple[int, int]:
    """(Latin letters, letters) of `text`."""
    if text.isascii():  # every sentence checked goes by here: ASCII letters are Latin ones
        letters = sum(character.isalpha() for character in text)
        return letters, letters
    letters = [character for character in text if character.isalpha()]
    return sum(unicodedata.name(character, "").startswith("LATIN ") for character in letters), len(letters)


def in_another_script(text: str, languages: list[str] | set[str]) -> bool:
    """Whether every one of `languages` is written in Latin letters (LATIN_SCRIPT) and fewer than a
    quarter of the two or more letters of `text` (its head) are Latin ones ("Москва is big." is
    English; "Δ = 5", one letter, is a formula)."""
    latin, letters = latin_letters(text[:DETECTED_CHARS])
    return letters >= 2 and bool(languages) and set(languages) <= LATIN_SCRIPT and latin * 4 < letters


def detect_language(
    text: str, candidates: list[str] | set[str], other_language_probability: float = OTHER_LANGUAGE_PROBABILITY
) -> tuple[str, float]:
    """(code, probability) of the likeliest language of `text` among `candidates` (ISO 639-1 codes
    the identifier knows; a UsageError when none is), or of a language outside them when the
    identifier, choosing among all it knows, gives that one `other_language_probability` or more
    or the text is in another script than all of them (in_another_script). A text without a letter
    or a digit is in none: the first candidate, at probability 0."""
    chosen = sorted(set(candidates) & known_languages())
    if not chosen:
        raise UsageError(f"language detection knows none of {', '.join(sorted(candidates)) or 'no languages'}")
    head = text[:DETECTED_CHARS]
    if not has_words(head):
        return chosen[0], 0.0  # no language: blank, or punctuation alone (it had 1/len(chosen))
    identifier, _ = _identifier()
    with _LOCK:
        identifier.set_languages(None)
        language, probability = identifier.classify(head)
        clearly_other = probability >= other_language_probability or in_another_script(head, chosen)
        if language in chosen or not clearly_other:
            if len(chosen) == 1:
                return chosen[0], 1.0
            identifier.set_languages(chosen)
            language, probability = identifier.classify(head)
    return language, float(probability)
