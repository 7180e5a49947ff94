"""Words joined by slashes ("and/or", "audio/video", "person/night") translated, against put back
as written: runtime/verbatim.py `looks_verbatim` (such a word is one to copy only where one of its
words is) and the rule it replaced (any word with a slash is one to copy: the model's "und/oder"
had been repaired into "and/or"). On the rows of every dev file whose source holds such a word,
the installed models' default search: corpus BLEU and chrF (sacreBLEU), the rows that differ.

    python -m benchmarks.slashed_words [--show 3] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import re
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime import verbatim
from benchmarks.report import (
    DEV_FILES,
    changes_shown,
    command_line,
    dev_rows_on_and_off,
    dev_set_arguments,
    finish,
    table,
)

SLASHED = re.compile(rf"(?<![\w/.:-]){verbatim.WORDS_JOINED.pattern}(?![\w/])")


def main() -> None:
    args = dev_set_arguments(__doc__.splitlines()[0], "changed translations listed per direction")
    translator = attn.load(notify=lambda note: None)
    rows, shown = [], []

    def copied_before():
        return mock.patch.object(verbatim, "looks_verbatim", lambda word: bool(verbatim.VERBATIM.search(word)))

    found = dev_rows_on_and_off(translator, args.data, DEV_FILES, SLASHED.search, copied_before)
    for source, target, sources, references, translated, copied in found:
        for name, outputs in (("copied", copied), ("translated", translated)):
            bleu, chrf = sacrebleu.corpus_bleu(outputs, [references]), sacrebleu.corpus_chrf(outputs, [references])
            changed = sum(a != b for a, b in zip(copied, translated)) if outputs is translated else ""
            rows.append([f"{source}→{target}", name, len(sources), changed, f"{bleu.score:.2f}", f"{chrf.score:.2f}"])
        shown += changes_shown(sources, copied, translated, f"{source}→{target}", args.show)
    header = ["direction", "words joined by slashes", "rows", "changed", "BLEU", "chrF"]
    finish([command_line(), "", table(header, rows), *([""] + shown if shown else [])], args.out)


if __name__ == "__main__":
    main()
