"""Persons' names after a given name ("Thomas Koch", runtime/person_names.py
names_after_given_names): how many the installed models' translations hold as written, with
such names searched again set aside where a translation lost them, and without (second_searches.py's
names_after_given_names replaced by one that finds none), same run.

benchmarks/given_names/LANG.tsv (and held-out/LANG.tsv, written at the same time and not read
while the rule was chosen): sentences written for this by a helper who had not seen the rule,
each with the full names a translation must keep ("|" between them; none in a sentence whose
given name is followed by a word that is no surname: "Hat Lea Hunger?", "Is Sophie French?"). Also
counted: names the rule finds that the line does not list (it would set aside what is no name).

    python -m benchmarks.given_names [--sentences benchmarks/given_names/held-out] [--show 5] [--out FILE]
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from attn.runtime.person_names import names_after_given_names
from benchmarks.report import DIRECTIONS, installed_model
from benchmarks.sentence_sets import kept_as_written, report

SENTENCES = Path("benchmarks/given_names")


def found_unlisted(source: str, target: str, sentences: list[tuple[str, list[str]]], *translations) -> str:
    """How many names the rule finds in `sentences` that their lines do not list."""
    known = installed_model(source, target).known_words
    return str(
        sum(
            sentence[name.start : name.end] not in names
            for sentence, names in sentences
            for name in names_after_given_names(sentence, source, known)
        )
    )


def main() -> None:
    report(
        __doc__.splitlines()[0],
        SENTENCES,
        [(source, target) for _, source, target, _ in DIRECTIONS],
        lambda: mock.patch("attn.runtime.second_searches.names_after_given_names", lambda *arguments: []),
        kept_as_written,
        ("as the model writes them", "searched again set aside"),
        found_unlisted,
        ["direction", "names", "kept", "names found that the line does not list"],
        "Persons' names after a given name kept as written",
    )


if __name__ == "__main__":
    main()
