"""Whether a translation gives each abbreviation of its source (runtime/abbreviations.py) right: it
holds one of the ways the target writes it, abbreviated or written out (ACCEPTED), once for each
time the source has it. The ways are those of a dictionary's entry, written before the rule was
measured; a translation that says the same otherwise counts as wrong.

Used by `python -m benchmarks.dev_readings --rule abbreviations`.
"""

from __future__ import annotations

import re

from attn.runtime.abbreviations import PATTERNS, key
from benchmarks.acronym_forms import ACRONYMS

EN_FOR_EXAMPLE = r"e\.g\.|for example|for instance|such as|like"
# Each source language's abbreviation (as runtime/abbreviations.py `key` writes it) → each target's
# ways of writing it
ACCEPTED = {
    "de": {
        "en": {
            "z.b.": EN_FOR_EXAMPLE,
            "bspw.": EN_FOR_EXAMPLE,
            "d.h.": r"i\.e\.|that is|which means|meaning|in other words|namely",
            "u.a.": r"among others|among other things|including|inter alia|and others|also|among them",
            "z.t.": r"partly|in part|partially|some",
            "u.u.": r"possibly|may|might|circumstances|potentially|perhaps",
            "inkl.": r"incl\.|including|inclusive|included",
            "exkl.": r"excl\.|excluding|exclusive|not including|without",
            "zzgl.": r"plus|excluding|exclusive|excl\.|in addition",
            "bzw.": r"or|respectively|and",
            "ggf.": r"if necessary|if applicable|where appropriate|possibly|if required|optionally|may|if need be",
            "evtl.": r"possibly|perhaps|maybe|might|may|potential|eventual",
            "vgl.": r"cf\.|see|compare",
            "sog.": r"so-called|so called",
            "mrd.": r"billions?|bn",
            "mio.": r"millions?|m",
            "tsd.": r"thousands?|\d,\d{3}",
        },
    },
    # initials: the target's, or its name for the country or the union (benchmarks/acronym_forms.py's)
    "en": {
        target: {key(written): names[target] for written, names in ACRONYMS.items()}
        | {
            "u.s.a.": ACRONYMS["U.S."][target],
            "u.a.e.": {"de": r"VAE|Vereinigte[nm]? Arabische[nm]? Emirate", "fr": r"EAU|Émirats arabes unis"}[target],
            "u.s.s.r.": {"de": r"UdSSR|Sowjetunion|sowjetisch", "fr": r"URSS|Union soviétique|soviétique"}[target],
            "d.c.": r"D\.C\.|DC|District of Columbia",
        }
        for target in ("de", "fr")
    },
}


def abbreviations_in(text: str, source: str) -> list[str]:
    """The abbreviations runtime/abbreviations.py reads in `text`, keyed as ACCEPTED keys them."""
    return [key(found.group()) for found in PATTERNS[source].finditer(text)]


def abbreviations_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(abbreviations of `sources` that their translations write as ACCEPTED says, abbreviations):
    each way counted once for each time the source has it."""
    right = total = 0
    for text, translation in zip(sources, translations):
        found = abbreviations_in(text, source)
        total += len(found)
        for abbreviation in set(found):
            ways = ACCEPTED[source][target][abbreviation]
            written = len(re.findall(rf"(?<!\w)(?:{ways})(?!\w)", translation, re.I))
            right += min(written, found.count(abbreviation))
    return right, total
