"""Copy through attention (`--replace-unk`): put back source tokens the model mangled.

A byte-level model never emits <unk>, but it can misspell what it should have copied: versions,
paths, package names, numbers. For each target word, take its strongest source word (the hard
alignment); when that source word looks verbatim (a digit, or one of / _ . % : = @ + - inside,
or capitals after its first letter) and the target word is a near miss of it (difflib ratio >= 0.6 between the
two after trimming edge punctuation), the source word's core replaces the target word's core; the
target word's edge punctuation stays.
"""

from __future__ import annotations

import difflib
import re

from .alignment import WordAlignment

EDGE_PUNCTUATION = "\"'()[]{}<>.,;:!?«»„“”‘’"
VERBATIM = re.compile(r"\d|[/_%:=@+]|.[.-].|^.+[A-Z]")
SIMILARITY = 0.6


def looks_verbatim(word: str) -> bool:
    return bool(VERBATIM.search(word))


def _split_edges(word: str) -> tuple[str, str, str]:
    core = word.strip(EDGE_PUNCTUATION)
    if not core:
        return word, "", ""
    start = word.index(core)
    return word[:start], core, word[start + len(core) :]


def copy_verbatim(alignment: WordAlignment) -> list[str]:
    """The target words with near-miss copies of verbatim source words repaired."""
    words = list(alignment.target_words)
    verbatim = {index: core for index, word in enumerate(alignment.source_words)
                if (core := _split_edges(word)[1]) and looks_verbatim(core)}
    if not verbatim:
        return words
    for source_index, target_index in alignment.hard_links():
        source_core = verbatim.get(source_index)
        if source_core is None:
            continue
        before, target_core, after = _split_edges(words[target_index])
        if target_core != source_core and difflib.SequenceMatcher(None, source_core, target_core).ratio() >= SIMILARITY:
            words[target_index] = before + source_core + after
    return words
