"""Prices read as the target language writes them (runtime/prices.py)."""

import pytest

from attn.runtime.prices import read_prices


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, read",
    [
        # into German: the sign after the amount, its separators as written
        ("Tickets cost €15 each.", "en", "de", "Tickets cost 15 € each."),
        ("The price is $1,299.00.", "en", "de", "The price is 1,299.00 $."),
        ("Only £ 9.99!", "en", "de", "Only 9.99 £!"),
        # into English: the sign first, the amount as English writes numbers
        ("Der Preis beträgt 1.299,00 €.", "de", "en", "Der Preis beträgt €1299.00."),  # ungrouped: copied right
        ("Das macht 24 $.", "de", "en", "Das macht $24."),
        ("Le prix est de 1 299,00 €.", "fr", "en", "Le prix est de €1299.00."),
        ("Une pièce de 0,25 $.", "fr", "en", "Une pièce de $0.25."),
        # as it is: into French, no price, an amount with a word's ending
        ("It costs €15.", "en", "fr", "It costs €15."),
        ("It raised $5bn, a €15m deal.", "en", "de", "It raised $5bn, a €15m deal."),
        ("Version 1.5 € und 3,5-Zoll", "de", "en", "Version 1.5 € und 3,5-Zoll"),
        ("Costs $5,50.", "en", "de", "Costs $5,50."),  # not an English amount
    ],
)
def test_a_price_is_read_as_the_target_language_writes_it(sentence, source, target, read):
    """ "Tickets cost €15 each." had become "Tickets kosten jeweils 15}15 €.", "Les billets coûtent
    15 $ chacun." "The tickets cost $ each." (benchmarks/price_forms.py)."""
    assert read_prices(sentence, source, target) == read


@pytest.mark.unit
def test_code_and_urls_are_not_read_otherwise():
    """`date -d "June 3"` had become `date -d "3 juin"` (runtime/set_aside.py outside_tokens)."""
    from attn.runtime.dates import read_dates
    from attn.runtime.set_aside import outside_tokens

    def read(text: str) -> str:
        return read_prices(read_dates(text, "en", "fr"), "en", "de")

    assert outside_tokens('Run `date -d "June 3"` on June 3.', read) == 'Run `date -d "June 3"` le 3 juin.'
    assert outside_tokens("See https://example.org/$5 for €5.", read) == "See https://example.org/$5 for 5 €."


@pytest.mark.system
def test_prices_keep_their_amount_with_the_shipped_models():
    import attn.runtime as api

    into_german = api.translate("Tickets cost €15 each.", source="en", target="de")
    assert "15 €" in into_german and "}" not in into_german
    assert "$24" in api.translate("Das macht 24 $.", source="de", target="en")
    assert "€1299.00" in api.translate("Le prix est de 1 299,00 €.", source="fr", target="en")
