"""An e-mail's header labels and reply or forward prefixes read as the target writes them (runtime/header_labels.py)."""

import pytest

from attn.runtime.header_labels import read_header_labels


@pytest.mark.unit
@pytest.mark.parametrize(
    "line, source, target, read",
    [
        ("Betreff: Rechnung März", "de", "en", "Subject: Rechnung März"),
        ("AW: WG: Termin morgen", "de", "fr", "RE : TR : Termin morgen"),
        ("Objet : Facture de mars", "fr", "en", "Subject: Facture de mars"),
        ("Subject: Invoice", "en", "fr", "Objet : Invoice"),
        ("Pièce jointe : facture.pdf", "fr", "de", "Anhang: facture.pdf"),
        # no header: a sentence that opens with the same word, a label with nothing after it
        ("Von Berlin aus fährt der Zug.", "de", "en", "Von Berlin aus fährt der Zug."),
        ("To be honest: I forgot.", "en", "de", "To be honest: I forgot."),
        ("Betreff:", "de", "en", "Betreff:"),
        ("A : Vrai   B : Faux", "fr", "en", "A : Vrai   B : Faux"),  # a quiz's line
        ("Subject: Invoice", "en", "it", "Subject: Invoice"),  # a language without a column
    ],
)
def test_a_header_label_is_read_as_the_target_writes_it(line, source, target, read):
    """ "Betreff: Rechnung März" had come out "Remote: March", "Objet : …" "Object: …"."""
    assert read_header_labels(line, source, target) == read


@pytest.mark.system
def test_a_subject_line_comes_through_with_the_shipped_models():
    import attn.runtime as api

    result = api.load().translate("Betreff: Ihre Bestellung vom 12. März", source="de", target="en")
    assert result.text.startswith("Subject:"), result.text
    assert result.alignment.source_words[0] == "Betreff:"  # the alignment shows the words the user wrote
