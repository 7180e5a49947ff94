"""The formulas that open and close a letter or an e-mail, written as the target language writes them.

The models never saw a letter (none of the corpora in ../shared/data holds a salutation or a
closing), and translated these formulas word by word or not at all: "Best regards," →
"Bestrafung,", "Kind regards," → "Les regards de Kind,", "Sincerely," → "Klar,", "Dear Mr
Thompson," → "Dear Herr Thompson,". They are conventions, not sentences to compose: a sentence
that is one of them, whole (its case aside; with or without its final comma, point, colon or
exclamation mark, which it keeps, and the case of its first letter), is written as the target
language's formula, and the names in it are kept; a French closing written as a sentence
("Veuillez agréer, Madame, l'expression de mes salutations distinguées.") as the closing it is,
with a comma. The model's own translation is kept where it is a formula of the target
language ("Vielen Dank." → "Thank you."): the table writes what the model cannot. A salutation names its reader with a title (Mr, Frau, Madame: "Sehr geehrter Herr
Müller," ↔ "Dear Mr Müller," ↔ "Cher Monsieur Müller,"), by first name ("Liebe Anna," ↔ "Dear
Anna,", "Hallo Anna," where the source does not tell the gender that German and French write),
or not at all ("Dear Sir or Madam,"); a closing may end with its writer's name ("Best regards,
Anna"). Measured on e-mails written by others: docs/studies/LETTER-FORMULAS.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .alignment import WordAlignment
from .titles import ACADEMIC, GENDER
from .words import word_spans

LANGUAGES = ("en", "de", "fr")  # the table's columns
# Each row: one formula in English, German and French. The first form of each language is the
# one written; every form is read. A form listed in two rows is read as the first row's.
CLOSINGS = [
    {
        "en": ("Kind regards", "With kind regards", "Kindest regards", "Regards", "With regards"),
        "de": ("Mit freundlichen Grüßen", "Freundliche Grüße", "Mit freundlichem Gruß", "Freundlicher Gruß", "MfG"),
        "fr": ("Cordialement", "Bien cordialement", "Très cordialement", "Salutations"),
    },
    {
        "en": ("Best regards", "With best regards", "Best", "Cheers"),
        "de": ("Viele Grüße", "Beste Grüße", "Mit besten Grüßen", "Schöne Grüße", "Grüße", "Gruß", "VG"),
        "fr": ("Bien à vous", "Bien à toi"),
    },
    {
        "en": ("Best wishes", "With best wishes", "All the best"),
        "de": ("Liebe Grüße", "Viele liebe Grüße", "Ganz liebe Grüße", "LG"),
        "fr": ("Amitiés", "Amicalement", "Bien amicalement"),
    },
    {
        "en": ("Warm regards", "Warmest regards", "Warm wishes", "With warm regards"),
        "de": ("Herzliche Grüße", "Mit herzlichen Grüßen", "Herzlichst", "Ganz herzliche Grüße"),
        "fr": ("Chaleureusement", "Bien chaleureusement"),
    },
    {
        "en": ("Yours sincerely", "Sincerely", "Sincerely yours", "Yours faithfully", "Yours truly", "Respectfully"),
        "de": ("Mit freundlichen Grüßen", "Hochachtungsvoll", "Mit vorzüglicher Hochachtung"),
        "fr": (
            "Salutations distinguées",
            "Veuillez agréer mes salutations distinguées",
            "Sincères salutations",
            "Meilleures salutations",
            "Recevez mes salutations distinguées",
            "Je vous prie d'agréer mes salutations distinguées",
        ),
    },
    {
        "en": ("Thanks", "Thank you"),
        "de": ("Danke", "Danke dir", "Danke schön", "Dankeschön"),
        "fr": ("Merci", "Merci à vous", "Merci à toi"),
    },
    {
        "en": ("Many thanks", "Thanks a lot", "Thank you very much", "Thanks so much"),
        "de": ("Vielen Dank", "Herzlichen Dank", "Besten Dank", "Danke vielmals", "Vielen herzlichen Dank"),
        "fr": ("Merci beaucoup", "Un grand merci", "Mille mercis", "Merci infiniment"),
    },
    {
        "en": (
            "Thanks in advance",
            "Thank you in advance",
            "Many thanks in advance",
            "Thanks in advance for your help",
        ),
        "de": ("Vielen Dank im Voraus", "Danke im Voraus", "Besten Dank im Voraus", "Herzlichen Dank im Voraus"),
        "fr": ("Merci d'avance", "Merci par avance", "Merci d'avance pour votre aide", "Je vous remercie par avance"),
    },
    {
        "en": (
            "Thank you and best regards",
            "Thanks and best regards",
            "Thanks and regards",
            "Thank you and kind regards",
        ),
        "de": ("Danke und viele Grüße", "Vielen Dank und viele Grüße", "Danke und Gruß", "Vielen Dank und beste Grüße"),
        "fr": ("Merci et bien à vous", "Merci et cordialement", "Merci et bonne journée"),
    },
    {
        "en": ("Have a nice day", "Have a good day", "Have a great day"),
        "de": (
            "Einen schönen Tag noch",
            "Schönen Tag noch",
            "Einen schönen Tag",
            "Ich wünsche Ihnen einen schönen Tag",
        ),
        "fr": ("Bonne journée", "Excellente journée", "Bonne journée à vous"),
    },
    {
        "en": ("Have a nice weekend", "Have a good weekend", "Have a great weekend", "Enjoy your weekend"),
        "de": ("Ein schönes Wochenende", "Schönes Wochenende", "Schönes Wochenende noch"),
        "fr": ("Bon week-end", "Bon weekend", "Bonne fin de semaine", "Très bon week-end"),
    },
    {
        "en": ("See you soon", "Talk soon", "Speak soon"),
        "de": ("Bis bald", "Bis dann", "Bis später"),
        "fr": ("À bientôt", "A bientôt", "À très bientôt", "À plus"),
    },
    {
        "en": ("Love", "Lots of love", "Much love", "Hugs"),
        "de": ("Alles Liebe", "Liebe Grüße und Umarmung", "Dicke Umarmung"),
        "fr": ("Gros bisous", "Je t'embrasse", "Grosses bises"),
    },
]
# Salutations to no one by name
SALUTATIONS = [
    {
        "en": ("Dear Sir or Madam", "Dear Sir/Madam", "Dear Sirs", "To whom it may concern", "Dear Madam or Sir"),
        "de": ("Sehr geehrte Damen und Herren",),
        "fr": ("Madame, Monsieur", "Madame, monsieur", "Monsieur, Madame", "Messieurs"),
    },
    {
        "en": ("Dear Sir",),
        "de": ("Sehr geehrter Herr",),
        "fr": ("Monsieur", "Cher Monsieur"),
    },
    {
        "en": ("Dear Madam",),
        "de": ("Sehr geehrte Frau",),
        "fr": ("Madame", "Chère Madame"),
    },
    {
        "en": ("Dear colleagues", "Dear Colleagues"),
        "de": ("Liebe Kolleginnen und Kollegen", "Liebe Kollegen", "Liebes Team"),
        "fr": ("Chers collègues", "Chères et chers collègues", "Chères collègues"),
    },
    {
        "en": ("Hello", "Hi", "Hey", "Hiya"),
        "de": ("Hallo", "Guten Tag", "Hi", "Moin"),
        "fr": ("Bonjour", "Salut", "Coucou"),
    },
    {
        "en": (
            "Hello everyone",
            "Hi all",
            "Hi everyone",
            "Hello all",
            "Dear all",
            "Hi team",
            "Hello team",
            "Dear team",
        ),
        "de": (
            "Hallo zusammen",
            "Hallo alle",
            "Hallo Team",
            "Liebe alle",
            "Hallo ihr Lieben",
            "Hallo allerseits",
            "Hallo Leute",
            "Hey Leute",
            "Hi Leute",
        ),
        "fr": (
            "Bonjour à tous",
            "Bonjour à toutes et à tous",
            "Bonjour tout le monde",
            "Salut à tous",
            "Bonjour l'équipe",
        ),
    },
    {
        "en": ("Dear customer", "Dear Customer", "Dear valued customer"),
        "de": ("Liebe Kundin, lieber Kunde", "Sehr geehrte Kundin, sehr geehrter Kunde", "Lieber Kunde"),
        "fr": ("Chère cliente, cher client", "Cher client", "Chère cliente"),
    },
    {
        "en": ("Dear parents",),
        "de": ("Liebe Eltern", "Sehr geehrte Eltern"),
        "fr": ("Chers parents", "Madame, Monsieur, chers parents"),
    },
    {
        "en": ("Dear members",),
        "de": ("Liebe Mitglieder", "Liebe Vereinsmitglieder"),
        "fr": ("Chers membres", "Chers adhérents"),
    },
    {
        "en": ("Dear participants",),
        "de": ("Liebe Teilnehmerinnen und Teilnehmer", "Liebe Teilnehmer", "Liebe Teilnehmende"),
        "fr": ("Chers participants", "Chères participantes, chers participants"),
    },
    {
        "en": ("Dear neighbours", "Dear neighbors"),
        "de": ("Liebe Nachbarn", "Liebe Nachbarinnen und Nachbarn"),
        "fr": ("Chers voisins", "Chères voisines, chers voisins"),
    },
    {
        "en": ("Dear guests",),
        "de": ("Liebe Gäste",),
        "fr": ("Chers invités", "Chers hôtes"),
    },
    {
        "en": ("Dear students",),
        "de": ("Liebe Studierende", "Liebe Studentinnen und Studenten", "Liebe Schülerinnen und Schüler"),
        "fr": ("Chers étudiants", "Chères étudiantes, chers étudiants"),
    },
    {
        "en": ("Dear family",),
        "de": ("Liebe Familie",),
        "fr": ("Chère famille",),
    },
    {
        "en": ("Dear Mum", "Dear Mom"),
        "de": ("Liebe Mama", "Liebe Mutti"),
        "fr": ("Chère maman", "Chère Maman"),
    },
    {
        "en": ("Dear Dad",),
        "de": ("Lieber Papa", "Lieber Vati"),
        "fr": ("Cher papa", "Cher Papa"),
    },
    {
        "en": ("Dear friends", "Dear Friends"),
        "de": ("Liebe Freunde", "Liebe Freundinnen und Freunde"),
        "fr": ("Chers amis", "Chères amies, chers amis"),
    },
]

# Salutations that name their reader: an opening, a title or none, and a name. Each language's
# openings: the kind of each ("dear", "hello") and the reader's gender it tells ("m", "f") or None.
OPENINGS = {
    "en": {
        "dear": ("dear", None),
        "hello": ("hello", None),
        "hi": ("hello", None),
        "hey": ("hello", None),
        "hiya": ("hello", None),
    },
    "de": {
        "sehr geehrter": ("dear", "m"),
        "sehr geehrte": ("dear", "f"),
        "lieber": ("dear", "m"),
        "liebe": ("dear", "f"),
        "hallo": ("hello", None),
        "hi": ("hello", None),
        "guten tag": ("hello", None),
        "moin": ("hello", None),
    },
    "fr": {
        "cher": ("dear", "m"),
        "chère": ("dear", "f"),
        "bonjour": ("hello", None),
        "salut": ("hello", None),
        "coucou": ("hello", None),
        "": ("dear", None),  # "Monsieur Dupont," with no opening, before a comma: its title tells the gender
    },
}
# The titles a salutation may name its reader by (runtime/titles.py's, and "Miss", which a sentence
# does not read as one: "I Miss You"), their case and point aside → the gender they tell
SALUTATION_TITLES = {
    language: {form.casefold().rstrip("."): gender for form, gender in GENDER[language].items()}
    | ({"miss": "f"} if language == "en" else {})
    for language in LANGUAGES
}
# What each language writes: a title of each gender, and an opening of each kind for a reader of
# each gender (None: not told by the source); "titled", before a title
WRITTEN_TITLE = {"en": {"m": "Mr", "f": "Ms"}, "de": {"m": "Herr", "f": "Frau"}, "fr": {"m": "Monsieur", "f": "Madame"}}
WRITTEN_OPENING = {
    "en": {"dear": dict.fromkeys(("m", "f", None), "Dear"), "hello": dict.fromkeys(("m", "f", None), "Hello")},
    "de": {  # "Dear Anna,": German writes the reader's gender, "Hallo" where it is not known
        "dear": {"m": "Lieber", "f": "Liebe", None: "Hallo"},
        "dear titled": {"m": "Sehr geehrter", "f": "Sehr geehrte"},
        "hello": dict.fromkeys(("m", "f", None), "Hallo"),
    },
    "fr": {
        "dear": {"m": "Cher", "f": "Chère", None: "Bonjour"},
        "dear titled": {"m": "Cher", "f": "Chère"},
        "hello": dict.fromkeys(("m", "f", None), "Bonjour"),
    },
}
FORMAL_GREETING = {"en": "Dear", "de": "Guten Tag", "fr": "Bonjour"}  # to a reader whose gender is not told
NOUNS_IN_CAPITALS = frozenset({"de"})
# Words that open a signature that is no name: articles and possessives ("The Team", "Deine Mutter")
NOT_A_NAME = frozenset(
    "the your yours our my der die das dein deine euer eure ihr ihre unser unsere mein meine "
    "le la les ton ta tes votre vos notre nos mon ma".split()
)
NAME_WORDS = 3  # a name: one to three words, after its academic titles ("Dr.", "Prof.")
INITIAL = re.compile(r"[^\W\d_]\.")  # "J." in "Mr. J. Smith"
END = re.compile(r"[,.!:]?$")  # what a formula keeps after it


def _key(text: str) -> str:
    """A form as it is looked up: its case aside, its apostrophes straight, one space apart."""
    return " ".join(text.replace("’", "'").casefold().split())


# Each language's forms, looked up → their row (the first row that lists a form)
FORMS = {
    language: {_key(form): row for row in reversed(CLOSINGS + SALUTATIONS) for form in row[language]}
    for language in LANGUAGES
}
FORMAL = next(row for row in CLOSINGS if row["en"][0] == "Yours sincerely")
GREETING = next(row for row in SALUTATIONS if row["en"][0] == "Hello")  # "Hello", "Hallo", "Bonjour" alone
# A formal closing a language writes as a sentence of its own, which may name its reader ("Je vous
# prie d'agréer, Monsieur, l'expression de mes salutations distinguées."): a request to accept or
# receive, and its last words the sentiments offered
FORMAL_CLOSING = {
    "fr": re.compile(
        r"(?i:(?:je vous prie|nous vous prions|veuillez|recevez|je vous adresse|nous vous adressons)\b"
        r".*\b(?:agréer|recevoir|recevez|adresse|adressons)\b.*"
        r"\b(?:salutations|sentiments|considération|respects?)(?:\s+[^\s,]+){0,3})"
    )
}
NO_COMMA_AFTER_CLOSING = frozenset({"de"})  # German writes "Mit freundlichen Grüßen" with no comma
# Forms that are a formula only before a comma or nothing, and never with a name on their line
# without a comma: "Cheers!" is a toast, "Love." a sentence, "Best Buy" a shop
AMBIGUOUS = frozenset({"cheers", "love", "best", "thanks", "thank you", "danke", "merci"})
FORMULA_WORDS = 8  # the most words of a formula that opens a sentence (formula_apart)
# A rest that goes on naming the readers ("Hello John, Paul and Mary, welcome"): no formula ends before it
MORE_NAMES = re.compile(r"[A-ZÀ-ÖØ-Þ][\w'’-]*(?:,|\s+(?:and|und|et|&)\s)")


@dataclass(frozen=True)
class Formula:
    """A letter's formula as the target writes it (`text`), and the name it keeps: its characters
    in the source sentence (its spaces made single) and in `text`, or None."""

    text: str
    name: tuple[tuple[int, int], tuple[int, int]] | None = None


def letter_formula(
    sentence: str, source: str, target: str, alone: Callable[[str], str] = lambda words: words
) -> Formula | None:
    """`sentence` written as `target`'s formula when it is a letter's formula in `source`, whole
    (module docstring); None otherwise, or where either language is not English, German or French.
    `alone` is the model's translation of words read alone: words after a salutation's opening or
    a closing that no title names, where their capital does not tell, are a name when the model
    copies them ("Hello World", "Liebe Mutter," are no salutations); a closing's signature that
    opens with an article or a possessive is no name, and is written as the model translates it
    ("Best regards, The Team" → "Viele Grüße, Das Team")."""
    if source not in LANGUAGES or target not in LANGUAGES or source == target:
        return None
    sentence = " ".join(sentence.split())
    mark = END.search(sentence).group()
    body = sentence[: len(sentence) - len(mark)].strip()
    key = _key(body)
    row = FORMS[source].get(key) if body and (mark in ",:" or key not in AMBIGUOUS) else None
    if row is None and source in FORMAL_CLOSING and FORMAL_CLOSING[source].fullmatch(body):
        row, mark = FORMAL, ","  # written as the closing it is: "Yours sincerely,"
    if row is not None:
        dropped = _is_closing(row) and target in NO_COMMA_AFTER_CLOSING and mark == ","
        written = row[target][0]
        if body[:1].islower():  # "hi." as a chat writes it: "hallo."
            written = written[:1].lower() + written[1:]
        return Formula(written + ("" if dropped else mark))
    found = _salutation(body, source, target, mark) or _signed_closing(body, source, target)
    if found is None:
        return None
    written, name, certain = found
    if certain is None:  # a signature of words, not a name
        name = alone(name)
    # a capital does not make a name where German writes every noun with one ("Liebe Mutter,"), nor
    # where no mark ends a line ("Hello World"): the model is asked, unless a title names the reader
    # or a comma parts a closing from its writer's name ("Best regards, Peter Hall")
    elif not certain and (source in NOUNS_IN_CAPITALS or not mark) and _plain(alone(name)) != _plain(name):
        return None
    text = f"{written} {name}" if written else name
    return Formula(text + mark, ((len(body) - len(name), len(body)), (len(text) - len(name), len(text))))


def formula_apart(
    sentence: str, source: str, target: str, alone: Callable[[str], str] = lambda words: words
) -> list[str]:
    """A sentence that opens with a letter's formula, a comma after it and more words ("Dear Mr.
    Miller, thank you for your message.", "Hi Anna, can you send me the file?", "Best regards, John
    Smith, Sales Manager"), as the formula with its comma and the rest, each a text of its own (read
    whole, the model had written "Dear Herr Miller, danke …", "Démarre M. Miller, merci …", "Hi Anna,
    peux-tu …"): the longest such opening of up to FORMULA_WORDS words that letter_formula writes,
    naming someone after an opening word (a name no title names as the model copies it: not "Hello
    World, this is …"; not a title and a name alone, "M. Netanyahu, dont …") or a salutation of the
    table but a bare greeting ("Madame, Monsieur,", "Dear colleagues,"; not "Hallo, wie kann ich
    helfen?", which the model reads right whole: parted, it had lost its comma, "Hello. how …";
    nor a closing or thanks, "Vielen Dank, dass Sie …"),
    not one that opens with a word that is a formula only alone ("Thanks, I will do it."), nor one
    before more readers' names ("Hello John, Paul and Mary, welcome"); [sentence]
    otherwise, and where the whole is a formula ("Madame, Monsieur,", "Chère cliente, cher client,")."""
    if letter_formula(sentence, source, target, alone) is not None:
        return [sentence]
    for comma in reversed([found.start() for found in re.finditer(r",\s", sentence)]):
        opening, rest = sentence[: comma + 1], sentence[comma + 1 :].strip()
        if len(opening.split()) > FORMULA_WORDS or not any(character.isalpha() for character in rest):
            continue
        if _key(opening.split(",")[0]) in AMBIGUOUS or MORE_NAMES.match(rest):
            continue  # "Thanks, I will", "Hello John, Paul and Mary, …"
        # read without its comma, a name no title names is asked of the model ("Hello World, this is …")
        formula = letter_formula(opening[:-1], source, target, alone)
        if formula is None:
            continue
        titled = opening.split()[0].casefold().rstrip(".,") in SALUTATION_TITLES[source]
        row = FORMS[source].get(_key(opening[:-1]))
        salutation = any(row is other for other in SALUTATIONS) and row is not GREETING
        if (formula.name is not None and not titled) or (formula.name is None and salutation):
            return [opening, rest]
    return [sentence]


def is_letter_formula(text: str, language: str) -> bool:
    """Whether `text` is one of the table's formulas in `language`, which names no one (what the
    model wrote for one is kept where it is: "Vielen Dank." → "Thank you."; a salutation that names
    its reader is the table's: the model wrote "M. Hoffmann," for "Dear Mr. Hoffmann,")."""
    if language not in LANGUAGES:
        return False
    text = " ".join(text.split())
    return _key(text[: len(text) - len(END.search(text).group())]) in FORMS[language]


def _salutation(body: str, source: str, target: str, mark: str) -> tuple[str, str, bool] | None:
    """(the target's opening, the name, whether a title named it) of a salutation that names its
    reader, or None."""
    for opening in sorted(OPENINGS[source], key=len, reverse=True):
        if opening and not _key(body).startswith(opening + " ") or not opening and mark != ",":
            continue
        rest = body[len(opening) :].strip()
        kind, gender = OPENINGS[source][opening]
        title, _, name = rest.partition(" ")
        title_gender = SALUTATION_TITLES[source].get(title.casefold().rstrip("."))
        if title_gender is None:
            name = rest
        if not _looks_like_name(name) or (not opening and title_gender is None):
            continue
        academic = ACADEMIC.match(name) is not None
        if title_gender is not None:
            gender = title_gender
            # "Dear Dr Schmidt": English names a doctor or a professor by that title alone
            written_title = "" if target == "en" and academic else WRITTEN_TITLE[target][gender]
            openings = WRITTEN_OPENING[target]
            written = openings.get(f"{kind} titled", openings[kind])[gender]
            return f"{written} {written_title}".strip(), name, True
        if kind == "dear" and gender is None and academic:  # "Dear Dr Patel": formal
            return FORMAL_GREETING[target], name, True
        return WRITTEN_OPENING[target][kind][gender], name, False
    return None


def _signed_closing(body: str, source: str, target: str) -> tuple[str, str, bool | None] | None:
    """(the target's closing, the signature, whether a comma parts them, None where the signature
    is words, not a name: "The Team") of a closing its writer's name ends on the same line ("Best
    regards, Anna"; "VG Heike" without a comma, but not "Best Buy"), or None."""
    words = body.split()
    for count in range(1, NAME_WORDS + 1):
        closing, name = " ".join(words[:-count]), " ".join(words[-count:])
        comma = closing.endswith(",")
        row = FORMS[source].get(_key(closing.removesuffix(",")))
        if row is None or not _is_closing(row) or not (comma or _key(closing) not in AMBIGUOUS):
            continue
        if _looks_like_name(name):
            return row[target][0] + ("," if comma else ""), name, comma
        if comma and name.split()[0].casefold() in NOT_A_NAME:  # "Best regards, The Team"
            return row[target][0] + ",", name, None
    return None


def _plain(text: str) -> list[str]:
    """`text`'s words, case and the punctuation at their edges aside."""
    return [word.strip(".,;:!?").casefold() for word in text.split()]


def _looks_like_name(text: str) -> bool:
    """Whether `text` is written as a name: after academic titles, one to NAME_WORDS words, each
    opening with a capital and made of letters, apostrophes and hyphens, or an initial ("J."),
    the first no article or possessive."""
    words = text.split()
    while words and ACADEMIC.fullmatch(words[0].rstrip(".")):
        words = words[1:]
    if words and words[0].casefold() in NOT_A_NAME:  # "The Team", "Deine Mutter", "Le Service Client"
        return False
    return 0 < len(words) <= NAME_WORDS and all(
        INITIAL.fullmatch(word)
        or (word[0].isupper() and word.replace("'", "").replace("’", "").replace("-", "").isalpha())
        for word in words
    )


def _is_closing(row: dict) -> bool:
    return any(row is closing for closing in CLOSINGS)


def formula_alignment(sentence: str, formula: Formula, source: str, target: str) -> WordAlignment:
    """The word alignment of `formula`, the translation of `sentence`: the name's words linked to
    their own (in order; a name the target language parts otherwise, "D'" "Angelo", each to the
    source's word at the same place in the name), the formula's other words each to the source's
    other word at the same place in its run."""
    sentence = " ".join(sentence.split())
    source_spans, target_spans = word_spans(sentence, source), word_spans(formula.text, target)
    source_name, target_name = formula.name or ((len(sentence), len(sentence)), (len(formula.text),) * 2)

    def inside(span: tuple[int, int], name: tuple[int, int]) -> bool:  # a word of the name, its mark and all
        return name[0] <= span[0] < name[1]

    named_source = [i for i, span in enumerate(source_spans) if inside(span, source_name)]
    named_target = [i for i, span in enumerate(target_spans) if inside(span, target_name)]
    other_source = [i for i in range(len(source_spans)) if i not in named_source] or named_source
    other_target = [i for i in range(len(target_spans)) if i not in named_target]
    weights = np.zeros((len(target_spans), len(source_spans)), np.float32)
    for rows, columns in ((named_target, named_source), (other_target, other_source)):
        for place, row in enumerate(rows):
            weights[row, columns[place * len(columns) // len(rows)]] = 1.0
    source_words = [sentence[start:end] for start, end in source_spans]
    return WordAlignment(source_words, [formula.text[start:end] for start, end in target_spans], weights)
