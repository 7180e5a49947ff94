"""Companies' names with their legal forms set aside from the search (runtime/company_names.py)."""

import pytest

from attn.runtime.company_names import company_spans


@pytest.mark.unit
@pytest.mark.parametrize(
    "sentence, names",
    [
        ("Please contact Example GmbH about the invoice.", ["Example GmbH"]),
        ("We signed with Blue Ocean Ltd last week.", ["Blue Ocean Ltd"]),
        ("Die Firma Müller Bau AG hat ein Werk eröffnet.", ["Müller Bau AG"]),  # not "Firma", a noun
        ("Yesterday Volkswagen AG announced a recall.", ["Volkswagen AG"]),  # not the sentence's first word
        ("Apple Inc. and Acme Corp. merged.", ["Apple Inc.", "Acme Corp."]),
        ("the AG said so; über die GmbH", []),  # a form without a name
        ("Tickets from AGB apply.", []),  # not a form inside a word
    ],
)
def test_a_company_s_name_is_found_with_its_legal_form(sentence, names):
    assert [sentence[start:end] for start, end in company_spans(sentence)] == names


@pytest.mark.system
def test_the_shipped_models_keep_a_company_s_name_as_written():
    """ "Please contact Example GmbH about the invoice." had become "Bitte kontaktiver GmbH über die
    Rechnung." and "Veuillez contacter Exemple GmbH …", "Müller Bau AG" "millant AG" (a newcomer
    trial's "Example GmbH" → "Beispiel GmbH")."""
    import attn.runtime as api

    for sentence, name in [
        ("Please contact Example GmbH about the invoice.", "Example GmbH"),
        ("We signed a contract with Blue Ocean Ltd last week.", "Blue Ocean Ltd"),
    ]:
        for target in ("de", "fr"):
            assert name in api.translate(sentence, source="en", target=target), (sentence, target)
    german = "Die Firma Müller Bau AG hat ein neues Werk eröffnet."
    assert "Müller Bau AG" in api.translate(german, source="de", target="en")
