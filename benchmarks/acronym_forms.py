"""Which written form of a country's or a union's initials the shipped models translate right:
sentences of our own, each of "U.S.", "U.K.", "U.N." and "E.U." (and a country or union after "the")
in each frame, written with points and without ("US", "UK"), translated from English by the
installed models' default search (with the runtime's reading of them: runtime/abbreviations.py)
and with that reading off. Given right when the translation names it as the target does (its
initials or its name: "USA", "Vereinigten Staaten", "américain", "Royaume-Uni") and keeps the
frame's own word ("Wirtschaft", "économie").

    python -m benchmarks.acronym_forms [--to de|fr] [--out FILE]
"""

from __future__ import annotations

import argparse
import re
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from benchmarks.report import command_line, finish, table

# Each frame, and the word of each target language that its translation must keep
FRAMES = [
    ("The {a} economy grew faster than expected.", {"de": "Wirtschaft", "fr": "économie"}),
    ("The {a} government announced new rules today.", {"de": "Regierung", "fr": "gouvernement"}),
    ("Prices in the {a} rose sharply in May.", {"de": "Preise", "fr": "prix"}),
    ("He moved to the {a} in 2010.", {"de": "2010", "fr": "2010"}),
    ("The {a} has criticised the decision.", {"de": "Entscheidung", "fr": "décision"}),
    ("Talks between the {a} and China ended on Friday.", {"de": "China", "fr": "Chine"}),
    ("Most {a} companies pay their taxes.", {"de": "Steuern", "fr": "impôts|taxes"}),
    ("According to the {a}, the number of refugees has doubled.", {"de": "Flüchtling", "fr": "réfugiés"}),
]
# Each initials' forms as written, and how each target names it
ACRONYMS = {
    "U.S.": {"de": r"USA|US|Vereinigten Staaten|amerikanisch", "fr": r"États-Unis|USA|américain|US"},
    "U.K.": {"de": r"UK|Vereinigte[nm]? Königreich|Großbritannien|britisch", "fr": r"Royaume-Uni|britannique|UK"},
    "U.N.": {"de": r"UN|UNO|Vereinte[nm]? Nationen", "fr": r"ONU|Nations unies|Nations Unies|UN"},
    "E.U.": {"de": r"EU|Europäische[nr]? Union", "fr": r"UE|Union européenne|Union Européenne|EU"},
}


def given_right(translation: str, names: str, kept: str) -> bool:
    """Whether `translation` names the initials (`names`, a pattern) and keeps the frame's word."""
    return re.search(rf"(?<!\w)(?:{names})", translation) is not None and re.search(kept, translation) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--to", choices=["de", "fr"], default="fr")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows = []
    for dotted, names in ACRONYMS.items():
        row = [f"`{dotted}`"]
        for written in (dotted, dotted.replace(".", "")):
            cases = [(frame.format(a=written), kept[args.to]) for frame, kept in FRAMES]
            for read in (False, True) if written == dotted else (False,):
                unread = mock.patch("attn.runtime.source_reading.read_abbreviations", lambda sentence, *_: sentence)
                with unread if not read else nullcontext():
                    outputs = [
                        result.text for result in translator.translate([case[0] for case in cases], "en", args.to)
                    ]
                right = sum(given_right(output, names[args.to], kept) for (_, kept), output in zip(cases, outputs))
                row.append(f"{right} of {len(cases)}")
        rows.append(row)
    lines = [
        command_line(),
        "",
        f"en→{args.to}: {len(FRAMES)} frames × {len(ACRONYMS)} initials; the installed models' default search.",
        "",
        table(["initials", "with points, as written", "with points, read", "without points"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
