"""Named format placeholders ("{user}", "{0}", "%(name)s") through translation, without and with
the repair of runtime/verbatim.py (`kept_placeholders`, part of `--replace-unk`).

    python -m benchmarks.named_placeholders [--out docs/studies/PLACEHOLDERS-NAMED.md]

Each line of tests/fixtures/pass-through/placeholders-LANG.txt (sentences of our own, as software
messages have them) translated by the installed models in the four directions, with the repairs
off and on, same run; counted: the source's placeholders the output holds, the ones it lost, and
the output's placeholders the source lacks (translated: "{Benutzer}" for "{user}").
"""

from __future__ import annotations

from pathlib import Path

import attn.runtime as attn
from attn.runtime.verbatim import PLACEHOLDER
from benchmarks.report import command_line, finish, out_arguments, table

FIXTURES = Path(__file__).parent.parent / "tests" / "fixtures" / "pass-through"
DIRECTIONS = [("en", "de"), ("en", "fr"), ("de", "en"), ("fr", "en")]


def counted(sources: list[str], outputs: list[str]) -> tuple[int, int, int]:
    """(kept, lost, translated) placeholders over the lines."""
    kept = lost = translated = 0
    for source, output in zip(sources, outputs):
        given, written = PLACEHOLDER.findall(source), PLACEHOLDER.findall(output)
        kept += sum(found in written for found in given)
        lost += sum(found not in written for found in given)
        translated += sum(found not in given for found in written)
    return kept, lost, translated


def main() -> None:
    args = out_arguments(__doc__.splitlines()[0])
    translator = attn.load(notify=lambda note: None)
    rows = []
    for source, target in DIRECTIONS:
        sources = (FIXTURES / f"placeholders-{source}.txt").read_text(encoding="utf-8").splitlines()
        for repaired in (False, True):
            outputs = [result.text for result in translator.translate(sources, source, target, replace_unk=repaired)]
            kept, lost, translated = counted(sources, outputs)
            rows.append([f"{source}→{target}", "on" if repaired else "off", f"{kept} of {kept + lost}", translated])
    lines = [
        command_line(),
        "",
        "The installed models at their default search; the repairs (`--replace-unk`) off and on.",
        "",
        table(["direction", "repairs", "placeholders kept", "placeholders translated"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
