"""Names and numbers shared by training, export and the runtime: one place for each."""

import re

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIAL_TOKENS = ["<pad>", "<unk>", "<s>", "</s>"]
SPECIAL_IDS = {"pad": PAD, "unk": UNK, "bos": BOS, "eos": EOS}  # as a manifest records them

# 2: the output layer moved out of decoder.onnx; 3: the manifest declares every state's kind;
# 4: a model of several directions (manifest `directions`, a target-language token before each source);
# 5: a summarizer's word list (TARGET_WORDS); 6: a translation model's training sources' words
# (SOURCE_WORDS); 7: a translation model's training words of each language apart (language_words_file).
# Each folder is written in the oldest format that holds it, so that an older attn reads it or says
# to upgrade, never "unknown file".
FORMAT_VERSION = 7
WORDS_FORMAT = 5
SOURCE_WORDS_FORMAT = 6
LANGUAGE_WORDS_FORMAT = 7
DIRECTIONS_FORMAT = 4
ONE_DIRECTION_FORMAT = 3  # a model of one direction is still written as format 3: attn before 4 reads it
OLDEST_FORMAT = 2  # the oldest model folder format this runtime reads
MANIFEST = "manifest.json"
ENCODER = "encoder.onnx"
DECODER = "decoder.onnx"
TOKENIZER = "tokenizer.json"  # the target side's (and, without SOURCE_TOKENIZER, the source side's)
SOURCE_TOKENIZER = "source_tokenizer.json"  # optional: the source side's, in the same id space (imported models)
OUTPUT_LAYER = "output_layer.npz"
LEXICON = "lexicon.npz"  # optional: the target-vocabulary shortlist
LANGUAGE_CODE = r"[A-Za-z][A-Za-z0-9_-]{0,15}"  # what a manifest accepts as a language ("de", "pt-BR")
TARGET_WORDS = "target_words.txt"  # optional: a summarizer's training targets' words (runtime/word_check.py)
# optional, format 6's: a translation model's training sources' words, of both sides for a model of
# both ways (read as every language's words: LoadedModel.known_words)
SOURCE_WORDS = "source_words.txt"
# optional: a translation model's training words in one language, that side of each pair it learned
# from (runtime/unlearned_names.py, runtime/untranslated.py)
LANGUAGE_WORDS = re.compile(rf"words\.(?P<language>{LANGUAGE_CODE})\.txt")


def language_words_file(language: str) -> str:
    """The file (LANGUAGE_WORDS) of a model's training words in `language`."""
    return f"words.{language}.txt"


TASKS = ("translate", "summarize")
BATCH_SIZE = 32  # inputs decoded together unless --batch-size (or batch_size=) says otherwise

# The languages of the shipped models, by code: English names (what `attn serve` lists and what
# --from/--to accept besides the codes), and the languages' own names, which --from/--to accept too.
LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French"}
# The directions the shipped models translate directly (German–French goes through English): those
# the reading rules of runtime/source_reading.py were measured on
SHIPPED_DIRECTIONS = frozenset({("en", "de"), ("de", "en"), ("en", "fr"), ("fr", "en")})
NATIVE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}


def language_label(code: str) -> str:
    """A language as a note names it: "German (de)", or the code alone when it has no name here."""
    return f"{LANGUAGE_NAMES[code]} ({code})" if code in LANGUAGE_NAMES else code


# A locale: a language code and a region, two letters or three digits ("fr-FR", "de_DE", "es-419")
LOCALE = re.compile(r"[a-z]{2,3}[-_](?:[a-z]{2}|\d{3})")


def language_code(value: str) -> str:
    """A language as --from/--to take it: a code in any case ("DE"), a locale's ("fr-FR", "de_DE",
    "en-US": its language's, which `-t fr-FR` had refused as no installed model), or a name in
    English or in the language itself ("German", "deutsch", "français"); anything else comes back
    lower-cased, for the registry to accept (a model's own language code) or refuse; a TypeError
    for what is no str (`attn.translate("Hi", target=5)` had failed on a missing `strip`)."""
    if not isinstance(value, str):
        raise TypeError(f"a language is a code or a name such as 'de' or 'German', got {type(value).__name__}")
    lowered = value.strip().lower()
    for names in (LANGUAGE_NAMES, NATIVE_NAMES):
        for code, name in names.items():
            if lowered == name.lower():
                return code
    if LOCALE.fullmatch(lowered) and (primary := primary_language(lowered)) in LANGUAGE_NAMES:
        return primary
    return lowered


def primary_language(value: str) -> str:
    """language_code of a tag's first part ("pt_BR", "sr@latin", "fr-CA" → "pt", "sr", "fr")."""
    return language_code(re.split(r"[_@-]", value.strip())[0])


def target_token(language: str) -> str:
    """The token that opens every source of a model trained in several directions and names the
    language to write (Johnson et al. 2017: "<2fr> The file…" asks for French)."""
    return f"<2{language}>"


# The marks that open a list item or a dialogue's line ("- ", "* ", "• "; German software
# translations write "‒", the figure dash).
LIST_MARKS = "-*•·‒–—"

BOM = "\ufeff"  # the byte-order mark some editors put before UTF-8 text; input readers drop it
# What a character that is not text (a lone surrogate, a part of a character) decodes to
REPLACEMENT_CHARACTER = "\ufffd"
