"""Companies' names before their legal form ("Example GmbH", "Blue Ocean Ltd", "Müller Bau AG") set
aside from the search (runtime/set_aside.py): a name no language translates, which the models did
("Example GmbH" → "Beispiel GmbH", "Blue Ocean Ltd" → "Blue Ozean Ltd", "Müller Bau AG" →
"millant AG") or lost ("Please contact Example GmbH" → "Bitte kontaktiver GmbH"). Up to two words
with a capital before a legal form that is no word of any language; not a third, which in German
may be a noun ("die Firma Müller Bau AG").
"""

from __future__ import annotations

import re

LEGAL_FORMS = (
    "GmbH & Co. KG",
    "gGmbH",
    "GmbH",
    "AG",
    "KGaA",
    "KG",
    "OHG",
    "GbR",
    "Ltd.",
    "Ltd",
    "PLC",
    "plc",
    "LLC",
    "LLP",
    "Inc.",
    "Inc",
    "Corp.",
    "S.A.",
    "SAS",
    "SARL",
    "N.V.",
    "B.V.",
    "S.p.A.",
)
NAME_WORD = r"[^\W\d_][\w&'’.-]*"  # a word of the name, opening with a capital (checked below)
COMPANY = re.compile(
    rf"(?<![\w&.-])(?:{NAME_WORD} ){{1,2}}(?:{'|'.join(re.escape(form) for form in LEGAL_FORMS)})(?![\w&])"
)


def company_spans(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each company's name with its legal form in `sentence`: its words from the
    first that opens with a capital, of the two before the form; not the sentence's first word
    before another (every sentence opens with a capital: "Yesterday Volkswagen AG …")."""
    spans = []
    opening = len(sentence) - len(sentence.lstrip(" \"'“„«(["))
    for found in COMPANY.finditer(sentence):
        words = found[0].split(" ")
        start = found.start()
        while words and (not words[0][:1].isupper() or (start == opening and len(words) > 2)):
            start += len(words.pop(0)) + 1  # "contact Example GmbH": from "Example"
        if len(words) > 1:  # a name before its form
            spans.append((start, found.end()))
    return spans
