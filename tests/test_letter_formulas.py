"""A letter's salutation and closing written as the target language writes them (runtime/letter_formulas.py)."""

import numpy as np
import pytest

from attn.runtime.capitals import continued, goes_on
from attn.runtime.letter_formulas import (
    CLOSINGS,
    FORMS,
    SALUTATIONS,
    formula_alignment,
    formula_apart,
    is_letter_formula,
    letter_formula,
)


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target, written",
    [
        # closings: German writes no comma after one
        ("Best regards,", "en", "de", "Viele Grüße"),
        ("Kind regards,", "en", "fr", "Cordialement,"),
        ("Mit freundlichen Grüßen", "de", "en", "Kind regards"),
        ("BIEN À VOUS", "fr", "en", "Best regards"),
        ("Best regards, Anna Smith", "en", "fr", "Bien à vous, Anna Smith"),
        # salutations: with a title, by first name (the gender German and French write, where told)
        ("Dear Mr. Thompson,", "en", "de", "Sehr geehrter Herr Thompson,"),
        ("Dear Ms Clarke:", "en", "fr", "Chère Madame Clarke:"),
        ("Sehr geehrte Frau Dr. Schmidt,", "de", "en", "Dear Dr. Schmidt,"),
        ("Monsieur Dupont,", "fr", "de", "Sehr geehrter Herr Dupont,"),
        ("Liebe Anna,", "de", "fr", "Chère Anna,"),
        ("Dear Anna,", "en", "de", "Hallo Anna,"),
        ("Hi Tom!", "en", "fr", "Bonjour Tom!"),
        ("Madame, Monsieur,", "fr", "en", "Dear Sir or Madam,"),
        ("Liebe Eltern,", "de", "en", "Dear parents,"),
        ("Dear Dr. Patel,", "en", "de", "Guten Tag Dr. Patel,"),  # the gender untold: formal all the same
        ("VG Heike", "de", "en", "Best regards Heike"),
        (
            "Je vous prie d'agréer, Madame, l'expression de mes salutations distinguées.",
            "fr",
            "de",
            "Mit freundlichen Grüßen",
        ),
        ("Guten Tag,", "de", "fr", "Bonjour,"),
    ],
)
def test_a_formula_is_written_as_the_target_writes_it(sentence, source, target, written):
    """'Best regards,' had become 'Bestrafung,', 'Dear Mr Thompson,' 'Dear Herr Thompson,'."""
    assert letter_formula(sentence, source, target).text == written


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, target",
    [
        ("Best regards to your team.", "en", "de"),  # a sentence that holds a formula is no formula
        ("Hi there,", "en", "de"),  # no name
        ("Hello and welcome to the team.", "en", "fr"),
        ("Dear Mr Thompson,", "en", "es"),  # a language the table does not hold
        ("Monsieur,", "en", "de"),  # not English
        # found by a review: a request, a signature, a film, a shop
        ("Veuillez prendre en considération ma demande.", "fr", "en"),
        ("Recevez nos salutations les plus chaleureuses pour Noël et la nouvelle année.", "fr", "en"),
        ("Madame Bovary", "fr", "en"),
        ("Best Picture", "en", "de"),
        ("Best Buy", "en", "de"),
        ("Love Actually", "en", "de"),
    ],
)
def test_other_sentences_are_left_to_the_model(sentence, source, target):
    assert letter_formula(sentence, source, target) is None


@pytest.mark.unit
def test_a_name_the_model_translates_is_no_name_where_its_capital_does_not_tell():
    """ "Hello World" (no mark ends it) and German's nouns ("Liebe Mutter,") are left to the model
    when it translates the words; a title or a mark and a language that writes nouns in small
    letters tell a name without asking."""

    def translated(words: str) -> str:  # a model that translates every word
        return "x" + words

    assert letter_formula("Hello World", "en", "de", translated) is None
    assert letter_formula("Liebe Mutter,", "de", "en", translated) is None
    assert letter_formula("Dear Anna,", "en", "de", translated).text == "Hallo Anna,"
    assert letter_formula("Sehr geehrter Herr Präsident,", "de", "en", translated).text == "Dear Mr Präsident,"
    # a comma parts a closing from its writer's name: "Hall" is a name there, whatever the model makes of it
    assert letter_formula("Best regards, Peter Hall", "en", "de", translated).text == "Viele Grüße, Peter Hall"
    # a signature of words is written as the model translates them
    assert (
        letter_formula("Best regards, The Team", "en", "de", lambda words: "Das Team").text == "Viele Grüße, Das Team"
    )


@pytest.mark.unit
def test_the_model_s_own_formula_is_one_of_the_table_s_that_names_no_one():
    """The model's "Thank you." for "Vielen Dank." stays; its "M. Hoffmann," for "Dear Mr.
    Hoffmann," does not (French spells "Monsieur" out in a salutation)."""
    assert is_letter_formula("Thank you.", "en") and is_letter_formula("hallo!", "de")
    assert not is_letter_formula("M. Hoffmann,", "fr") and not is_letter_formula("Bestrafung,", "de")


@pytest.mark.unit
def test_every_formula_is_written_in_each_language_and_read_back_as_itself():
    """Each row's written form reads as that row in its language (none taken by an earlier row),
    but for the formal closings German and French share with a commoner one."""
    for row in CLOSINGS + SALUTATIONS:
        for language, forms in row.items():
            assert forms and all(form.strip() == form for form in forms)
    shared = [row for row in CLOSINGS + SALUTATIONS if FORMS["en"][row["en"][0].casefold()] is not row]
    assert shared == []


@pytest.mark.unit
def test_a_name_kept_is_linked_to_itself_and_the_formula_in_order():
    sentence = "Dear Mr Thompson,"
    formula = letter_formula(sentence, "en", "de")
    alignment = formula_alignment(sentence, formula, "en", "de")
    assert alignment.target_words == ["Sehr", "geehrter", "Herr", "Thompson,"]
    assert alignment.hard_links() == [(0, 0), (0, 1), (1, 2), (2, 3)]
    np.testing.assert_allclose(alignment.weights.sum(axis=1), 1.0, rtol=1e-6)
    # a name French parts after its elided word: each of its words linked into the name
    french = formula_alignment("Dear Mr D'Angelo,", letter_formula("Dear Mr D'Angelo,", "en", "fr"), "en", "fr")
    assert french.target_words[-2:] == ["D'", "Angelo,"] and [s for s, _ in french.hard_links()][-2:] == [2, 2]


@pytest.mark.system
def test_an_e_mail_s_formulas_with_the_shipped_models():
    """The formulas by the table (or the model's own where it writes one of the table's), the body
    by the model, line for line; through English from German into French too."""
    import attn.runtime as api

    mail = "Dear Mr Thompson,\nThank you for your message.\nBest regards,\nAnna"
    lines = api.translate(mail, source="en", target="de").split("\n")
    assert len(lines) == 4 and lines[0] == "Sehr geehrter Herr Thompson," and is_letter_formula(lines[2], "de")
    assert lines[1] and lines[1] != "Thank you for your message."
    assert is_letter_formula(api.translate("Mit freundlichen Grüßen", source="de", target="fr"), "fr")


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, source, parted",
    [
        ("Dear Mr. Miller, thank you for your message.", "en", ["Dear Mr. Miller,", "thank you for your message."]),
        ("Hi Anna, can you send me the file?", "en", ["Hi Anna,", "can you send me the file?"]),
        ("Dear Sir or Madam, I am writing to complain.", "en", ["Dear Sir or Madam,", "I am writing to complain."]),
        ("Best regards, John Smith, Sales Manager", "en", ["Best regards, John Smith,", "Sales Manager"]),
        ("Sehr geehrter Herr Müller, vielen Dank.", "de", ["Sehr geehrter Herr Müller,", "vielen Dank."]),
        # not parted: a whole formula, a greeting that names no one, a formula only alone, a title
        ("Madame, Monsieur,", "fr", ["Madame, Monsieur,"]),
        ("Hallo, wie kann ich Ihnen helfen?", "de", ["Hallo, wie kann ich Ihnen helfen?"]),
        ("Thanks, I will do it.", "en", ["Thanks, I will do it."]),
        (
            "M. Netanyahu, dont le parti a fusionné, a la partie belle.",
            "fr",
            ["M. Netanyahu, dont le parti a fusionné, a la partie belle."],
        ),
        ("Dear Mr. Miller,", "en", ["Dear Mr. Miller,"]),
        ("Hello John, Paul and Mary, welcome to the team.", "en", ["Hello John, Paul and Mary, welcome to the team."]),
        (
            "Madame, Monsieur, je vous écris.",
            "fr",
            ["Madame, Monsieur,", "je vous écris."],
        ),  # a salutation of the table
        ("Dear colleagues, the meeting moved.", "en", ["Dear colleagues,", "the meeting moved."]),
        ("Vielen Dank, dass Sie kommen.", "de", ["Vielen Dank, dass Sie kommen."]),  # thanks, no salutation
    ],
)
def test_a_formula_that_opens_a_sentence_is_a_part_of_its_own(sentence, source, parted):
    """ "Dear Mr. Miller, thank you …" had become "Dear Herr Miller, danke …" and "Démarre M. Miller,
    merci …"; "Hallo, wie kann ich helfen?" parted had lost its comma ("Hello. how can i help")."""
    target = "en" if source != "en" else "de"
    assert formula_apart(sentence, source, target) == parted


@pytest.mark.unit
def test_the_rest_after_a_formula_goes_on_in_small_letters():
    """ "Hallo Anna, Können Sie …", "Bonjour Anna, Peux-tu …": the rest read alone had opened with a capital."""
    assert goes_on("thank you", "en") and goes_on("I hope so", "en") and not goes_on("Your results", "en")
    assert goes_on("Ihre Bestellung ist unterwegs.", "de")  # German's capital is a noun's or a polite one's
    one_piece = lambda word: 1  # noqa: E731
    assert [continued(word, one_piece, "de") for word in ("Können", "Das", "Ich", "Einladungen", "Sie", "Ihre")] == [
        *("können", "das", "ich", "Einladungen", "Sie", "Ihre")
    ]
    assert continued("Peux-tu", one_piece, "fr") == "peux-tu" and continued("I", one_piece, "en") == "I"
    assert continued("Danke!", one_piece, "de") == "danke!"


@pytest.mark.unit
def test_a_name_no_title_names_opens_a_formula_only_where_the_model_copies_it():
    """ "Hello World, this is my first program." had been parted: "Hallo World, …"."""
    translates = {"World": "Welt", "Anna": "Anna"}
    alone = lambda words: translates.get(words, words)  # noqa: E731
    assert formula_apart("Hello World, this is my first program.", "en", "de", alone) == [
        "Hello World, this is my first program."
    ]
    assert formula_apart("Hello Anna, this is my first program.", "en", "de", alone) == [
        "Hello Anna,",
        "this is my first program.",
    ]
    assert continued("Monday", lambda word: 1 if word == "Monday" else 2, "en") == "Monday"  # fewer with its capital


@pytest.mark.system
def test_a_salutation_and_its_sentence_on_one_line_with_the_shipped_models():
    import attn.runtime as api

    into_german = api.translate("Dear Mr. Miller, thank you for your message.", source="en", target="de")
    assert (
        into_german.startswith("Sehr geehrter Herr Miller, ")
        and into_german[len("Sehr geehrter Herr Miller, ")].islower()
    )
    into_french = api.translate("Hi Anna, can you send me the file?", source="en", target="fr")
    assert into_french.startswith("Bonjour Anna, ") and into_french[len("Bonjour Anna, ")].islower(), into_french
