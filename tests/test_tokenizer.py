import pytest

from attn.export.training.subwords import train_tokenizer
from attn.runtime.constants import EOS, SPECIAL_TOKENS
from attn.runtime.tokenizer import SubwordTokenizer

pytestmark = pytest.mark.unit

TRAINING_TEXT = ["she is eating a green apple", "Die Katze ist grün.", "Version 2.3.1 of libfoo2 --verbose"] * 5


@pytest.fixture(scope="module")
def tokenizer():
    return SubwordTokenizer(train_tokenizer(TRAINING_TEXT, vocab_size=400, min_frequency=1))


@pytest.mark.parametrize(
    "text",
    [
        "She ate 1234 Äpfel, didn't she?",
        "UPPER lower MiXeD 3.14159 -42 %s %d",
        "/usr/lib/x86_64-linux-gnu/libfoo.so.2 --verbose=3",
        "日本語 שלום мир 🍎 ∑ naïve",
        "tabs\tand\u00a0nbsp",
    ],
)
def test_round_trip(tokenizer, text):
    assert tokenizer.decode(tokenizer.encode(text)) == text


def test_special_tokens_have_fixed_ids(tokenizer):
    assert [tokenizer._tokenizer.token_to_id(t) for t in SPECIAL_TOKENS] == [0, 1, 2, 3]


@pytest.mark.parametrize("text", ["This is <s>wrong</s> right.", "Press <pad> to continue", "<unk>"])
def test_special_token_names_in_text_are_plain_text(tokenizer, text):
    ids = tokenizer.encode(text)
    assert not set(ids) & set(range(len(SPECIAL_TOKENS))) and tokenizer.decode(ids) == text
    assert tokenizer.encode_batch([text]) == [ids] and tokenizer.encode_source(text).ids == ids + [EOS]


def test_source_pieces_map_to_the_words_as_written(tokenizer):
    pieces = tokenizer.encode_source("green  apples, 42")
    assert pieces.words == ["green", "apples,", "42"]
    assert pieces.ids[-1] == EOS and pieces.word_of_piece[-1] == -1
    assert sorted(set(pieces.word_of_piece[:-1])) == [0, 1, 2]
    assert pieces.word_of_piece[:-1] == sorted(pieces.word_of_piece[:-1])


def test_target_words_join_to_the_decoded_text(tokenizer):
    ids = tokenizer.encode("Die Katze ist grün, 3.14")
    words, word_of_piece = tokenizer.target_words(ids)
    assert " ".join(words) == tokenizer.decode(ids)
    assert len(word_of_piece) == len(ids) and word_of_piece[-1] == len(words) - 1


FRENCH = ["L'homme n'a pas pu ouvrir l'école.", "Il dit qu'il vient jusqu'à la gare."] * 20


@pytest.fixture(scope="module")
def french_tokenizer():
    return SubwordTokenizer(train_tokenizer(FRENCH + TRAINING_TEXT, vocab_size=400, min_frequency=1))


def test_french_elided_words_are_words_of_their_own_on_both_sides(french_tokenizer):
    text = "L'homme n'a pas pu ouvrir l'école."
    source = french_tokenizer.encode_source(text, "fr")
    assert source.words == ["L'", "homme", "n'", "a", "pas", "pu", "ouvrir", "l'", "école."]
    assert sorted(set(source.word_of_piece[:-1])) == list(range(len(source.words)))
    ids = french_tokenizer.encode(text)
    words, word_of_piece = french_tokenizer.target_words(ids, "fr")
    assert words == source.words and word_of_piece == sorted(word_of_piece) and len(word_of_piece) == len(ids)
    assert french_tokenizer.encode_source(text, "en").words == text.split()  # elision is French only
    assert french_tokenizer.target_words(ids)[0] == text.split()
