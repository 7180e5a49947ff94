"""Whether a translation gives each abbreviation of its source (runtime/abbreviations.py) right: it
holds one of the ways the target writes it, abbreviated or written out (ACCEPTED), once for each
time the source has it. The ways are those of a dictionary's entry, written before the rule was
measured; a translation that says the same otherwise counts as wrong.

Used by `python -m benchmarks.dev_readings --rule abbreviations`.
"""

from __future__ import annotations

import re

from attn.runtime.abbreviations import DAYS, PATTERNS, key
from benchmarks.acronym_forms import ACRONYMS

EN_FOR_EXAMPLE = r"e\.g\.|for example|for instance|such as|like"
THAT_IS = r"i\.e\.|that is|which means|meaning|in other words|namely"
ABOUT = r"about|around|approximately|approx\.|roughly|some|nearly|almost|circa|ca\."
FIGURE = {
    "en": r"Fig\.|Figure|Illustration|Image|Picture|Diagram",
    "de": r"Abb\.|Abbildung|Bild|Grafik|Fig\.|Figur|Schaubild",
    "fr": r"fig\.|figure|illustration|image|schéma|graphique",
}
CHAPTER = {"en": r"Chapter|Ch\.|Chap\.", "de": r"Kapitel|Kap\.", "fr": r"chapitre|chap\."}
PHONE = {
    "en": r"Tel\.?|Telephone|Phone",
    "de": r"Tel\.?|Telefon|Telefonnummer|Rufnummer",
    "fr": r"tél\.?|téléphone|tel\.?",
}
PAGE = {"en": r"page|p\.|pp\.", "de": r"Seite|S\.", "fr": r"page|p\."}
NUMBER = {"en": r"No\.|Number|#", "de": r"Nr\.|Nummer|#", "fr": r"n°|nº|no|numéro|#"}


def _days(source: str, target: str) -> dict[str, str]:
    """Each day's abbreviation in `source` (DAYS) → the target's name of that day (or days) or its
    abbreviation."""
    names = {language: list(dict.fromkeys(days.values())) for language, days in DAYS.items()}
    order = names[source]
    return {
        key(written): rf"{names[target][order.index(name)]}s?|{names[target][order.index(name)][:3]}\.?"
        for written, name in DAYS[source].items()
    }


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
            "abb.": FIGURE["en"],
            "kap.": CHAPTER["en"],
            "abschn.": r"Section|Sect?\.|§",
            "mwst.": r"VAT|value[- ]added tax|sales tax",
            "tel.": PHONE["en"],
            "nr.": NUMBER["en"] + r"|\w*number|ID",
            "str.": r"\w*stra(?:ß|ss)e|\w*str\.|Street|St\.|Road",
            "gem.": r"according to|in accordance with|pursuant to|under|as per|per",
            "abs.": r"paragraph|para\.|subsection|section",
            "rd.": ABOUT,
            "jh.": r"century|centuries",
            "std.": r"hours?|hrs?\.?|h",
            "max.": r"max\.|maximum|at most|up to|maximal|no more than",
            "bzgl.": r"regarding|concerning|with regard to|with respect to|about|re:|in relation to|as regards|relating to",
            "insb.": r"especially|in particular|particularly|notably|specifically|above all",
            "i.d.r.": r"usually|as a rule|normally|generally|typically|in general|in most cases|ordinarily",
            "o.ä.": r"or similar|or the like|or something similar|or such|or other|and the like",
            "u.ä.": r"and similar|and the like|etc\.?|and so on|and others|and more|or similar",
            "fa.": r"company|firm|Co\.|business",
            "z.zt.": r"currently|at present|at the moment|presently|for the time being|right now|now|at this time",
            "s.": PAGE["en"],
        }
        | _days("de", "en"),
    },
    "fr": {
        "en": {
            "p.ex.": EN_FOR_EXAMPLE,
            "c.-à-d.": THAT_IS,
            "env.": ABOUT,
            "fig.": FIGURE["en"],
            "chap.": CHAPTER["en"],
            "tél.": PHONE["en"],
            "av.j.-c.": r"BC|B\.C\.|BCE|B\.C\.E\.|before Christ",
            "av.j-c.": r"BC|B\.C\.|BCE|B\.C\.E\.|before Christ",
            "apr.j.-c.": r"AD|A\.D\.|CE|C\.E\.|after Christ|anno Domini",
            "apr.j-c.": r"AD|A\.D\.|CE|C\.E\.|after Christ|anno Domini",
            "av.": r"Avenue|Ave\.?|av\.",
            "p.": PAGE["en"],
        }
        | _days("fr", "en"),
    },
    # initials: the target's, or its name for the country or the union (benchmarks/acronym_forms.py's)
    "en": {
        target: {key(written): names[target] for written, names in ACRONYMS.items()}
        | {
            "u.s.a.": ACRONYMS["U.S."][target],
            "u.a.e.": {"de": r"VAE|Vereinigte[nm]? Arabische[nm]? Emirate", "fr": r"EAU|Émirats arabes unis"}[target],
            "u.s.s.r.": {"de": r"UdSSR|Sowjetunion|sowjetisch", "fr": r"URSS|Union soviétique|soviétique"}[target],
            "d.c.": r"D\.C\.|DC|District of Columbia",
            "approx.": {
                "de": r"ca\.|circa|etwa|ungefähr|rund|zirka|annähernd",
                "fr": r"env\.|environ|approximativement|à peu près|près de|quelque|autour de|vers",
            }[target],
            "fig.": FIGURE[target],
            "chap.": CHAPTER[target],
            "ch.": CHAPTER[target],
            "vs.": {
                "de": r"gegen|vs\.|versus|im Vergleich zu|verglichen mit|gegenüber",
                "fr": r"contre|vs\.?|versus|par rapport à|comparé|face à",
            }[target],
            "dept.": {
                "de": r"Abteilung|Abt\.|Fachbereich|Institut|Ministerium|Department|Fakultät|Amt|Behörde|Referat",
                "fr": r"département|service|dép\.|ministère|direction|faculté|bureau",
            }[target],
            "tel.": PHONE[target],
            "no.": NUMBER[target],
        }
        | _days("en", target)
        for target in ("de", "fr")
    },
}


def abbreviations_in(text: str, source: str) -> list[str]:
    """The abbreviations runtime/abbreviations.py reads in `text`, keyed as ACCEPTED keys them."""
    return [key(found.group()) for found in PATTERNS[source].finditer(text)]


def abbreviations_given(
    sources: list[str], translations: list[str], source: str, target: str
) -> dict[str, tuple[int, int]]:
    """Each abbreviation of `sources` (keyed) → (times their translations write it as ACCEPTED
    says, times the sources have it): each way counted once for each time its source has it."""
    given: dict[str, tuple[int, int]] = {}
    for text, translation in zip(sources, translations):
        found = abbreviations_in(text, source)
        for abbreviation in set(found):
            ways = ACCEPTED[source][target][abbreviation]
            written = len(re.findall(rf"(?<!\w)(?:{ways})(?!\w)", translation, re.I))
            right, total = given.get(abbreviation, (0, 0))
            given[abbreviation] = (right + min(written, found.count(abbreviation)), total + found.count(abbreviation))
    return given


def abbreviations_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(abbreviations of `sources` that their translations write as ACCEPTED says, abbreviations)."""
    given = abbreviations_given(sources, translations, source, target).values()
    return sum(right for right, _ in given), sum(total for _, total in given)
