"""Dates and prices read as the target language writes them (runtime/dates.py, runtime/prices.py),
no-break spaces read as ordinary ones (runtime/words.py ordinary_spaces), quotations read
without their marks (runtime/quotes.py), persons' titles as the target writes them (runtime/titles.py),
the names after them set aside (runtime/person_names.py), persons' names after given names searched
again set aside where a translation lost one (runtime/person_names.py: "Thomas Koch"), dates in
digits read with their month's name (runtime/numeric_dates.py: "am 24.12."), streets with their
numbers set aside (runtime/street_addresses.py), the names of countries and regions as the
target writes them (runtime/place_names.py: the rows whose source holds one the table has; `repaired`:
the same rows, places_written's repair of a name the translation missed on and off),
letters' formulas given by their table (runtime/letter_formulas.py: the rows whose source is one;
`openings`: the rows whose source opens with one, a comma and more words, parted by formula_apart),
a list or dialogue mark that opens a sentence read apart from it (runtime/sentences.py mark_apart),
abbreviations written out (runtime/abbreviations.py), and ordinals given as the target writes them
(runtime/ordinals.py: the rows whose source holds one written with digits, not a date's or a street's),
the words of a number's scale given as the target counts them (runtime/scales.py: "milliard"), and
quantities with a unit's symbol kept by a second search where a translation lost one
(runtime/quantities.py: "12 V", "1.5 m"), and into French a price the translation copied written as
French writes prices (runtime/prices.py prices_given: "€1.20" → "1,20 €"):
on the dev rows whose source holds one the rule reads, how many the installed models' translations
give right, and BLEU and chrF against the references, with the rule and without it (runtime/source_reading.py's
read_dates or read_prices replaced by one that leaves a sentence as it is). A date is given right as
benchmarks/date_forms.py `date_written` says (the day and the month's name as the target writes
dates, the year once), a price when the translation holds its amount's digits and its currency's
sign, code or name (benchmarks/price_forms.py `given_right`, without a frame's word), a sentence
with no-break spaces when its translation holds no soft hyphen (what the models wrote for one), a
sentence with quotation marks when its translation holds as many double marks, a person's title when
its name follows a title of the target language, a name after a title or a given name or a street when its
translation holds it as written, a place when its translation holds the place's name in the target language, a formula when its
translation is the table's, a mark when its translation opens with it and the word after it in a
capital or not as the source's, an abbreviation when its translation writes it in one of the target's
ways (benchmarks/abbreviation_forms.py).

    python -m benchmarks.dev_readings --rule dates|numeric-dates|prices|spaces|quotes|titles|names|given-names|streets|companies|places|repaired|formulas|marks|abbreviations|ordinals|scales|openings|quantities|written-prices [--per-file] [--files NAME ...] [--data ../shared/data] [--show 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import attn.runtime as attn
from attn.runtime import (
    abbreviations,
    company_names,
    dates,
    numeric_dates,
    ordinals,
    person_names,
    place_names,
    prices,
    quotes,
    scales,
    street_addresses,
    titles,
)
from attn.runtime.constants import SHIPPED_DIRECTIONS
from attn.runtime.letter_formulas import formula_apart, letter_formula
from attn.runtime.quantities import as_target_writes, kept, quantity_spans
from attn.runtime.sentences import mark_apart
from attn.runtime.verbatim import number_written
from attn.runtime.words import ordinary_spaces
from benchmarks import person_titles, price_forms
from benchmarks.abbreviation_forms import abbreviations_right
from benchmarks.date_forms import date_written
from benchmarks.ordinal_forms import given_right as ordinal_given_right
from benchmarks.report import (
    DEV_FILES,
    as_the_model_wrote,
    command_line,
    data_option,
    finish,
    installed_model,
    read_and_unread,
    table,
)


def dates_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(dates of `sources` given right in their translations, dates of `sources`)."""
    found = [
        (date.groupdict(), translation)
        for text, translation in zip(sources, translations)
        for date in dates.DATES[source].finditer(text)
    ]
    right = sum(
        date_written(
            int(date["day"] or date["first_day"]),
            dates.month_number(date["month"] or date["first_month"], source) - 1,
            date["year"] or date.get("first_year"),
            translation,
            target,
        )
        for date, translation in found
    )
    return right, len(found)


def prices_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(prices of `sources` given right in their translations, prices of `sources`)."""
    found = [
        (price, translation)
        for text, translation in zip(sources, translations)
        for price in prices.PRICES[source].finditer(text)
    ]
    right = sum(
        price_forms.given_right(price["whole"] + (price["cents"] or ""), price["sign"], translation, "")
        for price, translation in found
    )
    return right, len(found)


def written_prices_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(prices of `sources` their translations write as the target writes prices: the amount in its
    marks, then the sign, prices of `sources`)."""
    found = [
        (prices.NOT_DIGIT.sub("", price["whole"]), price["cents"] or "", price["sign"], translation)
        for text, translation in zip(sources, translations)
        for price in prices.PRICES[source].finditer(text)
    ]
    right = sum(
        f"{number_written(whole, cents, target)} {sign}" in translation for whole, cents, sign, translation in found
    )
    return right, len(found)


def spaces_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(translations without a soft hyphen, which the models wrote for a no-break space, translations)."""
    return sum("\u00ad" not in translation for translation in translations), len(translations)


def quotes_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(sentences whose translation holds as many double quotation marks as the sentence, sentences);
    single ones are apostrophes too ("l’homme")."""
    marks = (set(quotes.CLOSED_BY) | quotes.CLOSING) - quotes.SINGLE

    def count(text: str) -> int:
        return sum(character in marks for character in text)

    return sum(count(text) == count(translation) for text, translation in zip(sources, translations)), len(sources)


def titles_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(titles of `sources` whose name follows a title of the target language in their translations
    (benchmarks/person_titles.py EXPECTED), titles)."""
    found = [
        (title.end(), text, translation)
        for text, translation in zip(sources, translations)
        for title in titles.titles_in(text, source)
    ]
    written = {title for forms in person_titles.EXPECTED[target].values() for title in forms}
    right = sum(
        any(f"{title} {text[end:].split()[0].rstrip(',.;:')}" in translation for title in written)
        for end, text, translation in found
    )
    return right, len(found)


def titled_names(sentence: str, source: str, target: str) -> list[str]:
    """The names after persons' titles in `sentence` (runtime/person_names.py), read as the models read it."""
    read = titles.read_titles(sentence, source, target)
    return [read[start:end] for start, end in person_names.names_after_titles(read, source, target)]


def names_kept_right(named, sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(names of `sources` that their translations hold as written, names): `named`(sentence,
    source, target) finds a sentence's names (titled_names, given_named)."""
    found = [
        (name, translation) for text, translation in zip(sources, translations) for name in named(text, source, target)
    ]
    return sum(name in translation for name, translation in found), len(found)


@functools.cache
def known_words(source: str, target: str) -> frozenset[str] | None:
    """The installed model's training words of `source` → `target` (LoadedModel.known_words)."""
    return installed_model(source, target).known_words


def given_named(sentence: str, source: str, target: str) -> list[str]:
    """The persons' names after given names in `sentence` (runtime/person_names.py), as the
    installed model of `source` → `target` finds them."""
    return [
        sentence[name.start : name.end]
        for name in person_names.names_after_given_names(sentence, source, known_words(source, target))
    ]


def numeric_dates_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(dates `sources` write in digits (runtime/numeric_dates.py) that their translations give as
    the target writes dates, such dates)."""
    found = [
        (date, translation)
        for text, translation in zip(sources, translations)
        for date in numeric_dates.dates_in_digits(text, source)
    ]
    right = sum(
        date_written(int(date["day"]), int(date["month"]) - 1, date["year"] and int(date["year"]), translation, target)
        for date, translation in found
    )
    return right, len(found)


def streets(sentence: str, source: str, target: str) -> list[str]:
    """The streets with their numbers (and postal lines) in `sentence` (runtime/street_addresses.py)."""
    return [sentence[start:end] for start, end in street_addresses.street_spans(sentence, source)]


def companies(sentence: str, source: str, target: str) -> list[str]:
    """The companies' names with their legal forms in `sentence` (runtime/company_names.py)."""
    return [sentence[start:end] for start, end in company_names.company_spans(sentence)]


def kept_as_written(rule: str, found, directions) -> tuple:
    """The RULES entry of `rule` (its module and name under attn.runtime), which keeps as written what
    `found`(sentence, source, target) finds (persons' names, streets): the rows whose source holds
    one, in `directions`, counted by names_kept_right; switched off, it finds none."""
    return (
        rule,
        lambda sentence, source, target: sentence + " (held)" if found(sentence, source, target) else sentence,
        directions,
        functools.partial(names_kept_right, found),
        lambda *arguments: [],
    )


def places_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(place names of `sources` whose name in the target language their translations hold, place
    names), each name the table has that the target writes otherwise (runtime/place_names.py)."""
    pattern, written = place_names.places_read(source, target)
    found = [
        (written[name.group().replace("’", "'")], translation)
        for text, translation in zip(sources, translations)
        for name in pattern.finditer(text)
    ]
    return sum(place_names.names_place(translation, name) for name, translation in found), len(found)


def marks_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(translations that open with their source's list or dialogue mark and, after it, a word
    opening as the source's does, in a capital or not; sources)."""

    def opening(text: str) -> tuple[str, bool]:
        mark, *rest = mark_apart(text) + [""]
        return mark, rest[0][:1].isupper()

    return sum(opening(text) == opening(translation) for text, translation in zip(sources, translations)), len(sources)


def formulas_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(sentences whose translation is the target's formula for them, sentences)."""
    formulas = [letter_formula(text, source, target) for text in sources]
    return sum(f is not None and f.text == t for f, t in zip(formulas, translations)), len(sources)


def openings_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(sentences opening with a letter's formula whose translation opens with the target's formula
    for it, such sentences)."""
    openings = [formula_apart(text, source, target)[0] for text in sources]
    formulas = [letter_formula(opening, source, target) for opening in openings]
    right = sum(f is not None and t.startswith(f.text) for f, t in zip(formulas, translations))
    return right, sum(f is not None for f in formulas)


def ordinals_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(ordinals of `sources` written with digits that their translations give as the target writes
    ordinals, such ordinals)."""
    found = [
        (number, translation)
        for text, translation in zip(sources, translations)
        for number in ordinals.source_ordinals(text.split(), source).values()
    ]
    return sum(ordinal_given_right(number, translation, target, None) for number, translation in found), len(found)


def scales_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(scale words of `sources` whose value their translations write as the target does, scale words)."""
    found = [
        (value, translation)
        for text, translation in zip(sources, translations)
        for value in (scales.SCALES[source].get(scales.core(word)) for word in text.split())
        if value is not None
    ]
    right = sum(
        any(scales.SCALES[target].get(scales.core(word)) == value for word in translation.split())
        for value, translation in found
    )
    return right, len(found)


def quantities_right(sources: list[str], translations: list[str], source: str, target: str) -> tuple[int, int]:
    """(quantities of `sources` that their translations keep as the target writes them, quantities)."""
    found = [
        (as_target_writes(text[start:end], source, target), translation)
        for text, translation in zip(sources, translations)
        for start, end in quantity_spans(text, source)
    ]
    return sum(kept(quantity, target, translation) for quantity, translation in found), len(found)


# Each rule: its function where the text pipeline calls it (module.name under attn.runtime), the directions it reads, how its items are counted,
# and what reads a sentence as it is in its place
AS_IS = lambda sentence, *languages: sentence  # noqa: E731
RULES = {
    "dates": ("source_reading.read_dates", dates.read_dates, dates.READ, dates_right, AS_IS),
    "prices": ("source_reading.read_prices", prices.read_prices, prices.READ, prices_right, AS_IS),
    "written-prices": (
        "texts.prices_given",
        # the rows whose source holds a price; the rule writes the translation's copy as the target does
        lambda sentence, source, target: sentence + " (price)" if prices.PRICES[source].search(sentence) else sentence,
        prices.GIVEN,
        written_prices_right,
        as_the_model_wrote,
    ),
    "abbreviations": (
        "source_reading.read_abbreviations",
        abbreviations.read_abbreviations,
        SHIPPED_DIRECTIONS,
        abbreviations_right,
        AS_IS,
    ),
    "spaces": (
        "source_reading.ordinary_spaces",
        lambda sentence, source, target: ordinary_spaces(sentence),
        SHIPPED_DIRECTIONS,
        spaces_right,
        AS_IS,
    ),
    "titles": ("source_reading.read_titles", titles.read_titles, titles.READ, titles_right, AS_IS),
    "places": (
        "source_reading.read_places",
        # the rows whose source holds a name the rule may read (it asks the model about each: none learned here)
        lambda sentence, source, target: place_names.read_places(sentence, source, target, lambda probe: ""),
        place_names.READ,
        places_right,
        AS_IS,
    ),
    "repaired": (
        "texts.places_written",
        # the same rows as "places"; the rule repairs the translation's word for a place (places_written)
        lambda sentence, source, target: place_names.read_places(sentence, source, target, lambda probe: ""),
        place_names.READ,
        places_right,
        as_the_model_wrote,
    ),
    "ordinals": (
        "texts.ordinals_given",
        # the rows whose source holds an ordinal written with digits; the rule repairs the translation
        lambda sentence, source, target: (
            sentence + " (ordinal)" if ordinals.source_ordinals(sentence.split(), source) else sentence
        ),
        ordinals.GIVEN,
        ordinals_right,
        as_the_model_wrote,
    ),
    "scales": (
        "texts.scales_given",
        # the rows whose source holds a scale word; the rule repairs the translation
        lambda sentence, source, target: (
            sentence + " (scale)"
            if any(scales.core(word) in scales.SCALES[source] for word in sentence.split())
            else sentence
        ),
        SHIPPED_DIRECTIONS,
        scales_right,
        as_the_model_wrote,
    ),
    "quantities": (
        "second_searches.SecondSearches.quantities_lost",
        # the rows whose source holds a quantity; the rule searches again a sentence that lost one
        lambda sentence, source, target: sentence + " (quantity)" if quantity_spans(sentence, source) else sentence,
        SHIPPED_DIRECTIONS,
        quantities_right,
        lambda *arguments: {},
    ),
    "names": kept_as_written("source_reading.names_after_titles", titled_names, titles.READ),
    # the rule searches again a sentence whose translation lost one
    "given-names": kept_as_written("second_searches.names_after_given_names", given_named, SHIPPED_DIRECTIONS),
    "numeric-dates": (
        "source_reading.read_numeric_dates",
        numeric_dates.read_numeric_dates,
        numeric_dates.READ,
        numeric_dates_right,
        AS_IS,
    ),
    "streets": kept_as_written("source_reading.street_spans", streets, SHIPPED_DIRECTIONS),  # set aside from the search
    "companies": kept_as_written("source_reading.company_spans", companies, SHIPPED_DIRECTIONS),  # so too
    "formulas": (
        "texts.letter_formula",
        lambda sentence, source, target: getattr(letter_formula(sentence, source, target), "text", sentence),
        SHIPPED_DIRECTIONS,
        formulas_right,
        lambda *arguments: None,
    ),
    "openings": (
        "texts.formula_apart",
        lambda sentence, source, target: (
            sentence + " (apart)" if len(formula_apart(sentence, source, target)) > 1 else sentence
        ),
        SHIPPED_DIRECTIONS,
        openings_right,
        lambda sentence, *languages: [sentence],
    ),
    "marks": (
        "texts.mark_apart",
        lambda sentence, source, target: sentence if len(mark_apart(sentence)) == 1 else "",
        SHIPPED_DIRECTIONS,
        marks_right,
        lambda sentence: [sentence],
    ),
    "quotes": (
        "source_reading.unquoted",
        lambda sentence, source, target: quotes.unquoted(sentence).text,
        quotes.READ,
        quotes_right,
        lambda sentence, *kept: quotes.Quotations(sentence, []),
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule", choices=sorted(RULES), required=True)
    data_option(parser)
    parser.add_argument("--show", type=int, default=0, help="rows listed per direction where the two differ")
    parser.add_argument("--per-file", action="store_true", help="a table for each dev file")
    parser.add_argument(
        "--files", nargs="+", default=DEV_FILES, help="the files (NAME.tsv.gz), held-out ones to report"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    name, read, directions, right, left_as_is = RULES[args.rule]
    translator = attn.load(notify=lambda note: None)
    pairs = [
        ("en-de" if "de" in languages else "en-fr", *languages, languages[0] != "en")
        for languages in sorted(directions)
    ]
    header = ["direction", f"{args.rule} read", "rows", f"{args.rule} given right", "BLEU", "chrF"]
    lines = [
        command_line(),
        "",
        f"Rows ({', '.join(args.files)}) whose source attn.runtime.{name} changes; the installed "
        "models' default search.",
    ]
    for files in [[file] for file in args.files] if args.per_file else [args.files]:
        rows, shown = read_and_unread(translator, args.data, files, pairs, name, read, right, args.show, left_as_is)
        if rows:
            lines += [
                "",
                *([f"{files[0]}:", ""] if args.per_file else []),
                table(header, rows),
                *([""] + shown if shown else []),
            ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
