"""Which language a text is in, among those the installed models translate from (`--from auto`,
`attn serve`'s /detect): py3langid, chosen over lingua and langdetect on the test splits' English,
German and French texts (docs/studies/LANGUAGE-ID.md: the most accurate of the three and the
fastest; 4.5 MB against lingua's 96 MB). Loaded on first use (about 0.7 s), never at start-up.

A text that is clearly in another language (the identifier, choosing among all the languages it
knows, gives one outside the candidates OTHER_LANGUAGE_PROBABILITY or more) is reported as that
language, so that French text with no French model installed is refused instead of translated
as if it were English."""

from __future__ import annotations

import threading
from functools import lru_cache

from .errors import UsageError

_LOCK = threading.Lock()  # set_languages changes the one identifier: one detection at a time
DETECTED_CHARS = 2000  # a text's head is enough to tell its language
# At 0.8 the open-set check named a language outside {en, de} for none of the test splits'
# 21,275 English and German texts and caught 86.6 % of the 7,115 French ones (docs/studies/LANGUAGE-ID.md)
OTHER_LANGUAGE_PROBABILITY = 0.8


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


def detect_language(
    text: str, candidates: list[str] | set[str], other_language_probability: float = OTHER_LANGUAGE_PROBABILITY
) -> tuple[str, float]:
    """(code, probability) of the likeliest language of `text` among `candidates` (ISO 639-1 codes
    the identifier knows; a UsageError when none is), or of a language outside them when the
    identifier, choosing among all it knows, gives that one `other_language_probability` or more."""
    chosen = sorted(set(candidates) & known_languages())
    if not chosen:
        raise UsageError(f"language detection knows none of {', '.join(sorted(candidates)) or 'no languages'}")
    identifier, _ = _identifier()
    head = text[:DETECTED_CHARS]
    with _LOCK:
        identifier.set_languages(None)
        language, probability = identifier.classify(head)
        if language in chosen or probability < other_language_probability:
            if len(chosen) == 1:
                return chosen[0], 1.0
            identifier.set_languages(chosen)
            language, probability = identifier.classify(head)
    return language, float(probability)
