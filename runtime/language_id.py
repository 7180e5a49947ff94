"""Which language a text is in, among those the installed models translate from (`--from auto`,
`attn serve`'s /detect): py3langid, chosen over lingua and langdetect on the test splits' English,
German and French texts (benchmarks/LANGUAGE-ID.md: the most accurate of the three and the
fastest; 4.5 MB against lingua's 96 MB). Loaded on first use (about 0.7 s), never at start-up."""

from __future__ import annotations

import threading
from functools import lru_cache

from .errors import UsageError


_LOCK = threading.Lock()  # set_languages changes the one identifier: one detection at a time
DETECTED_CHARS = 2000  # a text's head is enough to tell its language


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


def detect_language(text: str, candidates: list[str] | set[str]) -> tuple[str, float]:
    """(code, probability) of the likeliest language of `text` among `candidates` (ISO 639-1 codes
    the identifier knows; a UsageError when none is)."""
    chosen = sorted(set(candidates) & known_languages())
    if not chosen:
        raise UsageError(f"language detection knows none of {', '.join(sorted(candidates)) or 'no languages'}")
    if len(chosen) == 1:
        return chosen[0], 1.0
    identifier, _ = _identifier()
    with _LOCK:
        identifier.set_languages(chosen)
        language, probability = identifier.classify(text[:DETECTED_CHARS])
    return language, float(probability)
