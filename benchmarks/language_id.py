"""Which language-identification package `--from auto` uses: three maintained PyPI packages on
the test splits' texts, whose language is known (English sources, German and French targets).

    python benchmarks/language_id.py ../shared/data --out benchmarks/studies/LANGUAGE-ID.md

Each detector chooses among the languages attn has models for (en, de, fr), as the runtime asks
it to. Accuracy overall, per language, and on short texts (at most 3 words: menu items, titles,
dictionary phrases); time for all texts; import time and size on disk decide between equals.

Then the runtime's own rule for text in a language no installed model reads, with en and de
installed: at each threshold of the open-set check, the English and German texts it would wrongly
refuse and the French texts it catches.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from report import command_line, finish

from attn.runtime.language_id import OTHER_LANGUAGE_PROBABILITY, detect_language
from attn.runtime.tsv import read_tsv

LANGUAGES = ("en", "de", "fr")
INSTALLED = ("en", "de")  # as shipped: French text is in a language no installed model reads
THRESHOLDS = (0.5, 0.8, 0.9, 0.95)
NEIGHBOURS = ("El archivo no se pudo abrir.",)  # a language the identifier splits among its neighbours


def py3langid_detector() -> Callable[[str], str]:
    identifier = open_set_identifier()
    identifier.set_languages(list(LANGUAGES))
    return lambda text: identifier.classify(text)[0]


def lingua_detector() -> Callable[[str], str]:
    from lingua import Language, LanguageDetectorBuilder

    codes = {Language.ENGLISH: "en", Language.GERMAN: "de", Language.FRENCH: "fr"}
    detector = LanguageDetectorBuilder.from_languages(*codes).build()
    return lambda text: codes.get(detector.detect_language_of(text), "en")


def langdetect_detector() -> Callable[[str], str]:
    from langdetect import DetectorFactory, detect_langs
    from langdetect.lang_detect_exception import LangDetectException

    DetectorFactory.seed = 0

    def detect(text: str) -> str:
        try:
            return next((c.lang for c in detect_langs(text) if c.lang in LANGUAGES), "en")
        except LangDetectException:
            return "en"

    return detect


DETECTORS = {"py3langid": py3langid_detector, "lingua": lingua_detector, "langdetect": langdetect_detector}


def labelled_texts(data: Path) -> list[tuple[str, str]]:
    """(text, language) of every test split: sources are English, targets German or French."""
    texts = []
    for folder, target in (("en-de", "de"), ("en-fr", "fr")):
        for name in ("test.tsv.gz", "l10n-test.tsv.gz"):
            for row in read_tsv(data / folder / name):
                texts += [(row.source, "en"), (row.target, target)]
    return [(text, language) for text, language in texts if text.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="../shared/data")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    texts = labelled_texts(args.data)
    lines = [
        command_line(),
        "",
        f"{len(texts)} texts of the en-de and en-fr test splits (old and l10n), each detector choosing among "
        f"{', '.join(LANGUAGES)}.",
        "",
        "| detector | accuracy | en | de | fr | texts of ≤ 3 words | seconds, all texts | import + load, s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, make in DETECTORS.items():
        start = time.perf_counter()
        detect = make()
        loading = time.perf_counter() - start
        start = time.perf_counter()
        guesses = [detect(text) for text, _ in texts]
        seconds = time.perf_counter() - start
        right, total = defaultdict(int), defaultdict(int)
        for (text, language), guess in zip(texts, guesses):
            for group in ("all", language, *(["short"] if len(text.split()) <= 3 else [])):
                total[group] += 1
                right[group] += guess == language
        share = {group: right[group] / total[group] for group in total}
        lines.append(
            f"| {name} | {share['all']:.2%} | {share['en']:.2%} | {share['de']:.2%} | {share['fr']:.2%} | "
            f"{share['short']:.2%} ({total['short']}) | {seconds:.1f} | {loading:.2f} |"
        )
        print(lines[-1], flush=True)
    lines += ["", *other_language_table(texts)]
    finish(lines, args.out)


def other_language_table(texts: list[tuple[str, str]]) -> list[str]:
    """Markdown rows: what `detect_language(text, INSTALLED, threshold)` names outside INSTALLED;
    then the texts the runtime's threshold misses, and the open-set ranking of NEIGHBOURS."""
    lines = [
        f"With only {' and '.join(INSTALLED)} installed, `detect_language` reports another language when the "
        "identifier, choosing among all it knows, names one outside them with at least the threshold's "
        f"probability (the runtime uses {OTHER_LANGUAGE_PROBABILITY}):",
        "",
        "| threshold | English texts refused | German texts refused | French texts caught | of them ≤ 3 words |",
        "|---|---|---|---|---|",
    ]
    others = [text for text, language in texts if language not in INSTALLED]
    summary = ""
    for threshold in THRESHOLDS:
        outside, total, short, missed = defaultdict(int), defaultdict(int), 0, []
        for text, language in texts:
            caught = detect_language(text, INSTALLED, threshold)[0] not in INSTALLED
            total[language] += 1
            outside[language] += caught
            short += caught and language not in INSTALLED and len(text.split()) <= 3
            if not caught and language not in INSTALLED and threshold == OTHER_LANGUAGE_PROBABILITY:
                missed.append(text)
        share = {language: f"{outside[language] / total[language]:.2%} ({outside[language]})" for language in total}
        lines.append(f"| {threshold} | {share['en']} | {share['de']} | {share['fr']} | {short} |")
        print(lines[-1], flush=True)
        if missed:
            summary = (
                f"At {threshold}: {len(missed)} French texts missed, median {median_words(missed)} words (all "
                f"French texts: {median_words(others)}), {sum(len(t.split()) <= 3 for t in missed)} of 3 words or "
                f"fewer; the first five: {'; '.join(repr(t) for t in missed[:5])}."
            )
    identifier = open_set_identifier()
    ranked = [
        f"`{text}`: " + ", ".join(f"{code} {p:.2f}" for code, p in identifier.rank(text)[:3]) for text in NEIGHBOURS
    ]
    return [*lines, "", summary, "", "Open-set ranking (top 3): " + "; ".join(ranked) + "."]


def median_words(texts: list[str]) -> float:
    return statistics.median(len(text.split()) for text in texts)


def open_set_identifier():
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)


if __name__ == "__main__":
    main()
