"""Text on both sides of an HTML line break (`<br>`): read as one text, or as two lines translated
apart, for lines of our own of two kinds (a heading and its line; a sentence wrapped), side by side
for a reader to judge.

    python -m benchmarks.html_line_breaks [--to de] [--out docs/studies/HTML-LINE-BREAKS.md]

The rule this chose (runtime/documents/html.py, RunReader.finish): a break before a capital or a
digit ends a line; before a small letter it wraps a sentence.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import attn.runtime as attn
from benchmarks.report import command_line, finish, table

# (before the break, after it): lines that stand alone, and sentences wrapped over two lines
SEPARATE = [
    ("Opening hours", "Monday to Friday, 9 am to 5 pm"),
    ("New features", "Faster startup and a darker theme"),
    ("Customer service", "Call us any time"),
    ("Free shipping", "On all orders over 50 euros"),
    ("Contact", "Send us an e-mail"),
    ("Our team", "Twenty people in three cities"),
    ("Last updated", "March 2024"),
    ("Step 1", "Download the installer"),
    ("Warning", "This action cannot be undone"),
    ("Sale ends soon", "Up to 30 percent off everything"),
]
WRAPPED = [
    ("Please read the terms and conditions", "before you sign up for an account"),
    ("Click the button below", "to download the latest version"),
    ("We are happy to announce that our new store", "will open next week in the city centre"),
    ("If you have any questions about your order", "please contact our support team"),
    ("The meeting has been moved", "to Thursday afternoon"),
    ("Thank you for choosing", "our hotel for your stay"),
    ("You can change your password", "in the account settings"),
    ("All prices include", "value added tax"),
    ("Our office will be closed", "during the holidays"),
    ("This program is free software", "released under the GNU license"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--to", default="de")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    lines = [command_line(), "", f"English → {args.to}, the installed model's default search."]
    for name, rows in (("Lines that stand alone", SEPARATE), ("Sentences wrapped over two lines", WRAPPED)):
        whole = translator.translate([f"{before} {after}" for before, after in rows], "en", args.to)
        apart = translator.translate([line for row in rows for line in row], "en", args.to)
        found = [
            [f"{before} / {after}", whole[i].text, f"{apart[2 * i].text} / {apart[2 * i + 1].text}"]
            for i, (before, after) in enumerate(rows)
        ]
        lines += ["", f"## {name}", "", table(["source (break at /)", "read as one text", "lines apart"], found)]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
