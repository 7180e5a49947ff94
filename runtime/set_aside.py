"""Tokens set aside from the search: e-mail addresses, URLs, file names ("Rechnung.pdf"), media types ("application/json"), international phone numbers, hashtags
and @handles, code in backquotes, template expressions ("{{ user.name }}"), reference marks against a word ("old.[1]"), emoji and signs ("😀", "✓", "•", "§") and, in a language written
in Latin letters, words in another script ("Москва", "東京") never reach the model (with
`--replace-unk`, the translation models' default).

Such a token is no language: a model reads its parts as words and translates them
("support@example.com" → "Unterstützung…", `git status` → »gitstatus«), and the sentence around
it suffers ("I forwarded the invoice to accounting@example.net yesterday afternoon." → "Ich habe
die Rechnung für gestern Nachmittag vor.net gestern Nachmittag weitergeleitet."). Each is replaced
by a numbered format placeholder ("{0}", a number the sentence does not use), which the models
learned to copy from software strings, and put back in its place after the search; the word
alignment is then over the words the user wrote: each word of a token put back is linked to the
same word of the source's, and the attention the placeholder received is shared among the
token's words. A placeholder the model dropped goes in beside the output word that attended to
it most; one it wrote twice is kept where it is linked most strongly. Chosen on sentences of our
own (docs/studies/SET-ASIDE.md).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .alignment import WordAlignment
from .language_id import LATIN_SCRIPT, latin_letters
from .verbatim import ADDRESS, MEDIA_TYPE, SET_ASIDE_SIGN
from .words import WHITESPACE_WORD, elided_head, has_words, word_spans

# Code in backquotes, not an apostrophe typed as one ("it`s": no letter or digit outside the pair)
# nor a lone backquote and the next one ("type ` or `'`": no space inside either end).
CODE = r"(?<![\w`])`[^`\s](?:[^`\n]*[^`\s])?`(?![\w`])"
# A template's expression or tag (Jinja, Django, Liquid, Handlebars, Vue: "{{ user.name }}",
# "{% url 'home' %}"): the models wrote "{Zzählung }" for "{{ count }}".
TEMPLATE = r"\{\{[^{}\n]*\}\}|\{%(?:(?!\{%)[^\n])*?%\}"  # a tag ends before the next one opens
TEMPLATE_TOKEN = re.compile(TEMPLATE)
# A URL with template expressions in it ("https://example.com/users/{{ user.id }}/edit") is one token
TEMPLATED_URL = rf"(?:https?://|www\.)(?:{TEMPLATE}|\S)+"
# An international phone number: "+", its country's code and groups of digits between single
# spaces, hyphens, points or a bracketed trunk "(0)", eight digits or more ("+44 20 7946 0958" had
# become "+44 0958" in French)
PHONE = r"(?<![\w+])(?=\+(?:[ .()-]{0,2}\d){8})\+\d{1,3}(?:[ .-]?(?:\(0\)|\(\d{1,4}\)|\d{1,5})){2,8}(?![\w+])"
# A hashtag or a handle ("#help", "@example" had become "#hilfe", "@beispiel"): a letter or "_" opens
# it, not a number ("#1") nor a character reference ("&#x27;"), and no word runs into it ("C#")
TAG = r"(?<![\w@#&])[#@](?=[^\W\d])\w+(?:[.-]\w+)*"
# A file's name with a known extension ("Rechnung.pdf", "report.xlsx": the models had translated the
# name and doubled the extension, "bill.pdf.pdf", "Bericht hinzugefügt.xlsxlsx")
EXTENSIONS = (
    "pdf doc docx xls xlsx ppt pptx odt ods odp rtf txt csv tsv jpg jpeg png gif svg webp heic tif tiff "
    "zip rar 7z gz tgz mp3 mp4 m4a mov avi wav mkv html htm json xml yaml yml md ics vcf eml msg exe msi apk dmg iso"
).split()
# its extension in small letters or capitals ("gut.Doc kommt" is a missing space)
FILE_NAME = rf"(?<![\w./@\\-])\w[\w.-]*\.(?:{'|'.join(EXTENSIONS + [e.upper() for e in EXTENSIONS])})(?![\w-]|\.\w)"
# A reference's mark written against the word or point before it, as an encyclopedia's page has
# them ("old.[1]", "1887.[2][3]"): read as the word's, the models had left "old.[1]" untranslated
# and written "1887.[2] gebaut.[2]"
CITATION_MARKS = r"(?:\[\d{1,3}\])+"
CITATION_TOKEN = re.compile(CITATION_MARKS)
CITATION = rf"(?<=[^\s\[(]){CITATION_MARKS}"
SET_ASIDE = re.compile(
    rf"{CITATION}|{CODE}|{TEMPLATED_URL}|{TEMPLATE}|{ADDRESS.pattern}|{PHONE}|{TAG}|{MEDIA_TYPE.pattern}|{FILE_NAME}"
)
# What ends a sentence or a clause after a URL, not the URL ("see https://example.org/a.",
# „https://example.org/a“); a closing bracket is the URL's when the URL opened it.
CLAUSE_END = ".,;:!?…"
TRAILING = CLAUSE_END + "\"'»«”“’‘›‹"
BRACKETS = {")": "(", "]": "[", "}": "{"}
SENTENCE_END = re.compile(r"[.!?…]+$")
SENTENCE_WORDS = 3  # words on each side of a sign that parts two sentences
REGIONAL_INDICATORS = frozenset(map(chr, range(0x1F1E6, 0x1F200)))  # a flag's two letters ("🇫🇷")


@dataclass(frozen=True)
class SetAside:
    """A sentence as the model reads it (`text`) and the token each placeholder stands for; where
    the model reads the sentence's words otherwise (runtime/clock.py), the sentence as `written`;
    a token the translation writes otherwise by its placeholder in `in_target` (a quantity's
    number in the target's marks: runtime/quantities.py)."""

    text: str
    tokens: dict[str, str]
    written: str | None = None
    in_target: dict[str, str] = field(default_factory=dict)
    lowered: bool = False  # read with its first letter in small letters (runtime/second_searches.py openers_copied)

    def written_in_target(self, placeholder: str) -> str:
        """The token of `placeholder` as the translation writes it."""
        return self.in_target.get(placeholder, self.tokens[placeholder])

    @property
    def nothing_else(self) -> bool:
        """Whether the sentence holds no word but its tokens (it is given back as it is)."""
        return bool(self.tokens) and not has_words(SET_ASIDE_SIGN.sub("", self.text))


def _token_end(match: re.Match) -> int:
    """Where the token found by `match` ends: a URL's trailing punctuation is the sentence's,
    but a closing bracket whose opening one the URL holds is the URL's."""
    token = match.group(0)
    if token.startswith("`"):
        return match.end()
    while token and (
        token[-1] in TRAILING or (token[-1] in BRACKETS and token.count(BRACKETS[token[-1]]) < token.count(token[-1]))
    ):
        token = token[:-1]
    return match.start() + len(token)


def outside_tokens(sentence: str, read: Callable[[str], str]) -> str:
    """`sentence` with `read` applied to each stretch between its tokens (SET_ASIDE: code, URLs,
    addresses, phone numbers, templates), the tokens as they are: a rule that reads times, dates
    or prices otherwise leaves `date -d "June 3"` and https://example.org/$5 alone."""
    parts, position = [], 0
    for start, end in token_spans(sentence):
        parts += [read(sentence[position:start]), sentence[start:end]]
        position = end
    return "".join(parts) + read(sentence[position:])


def token_spans(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each token of `sentence` to set aside (SET_ASIDE), in order."""
    return [(token.start(), _token_end(token)) for token in SET_ASIDE.finditer(sentence)]


def _elided_before(before: str, language: str) -> bool:
    """Whether `before` ends with an elided word of `language` ("Lisez l'"), no space after it."""
    last = before.split()[-1] if before.strip() and not before[-1].isspace() else ""
    return bool(last) and elided_head(last + "x", language) == len(last)


def _core(word: str) -> tuple[int, int]:
    """Where `word` begins and ends without the punctuation and symbols at its edges, which are the
    sentence's; a combining vowel sign at its end is the word's ("नमस्ते", "สวัสดี")."""
    start, end = 0, len(word)
    while start < end and unicodedata.category(word[start])[0] in "PS":
        start += 1
    while end > start and unicodedata.category(word[end - 1])[0] in "PS":
        end -= 1
    return start, end


def _other_script_words(sentence: str, language: str) -> list[tuple[int, int]]:
    """Character ranges of the runs of words without a Latin letter in a sentence of a language
    written in Latin letters ("Москва", "東京都": runtime/language_id.py), punctuation at their
    edges left out: a model of such a language reads them as bytes it never saw."""
    if language not in LATIN_SCRIPT or sentence.isascii():
        return []
    runs: list[tuple[int, int]] = []
    for word in WHITESPACE_WORD.finditer(sentence):
        first, last = _core(word.group())
        latin, letters = latin_letters(word.group()[first:last])
        if letters and not latin:
            start, end = word.start() + first, word.start() + last
            if runs and not sentence[runs[-1][1] : start].strip():
                start = runs.pop()[0]  # "Владимир Путин": one run
            runs.append((start, end))
    return runs


# Emoji, pictographs and the signs outside ASCII that are no letter of a language ("😀", "✓", "★",
# "•", "§", "≈", "£"): a model reads those its training text rarely held as bytes, wrote others
# ("Thanks 😀" → "Vielen Dank ğ​�s", "Use the ✓ button." → "… Knopf −�.") and lost the words beside
# them. Symbols of these categories, punctuation outside ASCII but WRITING_PUNCTUATION (that of
# the languages of the shipped models; a model's vocabulary that holds another's whole reads it:
# _sign_runs), and the characters that join or modify signs into one (the zero-width joiner,
# variation selectors, the keycap, tag characters).
SIGN_CATEGORIES = frozenset({"So", "Sm", "Sk", "Sc", "Co", "Cn", "Cs"})
SIGN_JOINERS = frozenset("\u200d\ufe0e\ufe0f\u20e3") | {chr(code) for code in range(0xE0020, 0xE0080)}
WRITING_PUNCTUATION = frozenset("…·¿¡")


def is_sign(character: str) -> bool:
    """Whether `character` is a sign or part of one: of SIGN_CATEGORIES, SIGN_JOINERS, or
    punctuation outside ASCII but WRITING_PUNCTUATION."""
    if character.isascii():
        return False
    category = unicodedata.category(character)
    return (
        category in SIGN_CATEGORIES
        or character in SIGN_JOINERS
        or (category == "Po" and character not in WRITING_PUNCTUATION)
    )


def is_currency(text: str) -> bool:
    """Whether `text` is a currency's sign outside ASCII ("€", "£"), or signs and spaces (is_sign)
    of which one is."""
    return any(unicodedata.category(c) == "Sc" for c in text) and all(c == " " or is_sign(c) for c in text)


def _sign_runs(
    sentence: str, model_writes: Callable[[str], bool], currency_read: bool = False
) -> list[tuple[int, int]]:
    """Character ranges of the runs of signs (is_sign) in `sentence`, spaces between two of them
    included ("⭐ ⭐ ⭐"), that hold a character the model does not write whole (`model_writes`: its
    tokenizer has the character as a piece of its own, from training text that held it often:
    "▸" in menu paths of software help; not a currency sign, which en-de held whole and dropped
    beside its number: "costs €5" → "kostet5", unless `currency_read`), decided for the run whole (a heart the vocabulary holds,
    with the variation selector it does not: both set aside, or a lone selector would be placed
    apart); not one inside a word, with a letter or digit on each side ("don´t")."""
    if sentence.isascii():
        return []
    runs: list[tuple[int, int]] = []
    position = 0
    while position < len(sentence):
        if not is_sign(sentence[position]):
            position += 1
            continue
        end = position
        while end < len(sentence) and (
            is_sign(sentence[end]) or (sentence[end] == " " and is_sign(sentence[end + 1 : end + 2] or "a"))
        ):
            end += 1
        inside_word = position > 0 and sentence[position - 1].isalnum() and sentence[end : end + 1].isalnum()
        unread = any(
            not (
                character == " "
                or (model_writes(character) and (currency_read or unicodedata.category(character) != "Sc"))
            )
            for character in sentence[position:end]
        )
        if unread and not inside_word:
            runs.append((position, end))
        position = end
    return runs


def signs_apart(
    sentence: str, model_writes: Callable[[str], bool], pieces: Callable[[str], int] = lambda word: 1
) -> list[str]:
    """`sentence` parted at its signs (_sign_runs) where they stand for a sentence's end or
    opening: the signs that open it (read before the sentence as a placeholder, they had made its
    translation begin in small letters: "👋 how can i help you?") a text of their own, given back
    as they are; a run between two sentences ("sorry to hear that 😞 Let me check your order": the
    first ends without a point, the next opens with a word in capitals that is no name (a word
    the model's vocabulary holds in fewer `pieces` capitalized, nor after a flag: "in 🇬🇧 London
    works", "à 🇫🇷 Paris s'en occupe" are one sentence), each of SENTENCE_WORDS words or more) ends the first (read as one, the second's
    first word had been lost: "que 😞-moi vérifier")."""
    texts, start = [], 0
    for first, last in _sign_runs(sentence, model_writes):
        if not sentence[last : last + 1].isspace():
            continue
        before, after = sentence[start:first].split(), sentence[last:].split()
        opens = first == 0
        opening = after[0].strip(TRAILING) if after else ""
        named = pieces(opening) < pieces(opening.lower())  # "🇬🇧 London", a name the vocabulary holds capitalized
        flag = any(character in REGIONAL_INDICATORS for character in sentence[first:last])  # before a place's name
        between = len(before) >= SENTENCE_WORDS and len(after) >= SENTENCE_WORDS and opening[:1].isupper()
        between = between and not named and not flag
        if (opens and has_words(sentence)) or (between and not before[-1].endswith(tuple(CLAUSE_END))):
            texts.append(sentence[start:last].strip())
            start = last
    return [*texts, sentence[start:].strip()] if texts else [sentence]


def set_aside(
    sentence: str,
    language: str = "",
    model_writes: Callable[[str], bool] = lambda _: False,
    names: Sequence[tuple[int, int]] = (),
    currency_read: bool = False,
) -> SetAside:
    """The sentence with each e-mail address, URL, piece of code in backquotes, run of emoji and
    signs the model does not write whole (_sign_runs), run of words in another script
    (_other_script_words) and person's name (`names`: (start, end) of each, runtime/person_names.py)
    replaced by a numbered placeholder that it does not already use (with `currency_read`, a
    currency's sign the model writes whole is left to it: _sign_runs). After
    an elided word of `language` ("l'https://…", two words as runtime/words.py counts them) the
    placeholder is read apart ("l' {0}"): the model wrote "the{0}" for "l'{0}"."""
    used = set(SET_ASIDE_SIGN.findall(sentence))
    placeholders = (f"{{{number}}}" for number in itertools.count() if f"{{{number}}}" not in used)
    found = sorted(  # of two that start together, the longer ("Mr John.Smith@example.com": the address)
        [(match.start(), _token_end(match)) for match in SET_ASIDE.finditer(sentence)]
        + _other_script_words(sentence, language)
        + _sign_runs(sentence, model_writes, currency_read)
        + list(names),
        key=lambda span: (span[0], -span[1]),
    )
    text, tokens, position = "", {}, 0
    for start, end in found:
        if start < position:
            continue
        placeholder = next(placeholders)
        tokens[placeholder] = sentence[start:end]
        before = sentence[position:start]
        apart = _elided_before(before, language) and tokens[placeholder][0].isalpha()
        text += before + (" " if apart else "") + placeholder
        position = end
    return SetAside(text + sentence[position:], tokens)


def _expanded(word: str, tokens: dict[str, str], language: str) -> list[tuple[str, str | None, int, bool]]:
    """The words of `word` with its placeholders replaced by their tokens (runtime/words.py's
    words), each with the placeholder whose token it shows (None: none), which word of that
    token it is, and whether it holds letters of another word too ("V-Adapter" of "{0}-Adapter",
    "12 V" set aside)."""
    text, spans = "", []  # spans: (start, end, placeholder) of each token in text
    for piece in re.split(f"({SET_ASIDE_SIGN.pattern})", word):
        if piece in tokens:
            spans.append((len(text), len(text) + len(tokens[piece]), piece))
            piece = tokens[piece]
        text += piece
    words = []
    for start, end in word_spans(text, language):
        owner = next((span for span in spans if start < span[1] and end > span[0]), None)
        if owner is None:
            words.append((text[start:end], None, 0, False))
        else:
            first, last, placeholder = owner
            before = word_spans(text[first:start], language) if start > first else []
            beyond = has_words(text[start:first] + text[last:end])
            words.append((text[start:end], placeholder, len(before), beyond))
    return words


def _beside(weights: np.ndarray, nearest: int, source: int) -> int:
    """Where a missing token of source word `source` goes in (weights (T, S)): before the output
    word `nearest` when that word's own strongest source word comes after it, else after it; and
    not inside a run of words on that side ("vor 17:00 Uhr", of "before 5 pm", not "vor 17:00
    support@example.co.uk Uhr": a token the model gave almost no attention is linked to any word)."""
    strongest = weights.argmax(axis=1)  # (T,)
    if strongest[nearest] > source:
        at = nearest
        while at > 0 and strongest[at - 1] > source:
            at -= 1
        return at
    at = nearest + 1
    while at < len(strongest) and strongest[at] < source:
        at += 1
    return at


def _placed_once(alignment: WordAlignment, column: dict[str, int]) -> WordAlignment:
    """The alignment with each placeholder of the source (`column`: its source word's index)
    written exactly once. Of the copies of one the model wrote more than once, the one linked to it
    most strongly stays; the others stand for placeholders it dropped where they are linked to
    them, strongest links first ("{0} … {0}" for "{0} … {1}"), and are taken out otherwise (with
    their word when nothing else of it is a word, its sentence end kept, and the word before it
    where the kept copy has the same one before it: "Dr {1} und Dr {1}", a title repeated with it). One still missing goes
    in beside the output word that attended to it most (_beside), with the brackets or quotes its
    source word has around it, and before the sentence's end."""
    words, weights = list(alignment.target_words), alignment.weights
    spare = []  # (word, placeholder) of each copy beyond the one kept
    kept_at = {}  # the word of each placeholder's copy kept
    for placeholder, source in column.items():
        holding = [index for index, word in enumerate(words) for _ in range(word.count(placeholder))]
        ranked = sorted(holding, key=lambda i: -weights[i, source])
        kept_at.update({placeholder: ranked[0]} if ranked else {})
        spare += [(index, placeholder) for index in ranked[1:]]
    missing = [placeholder for placeholder in column if not any(placeholder in word for word in words)]
    for _, index, copy, placeholder in sorted(
        ((weights[index, column[lost]], index, copy, lost) for index, copy in spare for lost in missing), reverse=True
    ):
        if placeholder in missing and (index, copy) in spare:
            words[index] = words[index].replace(copy, placeholder, 1)
            spare.remove((index, copy))
            missing.remove(placeholder)
    for index, copy in spare:
        words[index] = words[index].replace(copy, "", 1)
        if not has_words(words[index]):
            end = SENTENCE_END.search(words[index]) if index == len(words) - 1 else None
            words[index] = ""
            earlier = [i for i in range(index) if words[i]]
            kept = kept_at[copy]
            if earlier and 0 < kept and earlier[-1] != kept and words[earlier[-1]] == words[kept - 1]:
                words[earlier[-1]] = ""  # the word repeated with it ("Dr {1} und Dr {1}": a title)
                earlier.pop()
            if end and earlier and not SENTENCE_END.search(words[earlier[-1]]):
                words[earlier[-1]] += end.group()
    for placeholder in missing:
        source = column[placeholder]
        written = alignment.source_words[source].rstrip(CLAUSE_END)  # its brackets and quotes, not its comma
        inserted = written if not has_words(written.replace(placeholder, "")) else placeholder
        if not words:
            at = 0
        else:
            nearest = int(np.argmax(weights[:, source]))
            at = _beside(weights, nearest, source)
        if at and (end := SENTENCE_END.search(words[at - 1])):
            words[at - 1], inserted = words[at - 1][: end.start()], inserted + end.group()
        words.insert(at, inserted)
        weights = np.concatenate([weights[:at], np.eye(1, weights.shape[1], source, dtype=weights.dtype), weights[at:]])
    kept = [index for index, word in enumerate(words) if word]
    return WordAlignment(alignment.source_words, [words[index] for index in kept], weights[kept])


def _apart(word: str, placeholders: dict[str, str]) -> str:
    """`word` with a space between a placeholder and a letter or digit the model wrote against it
    ("under{0}." for "unter »{0}«.", "the{0}" for "l' {0}"): no token is set aside with one."""
    for placeholder in placeholders:
        word = re.sub(rf"(?<=\w){re.escape(placeholder)}", f" {placeholder}", word)
        word = re.sub(rf"{re.escape(placeholder)}(?=\w)", f"{placeholder} ", word)
    return word


# Which side of a token the sentence wrote against a word: True (a template: whatever word the
# translation puts there), the word itself (a sign: only that word, "20" of "20°", not the word
# a reordered translation puts there: "€5" → "5 € pro Stück"), or False.
Glue = bool | str


def _glued_tokens(aside: SetAside) -> dict[str, tuple[Glue, Glue]]:
    """Of each template, reference mark or sign token, what the sentence wrote against it before it
    and after it (Glue): what a template renders there has no space, and the translation keeps it
    so ("{% if paid %} bezahlt {% endif %}" had rendered "Ihre Bestellung  bezahlt ."); a reference
    mark stays against the word before it ("Brücke[1]", not "Brücke [1]"); a sign stays on the
    number or word it was written against ("20°", "Anna👋") where the translation keeps it beside it."""
    glued: dict[str, tuple[Glue, Glue]] = {}
    for placeholder, token in aside.tokens.items():
        at = aside.text.find(placeholder)
        end = at + len(placeholder)
        if at < 0:
            continue
        if TEMPLATE_TOKEN.fullmatch(token):
            glued[placeholder] = (aside.text[at - 1 : at].isalnum(), aside.text[end : end + 1].isalnum())
        elif CITATION_TOKEN.fullmatch(token):  # against whatever word the translation writes before it
            glued[placeholder] = (True, False)
        elif all(map(is_sign, token.replace(" ", ""))):
            before, after = re.search(r"\w*$", aside.text[:at]).group(), re.match(r"\w*", aside.text[end:]).group()
            glued[placeholder] = (before or False, after or False)
    return glued


def _against(glue: Glue, word: str, following: bool) -> bool:
    """Whether a token glued so (Glue) is written against `word`: the word after it when
    `following`, else the word before it."""
    if isinstance(glue, bool):
        return glue
    return word.startswith(glue) if following else word.endswith(glue)


def spaced_as_written(text: str, aside: SetAside) -> str:
    """`text`, the words of a translation joined one space apart, with each token set aside in it
    spaced as the sentence wrote it: a token's words are words of the alignment, and `ls    -la`
    or `a  =  b` came back as `ls -la` and `a = b`. Where two tokens or two places in `text` read
    alike one space apart, which is which is not known: those stay as they are."""
    joined = {token: " ".join(token.split()) for token in map(aside.written_in_target, aside.tokens)}
    for token, spaced in joined.items():
        alike = [other for other in joined if joined[other] == spaced]
        if spaced != token and len(alike) == 1 and text.count(spaced) == 1:  # which one is which, unsure otherwise
            text = text.replace(spaced, token)
    return text


def put_back(alignment: WordAlignment, aside: SetAside, source_lang: str, target_lang: str) -> WordAlignment:
    """The alignment of a translation of `aside.text` (or of a part of it) as one of the
    sentence the user wrote: its tokens in place of their placeholders on both sides, a token's
    words in the output linked each to the same word in the source, the attention a placeholder
    received shared among its token's words (module docstring)."""
    source: list[str] = []
    columns: list[list[int]] = []  # the new source columns of each old one
    token_words: dict[tuple[str, int], int] = {}  # (placeholder, word of its token) → source column
    for word in alignment.source_words:
        expanded = _expanded(word, aside.tokens, source_lang)
        columns.append(list(range(len(source), len(source) + len(expanded))))
        for text, placeholder, part, _ in expanded:
            if placeholder is not None:
                token_words.setdefault((placeholder, part), len(source))
            source.append(text)
    column = {
        placeholder: old
        for old, word in enumerate(alignment.source_words)
        for placeholder in SET_ASIDE_SIGN.findall(word)
        if placeholder in aside.tokens
    }
    placed = _placed_once(alignment, column) if column else alignment
    present = {
        placeholder: aside.written_in_target(placeholder) for placeholder in column
    }  # a part's own (chunking.py)
    shared = np.zeros((placed.weights.shape[0], len(source)), np.float32)
    for old, new in enumerate(columns):
        shared[:, new] = placed.weights[:, [old]] / len(new)
    glued = {placeholder: ends for placeholder, ends in _glued_tokens(aside).items() if placeholder in present}
    last_part = {placeholder: len(word_spans(present[placeholder], target_lang)) - 1 for placeholder in glued}
    target, rows = [], []
    glue_next: Glue = False  # how the word before, a token's last, was written against the next word
    for row, word in enumerate(placed.target_words):
        for text, placeholder, part, beyond in _expanded(_apart(word, present), present, target_lang):
            linked = token_words.get((placeholder, part)) if placeholder is not None else None
            weights = shared[row] if linked is None else np.eye(1, len(source), linked, dtype=np.float32)[0]
            if linked is not None and beyond:  # a token's word and another's ("V-Adapter"): linked to both
                weights = (weights + shared[row]) / 2
            before, after = glued.get(placeholder, (False, False))
            if target and (
                _against(glue_next, text, True) or (part == 0 and not beyond and _against(before, target[-1], False))
            ):  # one word, as the source wrote it (a token within a word of the translation already is)
                target[-1], rows[-1] = target[-1] + text, (rows[-1] + weights) / 2
            else:
                target.append(text)
                rows.append(weights)
            glue_next = after if placeholder in glued and part == last_part[placeholder] else False
    return WordAlignment(source, target, np.array(rows, np.float32).reshape(len(target), len(source)))
