"""The beam's translations ranked again by how well the model of the other direction gives back
their source (runtime/reverse_scores.py, `--reverse-weight`): for each weight, BLEU and chrF
against the references and the rows whose translation changed; and the time it costs.

    python -m benchmarks.reverse_rerank [--files news-dev dev tatoeba-dev] [--rows 1000] \
        [--weights 0 0.03 0.05 0.075 0.1 0.15 0.2] [--timed-weight 0.05] [--data ../shared/data] [--out FILE]

For each direction of the installed models and each file (its first `--rows` rows), the default
search's translations of each source that a single output is chosen from (those within
SCORE_MARGIN of the best, distinct texts, repairs and all: the runtime's own, its reranking off)
are scored once by the reverse model (ReverseScorer); each weight then ranks them with
ranked_with_reverse, weight 0 being the search's own choice. Unlike the runtime, no number choice
follows, and a row of several sentences has one translation to choose (the runtime ranks each
sentence's): `attn eval --reverse-weight` measures the runtime itself. The time: the first file's
rows translated by the default search without and with `--timed-weight`, alternating, twice each,
the faster of each (the ratio is the cost).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import sacrebleu

from attn.runtime.loaded_model import LoadedModel
from attn.runtime.number_choice import near_the_best
from attn.runtime.registry import resolve_model
from attn.runtime.reverse_scores import ranked_with_reverse
from attn.runtime.translation import TextOptions, Translation
from benchmarks.report import DIRECTIONS, command_line, cpu_name, data_option, dev_rows, finish, table

UNRANKED = TextOptions(reverse_weight=0.0)


def candidates(model: LoadedModel, sources: list[str]) -> list[list[Translation]]:
    """Each source's distinct translations a single output is chosen from (those scored within
    SCORE_MARGIN of the best), the best first."""
    options = model.default_options()
    found = model.translate(sources, model.default_options(n_best=options.beam), text_options=UNRANKED)
    return [near_the_best(sorted(f, key=lambda t: -t.score)) for f in found]


def chosen(found: list[list[Translation]], reverse: list[np.ndarray], weight: float) -> list[str]:
    """Each source's first translation once ranked with `weight` (`reverse`: each one's scores): the
    best of those near the search's best (ranked_with_reverse)."""
    return [ranked_with_reverse(f, back, weight)[0][0].text for f, back in zip(found, reverse)]


def seconds(model: LoadedModel, sources: list[str], weight: float) -> float:
    started = time.perf_counter()
    model.translate(sources, text_options=TextOptions(reverse_weight=weight))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", nargs="+", default=["news-dev", "dev", "tatoeba-dev"])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--weights", type=float, nargs="+", default=[0, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2])
    parser.add_argument("--timed-weight", type=float, default=0.05)
    data_option(parser)
    parser.add_argument("--out", type=Path)
    options = parser.parse_args()
    lines = [command_line(), "", f"{cpu_name()}, 2 threads; BLEU / chrF (sacreBLEU) and the rows changed."]
    header = ["direction", "file", "rows", *(f"weight {w:g}" for w in options.weights)]
    scores, speed, totals = [], [], np.zeros((len(options.weights), 2))
    for pair, source, target, swap in DIRECTIONS:
        model = LoadedModel(
            resolve_model(None, "translate", source, target), threads=2, source_lang=source, target_lang=target
        )
        for name in options.files:
            rows = dev_rows(options.data, pair, [name], swap, options.rows)
            if not rows:
                continue
            sources, references = [r.source for r in rows], [[r.target for r in rows]]
            found = candidates(model, sources)
            reverse = model.reverse_scorer.scores_of_lists([[t.text for t in f] for f in found], sources)
            cells, base = [], None
            for k, weight in enumerate(options.weights):
                picks = chosen(found, reverse, weight)
                measured = np.array(
                    [sacrebleu.corpus_bleu(picks, references).score, sacrebleu.corpus_chrf(picks, references).score]
                )
                base = measured if base is None else base
                totals[k] += measured - base
                changed = sum(p != f[0].text for p, f in zip(picks, found))
                cells.append(f"{measured[0]:.2f} / {measured[1]:.2f} ({changed})")
            scores.append([f"{source}→{target}", name, len(rows), *cells])
            if name == options.files[0]:
                model.translate(sources[:20], text_options=TextOptions(reverse_weight=options.timed_weight))  # loads
                plain = min(seconds(model, sources, 0.0) for _ in range(2))
                ranked = min(seconds(model, sources, options.timed_weight) for _ in range(2))
                speed.append(
                    [f"{source}→{target}", name, len(rows), f"{plain:.1f}", f"{ranked:.1f}", f"{ranked / plain:.2f}×"]
                )
    scores.append(["sum of the changes", "", "", *(f"{b:+.2f} / {c:+.2f}" for b, c in totals)])
    lines += ["", table(header, scores), "", f"Time (seconds, the faster of two; weight {options.timed_weight:g}):", ""]
    lines.append(table(["direction", "file", "rows", "weight 0", f"weight {options.timed_weight:g}", "ratio"], speed))
    finish(lines, options.out)


if __name__ == "__main__":
    main()
