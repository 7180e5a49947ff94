"""Corpus scores for `attn eval`: BLEU and chrF for translations (sacrebleu), ROUGE F1 and the
share of outputs repeating a word 3-gram for summaries (rouge-score, Porter stemming as is usual)."""

from __future__ import annotations

REPEATED_NGRAM = 3


def translation_scores(hypotheses: list[str], references: list[str]) -> dict[str, float]:
    import sacrebleu

    return {"bleu": round(sacrebleu.corpus_bleu(hypotheses, [references]).score, 2),
            "chrf": round(sacrebleu.corpus_chrf(hypotheses, [references]).score, 2)}


def summary_scores(hypotheses: list[str], references: list[str]) -> dict[str, float]:
    """Mean ROUGE-1/2/L F1 (× 100), mean length in words, and the % of outputs repeating a 3-gram."""
    from rouge_score.rouge_scorer import RougeScorer

    names = ("rouge1", "rouge2", "rougeL")
    scorer = RougeScorer(list(names), use_stemmer=True)
    totals = dict.fromkeys(names, 0.0)
    for hypothesis, reference in zip(hypotheses, references):
        scores = scorer.score(reference, hypothesis)
        for name in names:
            totals[name] += scores[name].fmeasure
    count = max(len(hypotheses), 1)
    return {**{name: round(100 * total / count, 2) for name, total in totals.items()},
            "words": round(sum(len(h.split()) for h in hypotheses) / count, 2),
            "repeats_3gram": round(100 * sum(map(repeats_ngram, hypotheses)) / count, 2)}


def repeats_ngram(text: str, n: int = REPEATED_NGRAM) -> bool:
    """Whether some word n-gram (case-folded) occurs twice in `text`."""
    words = text.lower().split()
    grams = [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]
    return len(set(grams)) < len(grams)


def metric_columns(task: str) -> list[tuple[str, str]]:
    """(key, column title) of the scores of a task, in table order."""
    if task == "summarize":
        return [("rouge1", "ROUGE-1"), ("rouge2", "ROUGE-2"), ("rougeL", "ROUGE-L"), ("words", "words"),
                ("repeats_3gram", "% repeat 3-gram")]
    return [("bleu", "BLEU"), ("chrf", "chrF")]
