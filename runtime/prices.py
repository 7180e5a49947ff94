"""Prices read as the target language writes them, which the models translate right.

English writes a currency's sign before the amount ("€15", "$1,299.00"), German and French after
it, with their own separators ("15 €", "1.299,00 $", "1 299,00 £"). Read across, the models lost
the amount or garbled it: "Tickets cost €15 each." had become "Tickets kosten jeweils 15}15 €."
(the sign set aside as a placeholder that the model wrote half of), "Les billets coûtent 15 $
chacun." "The tickets cost $ each.". Written as the target writes prices, the same sentences came
out right more often: into German the sign after the amount (72 of 90 prices of our own, against
66 as written), into English the sign before it and the number with an English decimal point (from German
72 against 50, from French 81 against 66); into French as written (66, against 58 with the sign
after) (`python -m benchmarks.price_forms`, docs/studies/PRICE-FORMS.md). The alignment shows
the words the user wrote (runtime/alignment.py `restored`).
"""

from __future__ import annotations

import re

SIGNS = "€$£"
# A price as each source language writes it: its sign, the amount's whole part and its cents
PRICES = {
    "en": re.compile(
        rf"(?<![\w{SIGNS}])(?P<sign>[{SIGNS}])\s?(?P<whole>\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.(?P<cents>\d{{2}}))?(?![\d.,]?\d)(?!\w)"
    ),
    "de": re.compile(
        rf"(?<![\w.,])(?P<whole>\d{{1,3}}(?:\.\d{{3}})+|\d+)(?:,(?P<cents>\d{{2}}))?\s?(?P<sign>[{SIGNS}])(?!\w)"
    ),
    "fr": re.compile(
        rf"(?<![\w.,])(?P<whole>\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+|\d+)(?:,(?P<cents>\d{{2}}))?"
        rf"[ \u00a0\u202f]?(?P<sign>[{SIGNS}])(?!\w)"
    ),
}
NOT_DIGIT = re.compile(r"\D")
# The source and target languages whose prices are read otherwise (into French as written)
READ = frozenset({("en", "de"), ("de", "en"), ("fr", "en")})


def read_prices(sentence: str, source: str, target: str) -> str:
    """`sentence` with each price (a currency's sign and an amount) written as `target` writes
    prices where that was measured to help (READ): into English "€1299.00" (its thousands not
    grouped, which the models copied as "€1.299.00"), into German "1,299.00 €" (the amount's
    separators as written: runtime/verbatim.py writes a copied number as the target does); as it
    is otherwise."""
    if (source, target) not in READ:
        return sentence

    def written(price: re.Match) -> str:
        if target != "en":
            return f"{price['whole']}{'.' + price['cents'] if price['cents'] else ''} {price['sign']}"
        whole = re.sub(NOT_DIGIT, "", price["whole"])  # ungrouped: "€2,499" had come out as "€2.499"
        return f"{price['sign']}{whole}{'.' + price['cents'] if price['cents'] else ''}"

    return PRICES[source].sub(written, sentence)
