"""A line or paragraph as sentences, for translation one sentence at a time.

The segmenter is sentencex (Wikimedia; rules for about 300 languages, no model files), chosen
over pysbd and syntok by benchmarks/sentence_splitters.py (benchmarks/SENTENCES.md): as many of
the test splits' sentence boundaries found as the best of the three, fewer cuts inside sentences
than pysbd, and 200 times faster.
"""

from __future__ import annotations

from sentencex import segment

from .tokenizer import valid_unicode


def split_sentences(text: str, language: str) -> list[str]:
    """The sentences of `text`, stripped, in order. Only cuts between whitespace-separated words
    are kept, so the sentences' words are exactly the text's words (word alignments and
    `--replace-unk` rely on that); a text with one sentence, or none, comes back whole. Lone
    surrogates become U+FFFD first, as the tokenizer would make them."""
    text = valid_unicode(text)
    sentences = [s.strip() for s in segment(language, text)]
    sentences = [s for s in sentences if s]
    if len(sentences) < 2 or [w for s in sentences for w in s.split()] != text.split():
        return [text]
    return sentences
