"""Would `--from auto` do better leaning towards the target language when the detector is unsure?
On the en-de and en-fr test splits' texts (each column's language known), py3langid choosing among
en, de and fr: how many of its mistakes the lean would fix, and how many right detections it would
break (a German or French line then passed through untranslated), at each margin (the lean takes
the target when the likeliest language beats it by less than the margin).

    python -m benchmarks.language_id_lean ../shared/data --target en
"""

from __future__ import annotations

import argparse
from pathlib import Path

from attn.runtime.language_id import DETECTED_CHARS, _identifier
from attn.runtime.tsv import read_tsv

FILES = ("test", "l10n-test")
MARGINS = (0.0, 0.1, 0.2, 0.4, 0.6, 0.8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="the shared data folder (en-de/, en-fr/)")
    parser.add_argument("--target", default="en")
    args = parser.parse_args()
    identifier, _ = _identifier()
    identifier.set_languages(["de", "en", "fr"])
    ranked = []  # (language, {language: probability})
    for pair in ("en-de", "en-fr"):
        other = pair.split("-")[1]
        for name in FILES:
            for row in read_tsv(args.data / pair / f"{name}.tsv.gz"):
                for text, language in ((row.source, "en"), (row.target, other)):
                    ranked.append((language, dict(identifier.rank(text[:DETECTED_CHARS]))))
    wrong = sum(max(scores, key=scores.get) != language for language, scores in ranked)
    print(f"{len(ranked)} texts; py3langid wrong on {wrong}; lean towards {args.target}:")
    print("| margin | mistakes fixed | right detections broken |")
    print("|---|---|---|")
    for margin in MARGINS:
        fixed = broken = 0
        for language, scores in ranked:
            top = max(scores, key=scores.get)
            chosen = args.target if top != args.target and scores[top] - scores[args.target] < margin else top
            fixed += top != language and chosen == language
            broken += top == language and chosen != language
        print(f"| {margin} | {fixed} | {broken} |")


if __name__ == "__main__":
    main()
