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
the words the user wrote (runtime/alignment.py `restored`). Into French, where the models copy an
English price as it was written ("coûte €1.20"), the translation writes it as French does after
the search ("coûte 1,20 €": prices_given). A price of a large number's scale ("€2.3 billion") is
read into German with its sign after the scale word, and written in any direction in the target's
order (scaled_prices_given).
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from .alignment import WordAlignment
from .scales import ABBREVIATED, SCALES, core
from .verbatim import NUMBER_MARKS, number_written

SIGNS = "€$£"
SIGN_FIRST_LANGUAGES = frozenset({"en"})  # those that write a price's sign before its amount
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
# A price of a large number's scale as English writes it ("$450 million", "€2.3 billion"): read into
# German as German writes it, the sign after the scale word ("450 million $"); read with the sign
# between ("450 $ million"), the en-de model had written "450 $ Millionen" and a second "$" after
# another number of the sentence
SCALED_PRICE = re.compile(
    rf"(?<![\w{SIGNS}])(?P<sign>[{SIGNS}])\s?(?P<amount>\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d{{1,3}})?)\s"
    rf"(?P<scale>{'|'.join(sorted(SCALES['en']))})(?![\w'’-])"
)
NOT_DIGIT = re.compile(r"\D")
# The source and target languages whose prices are read otherwise (into French as written)
READ = frozenset({("en", "de"), ("de", "en"), ("fr", "en")})


def read_prices(sentence: str, source: str, target: str) -> str:
    """`sentence` with each price (a currency's sign and an amount) written as `target` writes
    prices where that was measured to help (READ): into English "€1299.00" (its thousands not
    grouped, which the models copied as "€1.299.00"), into German "1,299.00 €" and "2.3 billion €"
    (SCALED_PRICE; the amount's
    separators as written: runtime/verbatim.py writes a copied number as the target does); as it
    is otherwise."""
    if (source, target) not in READ:
        return sentence
    if source == "en":
        sentence = SCALED_PRICE.sub(r"\g<amount> \g<scale> \g<sign>", sentence)

    def written(price: re.Match) -> str:
        if target not in SIGN_FIRST_LANGUAGES:
            return f"{price['whole']}{'.' + price['cents'] if price['cents'] else ''} {price['sign']}"
        whole = re.sub(NOT_DIGIT, "", price["whole"])  # ungrouped: "€2,499" had come out as "€2.499"
        return f"{price['sign']}{whole}{'.' + price['cents'] if price['cents'] else ''}"

    return PRICES[source].sub(written, sentence)


# A word of a translation into French that is a price written sign first, as English writes it
# ("€1.20", "$649,", "(£1299"), the model's copy of the source's: what is before it, the sign, the
# amount's digits and marks, what is after it
SIGN_FIRST = re.compile(rf"(?P<before>[^\w{SIGNS}]*)(?P<sign>[{SIGNS}])(?P<amount>\d[\d.,\u202f]*\d|\d)(?P<after>\W*)")
CENTS = re.compile(r"[.,](\d{2})\Z")  # an amount's cents, after either language's decimal mark
THOUSANDS = re.compile(r"\d{3}(?:[.,]\d+)?\W*")  # a number's thousands the model wrote as a word of its own
GIVEN = frozenset({("en", "fr")})  # the directions whose prices the translation writes as the target does


def amount_parts(amount: str) -> tuple[str, str]:
    """(whole digits, cents) of an amount as a translation copied it, in either language's marks
    ("1.20" and "1,20": "1", "20"; "1 299,99": "1299", "99"; "120": "120", "")."""
    cents = CENTS.search(amount)
    whole = amount[: cents.start()] if cents else amount
    return NOT_DIGIT.sub("", whole), cents[1] if cents else ""


def prices_given(alignment: WordAlignment, source: str, target: str) -> WordAlignment:
    """The alignment with each price of the source that the translation wrote sign first (a copy:
    SIGN_FIRST, the same sign, amount and cents, maybe its thousands in words of their own: "$12 500
    000") written as `target` writes prices, where that is another form (GIVEN: into French,
    "€1,299.50" → "1299,50 €", its amount as runtime/verbatim.py writes a number, then the sign):
    two words, linked as the one or the mean of the several were."""
    if (source, target) not in GIVEN:
        return alignment
    prices = {
        (price["sign"], NOT_DIGIT.sub("", price["whole"]), price["cents"] or ""): price
        for price in PRICES[source].finditer(" ".join(alignment.source_words))
    }
    words, rows, at = [], [], 0
    target_words, weights = alignment.target_words, alignment.weights
    while at < len(target_words):
        found = SIGN_FIRST.fullmatch(target_words[at])
        parts = 1
        while (
            found
            and found["after"] == ""
            and at + parts < len(target_words)
            and THOUSANDS.fullmatch(target_words[at + parts])
        ):
            parts += 1
        if found and parts > 1:
            found = SIGN_FIRST.fullmatch("".join(target_words[at : at + parts]))
        price = found and prices.get((found["sign"], *amount_parts(found["amount"])))
        if not price:
            words.append(target_words[at])
            rows.append(weights[at])
            at += 1
            continue
        amount = number_written(NOT_DIGIT.sub("", price["whole"]), price["cents"] or "", target)
        words += [found["before"] + amount, found["sign"] + found["after"]]
        rows += [weights[at : at + parts].mean(axis=0)] * 2
        at += parts
    if words == target_words:
        return alignment
    return replace(alignment, target_words=words, weights=np.array(rows, np.float32).reshape(len(words), -1))


# A price of a large number's scale ("€2.3 billion", "2,3 Milliarden €") as a translation may write
# it: the sign against the amount, between the amount and the scale word, or after the scale word.
# The models wrote the source's order or a mix of both ("350 £ Millionen", "€2,3 Milliarden",
# "2.3 billion €"); English writes the sign first, German and French last.
SIGN_AND_AMOUNT = re.compile(rf"(?P<sign>[{SIGNS}])(?P<amount>\d+(?:[.,]\d{{1,3}})*)")
AMOUNT = re.compile(r"\d+(?:[.,]\d{1,3})*")
SIGN_ALONE = re.compile(rf"(?P<sign>[{SIGNS}])(?P<after>[^\w{SIGNS}]*)")
# The words that name a sign's currency: written after a price's scale word ("25 Millionen $
# Dollar"), they say what the sign would
CURRENCY_NAMES = {
    "$": frozenset({"dollar", "dollars", "us-dollar"}),
    "€": frozenset({"euro", "euros"}),
    "£": frozenset({"pfund", "pound", "pounds", "livre", "livres", "sterling"}),
}
# A number with decimals and no thousands ("2.3", "2,35"; "1.125" where its mark is the source's
# decimal mark: three digits after a mark may be thousands)
DECIMAL = re.compile(r"(?P<whole>\d+)(?P<mark>[.,])(?P<decimals>\d{1,3})")


def scale_apart(word: str, language: str) -> tuple[str, str] | None:
    """(the scale word, the punctuation after it) of `word` where it is a scale word of `language`
    ("Milliarden.": "Milliarden", "."; "Mrd.": "Mrd.", ""), None otherwise."""
    if core(word) not in SCALES.get(language, {}) or not word[:1].isalpha():
        return None
    body = word.rstrip(",;:!?)»\"'")
    if body.endswith(".") and core(word) not in ABBREVIATED.get(language, {}):
        body = body[:-1]  # the sentence's point, not an abbreviation's
    return body, word[len(body) :]


def scaled_price(
    words: list[str], at: int, language: str
) -> tuple[int, str, str, str, str, tuple[int, int, int]] | None:
    """The price of a scale that `words[at:]` begin with, in any of the three orders: (how many
    words, its sign, amount, scale word, the punctuation after it, and the word each of sign,
    amount and scale word is of), None if none."""
    first, second, third = (words[at + offset] if at + offset < len(words) else "" for offset in range(3))
    joined = SIGN_AND_AMOUNT.fullmatch(first)
    if joined and (scale := scale_apart(second, language)):  # "€2,3 Milliarden"
        return 2, joined["sign"], joined["amount"], *scale, (at, at, at + 1)
    if not AMOUNT.fullmatch(first):
        return None
    sign = SIGN_ALONE.fullmatch(second)
    if sign and not sign["after"] and (scale := scale_apart(third, language)):  # "350 £ Millionen"
        return 3, sign["sign"], first, *scale, (at + 1, at, at + 2)
    scale, sign = scale_apart(second, language), SIGN_ALONE.fullmatch(third)
    if scale and not scale[1] and sign:  # "2.3 billion €."
        return 3, sign["sign"], first, scale[0], sign["after"], (at + 2, at, at + 1)
    return None


def scaled_prices_given(alignment: WordAlignment, source: str, target: str) -> WordAlignment:
    """The alignment with each price of a scale that the translation writes in an order `target`
    does not (scaled_price), where the source writes that sign, written as `target` writes it:
    into English "€2.3 billion" (the sign and the amount one word, linked as the mean of both),
    into German and French "2,3 Milliarden €" (each word linked as the one it came from), without
    the sign where the next word names its currency ("25 Millionen Dollar"); the amount's decimal
    mark the target's."""
    if target not in SCALES or target not in NUMBER_MARKS:
        return alignment
    signs = {character for word in alignment.source_words for character in word if character in SIGNS}
    if not signs:
        return alignment
    words, rows, at = [], [], 0
    target_words, weights = alignment.target_words, alignment.weights
    while at < len(target_words):
        found = scaled_price(target_words, at, target)
        if found is None or found[1] not in signs:
            words.append(target_words[at])
            rows.append(weights[at])
            at += 1
            continue
        count, sign, amount, scale, after, (sign_at, amount_at, scale_at) = found
        decimal = DECIMAL.fullmatch(amount)
        if decimal and (len(decimal["decimals"]) < 3 or decimal["mark"] == NUMBER_MARKS.get(source, ",.")[1]):
            amount = f"{decimal['whole']}{NUMBER_MARKS[target][1]}{decimal['decimals']}"
        if target in SIGN_FIRST_LANGUAGES:
            words += [sign + amount, scale + after]
            rows += [(weights[sign_at] + weights[amount_at]) / 2, weights[scale_at]]
        elif core(target_words[at + count] if at + count < len(target_words) else "") in CURRENCY_NAMES[sign]:
            words += [amount, scale + after]  # "25 Millionen Dollar"
            rows += [weights[amount_at], weights[scale_at]]
        else:
            words += [amount, scale, sign + after]
            rows += [weights[amount_at], weights[scale_at], weights[sign_at]]
        at += count
    if words == target_words:
        return alignment
    return replace(alignment, target_words=words, weights=np.array(rows, np.float32).reshape(len(words), -1))
