"""A sentence in capitals ("THE FILE COULD NOT BE OPENED.") read as a sentence is written and
its translation written in capitals. The models learned from text in ordinary case, and read
capitals as pieces they seldom saw: "DIE FÜCK ZINEN NICHT BE OPENED NICHT.", "HELLO, HEICH ARE
DUTE?". Each word is read in small letters or with its first letter a capital, whichever the
model's vocabulary holds in fewer pieces (the form it saw more often: "Datei", "Paris", but
"konnte"), the sentence's first letter a capital (`python -m benchmarks.capitals`,
docs/studies/CAPITALS.md). So is a label in capitals before a colon that opens a sentence in
ordinary case ("WARNING: Do not open the case." had come back as "WARNING: Machen Sie …",
"ACHTUNG: …" as "ACHTUNG: the device …"): it is read as the vocabulary cases its words, and the
translation's label, the words before its colon, written in capitals ("WARNUNG: …").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from .alignment import WordAlignment
from .words import LETTERS_WORD

SENTENCE_MARK = re.compile(r"[.!?…][\"'”’»«“)\]]*$")  # a sentence's last mark, closing marks after it
LEAST_WORDS = 2  # words of two letters or more: "OK", "USB" alone are names, not shouting
# A label before a colon: one to three words of two letters or more, a space or hyphen between
# them, the colon after a space or none ("REMARQUE :"), a space after it
# The pronouns of a language's polite address, which it writes with a capital: a notice or a form in
# capitals addresses its reader so ("BITTE ÄNDERN SIE IHR PASSWORT."; read in small letters, "Please
# change their password."); its possessive only beside an addressing one ("DIE KUNDIN HAT IHR PAKET
# ERHALTEN": her parcel)
POLITE_ADDRESS = {"de": frozenset({"sie", "ihnen"})}
POLITE_POSSESSIVE = {"de": frozenset({"ihr", "ihre", "ihrem", "ihren", "ihrer", "ihres"})}
# The words German writes in small letters that open its sentences most (articles, pronouns,
# question words, common verbs and adverbs): continued writes them so after a formula's comma
SMALL_IN_GERMAN = frozenset(
    "der die das den dem des ein eine einen einem einer eines ich du er es wir ihr man mein meine meinen meinem "
    "meiner unser unsere unseren unserem dein deine dies diese dieser dieses wie was wo wann warum wer welche "
    "welcher welches können kannst könnten könntest haben hast hat habe ist sind bin bist war wird werden würde "
    "würden möchte möchten darf dürfen soll sollen muss müssen danke bitte vielen herzlichen leider hier anbei "
    "jetzt heute gestern gerade gerne gern auch nur noch schon ja nein vielleicht zum zur im am in an auf "
    "für mit nach von vor bei aus über unter um bis ob dass wenn als aber und oder sehr".split()
)
LABEL_WORDS = 5  # the most words of a label's translation, its colon's word included
LABEL = re.compile(r"(?P<label>[^\W\d_]{2,}(?:[ -][^\W\d_]{2,}){0,2})(?P<colon>[ \u00a0\u202f]?:)(?=\s)")


def in_capitals(sentence: str) -> bool:
    """Whether every cased letter of `sentence` is a capital, in LEAST_WORDS words or more."""
    words = LETTERS_WORD.findall(sentence)
    return len(words) >= LEAST_WORDS and all(word.isupper() for word in words) and sentence.upper() == sentence


def capitals_label(sentence: str) -> re.Match | None:
    """The LABEL in capitals that opens `sentence`, the rest of it in ordinary case (a letter in
    small letters after the colon), or None."""
    label = LABEL.match(sentence)
    if label is None or not label.group("label").isupper():
        return None
    return label if any(character.islower() for character in sentence[label.end() :]) else None


def read_cased(sentence: str, pieces: Callable[[str], int], language: str = "") -> str:
    """`sentence` (in `language`) as the model reads it: as_written when it is in capitals; its label in capitals
    (capitals_label) with each word as written, in small letters or with its first letter a
    capital, whichever is fewest `pieces` (as written on a tie: "USB", "API" stay), its first
    letter a capital; else as it is."""
    if in_capitals(sentence):
        return as_written(sentence, pieces, language)
    label = capitals_label(sentence)
    if label is None:
        return sentence

    def cased(word: re.Match) -> str:
        small = word.group().lower()
        return min((word.group(), small, small[:1].upper() + small[1:]), key=pieces)

    read = LETTERS_WORD.sub(cased, label.group("label"))
    return read[:1].upper() + read[1:] + sentence[label.end("label") :]


def as_written(sentence: str, pieces: Callable[[str], int], language: str = "") -> str:
    """`sentence` with each word in small letters, or with its first letter a capital, or its
    "ss" as "ß" (capitals write "ß" so), where that is fewer `pieces` (a word's count of the
    model's pieces, a space before it), and its first letter a capital; a pronoun of `language`'s
    polite address (POLITE_ADDRESS) with its capital, its possessive where the sentence addresses its reader."""

    address, possessive = POLITE_ADDRESS.get(language, frozenset()), POLITE_POSSESSIVE.get(language, frozenset())
    polite = address | possessive if address.intersection(LETTERS_WORD.findall(sentence.lower())) else address

    def cased(word: re.Match) -> str:
        small = word.group()
        if small in polite:
            return small.capitalize()
        spellings = [small, small.replace("ss", "ß")] if "ss" in small else [small]  # "GRÖSSE": "Größe"
        forms = [form for spelling in spellings for form in (spelling, spelling[:1].upper() + spelling[1:])]
        return min(forms, key=pieces)  # the first of the fewest pieces: in small letters on a tie

    written = LETTERS_WORD.sub(cased, sentence.lower())
    first = next((index for index, character in enumerate(written) if character.isalpha()), None)
    return written if first is None else written[:first] + written[first].upper() + written[first + 1 :]


def written_back(alignment: WordAlignment, written: str, read: str) -> WordAlignment:
    """The translation (`alignment`) of a source `written` in capitals, or with a label in
    capitals, which the model `read` in ordinary case (read_cased), in capitals as its source is:
    all its words, or those of its label, the words up to the first that ends in a colon, when
    that word is among the first LABEL_WORDS (a label's translation may take more words than the
    label: "Wichtiger Hinweis:"); else as it is."""
    words = alignment.target_words
    if read == written:
        return alignment
    if in_capitals(written):
        return replace(alignment, target_words=[word.upper() for word in words])
    colon = next((index for index, word in enumerate(words[:LABEL_WORDS]) if word.endswith(":")), None)
    if colon is None:
        return alignment
    return replace(alignment, target_words=[word.upper() for word in words[: colon + 1]] + words[colon + 1 :])


def a_sentence(words: Sequence[str]) -> bool:
    """Whether `words` end as a sentence does: with a point, a question or an exclamation mark (or
    an ellipsis), closing marks after it; not a title or a label ("Polish data files for fortune")."""
    return bool(words) and SENTENCE_MARK.search(words[-1]) is not None


def opened_as_source(alignment: WordAlignment) -> WordAlignment:
    """`alignment` with its translation's first word opening with a capital where its source's
    first word does ("Zimmer 204 ist frei." had come out "room 204 is free.", "Danke für deine
    Bestellung 😊" "thanks for your order 😊"); not where either opens with a digit ("3 Katzen"), nor
    where the translation opens with a name its source writes in small letters ("pkexec").
    runtime/texts.py asks it of a sentence (a_sentence) and of a translation with a placeholder; not
    of a title, which the French package descriptions of the software test files open in small
    letters ("dictionnaire ukrainien pour myspell"). Measured: `python -m benchmarks.sentence_case`
    (docs/studies/CAPITALS.md)."""
    source = next((word for word in alignment.source_words if any(c.isalnum() for c in word)), "")
    target = next((index for index, word in enumerate(alignment.target_words) if any(c.isalnum() for c in word)), None)
    if target is None or not first_alnum(source).isupper():
        return alignment
    word = alignment.target_words[target]
    at = next(index for index, character in enumerate(word) if character.isalnum())
    # a name its source writes in small letters too ("pkexec") keeps them, as one in mixed case does
    written = {own.strip(".,;:!?()\"'") for own in alignment.source_words}
    mixed = any(character.isupper() for character in word[at + 1 :])  # "mRNA", "iPhone", "pH"
    if not word[at].islower() or mixed or word.strip(".,;:!?()\"'") in written:
        return alignment
    words = list(alignment.target_words)
    words[target] = word[:at] + word[at].upper() + word[at + 1 :]
    return replace(alignment, target_words=words)


def opened_with_capital(alignment: WordAlignment) -> WordAlignment:
    """`alignment`, of a sentence read with its first letter in small letters
    (runtime/second_searches.py openers_copied), with that letter a capital again and its translation's first letter one."""

    def capitalized(words: list[str]) -> list[str]:
        at = next((index for index, word in enumerate(words) if any(c.isalpha() for c in word)), None)
        if at is None:
            return words
        letter = next(index for index, character in enumerate(words[at]) if character.isalpha())
        word = words[at]
        return [*words[:at], word[:letter] + word[letter].upper() + word[letter + 1 :], *words[at + 1 :]]

    return replace(
        alignment,
        source_words=capitalized(list(alignment.source_words)),
        target_words=capitalized(list(alignment.target_words)),
    )


def goes_on(rest: str, language: str) -> bool:
    """Whether `rest`, a sentence's words after a letter's formula and its comma, goes on with the
    sentence: it opens in small letters, or with English "I" ("Dear Anna, I hope …": "Liebe Anna,
    ich hoffe …"), or it is German's, whose capital there is a noun's or its polite address's
    ("Sehr geehrter Herr Müller, Ihre Bestellung …": "Dear Mr Müller, your order …")."""
    return rest[:1].islower() or language == "de" or (language == "en" and re.match(r"I\b", rest) is not None)


def continued(word: str, pieces: Callable[[str], int], language: str) -> str:
    """`word`, the first of a translation that continues a sentence (after a letter's formula and
    its comma: "Dear Mr. Miller, thank you …"), in small letters: into German where it is one of
    the words German writes so (SMALL_IN_GERMAN: "Danke" → "danke", "Das" → "das"; a noun keeps
    its capital, "Einladungen"), into another language where the model reads that in as few
    `pieces` ("Peux-tu" → "peux-tu"; a name is fewer with its capital); not English "I", nor
    `language`'s polite address or its possessive ("Sie", "Ihre")."""
    small = word[:1].lower() + word[1:]
    polite = POLITE_ADDRESS.get(language, frozenset()) | POLITE_POSSESSIVE.get(language, frozenset())
    if small == word or word.lower() in polite or word == "I" or word.startswith(("I'", "I’")):
        return word
    if language == "de":
        return small if small.strip(".,;:!?").lower() in SMALL_IN_GERMAN else word  # "Danke!" → "danke!"
    return small if pieces(small) <= pieces(word) else word


def first_alnum(word: str) -> str:
    """The first letter or digit of `word` ("" for none)."""
    return next((character for character in word if character.isalnum()), "")
