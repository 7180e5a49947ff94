"""Source words a translation left untranslated, searched again with a word check
(runtime/untranslated.py), against the same models without that second search.

On rows of a dev file, each direction whose model lists its training words of both languages
(words.LANGUAGE.txt), the installed models' default search as `attn translate` gives it: corpus
BLEU and chrF (sacreBLEU), the rows whose translation holds a word left untranslated (a source
word the model's training data holds in the source language and not in the target) and how many
such words, the sentences searched again (each one more search: the rule's cost), the rows that
differ, and the first changed rows of each direction.

    python -m benchmarks.untranslated_words [--file news-dev] [--rows 600] [--show 2] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import attn.runtime as attn
from attn.runtime.untranslated import left_untranslated, untranslatable
from benchmarks.report import (
    DIRECTIONS,
    changes_shown,
    command_line,
    dev_file_arguments,
    dev_rows,
    finish,
    installed_model,
    searched_again,
    second_search_row,
    table,
)


def main() -> None:
    args = dev_file_arguments(__doc__.splitlines()[0], "changed translations listed per direction")
    translator = attn.load(notify=lambda note: None)
    table_rows, shown = [], []
    for pair, source, target, swap in DIRECTIONS:
        model = installed_model(source, target)
        source_words, target_words = model.language_words(source), model.language_words(target)
        rows = dev_rows(args.data, pair, [args.file], swap, args.rows)
        if source_words is None or target_words is None or not rows:
            continue  # the model lists no words of one of its languages, or no such file
        sources, references = [row.source for row in rows], [row.target for row in rows]
        words = [untranslatable(sentence, source, source_words, target_words) for sentence in sources]
        before, _ = searched_again(translator, sources, source, target, "words_copied", rule=False)
        after, again = searched_again(translator, sources, source, target, "words_copied", rule=True)
        for name, outputs in (("without", before), ("searched again", after)):
            left = [left_untranslated(output, found) for output, found in zip(outputs, words)]
            cells = [f"{source}→{target}", name, len(rows), sum(map(bool, left)), sum(map(len, left))]
            table_rows.append(second_search_row(cells, outputs, before, after, again, references))
        shown += changes_shown(sources, before, after, f"{source}→{target}", args.show)
    header = ["direction", "words left untranslated", "rows", "rows holding one", "words"]
    header += ["searched again", "changed", "BLEU", "chrF"]
    finish([command_line(), "", table(header, table_rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
