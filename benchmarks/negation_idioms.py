"""Set phrases and idioms with a negation whose right translation may write none ("Quelque chose ne
va pas" → "Something's wrong", "It was not until 1990 …" → "Es war erst 1990 …", "Never mind" →
"Egal"), and real negations beside them ("Il ne va pas venir ce soir."): sentences of our own
(benchmarks/negation_idioms/LANGUAGE.txt, or those of --sentences DIR), translated in each
direction by the installed models' default search with the search made to write a dropped negation
(runtime/required_search.py) and without it: the sentences counted as dropping a negation
(runtime/negations.py negations_lost, without that search) and those the search changed, listed,
for a reader to judge.

    python -m benchmarks.negation_idioms [--sentences DIR] [--out FILE]
"""

from __future__ import annotations

from pathlib import Path

import attn.runtime as attn
from attn.runtime.negations import negations_lost
from benchmarks.negations import no_negation_search
from benchmarks.report import command_line, finish, folder_directions, sentence_folder_parser, table, with_and_without

SENTENCES = Path(__file__).with_name("negation_idioms")


def main() -> None:
    args = sentence_folder_parser(__doc__.splitlines()[0], SENTENCES).parse_args()
    translator, rows, counted, changes = attn.load(notify=lambda note: None), [], [], []
    for source, target, texts in folder_directions(args.sentences):
        searched, unsearched = with_and_without(translator, texts, source, target, no_negation_search())
        dropped = [(s, u) for s, u in zip(texts, unsearched) if negations_lost(s, source, u, target) > 0]
        changed = [(s, u, a) for s, u, a in zip(texts, unsearched, searched) if u != a]
        rows.append([f"{source}→{target}", len(texts), len(dropped), len(changed)])
        counted += [f"- {source}→{target}: {s}<br>{u}" for s, u in dropped]
        changes += [f"- {source}→{target}: {s}<br>without: {u}<br>with: {a}" for s, u, a in changed]
    finish(
        [
            command_line(),
            "",
            table(["direction", "sentences", "counted as dropping a negation", "changed by the search"], rows),
            "",
            "Counted as dropping a negation (without the search):",
            "",
            *counted,
            "",
            "Changed by the search:",
            "",
            *changes,
        ],
        args.out,
    )


if __name__ == "__main__":
    main()
