"""A person's name on the line after a letter's closing (runtime/mail.py signed_names), given back
as written or translated as the models read it alone: names of our own (German, French and English
first and last names, one first name alone), each after each of three closings of the source
language, in each direction; a name is kept when the translation's last line is the name as written.

    python -m benchmarks.signed_names [--out FILE]
"""

from __future__ import annotations

from contextlib import nullcontext
from unittest import mock

import attn.runtime as attn
from benchmarks.report import DIRECTIONS, command_line, finish, out_arguments, table

NAMES = [
    "Jürgen Müller",
    "Klaus Schäfer",
    "Anna Schmidt",
    "Jérôme Dubois",
    "Hélène Martin",
    "Katrin Göring-Eckardt",
    "Björn Weber",
    "Thomas",
    "Sophie Laurent",
    "Michael Brown",
    "Sarah O'Connor",
    "Lukas Becker",
    "Émilie Roux",
    "Peter Wolf",
]
CLOSINGS = {
    "de": ["Mit freundlichen Grüßen", "Viele Grüße,", "Beste Grüße"],
    "fr": ["Cordialement,", "Bien à vous,", "Salutations distinguées"],
    "en": ["Best regards,", "Kind regards", "Thanks,"],
}


def kept(translator, source: str, target: str) -> tuple[int, int, list[str]]:
    """(names kept as written, names, up to three that were not as "name → translation")."""
    texts = [f"{closing}\n{name}" for closing in CLOSINGS[source] for name in NAMES]
    names = NAMES * len(CLOSINGS[source])
    lasts = [result.text.split("\n")[-1].strip() for result in translator.translate(texts, source, target)]
    missed = [f"{name} → {last}" for name, last in zip(names, lasts) if last != name]
    return len(names) - len(missed), len(names), missed[:3]


def main() -> None:
    args = out_arguments(__doc__.splitlines()[0])
    translator = attn.load(notify=lambda note: None)
    rows = []
    for _, source, target, _ in DIRECTIONS:
        for label, rule in (
            ("read alone", mock.patch("attn.runtime.texts.signed_names", lambda lines: [])),
            ("given back", nullcontext()),
        ):
            with rule:
                right, total, missed = kept(translator, source, target)
            rows.append([f"{source}→{target}", label, f"{right} of {total}", "; ".join(missed)])
    lines = [
        command_line(),
        "",
        f"{len(NAMES)} names × 3 closings per source language; the installed models' default search.",
        "",
        table(["direction", "name", "kept as written", "missed (up to 3)"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
