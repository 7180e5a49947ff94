"""The runtime's table of given names and surnames (runtime/person_names.tsv), written from Faker's
English, German and French name lists, less the names that a sentence writes as something else
more often than as a person's name, and committed: the runtime reads the table, not Faker.

    python -m attn.export.person_names ../shared/data      # Faker: pip install faker

Left out or marked, each measured on the training corpora of DATA (the English, German and French
sides of TRAINING; never a dev or test file):
- a given name that is a place's name (runtime/place_names.tsv: "Paris", "India"), a month's or
  a weekday's, is left out;
- a given name that the corpora write in small letters within a sentence more often than with a
  capital, a word before it is a name ("Claire", "Mark", "Summer"), is listed as such (GIVEN_WORD:
  the runtime reads it as a name within a sentence, not at its opening);
- a surname that the German side writes NOUNS times or more but after a given name is listed as a
  noun too (SURNAME_WORD: "Koch", "Glück", "Ball"; the runtime reads it as a surname in German only
  where the given name opens the sentence or follows a preposition, a conjunction, a mark or a noun);
- a given name or a surname that opens or ends MEASURED or more of the names found in the corpora
  (runtime/person_names.py names_after_given_names, with the lists so far) is left out where the
  other side of the pair writes fewer than KEPT of those names (folded_letters: accents aside):
  "German Stock", "Edit Comment", "warum Tom Mary mag".
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import re
import unicodedata
from collections import Counter
from pathlib import Path

from attn.runtime.dates import MONTH_NAMES, WEEKDAY_NAMES
from attn.runtime.person_names import (
    GIVEN,
    GIVEN_WORD,
    KINDS,
    PERSON_NAMES,
    SURNAME,
    SURNAME_WORD,
    names_after_given_names,
)
from attn.runtime.place_names import PLACE_NAMES

LOCALES = {
    "en": ("en_US", "en_GB", "en_IE", "en_NZ"),
    "de": ("de_DE", "de_AT", "de_CH"),
    "fr": ("fr_FR", "fr_BE", "fr_CH", "fr_CA", "fr_QC"),
}
# The training corpora measured (English first, then the other language)
TRAINING = (
    "en-de/train",
    "en-de/general-train",
    "en-de/tatoeba-train",
    "en-de/chat-train",
    "en-fr/train",
    "en-fr/general-train",
    "en-fr/tatoeba-train",
)
# The models whose words the measurement reads for the words a model learned (their words.LANGUAGE.txt)
WORD_LISTS = ("de-en/words.de.txt", "de-en/words.en.txt", "fr-en/words.fr.txt")
MEASURED = 5  # names opened or ended by a name, at least, for its share kept to count
NOUNS = 20  # a surname that German text writes so this often but after a given name is a noun too
KEPT = 0.5  # the share of those names that the other side writes as written, at least
NAME = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")  # a name as a sentence writes it: letters, maybe hyphenated
WORD = re.compile(r"[^\W\d_]+")


def faker_names() -> dict[str, set[str]]:
    """Faker's given names and surnames of LOCALES, by kind (GIVEN, SURNAME)."""
    names: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for locales in LOCALES.values():
        for locale in locales:
            provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
            for attribute in ("first_names", "first_names_male", "first_names_female"):
                names[GIVEN] |= set(getattr(provider, attribute, ()))
            names[SURNAME] |= set(getattr(provider, "last_names", ()))
    return {kind: {name for name in found if NAME.fullmatch(name)} for kind, found in names.items()}


def other_words() -> set[str]:
    """Place names (runtime/place_names.tsv), months' and weekdays' names: no given names."""
    rows = PLACE_NAMES.read_text(encoding="utf-8").splitlines()
    places = {row.split("\t")[2] for row in rows if not row.startswith("#")}
    times = {name.capitalize() for names in [*MONTH_NAMES.values(), *WEEKDAY_NAMES.values()] for name in names}
    return places | times


def pairs(data: Path):
    """(language, sentence, its translation) of each side of each pair of TRAINING in `data`."""
    for name in TRAINING:
        other = name.split("/")[0].split("-")[1]
        with gzip.open(data / f"{name}.tsv.gz", "rt", encoding="utf-8") as rows:
            for row in rows:
                english, translation = row.rstrip("\n").split("\t")[:2]
                yield "en", english, translation
                yield other, translation, english


def written_words(data: Path, given: set[str]) -> set[str]:
    """The names of `given` that the corpora write in small letters after a sentence's first word
    more often than with a capital."""
    lowered = {name.lower() for name in given}
    lower, upper = Counter(), Counter()
    for _, sentence, _ in pairs(data):
        for word in WORD.findall(sentence)[1:]:
            if word.lower() in lowered:
                (lower if word.islower() else upper)[word.lower()] += 1
    return {name for name in given if lower[name.lower()] > upper[name.lower()]}


def folded_letters(text: str) -> str:
    """`text` in small letters without accents ("Álvarez": "alvarez")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def german_nouns(data: Path, names: dict[str, set[str]]) -> set[str]:
    """The surnames of `names` that the German side of the corpora writes NOUNS times or more but
    after a given name: nouns too ("Koch", "Glück", "Winter")."""
    given = names[GIVEN] | names[GIVEN_WORD]
    counts = Counter()
    for language, sentence, _ in pairs(data):
        if language == "de":
            words = WORD.findall(sentence)
            counts.update(
                word for before, word in zip(["", *words], words) if word in names[SURNAME] and before not in given
            )
    return {name for name in names[SURNAME] if counts[name] >= NOUNS}


def name_counts(data: Path, names: dict[str, frozenset[str]], known: frozenset[str]) -> tuple[Counter, Counter]:
    """For each given name and surname (keyed (GIVEN or SURNAME, name)), how many names found in the
    corpora (names_after_given_names with `names`) it opens or ends, and how many of them the
    translation writes (folded_letters: its accents may differ, "Jonás Larrazábal")."""
    found, kept = Counter(), Counter()
    for language, sentence, translation in pairs(data):
        folded = folded_letters(translation)
        for name in names_after_given_names(sentence, language, known, names):
            whole = sentence[name.start : name.end]
            given, surname = whole.split(" ")[0], sentence[name.surname : name.end]
            written = re.search(rf"(?<!\w){re.escape(folded_letters(whole))}(?!\w)", folded) is not None
            for key in ((GIVEN, given), (SURNAME, surname)):
                found[key] += 1
                kept[key] += written
    return found, kept


def kept_names(data: Path) -> dict[str, list[str]]:
    """The table's names by kind, sorted: Faker's, less those the module's docstring leaves out."""
    names = faker_names()
    names[GIVEN] -= other_words()
    names[GIVEN_WORD] = written_words(data, names[GIVEN])
    names[GIVEN] -= names[GIVEN_WORD]
    names[SURNAME_WORD] = german_nouns(data, names)
    names[SURNAME] -= names[SURNAME_WORD]
    models = Path(__file__).resolve().parent.parent / "models"
    known = frozenset(word for path in WORD_LISTS for word in (models / path).read_text(encoding="utf-8").split())
    found, kept = name_counts(data, {kind: frozenset(listed) for kind, listed in names.items()}, known)

    def kept_often(kind: str, name: str) -> bool:
        key = (SURNAME if kind in (SURNAME, SURNAME_WORD) else GIVEN, name)
        return found[key] < MEASURED or kept[key] >= KEPT * found[key]

    return {kind: sorted(name for name in found if kept_often(kind, name)) for kind, found in names.items()}


def write_person_names(data: Path) -> None:
    from faker import VERSION

    names = kept_names(data)
    lines = [
        f"# Given names and surnames from Faker {VERSION} (MIT licence), locales "
        f"{', '.join(locale for locales in LOCALES.values() for locale in locales)}, less those a sentence "
        "writes as something else more often; written by export/person_names.py",
        *(f"{kind}\t{name}" for kind in KINDS for name in names[kind]),
    ]
    PERSON_NAMES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared data folder (its en-de/ and en-fr/ training files)")
    write_person_names(parser.parse_args().data)


if __name__ == "__main__":
    main()
