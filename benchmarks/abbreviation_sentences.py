"""Abbreviations of letters, shops, manuals and opening hours (runtime/abbreviations.py) on
sentences a helper wrote (benchmarks/abbreviations/LANGUAGE.txt: German, French and English; or
those of --sentences DIR: benchmarks/abbreviations/held-out, written after the readings were chosen), each
direction, translated by the installed models' default search as runtime/source_reading.py reads them and
as written (read_abbreviations off, and the sentence splitter not told of them: runtime/sentences.py
ABBREVIATIONS alone): for each abbreviation, how often the translation gives it in one of the
target's ways (benchmarks/abbreviation_forms.py ACCEPTED), and the rows the reading changed.

    python -m benchmarks.abbreviation_sentences [--sentences DIR] [--show 5] [--out FILE]
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from unittest import mock

import attn.runtime as attn
from benchmarks.abbreviation_forms import abbreviations_given
from benchmarks.report import command_line, finish, folder_directions, sentence_folder_parser, table, with_and_without

SENTENCES = Path(__file__).with_name("abbreviations")


@contextlib.contextmanager
def as_written():
    """The runtime without runtime/abbreviations.py's readings, in the translation or the splitter."""
    with (
        mock.patch("attn.runtime.source_reading.read_abbreviations", lambda sentence, *languages: sentence),
        mock.patch("attn.runtime.sentences.abbreviation_ends", lambda *arguments: False),
    ):
        yield


def main() -> None:
    parser = sentence_folder_parser(__doc__.splitlines()[0], SENTENCES)
    parser.add_argument("--show", type=int, default=5, help="changed rows listed per direction")
    args = parser.parse_args()
    translator, rows, totals, shown = attn.load(notify=lambda note: None), [], [], []
    for source, target, texts in folder_directions(args.sentences):
        read, unread = with_and_without(translator, texts, source, target, as_written())
        before, after = (abbreviations_given(texts, outputs, source, target) for outputs in (unread, read))
        for abbreviation, (right, total) in sorted(after.items()):
            rows.append([f"{source}→{target}", abbreviation, total, before[abbreviation][0], right])
        totals.append(
            [
                f"{source}→{target}",
                len(texts),
                sum(total for _, total in after.values()),
                sum(right for right, _ in before.values()),
                sum(right for right, _ in after.values()),
                sum(b != a for b, a in zip(unread, read)),
            ]
        )
        changed = [(t, b, a) for t, b, a in zip(texts, unread, read) if b != a][: args.show]
        shown += [f"- {source}→{target}: {t}<br>as written: {b}<br>read: {a}" for t, b, a in changed]
    finish(
        [
            command_line(),
            "",
            table(
                ["direction", "sentences", "abbreviations", "given right as written", "read", "rows changed"], totals
            ),
            "",
            table(["direction", "abbreviation", "times", "given right as written", "read"], rows),
            "",
            *shown,
        ],
        args.out,
    )


if __name__ == "__main__":
    main()
