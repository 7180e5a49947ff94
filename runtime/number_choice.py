"""Of a sentence's translations, the one that keeps its numbers and its negations.

Where the model loses its way it loses numbers or writes them again ("Zigaretten sind mit 85% der
Lungenkrebsfälle mit 85% der Lungenkrebsfälle verbunden."), and another hypothesis of the same
beam, scored a little lower, often has them right ("… zu einer Höhe von etwa 60km." against "… von
ca. 60km zu einer Höhe von rund 60km."). The best translation loses or repeats a source number in
one news-dev sentence of 32 (en→de) to 120 (fr→en); taking, within SCORE_MARGIN of its score, the
hypothesis with the fewest such faults takes out 20 to 30 % of them at an unchanged BLEU
(docs/studies/NUMBER-CHOICE.md, where the margin was chosen). A negation the translation drops
(runtime/negations.py) counts as such a fault too (docs/studies/NEGATIONS.md). Where a wider
beam holds no translation without the fault, a search made to write the negation or the number
(runtime/required_search.py) is taken only where it writes it in place: negation_kept, number_kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

from .alignment import answered_in_place
from .negations import negations_lost, negations_placed
from .verbatim import SOURCE_NUMBER, digits_of, lost_numbers

if TYPE_CHECKING:
    from .alignment import JoinedAlignment, WordAlignment

EDGE_PUNCTUATION = ".,;:!?\"'«»„“”()"
SCORE_MARGIN = 0.2  # of the final score (log-probability per length, search.final_score)
WIDER_BEAM = 2  # a sentence whose chosen translation has a fault is searched again with this many times the beam


class Scored(Protocol):
    text: str
    score: float


class Aligned(Scored, Protocol):
    alignment: WordAlignment | JoinedAlignment


def near_the_best(scored: list[Scored]) -> list[Scored]:
    """Of `scored` (best first), those within SCORE_MARGIN of the first's score: the translations a
    single output is chosen from (LoadedModel.search keeps only them when one is asked for)."""
    return [item for item in scored if item.score >= scored[0].score - SCORE_MARGIN] if scored else []


def repeated_numbers(source: str, translation: str) -> list[str]:
    """The numbers of `source` (their digits, digits_of) that `translation` writes more often than
    `source` does, thousands parted by spaces read as one number on either side ("10 000", as
    French writes 10,000, is not 10 and 0)."""
    given, written = (
        Counter(digits_of(number) for number in SOURCE_NUMBER.findall(text)) for text in (source, translation)
    )
    return [digits for digits, count in written.items() if digits and count > given[digits] > 0]


def number_faults(source: str, translation: str) -> int:
    """How many of `source`'s numbers `translation` loses (lost_numbers) or writes again."""
    return len(lost_numbers(source, translation)) + len(repeated_numbers(source, translation))


def faults(source: str, translation: str, languages: tuple[str, str] | None = None) -> int:
    """number_faults, and with `languages` (source, target) the negations `translation` drops."""
    dropped = negations_lost(source, languages[0], translation, languages[1]) if languages else 0
    return number_faults(source, translation) + dropped


def fewest_faults_first(
    source: str, translations: Iterator[Scored], languages: tuple[str, str] | None = None
) -> Iterator[Scored]:
    """`translations` of `source` (best score first) in the same order, but that the first is the
    one with the fewest faults (above) among those within SCORE_MARGIN of the best's score (the
    better scored of equals): the best itself when it has none. Read lazily: only a best
    translation with a fault has those after it read before it is given."""
    best = next(translations, None)
    if best is None:
        return
    if not faults(source, best.text, languages):
        yield best
        yield from translations
        return
    near = [best]
    for translation in translations:
        near.append(translation)
        if translation.score < best.score - SCORE_MARGIN:
            break
    chosen = min(
        (translation for translation in near if translation.score >= best.score - SCORE_MARGIN),
        key=lambda translation: faults(source, translation.text, languages),
    )
    yield chosen
    yield from (translation for translation in near if translation is not chosen)
    yield from translations


def fewer_faults(source: str, languages: tuple[str, str], again: Scored, first: Scored) -> bool:
    """Whether `again`, the translation of `source` chosen from a search with a wider beam (WIDER_BEAM),
    has fewer faults than `first`, the one chosen before, and is scored within SCORE_MARGIN of it."""
    fewer = faults(source, again.text, languages) < faults(source, first.text, languages)
    return fewer and again.score >= first.score - SCORE_MARGIN


def no_more_faults(source: str, languages: tuple[str, str], again: Scored, first: Scored) -> bool:
    """Whether `again`, a translation of `source` searched again for another reason (a word left
    untranslated), has no more faults than `first`, which a wider search may have chosen."""
    return faults(source, again.text, languages) <= faults(source, first.text, languages)


def repeated_word_pairs(text: str) -> int:
    """How many times `text` writes a pair of words (in small letters, without the punctuation at
    their edges) it wrote before."""
    words = [word for word in (raw.strip(EDGE_PUNCTUATION).lower() for raw in text.split()) if word]
    return sum(count - 1 for count in Counter(zip(words, words[1:])).values())


def kept_in_place(
    source: str,
    languages: tuple[str, str],
    again: Aligned,
    first: Aligned,
    placed: Callable[[WordAlignment | JoinedAlignment], int],
) -> bool:
    """Whether `again`, a translation of `source` from a search made to write what `first` left
    out, has fewer faults than `first`, more of it in place (`placed`, of an alignment), and repeats
    no more pairs of words (what such a search, going on until it writes it, tends to do)."""
    return (
        faults(source, again.text, languages) < faults(source, first.text, languages)
        and placed(again.alignment) > placed(first.alignment)
        and repeated_word_pairs(again.text) <= repeated_word_pairs(first.text)
    )


def negation_kept(source: str, languages: tuple[str, str], again: Aligned, first: Aligned) -> bool:
    """Whether `again`, the translation of `source` from a search made to write the negations
    `first` dropped (runtime/required_search.py), is taken instead: where it has fewer faults,
    more of the source's negations in place (negations_placed: a negation a search forced in
    elsewhere, "… in der Zukunft nicht zu testen.", is none), and repeats no more of its words
    (kept_in_place)."""
    return kept_in_place(source, languages, again, first, lambda alignment: negations_placed(alignment, languages))


def numbers_placed(alignment: WordAlignment | JoinedAlignment, numbers: list[str]) -> int:
    """How many of the source's words that write one of `numbers` a translation answers with a word
    that writes it (its digits) where the attention puts them (alignment.answered_in_place)."""
    wanted = {digits_of(number) for number in numbers}

    def writing(words: list[str]) -> list[int]:
        return [index for index, word in enumerate(words) if digits_of(word) in wanted]

    return answered_in_place(alignment, lambda words: [[index] for index in writing(words)], writing)


def number_kept(source: str, languages: tuple[str, str], again: Aligned, first: Aligned) -> bool:
    """Whether `again`, the translation of `source` from a search made to write the numbers `first`
    lost (runtime/required_search.py), is taken instead: where it has fewer faults, more of those
    numbers where the attention puts them (a number tacked on elsewhere, "… im Staat 2008
    vorgelegt.", is none), and repeats no more of its words (kept_in_place)."""
    lost = lost_numbers(source, first.text)
    return kept_in_place(source, languages, again, first, lambda alignment: numbers_placed(alignment, lost))
