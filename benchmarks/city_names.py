"""Major cities (export/place_names.py CITIES, in runtime/place_names.tsv) read as the target names
them and, into French, the word before them (runtime/country_articles.py), on and off: the dev rows
whose source names a city that the target writes otherwise, translated by the installed models with
the table as it is and without its cities (the same process; the runtime's caches of the table
cleared between); a city is right when the target's name is in the translation.

    python -m benchmarks.city_names [--files news-dev] [--data ../shared/data] [--out FILE]
"""

from __future__ import annotations

import argparse
import re
from contextlib import contextmanager, nullcontext
from pathlib import Path
from unittest import mock

import sacrebleu

import attn.runtime as attn
from attn.runtime import country_articles, place_names
from benchmarks.report import DIRECTIONS, command_line, data_option, dev_rows, finish, table

CACHED = (
    place_names.places_read,
    place_names.known_places,
    country_articles.country_classes,
    country_articles.longest_name,
)


@contextmanager
def without_cities():
    """The runtime reading the table without its cities."""
    every = place_names.place_names()
    kept = {
        language: {code: names for code, names in codes.items() if not code.startswith(place_names.CITY)}
        for language, codes in every.items()
    }
    for cached in CACHED:
        cached.cache_clear()
    with (
        mock.patch.object(place_names, "place_names", lambda: kept),
        mock.patch.object(country_articles, "place_names", lambda: kept),
    ):
        yield
    for cached in CACHED:
        cached.cache_clear()


def named(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", nargs="+", default=["news-dev"])
    data_option(parser)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    translator = attn.load(notify=lambda note: None)
    codes = [code for code in place_names.place_names()["en"] if code.startswith(place_names.CITY)]
    rows = []
    for pair, source, target, swap in DIRECTIONS:
        pairs = [
            (place_names.place_names()[source][code][0], place_names.place_names()[target][code][0]) for code in codes
        ]
        differing = [(own, other) for own, other in pairs if own != other]
        found = []
        for row in dev_rows(args.data, pair, args.files, swap):
            wanted = [other for own, other in differing if named(row.source, own)]
            if wanted:
                found.append((row, wanted))
        if not found:
            continue
        references = [[row.target for row, _ in found]]
        for label, reading in (
            ("without the cities", without_cities()),
            ("with them", nullcontext()),
        ):
            with reading:
                outputs = [
                    result.text for result in translator.translate([row.source for row, _ in found], source, target)
                ]
            right = sum(all(named(output, name) for name in wanted) for output, (_, wanted) in zip(outputs, found))
            rows.append(
                [
                    f"{source}→{target}",
                    label,
                    len(found),
                    f"{right} of {len(found)}",
                    f"{sacrebleu.corpus_bleu(outputs, references).score:.2f}",
                    f"{sacrebleu.corpus_chrf(outputs, references).score:.2f}",
                ]
            )
    lines = [
        command_line(),
        "",
        f"Rows ({', '.join(args.files)}) whose source names a city of the table ({len(codes)}) that the target writes "
        "otherwise; the installed models' default search.",
        "",
        table(["direction", "cities", "rows", "city right", "BLEU", "chrF"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
