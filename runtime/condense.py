"""A document longer than a summarizer reads at once, condensed to the sentences that matter
(issue 65): it is cut at sentence ends into parts the model reads whole, each part is summarized
(greedy), and a sentence's salience is the attention its words received from its part's summary
(runtime/extractive.py). The most salient sentences that fit the reading limit, in document
order, are what the summary is then written from: the whole document can reach the summary, not
only its head. A document of one sentence is read from its head (runtime/texts.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .extractive import sentence_salience
from .sentences import split_sentences

if TYPE_CHECKING:
    import threading

    from .texts import TextTranslator


LEAD = 1  # sentences at the head of a document always read (chosen on dev: benchmarks/long_documents.py)


def sentence_parts(lengths: list[int], limit: int) -> list[list[int]]:
    """Consecutive sentences (their lengths in pieces) grouped into parts of at most `limit`
    pieces, a longer sentence alone → each part's sentence indices."""
    parts: list[list[int]] = []
    size = limit + 1
    for index, length in enumerate(lengths):
        if size + length > limit:
            parts.append([])
            size = 0
        parts[-1].append(index)
        size += length
    return parts


def chosen_sentences(salience: np.ndarray, lengths: list[int], limit: int, lead: int) -> list[int]:
    """The first `lead` sentences, then the most salient (salience (N,), lengths in pieces), as many
    as fit `limit` pieces in all, taken in order of salience (ties: the earlier first), a sentence
    that no longer fits passed over → their indices in document order."""
    chosen, size = [], 0
    ranked = sorted(range(len(lengths)), key=lambda i: (-salience[i], i))
    for index in [*range(min(lead, len(lengths))), *(i for i in ranked if i >= lead)]:
        if size + lengths[index] <= limit:
            chosen.append(index)
            size += lengths[index]
    return sorted(chosen)


def condensed(
    translator: TextTranslator, texts: list[str], limit: int, stop: threading.Event | None = None
) -> list[str | None]:
    """For each text of several sentences whose pieces exceed `limit`, its salient sentences that
    fit, joined in document order (None for a text read as it is)."""
    # a piece spans one character at least: a text of `limit` characters fits
    sentences = [split_sentences(text, translator.model.source_lang) if len(text) > limit else [text] for text in texts]
    lengths = [
        [len(translator.source_pieces(s).ids) - 1 for s in group] if len(group) > 1 else [] for group in sentences
    ]
    long = [i for i, group in enumerate(lengths) if sum(group) > limit]
    jobs = [(i, part) for i in long for part in sentence_parts(lengths[i], limit)]
    if not jobs:
        return [None] * len(texts)
    from .texts import TextOptions  # texts.py imports this module

    summaries = translator.translate(
        [" ".join(sentences[i][k] for k in part) for i, part in jobs],
        translator.model.default_options(beam=1, n_best=1),
        text_options=TextOptions(sentences=False, max_source_pieces=limit, replace_unk=False),
        stop=stop,
    )
    salience = {i: np.zeros(len(sentences[i])) for i in long}
    for (i, part), summary in zip(jobs, summaries):
        salience[i][part] = sentence_salience([sentences[i][k] for k in part], summary[0].alignment)
    result: list[str | None] = [None] * len(texts)
    for i in long:
        result[i] = " ".join(sentences[i][k] for k in chosen_sentences(salience[i], lengths[i], limit, LEAD))
    return result
