"""Source words the translation may have left out, told by attention: the attention mass each
source word received from all the output words (the column sums of the word alignment), and the
runs of words that received almost none.

The rule, chosen on the dev files of the four shipped directions by forcing the references and
the references with a third of their words cut out (benchmarks/coverage_check.py,
docs/studies/COVERAGE-CHECK.md): two or more consecutive source words of at least
MIN_CHARS letters or digits, each below LOW_MASS. Shorter words (articles, "to", punctuation)
neither start nor end a run: they are often translated into nothing.
"""

from __future__ import annotations

import re

import numpy as np

LOW_MASS = 0.2  # of attention received, summed over the output words (each output word spends 1)
MIN_RUN = 2  # consecutive low words that make a report
MIN_CHARS = 3  # letters or digits a word needs to count


def received_attention(alignment) -> np.ndarray:
    """(S,) the attention mass each source word received: column sums of the (T, S) weights,
    summed block by block for a line translated in parts."""
    mass = np.zeros(len(alignment.source_words), np.float32)
    for _, column, part in alignment.parts:
        mass[column : column + part.weights.shape[1]] += part.weights.sum(axis=0)
    return mass


def uncovered_runs(alignment) -> list[list[int]]:
    """The runs of source word indices the rule flags (module docstring), in source order."""
    return low_runs(received_attention(alignment), alignment.source_words)


def low_runs(
    masses: np.ndarray, words: list[str], low: float = LOW_MASS, run: int = MIN_RUN, chars: int = MIN_CHARS
) -> list[list[int]]:
    """Runs of at least `run` words of `chars` letters or digits, each with a mass below `low`;
    a word above `low` ends a run, a shorter word below it neither ends nor extends one."""
    runs, current = [], []
    for index, (word, mass) in enumerate(zip(words, masses)):
        if mass >= low:
            if len(current) >= run:
                runs.append(current)
            current = []
        elif len(re.sub(r"\W", "", word)) >= chars:
            current.append(index)
    if len(current) >= run:
        runs.append(current)
    return runs
