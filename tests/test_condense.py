"""runtime/condense.py's arithmetic: parts cut at sentence ends within the limit, and the salient
sentences chosen to fit it, in document order."""

import numpy as np
import pytest

from attn.runtime.condense import chosen_sentences, sentence_parts

pytestmark = pytest.mark.unit


def test_sentences_are_grouped_into_parts_within_the_limit():
    assert sentence_parts([3, 4, 2, 6, 1], limit=7) == [[0, 1], [2], [3, 4]]
    assert sentence_parts([9, 2], limit=7) == [[0], [1]]  # a longer sentence alone
    assert sentence_parts([], limit=7) == []


def test_the_most_salient_sentences_that_fit_are_chosen_in_document_order():
    salience = np.array([0.5, 3.0, 1.0, 2.0, 0.1])
    lengths = [2, 4, 3, 5, 1]
    assert chosen_sentences(salience, lengths, limit=10, lead=0) == [1, 3, 4]  # 2 and 0 no longer fit
    assert chosen_sentences(salience, lengths, limit=10, lead=1) == [0, 1, 2, 4]
    assert chosen_sentences(salience, lengths, limit=3, lead=0) == [2]
    assert chosen_sentences(np.array([1.0, 1.0]), [1, 1], limit=1, lead=0) == [0]  # a tie: the earlier


class Summary:
    """A stand-in for a part's summary: one summary word attending evenly to every word read."""

    def __init__(self, text):
        from attn.runtime.alignment import WordAlignment

        words = text.split()
        self.alignment = WordAlignment(words, ["x"], np.full((1, len(words)), 1 / len(words), np.float32))


def condense(texts, limit):
    from attn.runtime.condense import condensed

    summarized = []

    def summarize(parts):
        summarized.extend(parts)
        return [[Summary(part)] for part in parts]

    return condensed(texts, limit, "en", lambda text: len(text.split()), summarize), summarized


def test_a_long_document_keeps_its_first_sentence_and_what_fits():
    text = "One two three. Four five. Six seven eight nine. Ten."  # 3 + 2 + 4 + 1 words = pieces
    [short], parts = condense([text], limit=6)
    assert parts == ["One two three. Four five.", "Six seven eight nine. Ten."]
    assert short.startswith("One two three.") and len(short.split()) <= 6
    [as_it_is], parts = condense(["One two. Three."], limit=60)  # fits: read as it is
    assert as_it_is is None and parts == []


def test_what_cannot_be_condensed_is_left_to_the_head():
    """Every sentence over the limit gave an empty summary; punctuation alone got a note."""
    long_sentences = " ".join(["word " * 10 + "end."] * 3)
    too_long_first = "word " * 10 + "end. Short one. Another one."
    texts = [long_sentences, too_long_first, "!!! ??? ... " * 40, "one long text without any sentence end " * 5]
    found, parts = condense(texts, limit=8)
    assert found == [None, None, None, None] and parts == []


def test_a_sentence_alone_in_a_short_part_gains_nothing_from_it():
    # parts: [A B] (8 pieces) and [C] (1 piece); each part's summary attends evenly
    text = "Alpha beta gamma delta. Epsilon zeta eta theta. Iota."
    [short], _ = condense([text], limit=8)
    # the first sentence, then the second (salience 4 of its part's 8) before the third (1 of 1)
    assert short == "Alpha beta gamma delta. Epsilon zeta eta theta."


def test_a_documents_lines_end_its_sentences_where_a_reader_sees_them_end():
    """A title, a greeting and a signature had no full stop and were glued to the next sentence."""
    from attn.runtime.sentences import document_sentences

    document = (
        "Council closes the old bridge\n\nHi Sam,\n\nThe council voted on Tuesday evening to close the old "
        "bridge over the river to cars and lorries from next month. It is\n131 years old and the engineers who "
        "looked at it last week found cracks in two of its steel supports.\n- Drivers take a detour through "
        "the industrial estate\n- Cyclists may still cross\n\nThanks,\nMaria Okafor\nTransport chief"
    )
    assert document_sentences(document, "en") == [
        "Council closes the old bridge",
        "Hi Sam,",
        "The council voted on Tuesday evening to close the old bridge over the river to cars and lorries from next month.",
        # a wrapped sentence stays whole
        "It is 131 years old and the engineers who looked at it last week found cracks in two of its steel supports.",
        "- Drivers take a detour through the industrial estate",
        "- Cyclists may still cross",
        "Thanks,",
        "Maria Okafor",
        "Transport chief",
    ]
    assert " ".join(document_sentences(document, "en")).split() == document.split()


def test_narrowly_wrapped_lines_do_not_end_sentences():
    from attn.runtime.sentences import document_sentences

    wrapped = "The city council voted on\nTuesday to close the old\nbridge to cars after\nengineers found cracks.\nThe bridge carries about\n9,000 vehicles a day."
    assert document_sentences(wrapped, "en") == [
        "The city council voted on Tuesday to close the old bridge to cars after engineers found cracks.",
        "The bridge carries about 9,000 vehicles a day.",
    ]


def test_a_title_before_an_unpunctuated_body_leaves_the_document_to_its_head():
    """The title alone was chosen: the body, one sentence over the limit, could never be."""
    [found], parts = condense(["Meeting notes\n\n" + "word " * 20 + "end. Short one."], limit=8)
    assert found is None and parts == []


def test_chosen_sentences_read_as_one_line_without_gluing():
    from attn.runtime.sentences import joined

    assert joined(["Council closes the old bridge", "- Drivers take a detour", "It is old."]) == (
        "Council closes the old bridge — Drivers take a detour — It is old."
    )
    assert joined(["One.", "Two?"]) == "One. Two?"


def test_the_sentences_read_are_found_in_the_documents_own():
    from attn.runtime.extractive import sentences_read

    sentences = ["A title", "First one here.", "Second one.", "Third."]
    assert sentences_read(sentences, "A title First one here. Second one. Third.".split()) == sentences
    assert sentences_read(sentences, "A title Second one.".split()) == ["A title", "Second one."]  # condensed
    assert sentences_read(sentences, "A title First one".split()) == ["A title", "First one"]  # a head
    assert sentences_read(sentences, "Something else".split()) is None
    repeated = ["It is out today.", "John", "John said hello to all."]
    assert sentences_read(repeated, "It is out today. John said hello to all.".split()) == [repeated[0], repeated[2]]
