"""Ordinals written with digits ("21st", "2e", "XIXe") as the shipped models translate them, with
runtime/ordinals.py's repair after the search and without it: sentences of our own, each
ordinal in each frame, the installed models' default search. An ordinal is given right when the
translation holds it as the target writes ordinals (in digits: "21.", "21e" or "21ème", "XXIe",
"21st"; or in words up to the tenth: "zweiten", "deuxième", "second") right before the frame's
noun where the frame has one ("21. Jahrhundert", "21e siècle"; "le siècle 21e" is not).

    python -m benchmarks.ordinal_forms [--direction en-fr|en-de|fr-en|de-en] [--out FILE]
"""

from __future__ import annotations

import re
from unittest import mock

import attn.runtime as attn
from attn.runtime import ordinals
from benchmarks.report import as_the_model_wrote, command_line, direction_arguments, finish, table

# Each frame in English, French and German, and the noun the ordinal stands before in each
# language (None: the ordinal stands alone, "finished 3rd")
FRAMES = [
    (
        {"en": "The {o} floor is closed.", "fr": "Le {o} étage est fermé.", "de": "Der {o} Stock ist geschlossen."},
        {"de": "Stock|Stockwerk|Etage|Obergeschoss", "fr": "étage", "en": "floor"},
    ),
    (
        {
            "en": "The church was built in the {o} century.",
            "fr": "L'église a été construite au {o} siècle.",
            "de": "Die Kirche wurde im {o} Jahrhundert gebaut.",
        },
        {"de": "Jahrhundert", "fr": "siècle", "en": "century"},
    ),
    (
        {
            "en": "Today is my {o} birthday.",
            "fr": "Aujourd'hui, c'est mon {o} anniversaire.",
            "de": "Heute ist mein {o} Geburtstag.",
        },
        {"de": "Geburtstag", "fr": "anniversaire", "en": "birthday"},
    ),
    (
        {
            "en": "This is the {o} time I have called you.",
            "fr": "C'est la {o} fois que je t'appelle.",
            "de": "Ich rufe dich schon zum {o} Mal an.",
        },
        {"de": "Mal", "fr": "fois", "en": "time"},
    ),
    (
        {
            "en": "She is in her {o} year at university.",
            "fr": "Elle est en {o} année à l'université.",
            "de": "Sie ist im {o} Jahr an der Universität.",
        },
        {"de": "Jahr|Studienjahr", "fr": "année", "en": "year"},
    ),
    (
        {
            "en": "The company celebrates its {o} anniversary.",
            "fr": "L'entreprise fête son {o} anniversaire.",
            "de": "Die Firma feiert ihr {o} Jubiläum.",
        },
        {"de": "Jubiläum|Jahrestag|Geburtstag", "fr": "anniversaire", "en": "anniversary|birthday"},
    ),
    (
        {
            "en": "He finished {o} in the race.",
            "fr": "Il a terminé {o} de la course.",
            "de": "Er wurde {o} im Rennen.",
        },
        None,
    ),
    (
        {
            "en": "Our team is {o} in the league.",
            "fr": "Notre équipe est {o} du championnat.",
            "de": "Unser Team ist {o} in der Liga.",
        },
        None,
    ),
]
NUMBERS = [1, 2, 3, 4, 5, 8, 10, 11, 12, 15, 19, 20, 21, 22, 30, 50]
# Ordinals in words up to the tenth, each language's stems
WORDS = {
    "de": "erst zweit dritt viert fünft sechst siebt acht neunt zehnt".split(),
    "fr": "premi deuxième|second troisième quatrième cinquième sixième septième huitième neuvième dixième".split(),
    "en": "first second third fourth fifth sixth seventh eighth ninth tenth".split(),
}
# How a source language writes each number's ordinal: its forms, by name
SOURCE_FORMS = {
    "en": [("digits", lambda number: ordinals.ordinal(number, "en"))],
    "de": [("digits", lambda number: ordinals.ordinal(number, "de"))],
    "fr": [
        ("digits, e", lambda number: ordinals.ordinal(number, "fr")),
        ("digits, ème", lambda number: "1er" if number == 1 else f"{number}ème"),
    ],
}


def given_right(number: int, translation: str, target: str, nouns: str | None) -> bool:
    """Whether `translation` holds `number`'s ordinal as `target` writes ordinals, right before
    one of `nouns` where there are any (module docstring)."""
    forms = [re.escape(ordinals.ordinal(number, target))]
    if target == "fr":
        forms += [rf"(?:{number}|{ordinals.roman(number)})(?:ème|e|er|re|ère)"]
    if number <= 10:
        forms.append(rf"{WORDS[target][number - 1]}\w*")
    ordinal = rf"(?<![\w.])(?:{'|'.join(forms)})"
    after = rf"\s+(?:{nouns})" if nouns else r"(?![\w])"
    return re.search(ordinal + after, translation, re.IGNORECASE) is not None


def main() -> None:
    args, source, target = direction_arguments(__doc__.splitlines()[0], ["en-fr", "en-de", "fr-en", "de-en"], "en-fr")
    translator = attn.load(notify=lambda note: None)
    rows = []
    for form_name, form in SOURCE_FORMS[source]:
        cases = [
            (number, frames[source].format(o=form(number)), nouns) for frames, nouns in FRAMES for number in NUMBERS
        ]
        row = [form_name, f"`{form(2)}`, `{form(21)}`"]
        for repaired in (False, True):
            with mock.patch(
                "attn.runtime.texts.ordinals_given", ordinals.ordinals_given if repaired else as_the_model_wrote
            ):
                outputs = [result.text for result in translator.translate([case[1] for case in cases], source, target)]
            right = sum(
                given_right(number, output, target, nouns and nouns[target])
                for (number, _, nouns), output in zip(cases, outputs)
            )
            row.append(f"{right} of {len(cases)}")
        rows.append(row)
    lines = [
        command_line(),
        "",
        f"{source}→{target}: {len(FRAMES)} frames × ordinals of {', '.join(map(str, NUMBERS))}; the installed "
        "models' default search.",
        "",
        table(["source form", "example", "as the model wrote them", "given as the target writes them"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
