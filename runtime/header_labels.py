"""An e-mail's header labels and reply or forward prefixes, opening a line, read as the target
language writes them ("Betreff:" as "Subject:", "AW: WG:" as "Re: Fwd:"); the models copy them.

Pasted from a mail program, a subject line had come out "Betreff: Rechnung März" → "Remote:
March", "Objet : Facture de mars" → "Object: March Facture", and "Subject: Invoice" stayed
"Subject :" in French. A label is one of the table's words at the start of a sentence, its colon
right after it (or after a space, as French writes it: "Objet :"); a sentence that only opens with
the same word is none ("Von Berlin aus …", "To be honest: …"). Measured: `python -m
benchmarks.header_labels` (docs/hardening.md).
"""

from __future__ import annotations

import re

LANGUAGES = ("en", "de", "fr")  # the table's columns
# Each row: one label in English, German and French; the first form of each language is the one
# written, every form is read
LABELS = [
    {"en": ("Subject",), "de": ("Betreff",), "fr": ("Objet",)},
    {"en": ("From",), "de": ("Von",), "fr": ("De",)},
    {"en": ("To",), "de": ("An",), "fr": ("À",)},  # not "A :", a dialogue's or a quiz's line
    {"en": ("Cc", "CC"), "de": ("Cc", "CC", "Kopie"), "fr": ("Cc", "CC", "Copie")},
    {"en": ("Bcc", "BCC"), "de": ("Bcc", "BCC", "Blindkopie"), "fr": ("Cci", "CCI", "Bcc")},
    {"en": ("Date",), "de": ("Datum",), "fr": ("Date",)},
    {"en": ("Sent",), "de": ("Gesendet",), "fr": ("Envoyé",)},
    {
        "en": ("Attachment", "Attachments"),
        "de": ("Anhang", "Anhänge"),
        "fr": ("Pièce jointe", "Pièces jointes", "PJ"),
    },
]
# A subject's reply and forward prefixes
PREFIXES = [
    {"en": ("Re", "RE"), "de": ("AW", "Aw", "Re", "RE"), "fr": ("RE", "Re")},
    {"en": ("Fwd", "Fw", "FW", "FWD"), "de": ("WG", "Wg", "Fwd", "FW"), "fr": ("TR", "Tr", "Fwd")},
]


def _forms(rows: list[dict], language: str) -> dict[str, int]:
    """Each form `language` reads in `rows` → its row's index."""
    return {form: index for index, row in enumerate(rows) for form in row[language]}


PREFIX_ROWS = {language: _forms(PREFIXES, language) for language in LANGUAGES}
LABEL_ROWS = {language: _forms(LABELS, language) for language in LANGUAGES}


def _pattern(language: str) -> re.Pattern:
    """A line's opening reply or forward prefixes and header label in `language` (groups "prefixes", "label")."""

    def alternatives(forms: dict[str, int]) -> str:
        return "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))

    return re.compile(
        rf"^(?P<prefixes>(?:(?:{alternatives(PREFIX_ROWS[language])}) ?: *)*)"
        rf"(?:(?P<label>{alternatives(LABEL_ROWS[language])}) ?: *)?"
    )


PATTERNS = {language: _pattern(language) for language in LANGUAGES}
PREFIX_WORD = re.compile(r"([^\s:]+) ?:")


def _written(rows: list[dict], index: int, target: str) -> str:
    """A row's form in `target` with its colon: after a space in French ("Objet :")."""
    return rows[index][target][0] + (" :" if target == "fr" else ":")


def read_header_labels(sentence: str, source: str, target: str) -> str:
    """`sentence` with the reply or forward prefixes and the header label opening it (PATTERNS)
    as `target` writes them; as it is where either language is not English, German or French, or
    where nothing follows them (but a token set aside: runtime/set_aside.py reads the text between)."""
    if source not in PATTERNS or target not in LANGUAGES or source == target:
        return sentence
    found = PATTERNS[source].match(sentence)
    rest = sentence[found.end() :] if found else ""
    # a label alone is none ("Betreff:"); one before a token set aside (a file's name) is
    if not found or not found.group() or not (rest.strip() or sentence.endswith(" ")):
        return sentence
    rows = PREFIX_ROWS[source]
    opened = [_written(PREFIXES, rows[word], target) for word in PREFIX_WORD.findall(found["prefixes"])]
    if found["label"]:
        opened.append(_written(LABELS, LABEL_ROWS[source][found["label"]], target))
    return " ".join(opened) + " " + rest
