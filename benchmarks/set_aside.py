"""E-mail addresses, URLs and code in backquotes through translation, without and with setting
them aside from the search (runtime/set_aside.py; both with the rest of `--replace-unk`).

    python -m benchmarks.set_aside [--data ../shared/data] [--out FILE]

The sentences of our own in tests/fixtures/pass-through/: `dev-LANG.txt` (what the choice was made
on) and `LANG.txt` (the test set of tests/test_pass_through.py), translated by the installed models
in the four directions, same run. Counted: the source's tokens (tests/test_pass_through.py's
VERBATIM, backquotes included) that the output holds as they were, the outputs that differ, and
the sentences whose placeholders the model did not write exactly once each (dropped or repeated:
put in or taken out after the search).
Every pair is listed for reading, the tokens' sentences only. With `--data`, the rows of the dev
files of `en-de` and `en-fr` there whose source and reference both hold such a token, translated
both ways and scored against the references (chrF, BLEU), before and after.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import sacrebleu

import attn.runtime as attn
from attn.runtime import texts
from attn.runtime.set_aside import SET_ASIDE, SetAside, set_aside
from attn.runtime.tsv import read_tsv
from benchmarks.report import command_line, finish, table
from tests.test_pass_through import DIRECTIONS, FIXTURES, VERBATIM, tokens


def translated(translator, sources: list[str], source: str, target: str, aside: bool) -> list[str]:
    """The outputs, with tokens set aside or (`aside` False) read by the model as they are."""
    chosen = texts.set_aside
    if not aside:
        texts.set_aside = lambda sentence, *languages: SetAside(sentence, {})
    try:
        return [result.text for result in translator.translate(sources, source, target)]
    finally:
        texts.set_aside = chosen


def faults(translator, sources: list[str], source: str, target: str) -> str:
    """ "F of N": of the N sentences with a token, the F whose placeholders the model did not write
    exactly once each (read from its output for the placeholder text, nothing repaired)."""
    asides = [aside for aside in (set_aside(line, source) for line in sources) if aside.tokens]
    outputs = translator.translate([aside.text for aside in asides], source, target, replace_unk=False)
    wrong = sum(
        any(result.text.count(placeholder) != 1 for placeholder in aside.tokens)
        for aside, result in zip(asides, outputs)
    )
    return f"{wrong} of {len(asides)}"


def kept(sources: list[str], outputs: list[str]) -> tuple[int, int]:
    """(tokens the outputs hold as they were, tokens) over the lines."""
    found = [(token in output) for line, output in zip(sources, outputs) for token in tokens(VERBATIM, line)]
    return sum(found), len(found)


def scored(translator, data: Path) -> list[list]:
    """[direction, rows, chrF / BLEU before, after, placeholder faults] on the dev rows of `data`
    holding a token."""
    rows = []
    for pair in ("en-de", "en-fr"):
        found = [
            row
            for path in sorted((data / pair).glob("*dev*.tsv.gz"))
            for row in read_tsv(path)
            if SET_ASIDE.search(row.source) and SET_ASIDE.search(row.target)
        ]
        first, second = pair.split("-")
        for source, target, swap in ((first, second, False), (second, first, True)):
            sources = [row.target if swap else row.source for row in found]
            references = [row.source if swap else row.target for row in found]
            scores = []
            for aside in (False, True):
                outputs = translated(translator, sources, source, target, aside)
                chrf = sacrebleu.corpus_chrf(outputs, [references]).score
                scores.append(f"{chrf:.2f} / {sacrebleu.corpus_bleu(outputs, [references]).score:.2f}")
            rows.append([f"{source}→{target}", len(found), *scores, faults(translator, sources, source, target)])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="../shared/data: score its dev rows too")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    rows, pairs = [], []
    for split in ("dev-", ""):
        for source, target in DIRECTIONS:
            sources = (FIXTURES / f"{split}{source}.txt").read_text(encoding="utf-8").splitlines()
            before, after = (translated(translator, sources, source, target, aside) for aside in (False, True))
            changed = sum(one != other for one, other in zip(before, after))
            rows.append(
                [
                    f"{split or 'test-'}{source}.txt",
                    f"{source}→{target}",
                    "{} of {}".format(*kept(sources, before)),
                    "{} of {}".format(*kept(sources, after)),
                    f"{changed} of {len(sources)}",
                    faults(translator, sources, source, target),
                ]
            )
            pairs += [
                f"- `{split or 'test-'}{source}` → {target}: {line}<br>before: {one}<br>after: {other}"
                for line, one, other in zip(sources, before, after)
                if one != other
            ]
    lines = [
        command_line(),
        "",
        "The installed models at their default search; tokens read as they are (before) and set aside (after).",
        "",
        table(["file", "direction", "tokens kept, before", "after", "outputs changed", "placeholders not once"], rows),
        "",
        *(
            [
                f"Dev rows of {args.data} whose source and reference hold such a token, chrF / BLEU:",
                "",
                table(["direction", "rows", "before", "after", "placeholders not once"], scored(translator, args.data)),
                "",
            ]
            if args.data
            else []
        ),
        "The outputs that changed:",
        "",
        *pairs,
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
