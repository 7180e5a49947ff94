"""A person's title before their name (Mr, Frau, Mme) read as the target language writes it.

The models translated titles poorly, or copied them: "Mrs. Jones called." → "Herrs. Jones
nannten…", "Mr. Smith" → "Herr. Smith", "M. Dupont" and "Mme Martin" left French in English
("Mm Jones"), "Frau Dr. Schmidt" → "Woman Dr. Schmidt". Written as the target writes titles, the
models copied them right: on sentences of our own, into German "Herr" and "Frau" (30 and 32 of 32
right, against 12 and 3 for "Mr." and "Mrs."), into French "M." and "Madame" (26 and 25, against
0), into English "Mr" and "Ms" (from German 30 and 24, against 24 and 19 for "Herr" and "Frau";
from French 30 and 32, against 0; "Mrs." from German 26, but "Ms" names any woman)
(`python -m benchmarks.person_titles`, docs/studies/PERSON-TITLES.md). A title is one
only before a name (a word opening with a capital); German's "Frau" and "Herr" not after an article
or a determiner ("eine Frau Namens…"), "M." not after a first name ("Jean M. Dupont"), and not
"Miss", which title-case text writes for the verb ("I Miss You"). Into English a title before "Dr"
or "Prof" is left out, as English writes it ("Frau Dr. Schmidt" → "Dr. Schmidt").
"""

from __future__ import annotations

import re

from .constants import SHIPPED_DIRECTIONS

# Each source language's titles, by the gender they name
TITLES = {
    "en": {"m": ("Mr.", "Mr"), "f": ("Mrs.", "Mrs", "Ms.", "Ms")},  # not "Miss": "I Miss You"
    "de": {"m": ("Herrn", "Herr"), "f": ("Frau",)},
    "fr": {"m": ("Monsieur", "M."), "f": ("Madame", "Mme.", "Mme", "Mademoiselle", "Mlle.", "Mlle")},
}
# Each target language's title of each gender, in the form the models copied right most often
WRITTEN = {"de": {"m": "Herr", "f": "Frau"}, "fr": {"m": "M.", "f": "Madame"}, "en": {"m": "Mr", "f": "Ms"}}
READ = SHIPPED_DIRECTIONS
INITIALS = frozenset({"M."})  # a title that is a name's initial too, after a first name ("Jean M. Dupont")
# German words after which "Frau" or "Herr" is a noun ("die Frau", "eine Frau Namens …"), not a title
DETERMINERS = frozenset(
    (
        "der die das den dem des ein eine einer einen einem eines jede jeder jeden jedem diese dieser diesen "
        "diesem keine keiner keinen keinem meine meiner meinen meinem deine seine seiner seinen seinem ihre "
        "ihrer ihren ihrem unsere unserer unseren unserem eure welche welcher alte junge"
    ).split()
)
# The particles before a surname ("von der Leyen", "van den Berg", "de la Fontaine", "M. de Gaulle")
PARTICLE = r"(?:(?:von|van|vom|zu|de|du|di|da|del|della|dos|ten|ter)(?: (?:der|den|dem|la))? )?"
# a space, then a name: a word opening with a capital ("O'Neill", "Šefčovič" too)
NAME_AFTER = rf" (?={PARTICLE}[A-ZÀ-ÖØ-ÞĀ-ž](?:[^\W\d_]|['’][A-Z]))"
AND = {"en": "and|&", "de": "und|&", "fr": "et|&"}
ACADEMIC = re.compile(r"(?:Dr|Prof)\b")  # English names a doctor or a professor by that title alone


def _pattern(language: str) -> re.Pattern:
    forms = sorted((form for forms in TITLES[language].values() for form in forms), key=len, reverse=True)
    alternatives = "|".join(re.escape(form) + (r"(?!\w)" if form[-1] != "." else "") for form in forms)
    # a name after it, or "and" and another title before one ("Mr. and Mrs. Smith")
    couple = rf"(?=(?:{AND[language]}) (?:{alternatives}) [A-ZÀ-ÖØ-Þ])"
    return re.compile(rf"(?<![\w.])(?P<title>{alternatives}) (?:{NAME_AFTER[1:]}|{couple})")


PATTERNS = {language: _pattern(language) for language in TITLES}
GENDER = {
    language: {form: gender for gender, forms in TITLES[language].items() for form in forms} for language in TITLES
}


def read_titles(sentence: str, source: str, target: str) -> str:
    """`sentence` with each title before a name written as `target` writes it, where that was
    measured to help (READ); as it is otherwise."""
    if (source, target) not in READ:
        return sentence

    def written(title: re.Match) -> str:
        if not is_title(title, sentence, source):
            return title.group()
        if target == "en" and ACADEMIC.match(sentence, title.end()):  # "Frau Dr. Schmidt": "Dr. Schmidt"
            return ""
        return WRITTEN[target][GENDER[source][title["title"]]] + " "

    return PATTERNS[source].sub(written, sentence)


def titles_in(sentence: str, source: str) -> list[re.Match]:
    """The titles before a name in `sentence`, written in `source` (PATTERNS, is_title)."""
    return [title for title in PATTERNS[source].finditer(sentence) if is_title(title, sentence, source)]


def is_title(found: re.Match, sentence: str, source: str) -> bool:
    """Whether a title PATTERNS `found` in `sentence` is one: not German's "Frau" or "Herr" after
    an article or a determiner (a noun: "eine Frau Namens Anna"), not an initial after a first
    name ("Jean M. Dupont")."""
    before = sentence[: found.start()]
    word = before.split()[-1] if before.endswith(" ") and before.strip() else ""
    if source == "de" and word.casefold() in DETERMINERS:
        return False
    return not (found["title"] in INITIALS and word[:1].isupper())
