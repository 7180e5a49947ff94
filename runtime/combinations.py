"""The n best translations of a text translated in parts (its sentences, its lines), each a choice
of one translation per part.

A text of several sentences had one translation however many were asked (`--n-best`, the
server's `alternatives`). Its k best are the k choices of least cost, a choice's cost being the
sum over its parts of how much worse the translation it takes is than the part's first (each
part's list in its own order, best first): the second best text is the first with one sentence
changed, the one that costs least, not every sentence's second best joined (k-best enumeration
over a product of sorted lists, by a heap, as in Huang and Chiang 2005, algorithm 2). A part's list
ranked on more than its score (runtime/number_choice.py, runtime/reverse_scores.py) may hold a
later translation of a higher score: a translation's cost is then that of the worst before it, so
that costs never fall along a list and the enumeration stays exact for them.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence


def costs_along(scores: Sequence[float]) -> list[float]:
    """How much worse each of a part's translations is than its first, from their scores in the
    list's order (the best first): (n,) → (n,), 0 first, never falling."""
    worst, costs = float("inf"), []
    for score in scores:
        worst = min(worst, score)
        costs.append(scores[0] - worst)
    return costs


def best_choices(costs: Sequence[Sequence[float]], n: int) -> list[tuple[int, ...]]:
    """The `n` choices of one index per part of least total cost, least first (fewer where the
    parts have fewer combinations): costs[p][j] the cost of part p's j-th translation (costs_along);
    ties go to the choice that changes later parts first, whatever the order they were met in."""
    first = tuple(0 for _ in costs)
    frontier, seen, chosen = [(0.0, first)], {first}, []
    while frontier and len(chosen) < n:
        _, choice = heapq.heappop(frontier)
        chosen.append(choice)
        for part, index in enumerate(choice):
            if index + 1 < len(costs[part]):
                following = (*choice[:part], index + 1, *choice[part + 1 :])
                if following not in seen:
                    seen.add(following)
                    total = sum(part_costs[j] for part_costs, j in zip(costs, following))
                    heapq.heappush(frontier, (total, following))
    return chosen
