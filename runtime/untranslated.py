"""Source words a translation left as they were, searched again in the target's words.

A model that cannot translate a word copies it: on news-dev, 310 of the first 1,000 en→fr
translations held an English word ("Il travaillait à la bakery", "20% de voters"), and 284 of
1,000 fr→en ones a French word ("the vitamine D", "the progrès of research"). Such a word is one
of the source's that the model's training data holds in the source language and never in the target
(its folder's words.LANGUAGE.txt, `attn language-words`): a word the model learned to write in both
languages alike is none, nor is one it never learned (in neither list), nor a name within a
sentence. A translation that holds one is searched again with a word check (runtime/word_check.py
`for_translations`): each word it writes is one of the target language's training words, or one of
the sentence's own that is not left untranslated so (a name, a number). The second translation is
taken where it leaves fewer such words untranslated, keeps the sentence's names and makes up none,
is not shorter by more than a word and leaves out no more source words (better_translated).
Chosen on news-dev rows 1–1,000 (docs/studies/UNTRANSLATED-WORDS.md).
"""

from __future__ import annotations

from .person_names import names_after_given_names
from .unlearned_names import CAPITALIZED_NAMES, LETTERS, left_out, names_kept, opens_sentence, training_words

MIN_LETTERS = 3  # shorter words ("on", "de") are the same word in many languages
SHORTER_BY = 1  # a retry may write one word fewer than the first; two fewer had dropped content


def untranslatable(
    sentence: str, language: str, source_words: frozenset[str], target_words: frozenset[str]
) -> frozenset[str]:
    """The words of `sentence` (of `language`; runs of letters, lower-cased, of MIN_LETTERS or more)
    that the model's training data holds in the source language (`source_words`) but not in the
    target (`target_words`): copied into a translation, each is a word left untranslated. A name
    (names_within, persons_named) is none: one the target writes otherwise ("Egypt" for "Égypte") is
    better copied than spelled anew ("Eg typographique", "T ajuster" for Tajikistan)."""
    named = [*names_within(sentence, language), *persons_named(sentence, language)]
    names = {run.lower() for name in named for run in LETTERS.findall(name)}
    return frozenset(
        word
        for word in training_words(sentence)
        if len(word) >= MIN_LETTERS and word in source_words and word not in target_words and word not in names
    )


def names_within(sentence: str, language: str) -> list[str]:
    """The runs of letters of `sentence` that open with a capital within it (not its first word), in
    a language that writes a word so only for a name (CAPITALIZED_NAMES); none in another."""
    if language not in CAPITALIZED_NAMES:
        return []
    return [
        run.group()
        for run in LETTERS.finditer(sentence)
        if run.group()[0].isupper() and not opens_sentence(sentence, run.start(), language)
    ]


def persons_named(sentence: str, language: str) -> list[str]:
    """The persons' names of `sentence` after a given name of runtime/person_names.tsv, the first
    word's too ("Isabelle Meunier a appelé hier." had come back "She Meunier called yesterday.")."""
    return [sentence[name.start : name.end] for name in names_after_given_names(sentence, language, None)]


def left_untranslated(translation: str, words: frozenset[str]) -> list[str]:
    """The words of `translation` (runs of letters, in order, each time) that are among `words`
    (untranslatable: a sentence's words the target language's training data lacks)."""
    return [word for word in (run.lower() for run in LETTERS.findall(translation)) if word in words]


def better_translated(words: frozenset[str], sentence: str, languages: tuple[str, str], again, first) -> bool:
    """Whether `again`, the translation of `sentence` (of `languages`: source, target) searched
    again with `words` (its untranslatable ones) checked, leaves fewer of them untranslated than
    `first`, keeps as many of the sentence's names (names_within, persons_named: "Gérald Tremblay" had come back
    "Gérald Tre assemblage"), makes up no name that neither the sentence nor `first` holds ("a
    strong ha Russia" for "une forte hausse"), writes at most SHORTER_BY words fewer and leaves out
    no more source words (left_out): "these should be avoided" and "no such discrepancies" had gone
    from retries whose attention did not show it. Each has `text` and `alignment`."""
    if len(left_untranslated(again.text, words)) >= len(left_untranslated(first.text, words)):
        return False
    source, target = languages
    names = [*names_within(sentence, source), *persons_named(sentence, source)]
    if names_kept(names, again.text) < names_kept(names, first.text):
        return False
    if any(name not in sentence and name not in first.text for name in names_within(again.text, target)):
        return False
    if len(again.alignment.target_words) < len(first.alignment.target_words) - SHORTER_BY:
        return False
    return left_out(again.alignment) <= left_out(first.alignment)
