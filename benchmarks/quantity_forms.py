"""Quantities with a unit's symbol ("12 V", "1.5 m", "120 x 60 x 75 cm") as the shipped models
translate them, with runtime/second_searches.py's second search of a sentence that lost one (its quantities
set aside, runtime/quantities.py) and without it: sentences of our own, each quantity in each
frame, the installed models' default search. A quantity is given right when the translation holds
its numbers as the target writes numbers and its unit after them (runtime/quantities.py `kept`).

    python -m benchmarks.quantity_forms [--direction en-fr|en-de|fr-en|de-en] [--out FILE]
"""

from __future__ import annotations

from unittest import mock

import attn.runtime as attn
from attn.runtime.quantities import as_target_writes, kept
from attn.runtime.second_searches import SecondSearches
from benchmarks.report import command_line, direction_arguments, finish, table

# Each frame in English, French and German, and the quantities it is read with, as English writes them
FRAMES = [
    (
        {"en": "The bag weighs {q}.", "fr": "Le sac pèse {q}.", "de": "Die Tasche wiegt {q}."},
        ["5 kg", "2.5 kg", "800 g", "12 lb"],
    ),
    (
        {"en": "Add {q} of flour.", "fr": "Ajoutez {q} de farine.", "de": "Fügen Sie {q} Mehl hinzu."},
        ["50 g", "250 g", "1.5 kg", "8 oz"],
    ),
    (
        {
            "en": "Pour {q} of water into the pot.",
            "fr": "Versez {q} d'eau dans la casserole.",
            "de": "Gießen Sie {q} Wasser in den Topf.",
        },
        ["100 ml", "2 l", "1.5 L", "25 cl"],
    ),
    (
        {"en": "The cable is {q} long.", "fr": "Le câble mesure {q} de long.", "de": "Das Kabel ist {q} lang."},
        ["1.5 m", "30 cm", "3.5 mm", "6 ft"],
    ),
    (
        {
            "en": "The hotel is {q} from the station.",
            "fr": "L'hôtel est à {q} de la gare.",
            "de": "Das Hotel ist {q} vom Bahnhof entfernt.",
        },
        ["2 km", "500 m", "1.2 km", "1,500 m"],
    ),
    (
        {"en": "The train runs at {q}.", "fr": "Le train roule à {q}.", "de": "Der Zug fährt mit {q}."},
        ["300 km/h", "80 km/h", "60 mph"],
    ),
    (
        {
            "en": "The heater uses {q} of power.",
            "fr": "Le radiateur consomme {q}.",
            "de": "Die Heizung verbraucht {q}.",
        },
        ["2000 W", "1.5 kW", "40 W"],
    ),
    (
        {
            "en": "You need a {q} adapter.",
            "fr": "Il vous faut un adaptateur de {q}.",
            "de": "Sie brauchen ein Netzteil mit {q}.",
        },
        ["12 V", "5 V", "230 V"],
    ),
    (
        {
            "en": "The phone has {q} of storage.",
            "fr": "Le téléphone a {q} de stockage.",
            "de": "Das Handy hat {q} Speicher.",
        },
        ["128 GB", "1 TB", "512 MB"],
    ),
    (
        {
            "en": "The processor runs at {q}.",
            "fr": "Le processeur tourne à {q}.",
            "de": "Der Prozessor läuft mit {q}.",
        },
        ["3.2 GHz", "800 MHz"],
    ),
    (
        {
            "en": "Bake the cake at {q} for 40 minutes.",
            "fr": "Faites cuire le gâteau à {q} pendant 40 minutes.",
            "de": "Backen Sie den Kuchen 40 Minuten bei {q}.",
        },
        ["180 °C", "350 °F", "200 °C"],
    ),
    (
        {"en": "The table measures {q}.", "fr": "La table mesure {q}.", "de": "Der Tisch misst {q}."},
        ["120 x 60 x 75 cm", "80 x 80 cm", "2 x 1.5 m"],
    ),
    (
        {
            "en": "The battery has a capacity of {q}.",
            "fr": "La batterie a une capacité de {q}.",
            "de": "Der Akku hat eine Kapazität von {q}.",
        },
        ["4500 mAh", "3000 mAh"],
    ),
    (
        {
            "en": "The flat has {q} of living space.",
            "fr": "L'appartement fait {q}.",
            "de": "Die Wohnung hat {q} Wohnfläche.",
        },
        ["75 m²", "120 m²"],
    ),
    (
        {
            "en": "We walked {q} yesterday.",
            "fr": "Nous avons marché {q} hier.",
            "de": "Wir sind gestern {q} gelaufen.",
        },
        ["12 km", "5.5 km", "800 m"],
    ),
    (
        {
            "en": "The fridge uses {q} per year.",
            "fr": "Le réfrigérateur consomme {q} par an.",
            "de": "Der Kühlschrank verbraucht {q} im Jahr.",
        },
        ["150 kWh", "220 kWh"],
    ),
]


def written(quantity: str, language: str) -> str:
    """An English quantity of FRAMES as `language` writes it."""
    return as_target_writes(quantity, "en", language)


def main() -> None:
    args, source, target = direction_arguments(__doc__.splitlines()[0], ["en-fr", "en-de", "fr-en", "de-en"], "en-fr")
    translator = attn.load(notify=lambda note: None)
    cases = [
        (written(quantity, target), frames[source].format(q=written(quantity, source)))
        for frames, quantities in FRAMES
        for quantity in quantities
    ]
    row = [f"{source}→{target}", len(cases)]
    outputs = {}
    for searched_again in (False, True):
        with mock.patch.object(
            SecondSearches, "quantities_lost", SecondSearches.quantities_lost if searched_again else lambda *_: {}
        ):
            outputs[searched_again] = [
                result.text for result in translator.translate([sentence for _, sentence in cases], source, target)
            ]
        row.append(sum(kept(quantity, target, output) for (quantity, _), output in zip(cases, outputs[searched_again])))
    row.append(sum(a != b for a, b in zip(outputs[False], outputs[True])))
    lines = [
        command_line(),
        "",
        f"{len(FRAMES)} frames, each with its quantities; the installed models' default search.",
        "",
        table(
            ["direction", "sentences", "given right as the model wrote them", "searched again where lost", "changed"],
            [row],
        ),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
