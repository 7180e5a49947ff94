"""Long inputs: a source longer than the model's limit is translated in consecutive parts, or,
for a summarizer whose document cannot be condensed (runtime/condense.py: one long sentence),
summarized from its head (`keep_head`): a summary of the parts would be as long as several
summaries.

A line of more than `limit` pieces is cut into windows of at most `limit` pieces, each cut moved
back to the nearest word boundary when there is one; every part is translated on its own and the
best translations are joined with spaces, so one line in still gives one line out. The word
alignment of the whole is block-diagonal (each part's target words align within its part).
"""

from __future__ import annotations

from collections.abc import Iterator

from .alignment import JoinedAlignment, WordAlignment
from .constants import EOS
from .tokenizer import SourcePieces


def split_source(source: SourcePieces, limit: int) -> list[SourcePieces]:
    """Parts of at most `limit` pieces (+ EOS each); the source itself when it fits."""
    return list(_parts(source, limit))


def keep_head(source: SourcePieces, limit: int) -> SourcePieces:
    """The first `limit` pieces (+ EOS), cut back to a word boundary when there is one."""
    return next(_parts(source, limit))


def _parts(source: SourcePieces, limit: int) -> Iterator[SourcePieces]:
    """The parts of `split_source`, made one at a time."""
    body, word_of_piece = source.ids[:-1], source.word_of_piece[:-1]
    if len(body) <= limit:
        yield source
        return
    start = 0
    while start < len(body):
        end = min(start + limit, len(body))
        if end < len(body):
            cut = end
            while cut > start and word_of_piece[cut] == word_of_piece[cut - 1]:
                cut -= 1
            end = cut if cut > start else end
        words = word_of_piece[start:end]
        first = words[0]
        yield SourcePieces(
            body[start:end] + [EOS], source.words[first : words[-1] + 1], [w - first for w in words] + [-1]
        )
        start = end


def join_alignments(parts: list[WordAlignment]) -> JoinedAlignment:
    """Part alignments as one block-diagonal alignment."""
    blocks, row, column = [], 0, 0
    for part in parts:
        blocks.append((row, column, part))
        row, column = row + len(part.target_words), column + len(part.source_words)
    return JoinedAlignment(
        [w for part in parts for w in part.source_words], [w for part in parts for w in part.target_words], blocks
    )
