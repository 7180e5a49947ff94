"""German ↔ French through English (runtime/router.py: two hops, the second translating the first's
best output), scored on news: newstest2013 (`news-dev`) is one set of sentences in every language,
so the German side of en-de/news-dev.tsv.gz and the French side of en-fr/news-dev.tsv.gz, row by
row, are a German–French test. The installed models' default search; BLEU and chrF.

    python -m benchmarks.through_english [--rows 1000] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import attn.runtime as attn
from benchmarks.report import bleu_and_chrf, command_line, data_option, dev_rows, finish, table


def news_in(data: Path, pair: str) -> list[str]:
    """The foreign side of `pair`'s news-dev, row by row."""
    return [row.target for row in dev_rows(data, pair, ["news-dev"], swap=False)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_option(parser)
    parser.add_argument("--rows", type=int, default=1000, help="the first rows of news-dev")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    german, french = (news_in(args.data, pair)[: args.rows] for pair in ("en-de", "en-fr"))
    translator = attn.load(notify=lambda note: None)
    rows = []
    for (source, sources), (target, references) in [(("de", german), ("fr", french)), (("fr", french), ("de", german))]:
        outputs = [result.text for result in translator.translate(sources, source, target)]
        rows.append([f"{source}→{target}", len(sources), *bleu_and_chrf(outputs, references)])
    lines = [
        command_line(),
        "",
        f"German ↔ French through English on the first {args.rows:,} rows of newstest2013 (news-dev of each pair);"
        " the installed models' default search.",
        "",
        table(["direction", "rows", "BLEU", "chrF"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
