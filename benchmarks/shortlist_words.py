"""Does a model's shortlist make words its whole-vocabulary search would not? Each file is
translated twice with the model's default search, with and without `--shortlist`; printed per
file: BLEU of each, how many outputs differ, and the words of the shortlisted outputs that the same
sentence's whole-vocabulary output lacks and that no training target holds (made-up words).

    python benchmarks/shortlist_words.py models/en-de ../shared/data/en-de/{tatoeba-dev,chat-dev,dev}.tsv.gz \\
        --train ../shared/data/en-de/{train,l10n-train,tatoeba-train,chat-train}.tsv.gz [--swap-columns]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

import sacrebleu

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tsv import read_tsv

WORD = re.compile(r"\w+")


def words(text: str) -> set[str]:
    return set(WORD.findall(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--train", nargs="+", required=True, help="the training files: their targets' words are known")
    parser.add_argument("--swap-columns", action="store_true")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    known = {word for path in args.train for row in read_tsv(path, args.swap_columns) for word in words(row.target)}
    translator = LoadedModel(args.folder, threads=args.threads)
    print(f"{args.folder}: {len(known)} distinct words in the training targets")
    for path in args.files:
        rows = read_tsv(path, args.swap_columns)
        texts, references = [row.source for row in rows], [row.target for row in rows]
        outputs = {
            shortlist: [
                result[0].text
                for result in translator.translate(texts, translator.default_options(shortlist=shortlist), 32)
            ]
            for shortlist in (True, False)
        }
        differ = [(short, whole) for short, whole in zip(outputs[True], outputs[False]) if short != whole]
        new = Counter(word for short, whole in differ for word in words(short) - words(whole))
        made_up = Counter({word: count for word, count in new.items() if word not in known})
        bleu = {shortlist: sacrebleu.corpus_bleu(outputs[shortlist], [references]).score for shortlist in (True, False)}
        print(
            f"{path}: {len(rows)} sentences, {len(differ)} differ; BLEU {bleu[True]:.2f} with the shortlist, "
            f"{bleu[False]:.2f} without; {sum(new.values())} words only in the shortlisted output, "
            f"{sum(made_up.values())} of them in no training target ({len(made_up)} kinds): "
            f"{', '.join(word for word, _ in made_up.most_common(12))}"
        )


if __name__ == "__main__":
    main()
