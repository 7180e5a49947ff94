"""Which written form of a price the shipped models translate right (runtime/prices.py chooses the
form a price is read in): sentences of our own, amounts in euros, dollars and pounds in each form
put in each frame, translated by the installed models' default search; a price is given right when
the translation holds its amount's digits once (in any of the target's separators: "1.299,00",
"1 299,00", "1,299.00"), its currency once (its sign, code or name: "€", "EUR", "Euro"), no stray
closing brace (a placeholder's remains), and the frame's own word.

    python -m benchmarks.price_forms [--direction en-de|de-en|en-fr|fr-en] [--out FILE]

Each form is translated as it is written (runtime/prices.py off), and the source's own form as
runtime/prices.py reads it (the last row).
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from unittest import mock

import attn.runtime as attn
from benchmarks.report import command_line, direction_arguments, finish, table

AMOUNTS = ["5", "15", "49.99", "1,299", "12.50", "250"]
CURRENCIES = {"€": "EUR|euros?|Euro", "$": "USD|dollars?|Dollar", "£": "GBP|pounds?|Pfund|livres?"}
FRAMES = {
    "en": [
        ("Tickets cost {price} each.", {"de": "Ticket|Karte", "fr": "billet|ticket"}),
        ("The price is {price}.", {"de": "Preis", "fr": "prix"}),
        ("The book costs {price} in stores.", {"de": "Buch", "fr": "livre"}),
        ("Shipping is free on orders over {price}.", {"de": "Versand|Lieferung", "fr": "livraison|expédition"}),
        ("We paid {price} for the hotel.", {"de": "Hotel", "fr": "hôtel"}),
    ],
    "de": [
        ("Die Karten kosten je {price}.", {"en": "ticket|card"}),
        ("Der Preis beträgt {price}.", {"en": "price"}),
        ("Das Buch kostet im Laden {price}.", {"en": "book"}),
        ("Ab {price} ist der Versand kostenlos.", {"en": "shipping|delivery"}),
        ("Wir haben {price} für das Hotel bezahlt.", {"en": "hotel"}),
    ],
    "fr": [
        ("Les billets coûtent {price} chacun.", {"en": "ticket"}),
        ("Le prix est de {price}.", {"en": "price"}),
        ("Le livre coûte {price} en magasin.", {"en": "book"}),
        ("La livraison est gratuite dès {price}.", {"en": "delivery|shipping"}),
        ("Nous avons payé {price} pour l'hôtel.", {"en": "hotel"}),
    ],
}


def local(amount: str, language: str) -> str:
    """`amount` (written as English writes numbers) as `language` writes it."""
    if language == "en":
        return amount
    whole, _, cents = amount.partition(".")
    whole = whole.replace(",", "." if language == "de" else "\u202f")
    return whole + ("," + cents if cents else "")


# Each source language's candidate forms of a price: (name, form(amount, sign)); the first is its own
FORMS = {
    "en": [
        ("as written, sign first", lambda amount, sign, target: f"{sign}{amount}"),
        ("sign after, the target's number", lambda amount, sign, target: f"{local(amount, target)} {sign}"),
        ("sign after", lambda amount, sign, target: f"{amount} {sign}"),
    ],
    "de": [
        ("as written, sign after", lambda amount, sign, target: f"{local(amount, 'de')} {sign}"),
        ("English, sign first", lambda amount, sign, target: f"{sign}{amount}"),
    ],
    "fr": [
        ("as written, sign after", lambda amount, sign, target: f"{local(amount, 'fr')} {sign}"),
        ("English, sign first", lambda amount, sign, target: f"{sign}{amount}"),
    ],
}


def given_right(amount: str, sign: str, translation: str, anchor: str) -> bool:
    digits = re.sub(r"\D", "", amount)
    numbers = [re.sub(r"\D", "", found) for found in re.findall(r"\d[\d.,\u202f\u00a0 ]*\d|\d", translation)]
    currency = len(re.findall(rf"{re.escape(sign)}|\b(?:{CURRENCIES[sign]})\b", translation, re.I))
    return (
        numbers.count(digits) == 1
        and currency == 1
        and "}" not in translation
        and re.search(anchor, translation, re.I) is not None
    )


def main() -> None:
    args, source, target = direction_arguments(__doc__.splitlines()[0], ["en-de", "de-en", "en-fr", "fr-en"], "en-de")
    translator = attn.load(notify=lambda note: None)
    rows, missed = [], []
    candidates = [(*form, True) for form in FORMS[source]]
    for name, form, as_written in [*candidates, ("read by runtime/prices.py", FORMS[source][0][1], False)]:
        cases = [
            (amount, sign, frame.format(price=form(amount, sign, target)), anchors[target])
            for amount in AMOUNTS
            for sign in CURRENCIES
            for frame, anchors in FRAMES[source]
        ]
        with (
            mock.patch("attn.runtime.source_reading.read_prices", lambda sentence, *_: sentence)
            if as_written
            else nullcontext()
        ):
            outputs = [result.text for result in translator.translate([case[2] for case in cases], source, target)]
        right = [given_right(amount, sign, output, anchor) for (amount, sign, _, anchor), output in zip(cases, outputs)]
        rows.append([name, f"`{form('1,299', '€', target)}`", f"{sum(right)} of {len(cases)}"])
        missed += [f"- {name}: {case[2]} → {output}" for case, output, ok in zip(cases, outputs, right) if not ok][:3]
    lines = [
        command_line(),
        "",
        f"{source}→{target}: {len(FRAMES[source])} frames × amounts {', '.join(AMOUNTS)} × {' '.join(CURRENCIES)}; "
        "the installed models' default search, the price written in each form and read as written "
        "(runtime/prices.py off), then the source's own form as runtime/prices.py reads it.",
        "",
        table(["form", "example", "prices given right"], rows),
        "",
        "Three missed of each form:",
        "",
        *missed,
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
