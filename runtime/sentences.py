"""A line or paragraph as sentences, for translation one sentence at a time.

The segmenter is sentencex (Wikimedia; rules for about 300 languages, no model files), chosen
over pysbd and syntok (docs/studies/SENTENCES.md): as many of
the test splits' sentence boundaries found as the best of the three, fewer cuts inside sentences
than pysbd, and 200 times faster.
"""

from __future__ import annotations

from sentencex import segment

from .tokenizer import valid_unicode


def split_sentences(text: str, language: str) -> list[str]:
    """The sentences of `text`, stripped, in order. Only cuts between whitespace-separated words
    are kept (a cut inside a word, as in "file.Then" or "config.{guess,sub}", joins the two pieces
    around it and no others), so the sentences' words are exactly the text's words (word
    alignments and `--replace-unk` rely on that); a text with one sentence, or none, comes back
    whole. Lone surrogates become U+FFFD first, as the tokenizer would make them."""
    text = valid_unicode(text)
    ends, position = [], 0
    for sentence in segment(language, text):
        sentence = sentence.strip()
        start = text.find(sentence, position) if sentence else -1
        if start < 0:
            continue
        position = start + len(sentence)
        if position < len(text) and text[position].isspace():
            ends.append(position)
    starts = [0, *ends]
    sentences = [text[start:end].strip() for start, end in zip(starts, [*ends, len(text)])]
    sentences = [s for s in sentences if s]
    if len(sentences) < 2 or [w for s in sentences for w in s.split()] != text.split():
        return [text]
    return sentences
