"""A list or dialogue mark that opens a sentence read apart from it (runtime/sentences.py
mark_apart), on and off: the 40 everyday sentences of each direction (tests/fixtures/everyday*)
with "- " before them, translated alone and so; how many come out as the mark and the sentence's
own translation alone, and how many differ in small and capital letters only.

    python -m benchmarks.list_marks [--out FILE]
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from attn.runtime.tsv import read_tsv
from benchmarks.report import DIRECTIONS, command_line, finish, out_arguments, table

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def everyday(source: str, target: str) -> list[str]:
    """The sources of the everyday probes of a direction (a fixture of the reverse one read swapped)."""
    rows = []
    for probe in ("everyday", "everyday2"):
        forward = FIXTURES / f"{probe}-{source}-{target}.tsv"
        swapped = not forward.exists()
        rows += read_tsv(FIXTURES / f"{probe}-{target}-{source}.tsv" if swapped else forward, swap_columns=swapped)
    return [row.source for row in rows]


def main() -> None:
    args = out_arguments(__doc__.splitlines()[0])
    translator = attn.load(notify=lambda note: None)
    rows = []
    for _, source, target, _ in DIRECTIONS:
        sentences = everyday(source, target)
        alone = [result.text for result in translator.translate(sentences, source, target)]
        for label, rule in (
            ("read with it", mock.patch("attn.runtime.texts.mark_apart", lambda s: [s])),
            ("read apart", nullcontext()),
        ):
            with rule:
                marked = [result.text for result in translator.translate(["- " + s for s in sentences], source, target)]
            same = sum(m == "- " + a for m, a in zip(marked, alone))
            case = sum(m != "- " + a and m.lower() == ("- " + a).lower() for m, a in zip(marked, alone))
            rows.append([f"{source}→{target}", label, len(sentences), same, case])
    lines = [
        command_line(),
        "",
        'The everyday sentences with "- " before them; the installed models\' default search.',
        "",
        table(["direction", "mark", "sentences", "as alone", "case only differs"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
