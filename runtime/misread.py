"""Inputs in another language than the one their translation assumed: German typed into the
default English → German model, French into a model of English given by name (with --to alone,
each input's language is read instead: runtime/router.py). Such a model copies most of the
words it cannot read ("Ich habe heute keine Zeit, weil ich arbeiten muss." came back as German
with words repeated), so an input whose translation holds COPIED_SHARE or more of its words is
given to the language identifier (runtime/language_id.py, loaded then and only then: about
0.9 s), and one it reads as another language at OVERRULING_PROBABILITY or more is named in a note
(and `attn translate` translates it from that language: cli/translate.py).
Only words in small letters count, in both: a name, a title or a URL is copied from any language
and tells none ("Kind regards, Hans-Jürgen Großmann" had been named as German).

Chosen on dev files by `python -m benchmarks.misread_inputs` (docs/hardening.md has its figures):
few English inputs are copied that much (short chat lines), none of those was read as another
language at this probability, and most German and French inputs are caught.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .constants import language_label
from .language_id import OVERRULING_PROBABILITY, detect_language, in_another_script, known_languages
from .set_aside import SET_ASIDE
from .translation import Translation
from .words import LETTERS_WORD, has_words

COPIED_SHARE = 0.4  # of an input's words found again in its translation
LEAST_WORDS = 2  # fewer words tell no language
NAMED = 5  # inputs a note names; the rest are counted
# A document is read in another language than the default direction's from this many words in small
# letters read so at this probability: a page's few words are often a name's or a dish's ("Hôtel de
# la Gare" / "Book now." had read as French at 0.98 from two), and from ten words, a German page of
# six ("Vielen Dank für Ihre Nachricht. …") had been translated from English. On documents of 2–9
# such words drawn from the dev files (`python -m benchmarks.misread_inputs --short-documents`), read
# as their own: English 1,019 of 1,019, German 637 of 755, French 308 of 375 (from ten words at 0.9:
# 1,019, 0 and 0; from four at 0.99: 1,019, 562, 290; from two at 0.9: 1,019, 727, 354)
DOCUMENT_WORDS = 3
DOCUMENT_PROBABILITY = 0.99


def small_words(text: str) -> list[str]:
    """The words of `text` in small letters (two or more), outside URLs, addresses and code: not
    a name, a title or a link, which any language copies."""
    return [word for word in LETTERS_WORD.findall(SET_ASIDE.sub(" ", text)) if word.islower()]


def copied_share(source: str, translation: str) -> float:
    """The share of `source`'s small_words that `translation` holds (in any case: a model may
    capitalize what it copies); 0 for a source of fewer than LEAST_WORDS such."""
    words = small_words(source)
    if len(words) < LEAST_WORDS:
        return 0.0
    written = {word.lower() for word in LETTERS_WORD.findall(translation)}
    return sum(word in written for word in words) / len(words)


def reading(source: str, languages: set[str]) -> tuple[str, float]:
    """The identifier's language of `source` among `languages` (and outside them when sure), and
    its probability, read from its small_words: "The restaurant Le Petit Bistro serves crêpes"
    had been read as French."""
    return detect_language(" ".join(small_words(source)), languages)


def language_read(
    text: str,
    assumed: str | None,
    languages: set[str],
    least_words: int = LEAST_WORDS,
    sure: float = OVERRULING_PROBABILITY,
) -> str | None:
    """The language `text` is read in: `assumed`, unless its small_words (`least_words` or more)
    read as another of `languages`, or one outside them, at probability `sure` or more. On the
    whole text the identifier read "Kind regards, Hans-Jürgen Großmann" as German at 0.99."""
    words = small_words(text)
    if len(words) < least_words:
        return assumed
    language, probability = detect_language(" ".join(words), languages)
    return language if probability >= sure else assumed


def text_language(text: str, assumed: str | None, languages: set[str]) -> tuple[str, float]:
    """The language `text` is read in among `languages`, and the probability the identifier gives
    it. Without `assumed`, the whole text's likeliest language. With it: `assumed` for a text
    without words (at 0); else the whole text's likeliest language where that is `assumed`, where
    the identifier is sure of it (OVERRULING_PROBABILITY or more) and it is none of `languages`,
    where the text's words in small letters read as another that surely (language_read), or where
    it is sure of it and those words, if the text has any, read likeliest as it too ("Das ist
    gut.", "Speichern unter", "Frohe Weihnachten": German; not "Kind regards, Hans-Jürgen
    Großmann", whose name alone is German; "Thanks, Jürgen Müller", with no such word, is German);
    `assumed` in every other case, at the probability it has against the likeliest ("Open File."
    had been German at 0.48, "Hi Thomas," French). Measured on the dev files: `python -m
    benchmarks.misread_inputs --detection-only`."""
    language, probability = detect_language(text, languages)
    if probability == 0:  # no words ("😀", "---"): `assumed`, where there is one
        return assumed or language, probability
    if assumed in (None, language) or (language not in languages and probability >= OVERRULING_PROBABILITY):
        return language, probability  # the likeliest, or clearly a language not on offer
    words = small_words(text)
    read, sureness = detect_language(" ".join(words), languages) if words else (None, 0.0)
    if len(words) >= LEAST_WORDS and sureness >= OVERRULING_PROBABILITY and read != assumed:  # language_read's
        return language, probability
    if probability >= OVERRULING_PROBABILITY and read in (None, language):
        return language, probability
    likelier, against = detect_language(text, {assumed, language})
    return assumed, against if likelier == assumed else 1 - against


def document_language(texts: list[str], languages: Iterable[str], assumed: str | None) -> str | None:
    """The language a document's `texts` are read in, all together, among `languages` (those of
    the models on offer): language_read of them, from DOCUMENT_WORDS words in small letters at
    DOCUMENT_PROBABILITY (a language outside `languages` too), otherwise `assumed`
    (runtime/router.py Routes.usual_source) but for a single text with words in small letters (an
    HTML fragment), read as text_language reads a line ("Das ist <i>sehr</i> gut." had been read as
    English, where the line without its markup was German); or, when none is assumed, the likeliest
    language of their whole text; `assumed` for texts without a word, or when the identifier knows none of
    `languages`. Text by text, a greeting or a heading of a word or two read as any language ("Hi
    Thomas," as French: "Hallo Tomas,", "OK" as German)."""
    known = set(languages) & known_languages()
    text = " ".join(texts)
    if not known or not has_words(text):
        return assumed
    read = language_read(text, assumed, known, DOCUMENT_WORDS, DOCUMENT_PROBABILITY)
    if read is None:
        return detect_language(text, known)[0]
    if read == assumed and len(texts) == 1 and small_words(text):  # a fragment: as its line would be
        return text_language(text, assumed, set(languages))[0]
    return read


def copied(source: str, translation: str, assumed: str) -> bool:
    """Whether `translation` copied `source` as a model copies what it cannot read: COPIED_SHARE of
    its words, and not because it is in another script than `assumed` (given back as it is, with
    a note of its own: runtime/texts.py)."""
    return copied_share(source, translation) >= COPIED_SHARE and not in_another_script(source, [assumed])


class MisreadInputs:
    """Notes on inputs read as another language than `assumed`, the one their model was taken to
    read because none was given. `languages`: those of the models on offer (the candidates of
    detection); `advice(code)`: what the note says becomes of such inputs ("translated from it, as
    --from de … would"). The first inputs of each language found are named at once; `close` counts
    the rest."""

    def __init__(self, assumed: str, languages: Iterable[str], notify: Callable[[str], None], advice):
        self.assumed, self.notify, self.advice = assumed, notify, advice
        self.offered = {assumed} | set(languages)
        self.first: dict[str, int] = {}  # inputs the first note of each language named or counted
        self.found: dict[str, int] = {}

    def read_as(self, source: str) -> str | None:
        """The language a copied `source` reads as, when it is not the one assumed: one of the
        languages on offer, or one outside them that the identifier is sure of; else None (and
        for a language the identifier does not know, nothing to compare with)."""
        known = known_languages()  # the identifier loads here, for the first copied input only
        if self.assumed not in known:
            return None
        language = language_read(source, self.assumed, self.offered & known)
        return language if language != self.assumed else None

    def check(self, sources: list[str], translations: list[Translation], numbers: Iterable[int]) -> dict[int, str]:
        """Look at a batch: `sources`, their best `translations` and their input numbers. Returns
        the language of each input read as another, by its place in the batch."""
        misread: dict[str, list[int]] = {}
        places: dict[int, str] = {}
        for place, (source, translation, number) in enumerate(zip(sources, translations, numbers)):
            language = self.read_as(source) if copied(source, translation.text, self.assumed) else None
            if language is not None:
                misread.setdefault(language, []).append(number)
                places[place] = language
        self.noted(misread)
        return places

    def noted(self, misread: dict[str, list[int]]) -> None:
        """Notes on the inputs (by number) read as each language of `misread`: the first ones of a
        language named at once, the later ones counted (close)."""
        for language, found in misread.items():
            if language not in self.first:
                self.first[language] = len(found)
                self.notify(self._named(language, found))
            self.found[language] = self.found.get(language, 0) + len(found)

    def close(self) -> None:
        """Each language's count of inputs, where later batches found more than its first note said."""
        for language, count in self.found.items():
            if count > self.first[language]:
                self.notify(f"in all, {count} inputs read as {language_label(language)}")

    def _named(self, language: str, numbers: list[int]) -> str:
        several = len(numbers) > 1
        named = ", ".join(map(str, numbers[:NAMED])) + (
            f" and {len(numbers) - NAMED} more" if len(numbers) > NAMED else ""
        )
        return (
            f"input{'s' if several else ''} {named} read{'' if several else 's'} as {language_label(language)}, "
            f"not {language_label(self.assumed)}: {self.advice(language)}"
        )
