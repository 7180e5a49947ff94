"""A document longer than a summarizer reads at once, condensed to the sentences that matter
(issue 65): it is cut at sentence ends into parts the model reads whole, each part is summarized
(greedy), and a sentence's salience is the attention its words received from its part's summary
(runtime/extractive.py). The most salient sentences that fit the reading limit, in document
order, are what the summary is then written from: the whole document can reach the summary, not
only its head. A document of one sentence, or with a sentence over the limit (which could not be
chosen: an unpunctuated body after a title), is read from its head (runtime/texts.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .extractive import sentence_salience
from .sentences import document_sentences
from .words import has_words

if TYPE_CHECKING:
    from .translation import Translation


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
    texts: list[str],
    limit: int,
    language: str,
    pieces: Callable[[str], int],
    summarize: Callable[[list[str]], list[Translation]],
) -> list[str | None]:
    """For each text whose pieces exceed `limit` and each of whose sentences fits it, its first LEAD
    sentences and its most salient ones that fit, joined in document order; None for a text read
    as it is (or from its head). `pieces` counts a text's pieces (EOS aside); `summarize` writes
    one summary of each part, reading it whole. A part's attention is spread in proportion to its
    pieces, so that a sentence alone in a short part gains nothing from its part's size."""
    # a piece is one byte at least (byte-level BPE), with a space before the first word
    sentences = [
        document_sentences(text, language) if len(text.encode("utf-8")) + 1 > limit and has_words(text) else [text]
        for text in texts
    ]
    lengths = [[pieces(s) for s in group] if len(group) > 1 else [] for group in sentences]
    # a sentence over the limit could never be chosen: such a document is read from its head
    long = [i for i, group in enumerate(lengths) if sum(group) > limit and max(group) <= limit]
    jobs = [(i, part) for i in long for part in sentence_parts(lengths[i], limit)]
    summaries = summarize([" ".join(sentences[i][k] for k in part) for i, part in jobs]) if jobs else []
    salience = {i: np.zeros(len(sentences[i])) for i in long}
    for (i, part), summary in zip(jobs, summaries):
        received = sentence_salience([sentences[i][k] for k in part], summary[0].alignment)
        if received.sum() > 0:
            salience[i][part] = received / received.sum() * part_size(lengths[i], part)
    result: list[str | None] = [None] * len(texts)
    for i in long:
        result[i] = " ".join(sentences[i][k] for k in chosen_sentences(salience[i], lengths[i], limit, LEAD))
    return result


def part_size(lengths: list[int], part: list[int]) -> int:
    """The pieces of a part (its sentences' indices into `lengths`)."""
    return sum(lengths[k] for k in part)
