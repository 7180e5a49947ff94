"""Corpus scores for `attn eval`: BLEU and chrF for translations (sacrebleu), ROUGE F1 and the
share of outputs repeating a word 3-gram for summaries (rouge-score, Porter stemming as is usual)."""

from __future__ import annotations

REPEATED_NGRAM = 3


def translation_scores(hypotheses: list[str], references: list[str]) -> dict[str, float]:
    import sacrebleu

    return {
        "bleu": round(sacrebleu.corpus_bleu(hypotheses, [references]).score, 2),
        "chrf": round(sacrebleu.corpus_chrf(hypotheses, [references]).score, 2),
    }


PAIRED_RESAMPLES = 1_000  # sacrebleu's default for paired bootstrap resampling


def paired_p_values(baseline: list[str], others: list[list[str]], references: list[str]) -> list[dict[str, float]]:
    """For each system of `others` (outputs for the same rows as `baseline`), the p-values of its BLEU
    and chrF differences from `baseline`: sacrebleu's paired bootstrap resampling (Koehn 2004;
    PAIRED_RESAMPLES resamples of the rows, sacrebleu's fixed seed, so a rerun gives the same p). A
    small p says the difference is unlikely to be chance on rows like these. An equal score gets
    p 1: sacrebleu counts only resamples that differ strictly more than observed, so two identical
    outputs would read as significant. (Its approximate randomization test counts the same way;
    where a single row differs, every shuffle ties the observed difference and it reports the
    smallest p: hence the bootstrap.)"""
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    systems = [("baseline", baseline)] + [(f"system {number}", outputs) for number, outputs in enumerate(others, 1)]
    _, results = PairedTest(
        systems, {"bleu": BLEU(), "chrf": CHRF()}, [references], test_type="bs", n_samples=PAIRED_RESAMPLES
    )()
    bleu, chrf = (key for key in results if key != "System")  # sacrebleu's names: "BLEU", "chrF2"

    def p_value(metric: str, i: int) -> float:
        system, base = results[metric][i], results[metric][0]
        return 1.0 if system.score == base.score else round(system.p_value, 4)

    return [{"bleu": p_value(bleu, i), "chrf": p_value(chrf, i)} for i in range(1, len(systems))]


def summary_scores(hypotheses: list[str], references: list[str], measure: str = "fmeasure") -> dict[str, float]:
    """Mean ROUGE-1/2/L F1 (× 100; `measure` "recall" or "precision" for those instead), mean
    length in words, and the % of outputs repeating a 3-gram."""
    from rouge_score.rouge_scorer import RougeScorer

    names = ("rouge1", "rouge2", "rougeL")
    scorer = RougeScorer(list(names), use_stemmer=True)
    totals = dict.fromkeys(names, 0.0)
    for hypothesis, reference in zip(hypotheses, references):
        scores = scorer.score(reference, hypothesis)
        for name in names:
            totals[name] += getattr(scores[name], measure)
    count = max(len(hypotheses), 1)
    return {
        **{name: round(100 * total / count, 2) for name, total in totals.items()},
        "words": round(sum(len(h.split()) for h in hypotheses) / count, 2),
        "repeats_3gram": round(100 * sum(map(repeats_ngram, hypotheses)) / count, 2),
    }


def repeats_ngram(text: str, n: int = REPEATED_NGRAM) -> bool:
    """Whether some word n-gram (case-folded) occurs twice in `text`."""
    words = text.lower().split()
    grams = [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]
    return len(set(grams)) < len(grams)


def metric_columns(task: str) -> list[tuple[str, str]]:
    """(key, column title) of the scores of a task, in table order."""
    if task == "summarize":
        return [
            ("rouge1", "ROUGE-1"),
            ("rouge2", "ROUGE-2"),
            ("rougeL", "ROUGE-L"),
            ("words", "words"),
            ("repeats_3gram", "% repeat 3-gram"),
        ]
    return [("bleu", "BLEU"), ("chrf", "chrF")]
