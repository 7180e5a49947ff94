"""Persons' titles before their names (runtime/titles.py): in which form the installed models
translate a title right. Each form of each gender's title, as the source language writes it and as
the target does, is put in eight sentences of our own with four names, and a translation counts as
right when it holds a title of the target language (EXPECTED) and the name after it.

    python -m benchmarks.person_titles [--out FILE]
"""

from __future__ import annotations

from unittest import mock

import attn.runtime as attn
from attn.runtime.titles import READ, TITLES
from benchmarks.report import command_line, finish, out_arguments, table

FRAMES = {
    "en": [
        "{title} {name} arrived yesterday.",
        "I spoke to {title} {name} this morning.",
        "According to {title} {name}, the plan will work.",
        "{title} {name} said the company would grow.",
        "The letter was signed by {title} {name}.",
        "We met {title} {name} at the station.",
        "Please call {title} {name} tomorrow.",
        "{title} {name} has been the mayor since 2019.",
    ],
    "de": [
        "{title} {name} kam gestern an.",
        "Ich habe heute Morgen mit {title} {name} gesprochen.",
        "Laut {title} {name} wird der Plan funktionieren.",
        "{title} {name} sagte, das Unternehmen werde wachsen.",
        "Der Brief wurde von {title} {name} unterschrieben.",
        "Wir trafen {title} {name} am Bahnhof.",
        "Bitte rufen Sie morgen {title} {name} an.",
        "{title} {name} ist seit 2019 Bürgermeister.",
    ],
    "fr": [
        "{title} {name} est arrivé hier.",
        "J'ai parlé à {title} {name} ce matin.",
        "Selon {title} {name}, le plan va fonctionner.",
        "{title} {name} a dit que l'entreprise allait croître.",
        "La lettre a été signée par {title} {name}.",
        "Nous avons rencontré {title} {name} à la gare.",
        "Appelez {title} {name} demain.",
        "{title} {name} est maire depuis 2019.",
    ],
}
NAMES = ["Smith", "Jones", "Becker", "Martin"]
# The titles a translation may give, in each target language, for each gender
EXPECTED = {
    "de": {"m": ("Herr", "Herrn"), "f": ("Frau",)},
    "en": {"m": ("Mr", "Mr."), "f": ("Ms", "Ms.", "Mrs", "Mrs.")},
    "fr": {"m": ("M.", "Monsieur"), "f": ("Mme", "Madame")},
}


def main() -> None:
    args = out_arguments(__doc__.splitlines()[0])
    translator = attn.load(notify=lambda note: None)
    rows = []
    for source, target in sorted(READ):
        for gender in ("m", "f"):
            forms = list(TITLES[source][gender]) + [form for form in TITLES[target][gender] if form != "Herrn"]
            for form in forms:
                texts, names = [], []
                for frame in FRAMES[source]:
                    for name in NAMES:
                        texts.append(frame.format(title=form, name=name))
                        names.append(name)
                # each form read as it is: the rule that reads titles otherwise is what is being chosen
                with mock.patch("attn.runtime.source_reading.read_titles", lambda sentence, *languages: sentence):
                    outputs = [result.text for result in translator.translate(texts, source, target)]
                right = sum(
                    any(f"{title} {name}" in output for title in EXPECTED[target][gender])
                    for output, name in zip(outputs, names)
                )
                written = "source's" if form in TITLES[source][gender] else "target's"
                rows.append([f"{source}→{target}", gender, f"{form} ({written})", f"{right} of {len(texts)}"])
    lines = [
        command_line(),
        "",
        "Sentences of our own with a title and a name, each title form read as it is (runtime/source_reading.py's "
        "read_titles off); the installed models' default search.",
        "",
        table(["direction", "gender", "title as read", "titles given right"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
