"""Each attention score computes its formula (export/models/attention.py); that each learns is
tests/test_variants.py's."""

import pytest
import torch

from attn.export.config import SCORES
from attn.export.models.attention import build_attention

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("score", SCORES)
def test_each_score_computes_its_formula(score):
    """Each scorer's weights are the softmax of its textbook score (Luong et al. 2015, Bahdanau et
    al. 2015, Vaswani et al. 2017) over the unmasked positions, and its context their mean of
    the values."""
    torch.manual_seed(0)
    query_size = memory_size = 8
    attention = build_attention(score, query_size, memory_size, attention_size=6)
    query, memory = torch.randn(2, query_size), torch.randn(2, 5, memory_size)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    weights_of = {
        "dot": lambda: memory @ query.unsqueeze(-1),
        "general": lambda: memory @ attention.key_layer.weight.T @ query.unsqueeze(-1),
        "scaled_dot": lambda: (
            (memory @ attention.key_layer.weight.T) @ (attention.query_layer.weight @ query.unsqueeze(-1)) / 6**0.5
        ),
    }
    if score in ("additive", "concat"):
        hidden = torch.tanh(attention.key_layer(memory) + attention.query_layer(query).unsqueeze(1))
        expected_scores = hidden @ attention.energy_layer.weight.T
    else:
        expected_scores = weights_of[score]()
    expected_scores = expected_scores.squeeze(-1).masked_fill(mask == 0, float("-inf"))
    expected = torch.softmax(expected_scores, dim=-1)
    values = attention.value_layer(memory) if score == "scaled_dot" else memory
    with torch.no_grad():
        context, weights = attention(query, attention.project_keys(memory), attention.project_values(memory), mask)
    assert torch.allclose(weights, expected, atol=1e-6)
    assert torch.allclose(context, (expected.unsqueeze(-1) * values).sum(1), atol=1e-5)
