"""A line or paragraph as sentences, for translation one sentence at a time; a document's
sentences, its lines read too, for summaries.

The segmenter is sentencex (Wikimedia; rules for about 300 languages, no model files), chosen
over pysbd and syntok (docs/studies/SENTENCES.md): as many of
the test splits' sentence boundaries found as the best of the three, fewer cuts inside sentences
than pysbd, and 200 times faster.
"""

from __future__ import annotations

import re

from sentencex import segment

from .abbreviations import abbreviation_ends
from .constants import LIST_MARKS
from .dates import MONTHS, SHORT_MONTHS
from .kitchen_units import within_measure
from .mail import SIGNATURE_LINES, closes
from .tokenizer import valid_unicode
from .verbatim import ADDRESS
from .words import has_words


def split_sentences(text: str, language: str) -> list[str]:
    """The sentences of `text`, stripped, in order. Only cuts between whitespace-separated words
    are kept (a cut inside a word, as in "file.Then" or "config.{guess,sub}", joins the two pieces
    around it and no others), so the sentences' words are exactly the text's words (word
    alignments and `--replace-unk` rely on that); a text with one sentence, or none, comes back
    whole. Lone surrogates become U+FFFD first, as the tokenizer would make them."""
    text = valid_unicode(text)
    ends, position = [], 0
    for sentence in segment(language, text):
        sentence = sentence.strip()
        start = text.find(sentence, position) if sentence else -1
        if start < 0:
            continue
        position = start + len(sentence)
        if position < len(text) and text[position].isspace() and not within_sentence(text, position, language):
            ends.append(position)
    starts = [0, *ends]
    sentences = [text[start:end].strip() for start, end in zip(starts, [*ends, len(text)])]
    sentences = [s for s in sentences if s]
    if len(sentences) < 2 or [w for s in sentences for w in s.split()] != text.split():
        return [text]
    return sentences


# Words written with a point that ends no sentence, in small letters, by language: titles and
# abbreviations sentencex cut after ("Please contact Ms." | "Lee tomorrow." had lost the name;
# "approx." | "10 hours", "inkl." | "Versand 5 Euro"), besides those the model is given a reading
# of (runtime/abbreviations.py); not a word of the language ("est", "vol")
ABBREVIATIONS = {
    "en": frozenset("mr mrs ms dr prof incl excl vs jr sr ca e.g i.e".split())
    | frozenset("gov sen rep gen col lt sgt capt st rev hon supt cmdr adm maj".split()),  # titles before a name
    "de": frozenset("str hr fr ca dr prof".split()),
    "fr": frozenset("m mme mlle mm dr cf".split()),
}
NEAR = 64  # characters on each side of a cut that within_sentence reads
ORDINAL = re.compile(r"\d{1,2}\.$")  # a day of a German date ("am 3. Jan. 2025"), an ordinal ("im 2. Stock")
# The words before a German ordinal that no sentence ends after: articles, prepositions with one,
# possessives ("Der 2. Stock", "im 21. Jahrhundert", "mein 30. Geburtstag" had been cut in two), and
# an ordinal after another and "und", "oder" or "bis" ("das 3. und 4. Kapitel"); "am" or "den" only
# before a noun an ordinal counts (COUNTED), as a date may end a sentence ("Wir kamen am 2. Dann …",
# "Montag, den 2. Bis dann!")
ORDINALS_JOINED = frozenset({"und", "oder", "bis"})
# "am" and "den" before an ordinal and a noun an ordinal counts ("Am 2. Tag besuchten wir Rom.", "den
# 1. Platz" had been cut in two), by its last part ("Jahrestag", "Weltkrieg"); not before another
# word, which may open a sentence after a date ("Wir sehen uns am 3. Morgen schreibe ich.")
BEFORE_A_DATE = frozenset({"am", "den"})
COUNTED = (
    "tag mal platz stock stelle jahrhundert jahrtausend kapitel klasse runde preis etage geschoss advent krieg "
    "jahr quartal semester monat woche versuch teil band auflage grad rang liga lauf rennen etappe stufe "
    "sitzung spiel saison"
).split()
GERMAN_DETERMINERS = frozenset(
    "der die das dem des im zum zur vom beim ins ans ein eine einem einen einer eines jede jeder jedem "
    "jeden jedes diese dieser diesem diesen dieses".split()
    + [
        f"{stem}{ending}"
        for stem in ("mein", "dein", "sein", "ihr", "unser", "eur")
        for ending in ("", "e", "em", "en", "er", "es")
    ]
    + ["euer"]
)


def within_sentence(text: str, position: int, language: str) -> bool:
    """Whether a cut at `position` (after the sentence's point, before whitespace) falls inside a
    sentence: after an abbreviation or title (ABBREVIATIONS, runtime/abbreviations.py), a day before
    its month ("3. Jan.") or a German ordinal after an article or a possessive (GERMAN_DETERMINERS:
    "im 2. Stock") or after "am" or "den" before a noun ("Am 2. Tag", not "am 2. Dann"), an English
    month's short form before its day ("Sept. 3"), a name's initial ("Dan J. Fogelman") or a
    spoon's point ("2 c. à soupe": runtime/kitchen_units.py within_measure). Not before a word in
    small letters: a package's name opens many a sentence of the software test files."""
    # the word before the cut and the one after it, from a window around it (not the whole text
    # sliced and split at each cut); a longer word is no abbreviation, day or month
    before = text[max(0, position - NEAR) : position].rsplit(None, 3)[-3:]
    after = text[position : position + NEAR].split(None, 1)[:1]
    if not before or not after:
        return False
    word = before[-1]
    if not word.endswith("."):
        return False
    core = word.rstrip(".").lstrip("(\"'«„“")
    month = after[0].lower().rstrip(".,") in MONTHS
    earlier = [word.lstrip("(\"'«„“").lower() for word in before[:-1]]
    joined = len(earlier) == 2 and earlier[1] in ORDINALS_JOINED and bool(ORDINAL.search(earlier[0]))
    noun = after[0][:1].isupper() and after[0].lower().strip(".,;:!?").endswith(tuple(COUNTED))
    before_a_noun = bool(earlier) and earlier[-1] in BEFORE_A_DATE and noun
    determined = (bool(earlier) and earlier[-1] in GERMAN_DETERMINERS) or joined or before_a_noun
    ordinal = language == "de" and bool(ORDINAL.search(word)) and (month or determined)
    # an English month's short form before its day, also the second of a range ("Aug. 21-Sept. 3")
    dated = language == "en" and core.rsplit("-", 1)[-1] in SHORT_MONTHS["en"] and after[0][:1].isdigit()
    initial = len(core) == 1 and core.isupper() and after[0][:1].isupper()  # "Dan J. Fogelman"
    known = core.lower() in ABBREVIATIONS.get(language, frozenset()) or abbreviation_ends(text, position, language)
    return known or ordinal or dated or initial or within_measure(text, position, language)


# a list item's mark at the start of a line: a dash, star or bullet, or a number with . or )
LIST_ITEM = re.compile(rf"^\s*(?:[{re.escape(LIST_MARKS)}]|\d{{1,3}}[.)])\s")
# a list item's or a dialogue line's mark opening a sentence, and the spaces after it
OPENING_MARK = re.compile(rf"([{re.escape(LIST_MARKS)}]{{1,3}})\s+")  # "- ", "-- ", "• "


def mark_apart(sentence: str) -> list[str]:
    """A sentence that opens with a list or dialogue mark ("- I think so.") as the mark and the
    sentence after it, each a text of its own: read with its mark, a sentence was translated
    otherwise than alone in a quarter of the everyday sentences, begun in small letters ("- ich
    denke das.", "- the store opens at nine.") or with words lost or written twice ("- Il - Il a
    oublié ses clés"); the mark is given back as it is (docs/studies/LIST-MARKS.md)."""
    opening = OPENING_MARK.match(sentence)
    if opening is None or not has_words(sentence[opening.end() :]):
        return [sentence]
    return [opening.group(1), sentence[opening.end() :]]


SHORT_LINE = 5  # words: a shorter line before a capital ends its sentence (a greeting, a signature's line)
WRAPPED_WORDS = 2 * SHORT_LINE  # words of each line but the last of a paragraph wrapped over lines


def wrapped(lines: list[str]) -> bool:
    """Whether a paragraph's `lines` are one text wrapped: each but the last holds WRAPPED_WORDS
    words or more; shorter lines (a greeting's, a signature's, an address's) are texts of their own."""
    return all(len(line.split()) >= WRAPPED_WORDS for line in lines[:-1])


SENTENCE_ENDS = (".", "!", "?", ":", ";", "…")  # a line ending so may end its sentence
CLOSING_MARKS = "\"'”’»“›)] \u00a0\u202f"  # after a sentence's end: 'he said."', "(see below.)", "dit. »"


FILLED = 0.75  # the shortest line but a paragraph's last, against its longest, of text filled to a width


def wraps_sentences(text: str, filled: bool = False) -> bool:
    """Whether `text` has a paragraph of two lines or more wrapped (`wrapped`)
    inside a sentence (a line before its last ends without a sentence's end): a mail or a document
    pasted as one argument, whose lines are translated each on its own. With `filled`, only a
    paragraph whose lines but the last are as long as FILLED of its longest or more, as a mail
    program or an editor fills them: a file of a sentence a line has lines of any length."""
    paragraphs = [block.split("\n") for block in re.split(r"\n[ \t]*\n", text.strip())]
    return any(
        len(lines) > 1
        and wrapped(lines)
        and any(not line.rstrip().rstrip(CLOSING_MARKS).endswith(SENTENCE_ENDS) for line in lines[:-1])
        and (not filled or min(len(line) for line in lines[:-1]) >= FILLED * max(len(line) for line in lines))
        for lines in paragraphs
    )


def document_blocks(lines: list[str]) -> list[list[int]]:
    """The indexes of the lines of each block of a document whose lines end sentences too: a blank
    line ends one (after a title or a greeting with no full stop), so do a list item's end and,
    where lines are long (one of SHORT_LINE twice over: not a text wrapped narrowly), a line of
    fewer than SHORT_LINE words before a line that begins with a capital (a signature's name or
    title); the other lines of a paragraph are one block, so a wrapped sentence stays whole."""
    long_lines = max((len(line.split()) for line in lines), default=0) >= WRAPPED_WORDS
    blocks: list[list[int]] = []
    fresh = True  # the next line starts a block
    for index, (line, following) in enumerate(zip(lines, [*lines[1:], ""])):
        if not line.strip():
            fresh = True
            continue
        if fresh or (LIST_ITEM.match(line) and not dated_after(lines[index - 1] if index else "", line)):
            blocks.append([])
        blocks[-1].append(index)
        fresh = long_lines and len(line.split()) < SHORT_LINE and following.lstrip()[:1].isupper()
    return blocks


LINE_ENDS = (",", ".", ":", ";", "!", "?")
INTRODUCED_LINES = 8  # the most lines after a colon read as an address's or a list's (paragraph_blocks)
GERMAN_DATE = re.compile(r"\s*\d{1,2}\.\s+([^\W\d_]+)")  # "15. April": a day, its point, a month
# What a German sentence writes right before a date's day ("bis zum 15. April", "am 3. Mai")
BEFORE_A_DAY = frozenset("am zum vom dem den bis ab seit zwischen und oder".split())


def dated_after(previous: str, line: str) -> bool:
    """Whether `line`, which opens as a numbered list item does ("15. April auf unser Konto."),
    opens with a German date's day and month that the word ending the `previous` line leads to
    (BEFORE_A_DAY: "Bitte überweisen Sie den Betrag bis zum" had been cut from its date; a list of
    dates, "1. Januar: Neujahr", stays a list)."""
    day = GERMAN_DATE.match(line)
    last = previous.split()[-1:]
    return day is not None and day[1].lower() in MONTHS and bool(last) and last[0].lower() in BEFORE_A_DAY


def wrapped_after(lines: list[str]) -> bool:
    """Whether one of `lines` opens in small letters, as a wrapped sentence's next line does (an
    e-mail address or URL aside: "Tom Baker" / "tom.baker@mailbox.org")."""
    return any(line.lstrip()[:1].islower() and not ADDRESS.match(line.lstrip()) for line in lines)


def paragraph_blocks(lines: list[str]) -> list[list[int]]:
    """The blocks of one paragraph's `lines` (no blank line among them), each read as a text:
    document_blocks', or each line where every line is shorter than SHORT_LINE words, none but the
    first begins in small letters, as a wrapped sentence's would (an e-mail address or URL is no
    sentence's word: "Tom Baker" / "tom.baker@mailbox.org"), and there are three or more or each
    but the last ends with a mark (LINE_ENDS: "Thanks," / "Tom") or is a letter's closing ("Mit
    freundlichen Grüßen" / "Jürgen Müller", which had become "Friendly Greetings"): an address, a signature
    (`attn translate --paragraphs` had run them into one line, lists too; not "Meeting moved to" /
    "Friday at 3 pm."); a letter's closing and the signature after it (runtime/mail.py `closes`, up
    to SIGNATURE_LINES lines) each line a text, whatever their length ("Kind regards," / "Jane Doe" /
    "Phone: +44 20 7946 0958" had run into "Abgesehen von Jane Doe …"); a line ending with a
    colon before the paragraph's last INTRODUCED_LINES lines or fewer, where those are each a text
    of their own so, a text of its own too ("Please send it to this address:" / "Example GmbH" /
    "Hauptstraße 5" / "10115 Berlin" had run into one line)."""
    closing = next(
        (
            index
            for index in range(max(0, len(lines) - SIGNATURE_LINES - 1), len(lines) - 1)
            if lines[index].lstrip()[:1].isupper() and closes(lines[index], lines[index + 1 :])
        ),
        None,
    )
    if closing is not None and wrapped_after(lines[closing + 1 :]):  # "a big / thank you, / to all the volunteers"
        closing = None
    if closing is not None:
        return [
            *(paragraph_blocks(lines[:closing]) if closing else []),
            *([index] for index in range(closing, len(lines))),
        ]
    introduced = next(
        (
            index
            for index in range(max(0, len(lines) - INTRODUCED_LINES - 1), len(lines) - 1)
            if lines[index].rstrip().endswith(":") and own_lines(lines[index + 1 :])
        ),
        None,
    )
    if introduced is not None:  # "… to this address:" / "Example GmbH" / "Hauptstraße 5" / "10115 Berlin"
        head = lines[: introduced + 1]
        return [*lines_or_blocks(head), *([index] for index in range(introduced + 1, len(lines)))]
    return lines_or_blocks(lines)


def own_lines(lines: list[str]) -> bool:
    """Whether a paragraph's `lines` are each a text of their own (paragraph_blocks): two or more,
    each shorter than SHORT_LINE words, three or more or each but the last ending with a mark or
    a closing, none but the first opening in small letters as a wrapped sentence's would."""
    short = all(len(line.split()) < SHORT_LINE for line in lines)
    shaped = len(lines) >= 3 or all(line.rstrip().endswith(LINE_ENDS) or closes(line, lines[1:]) for line in lines[:-1])
    return len(lines) > 1 and short and shaped and not wrapped_after(lines[1:])


def lines_or_blocks(lines: list[str]) -> list[list[int]]:
    """Each line a block where they are own_lines, else document_blocks."""
    return [[index] for index in range(len(lines))] if own_lines(lines) else document_blocks(lines)


def document_sentences(text: str, language: str) -> list[str]:
    """The sentences of a document, its blocks (document_blocks) read as texts: each sentence's
    whitespace folded; their words are the document's words, in order."""
    lines = text.splitlines()
    return [
        " ".join(sentence.split())
        for block in document_blocks(lines)
        for sentence in split_sentences(" ".join(lines[index] for index in block), language)
    ]


def joined(sentences: list[str]) -> str:
    """Sentences as one line, a list item's mark left out: a space after one that ends with its
    punctuation, a dash after one that does not (a title or a list item), so that the next does
    not read as its continuation."""
    text = ""
    for sentence in sentences:
        separator = "" if not text else " " if text[-1] in ENDINGS else " — "
        text += separator + LIST_ITEM.sub("", sentence, count=1)
    return text


ENDINGS = ".!?:;…\"'”’)»"  # the last characters of a sentence that ends with its punctuation
