"""A text translated in parts: its n best as choices of one translation per part
(runtime/combinations.py)."""

import itertools
import random

import pytest

from attn.runtime.combinations import best_choices, costs_along


@pytest.mark.unit
def test_costs_never_fall_along_a_list():
    assert costs_along([-1.0, -1.5, -1.2, -3.0]) == [0.0, 0.5, 0.5, 2.0]  # -1.2 after -1.5 costs as -1.5
    assert costs_along([-2.0]) == [0.0]


@pytest.mark.unit
@pytest.mark.parametrize("seed", range(20))
def test_the_choices_are_those_of_least_total_cost_in_order(seed):
    """Against every combination sorted by (total cost, choice): the same choices, in that order;
    costs in quarters, so that sums are exact and ties many."""
    generator = random.Random(seed)
    costs = [
        costs_along([-generator.randint(0, 12) / 4 for _ in range(generator.randint(1, 4))])
        for _ in range(generator.randint(1, 4))
    ]
    every = sorted(
        itertools.product(*(range(len(part)) for part in costs)),
        key=lambda choice: (sum(part[j] for part, j in zip(costs, choice)), choice),
    )
    for n in (1, 3, 10, 100):
        assert best_choices(costs, n) == every[:n]
