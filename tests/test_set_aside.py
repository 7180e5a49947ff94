"""E-mail addresses, URLs and code in backquotes set aside from the search as placeholders and put
back after it (runtime/set_aside.py)."""

import numpy as np
import pytest

from attn.runtime.alignment import WordAlignment
from attn.runtime.set_aside import put_back, set_aside, signs_apart, spaced_as_written

from .test_verbatim import links

pytestmark = pytest.mark.unit


def test_addresses_urls_and_code_become_placeholders_the_sentence_does_not_use():
    aside = set_aside("Send {0} to anna@example.org, see https://example.org/a.pdf. Run `ls -la` now.")
    assert aside.text == "Send {0} to {1}, see {2}. Run {3} now."
    assert aside.tokens == {"{1}": "anna@example.org", "{2}": "https://example.org/a.pdf", "{3}": "`ls -la`"}


@pytest.mark.parametrize(
    "sentence, phone",
    [
        ("Call +44 20 7946 0958 today.", "+44 20 7946 0958"),
        ("Hotline: +49 (0)30 1234 5678.", "+49 (0)30 1234 5678"),
        ("Text +1-555-123-4567, please", "+1-555-123-4567"),
        ("Tel. +41 44 668 18 00.", "+41 44 668 18 00"),
        ("It rose +12 34 56 points", None),  # fewer than eight digits
        ("Add +5.5 to 2+2 = 4", None),
    ],
)
def test_an_international_phone_number_is_set_aside(sentence, phone):
    """ "+44 20 7946 0958" had become "+44 0958" in French."""
    assert list(set_aside(sentence).tokens.values()) == ([phone] if phone else [])


@pytest.mark.parametrize(
    "sentence, tags",
    [
        ("Follow @example on social media.", ["@example"]),
        ("Use #example and #help!", ["#example", "#help"]),
        ("Ping @team-lead. #Köln2025", ["@team-lead", "#Köln2025"]),
        ("Ranked #1 in C# and F#, &#x27;ok&#39;", []),  # a number, a language's name, character references
    ],
)
def test_hashtags_and_handles_are_set_aside(sentence, tags):
    """ "@example" and "#help" had become "@beispiel" and "#hilfe"."""
    assert list(set_aside(sentence).tokens.values()) == tags


def test_a_urls_closing_bracket_is_its_own_only_when_it_opened_one():
    aside = set_aside("See (https://en.wikipedia.org/wiki/Python_(language)) and (www.example.org).")
    assert list(aside.tokens.values()) == ["https://en.wikipedia.org/wiki/Python_(language)", "www.example.org"]
    assert aside.text == "See ({0}) and ({1})."


def test_backquotes_typed_as_apostrophes_are_no_code():
    assert set_aside("it`s fine, isn`t it").tokens == {}


def test_emoji_and_signs_are_set_aside_but_not_those_the_model_writes_whole_nor_one_inside_a_word():
    aside = set_aside("Thanks 😀 and 👋🏽, rated ⭐ ⭐ ⭐ for § 3 at 20 °C, don´t forget €5 ▸ Save.")
    assert list(aside.tokens.values()) == ["😀", "👋🏽", "⭐ ⭐ ⭐", "§", "°", "€", "▸"]
    written = set_aside("Thanks 😀 for § 3 ▸ Save.", "en", lambda character: character in "▸§")
    assert list(written.tokens.values()) == ["😀"] and written.text == "Thanks {0} for § 3 ▸ Save."
    assert set_aside("Ça coûte 3 € — « oui » ¿qué? … ·").tokens == {"{0}": "€"}
    # a sign and what joins or modifies it are one: a heart the vocabulary held, its selector not
    assert set_aside("I \u2764\ufe0f it", "en", lambda character: character == "\u2764").tokens == {
        "{0}": "\u2764\ufe0f"
    }


def test_signs_that_open_a_sentence_or_end_one_part_it_from_the_rest():
    """Read before the sentence as a placeholder, they had made its translation begin in small
    letters ("👋 how can i help you?")."""
    nothing_whole = lambda character: False  # noqa: E731
    assert signs_apart("👋 Wie kann ich helfen?", nothing_whole) == ["👋", "Wie kann ich helfen?"]
    assert signs_apart("⭐ ⭐ ⭐ Great app!", nothing_whole) == ["⭐ ⭐ ⭐", "Great app!"]
    assert signs_apart("Thanks 😀", nothing_whole) == ["Thanks 😀"]  # not at its start
    assert signs_apart("👋", nothing_whole) == ["👋"]  # no words: as it is
    assert signs_apart("▸ Datei öffnen", lambda character: character == "▸") == ["▸ Datei öffnen"]  # written whole
    # a run between two sentences ends the first: read as one, the second's first word had been lost
    assert signs_apart("Sorry to hear that 😞 Let me check your order.", nothing_whole) == [
        "Sorry to hear that 😞",
        "Let me check your order.",
    ]
    assert signs_apart("I ❤️ Paris", nothing_whole) == ["I ❤️ Paris"]
    # not before a name (a word the vocabulary holds in fewer pieces capitalized)
    named = {"London": 1, "london": 2}

    def pieces(word: str) -> int:
        return named.get(word, 1)

    assert signs_apart("My sister who lives in 🇬🇧 London works as a doctor.", nothing_whole, pieces) == [
        "My sister who lives in 🇬🇧 London works as a doctor."
    ]


def test_a_sign_written_against_a_number_or_word_stays_against_it():
    aside = set_aside("It is 20°C, 20° and 😀 today.")
    assert aside.text == "It is 20°C, 20{0} and {1} today."
    translated = links(aside.text, "Es ist heute 20°C, 20 {0} und {1}.", [0, 1, 5, 2, 3, 3, 4, 4])
    assert put_back(translated, aside, "en", "de").target_words[:6] == ["Es", "ist", "heute", "20°C,", "20°", "und"]
    # only against the word it was written against: reordered, "€5" is "5 €", not "5 €pro"
    aside = set_aside("It costs €5 per piece.")
    translated = links(aside.text, "Es kostet 5 {0} pro Stück.", [0, 1, 2, 2, 3, 4])
    assert put_back(translated, aside, "en", "de").target_words == ["Es", "kostet", "5", "€", "pro", "Stück."]


def test_a_sentence_of_tokens_alone_is_given_back_and_one_with_words_is_not():
    assert set_aside("`ls -la`").nothing_else and set_aside("https://example.org/a, www.example.org").nothing_else
    assert not set_aside("Run `ls -la`").nothing_else and not set_aside("No token here.").nothing_else


def test_the_tokens_words_come_back_on_both_sides_each_linked_to_itself():
    aside = set_aside("Use `git status -s` to see it.")
    translated = links("Use {0} to see it.", "Verwenden Sie {0}, um es zu sehen.", [0, 0, 1, 2, 4, 2, 3])
    back = put_back(translated, aside, "en", "de")
    assert back.source_words == ["Use", "`git", "status", "-s`", "to", "see", "it."]
    assert back.target_words == ["Verwenden", "Sie", "`git", "status", "-s`,", "um", "es", "zu", "sehen."]
    assert back.pharaoh() == "0-0 0-1 1-2 2-3 3-4 4-5 6-6 4-7 5-8"
    np.testing.assert_allclose(back.weights.sum(axis=1), 1.0)


def test_attention_to_a_placeholder_is_shared_among_its_tokens_words():
    aside = set_aside("Run `a b` now")
    weights = np.array([[0.2, 0.6, 0.2], [0.1, 0.8, 0.1], [0.0, 0.0, 1.0]], np.float32)
    back = put_back(WordAlignment(["Run", "{0}", "now"], ["Lauf", "{0}", "jetzt"], weights), aside, "en", "de")
    assert back.target_words == ["Lauf", "`a", "b`", "jetzt"]
    np.testing.assert_allclose(back.weights, [[0.2, 0.3, 0.3, 0.2], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def test_a_dropped_placeholder_goes_in_beside_the_word_that_attended_to_it_most():
    aside = set_aside("Write to anna@example.org today.")
    source = ["Write", "to", "{0}", "today."]
    # "heute." attended most to the address, and its own strongest word comes after it: before it
    weights = np.array([[0.9, 0.1, 0.0, 0.0], [0.0, 0.1, 0.3, 0.6]], np.float32)
    back = put_back(WordAlignment(source, ["Schreib", "heute."], weights), aside, "en", "de")
    assert back.target_words == ["Schreib", "anna@example.org", "heute."] and back.pharaoh() == "0-0 2-1 3-2"
    # "schreiben." did, and its own strongest word comes before it: after it, before the full stop
    weights = np.array([[0.0, 0.0, 0.1, 0.9], [0.5, 0.1, 0.4, 0.0]], np.float32)
    back = put_back(WordAlignment(source, ["Heute", "schreiben."], weights), aside, "en", "de")
    assert back.target_words == ["Heute", "schreiben", "anna@example.org."] and back.pharaoh() == "3-0 0-1 2-2"
    # with the brackets its source word has, not its comma
    aside = set_aside("Thanks to me (www.example.org), for help.")
    weights = np.array([[0.8, 0.0, 0.1, 0.1, 0.0, 0.0], [0.0, 0.1, 0.2, 0.1, 0.0, 0.6]], np.float32)
    back = put_back(WordAlignment(aside.text.split(), ["Danke", "Hilfe."], weights), aside, "en", "de")
    assert back.target_words == ["Danke", "(www.example.org)", "Hilfe."]


def test_a_dropped_placeholder_does_not_go_inside_a_run_of_words_on_its_side():
    """A placeholder the model gave almost no attention is linked to any word: it had gone in
    between "17:00" and "Uhr." (of "5 pm"), both translating words after it."""
    aside = set_aside("Write to anna@example.org before 17:00 Uhr.")
    source = ["Write", "to", "{0}", "before", "17:00", "Uhr."]
    target = ["Schreiben", "Sie", "vor", "17:00", "Uhr."]
    weights = np.array(
        [
            [0.76, 0.08, 0.01, 0.11, 0.01, 0.02],
            [0.34, 0.47, 0.08, 0.07, 0.00, 0.03],
            [0.09, 0.45, 0.07, 0.38, 0.00, 0.01],
            [0.01, 0.00, 0.05, 0.00, 0.92, 0.02],
            [0.09, 0.04, 0.09, 0.00, 0.03, 0.74],
        ],
        np.float32,
    )
    back = put_back(WordAlignment(source, target, weights), aside, "en", "de")
    assert back.target_words == ["Schreiben", "Sie", "vor", "anna@example.org", "17:00", "Uhr."]
    # after the word it goes in after, past the words that translate what comes before it
    weights = np.array([[0.1, 0.0, 0.0, 0.0, 0.0, 0.9], [0.6, 0.1, 0.3, 0.0, 0.0, 0.0], [0.1, 0.8, 0.1, 0.0, 0.0, 0.0]])
    back = put_back(
        WordAlignment(source, ["Heute", "schreiben", "Sie."], weights.astype(np.float32)), aside, "en", "de"
    )
    assert back.target_words == ["Heute", "schreiben", "Sie", "anna@example.org."]


def test_a_placeholder_written_twice_stays_where_it_is_linked_most_or_stands_for_one_dropped():
    aside = set_aside("Open https://example.org now")
    translated = links("Open {0} now", "Öffne {0} jetzt {0}.", [0, 1, 2, 2])
    back = put_back(translated, aside, "en", "de")
    assert back.target_words == ["Öffne", "https://example.org", "jetzt."]
    aside = set_aside("See www.a.org or www.b.org today")
    translated = links("See {0} or {1} today", "Siehe {0} oder {0}, heute", [0, 1, 2, 3, 4])
    assert put_back(translated, aside, "en", "de").target_words == ["Siehe", "www.a.org", "oder", "www.b.org,", "heute"]


def test_a_copy_taken_out_takes_the_word_the_model_repeated_with_it():
    """'Herr Baker traf Frau Frau Cook': the model wrote 'Frau {1} Frau {1}', and the title stayed
    when the second copy was taken out."""
    aside = set_aside("Mr Baker met Ms Cook today", "en", names=[(3, 8), (16, 20)])
    translated = links(aside.text, "Herr {0} traf Frau {1} Frau {1} heute", [0, 1, 2, 3, 4, 3, 4, 5])
    assert put_back(translated, aside, "en", "de").target_words == ["Herr", "Baker", "traf", "Frau", "Cook", "heute"]


def test_a_word_the_model_glued_to_a_placeholder_is_set_apart():
    aside = set_aside("Die Anleitung steht unter »https://beispiel.de/hilfe«.")
    translated = links(aside.text, "The guide is under{0}.", [0, 1, 2, 4])
    assert put_back(translated, aside, "de", "en").target_words == [
        "The",
        "guide",
        "is",
        "under",
        "https://beispiel.de/hilfe.",
    ]
    aside = set_aside("Read l'https://exemple.fr/guide", "fr")
    translated = links(aside.text, "Read the{0}", [0, 2])
    assert put_back(translated, aside, "fr", "en").target_words == ["Read", "the", "https://exemple.fr/guide"]


def test_a_part_of_a_sentence_puts_back_its_own_placeholders_only():
    aside = set_aside("Write to anna@example.org and call us tomorrow.")
    part = links("call us tomorrow.", "ruf {0} morgen an.", [0, 1, 2, 2])  # a placeholder of another part
    assert put_back(part, aside, "en", "de").target_words == ["ruf", "{0}", "morgen", "an."]


def test_a_urls_trailing_quotes_and_unopened_brackets_are_the_sentences():
    tokens = set_aside("Go to „https://example.org/a“ or »https://example.org/b«, see https://example.org/items[0].")
    assert list(tokens.tokens.values()) == [
        "https://example.org/a",
        "https://example.org/b",
        "https://example.org/items[0]",
    ]
    assert list(set_aside("(see https://example.org/x])").tokens.values()) == ["https://example.org/x"]


def test_a_lone_backquote_pairs_with_no_other():
    assert set_aside("Use ` for code, `'` for quotes.").tokens == {"{0}": "`'`"}
    assert set_aside("Type ` around code, and ` after.").tokens == {}


def test_french_elision_before_a_url_is_a_word_of_its_own_on_both_sides():
    aside = set_aside("Lisez l'https://exemple.fr/guide avant.", "fr")
    assert aside.text == "Lisez l' {0} avant."  # the model wrote "the{0}" for "l'{0}"
    back = put_back(links("Lisez l' {0} avant.", "Read {0} before.", [0, 2, 3]), aside, "fr", "en")
    assert back.source_words == ["Lisez", "l'", "https://exemple.fr/guide", "avant."]
    assert back.target_words == ["Read", "https://exemple.fr/guide", "before."]
    assert back.pharaoh() == "0-0 2-1 3-2"
    assert set_aside("Lisez l'`ls`.", "fr").text == "Lisez l'{0}."  # one word, as words.py counts it
    assert set_aside("Read 'https://example.org'", "en").text == "Read '{0}'"


def test_words_in_another_script_than_a_latin_languages_are_set_aside_a_run_at_a_time():
    aside = set_aside("Vladimir Putin («Владимир Путин») met Москва's mayor in 東京.", "en")
    assert aside.text == "Vladimir Putin («{0}») met Москва's mayor in {1}."
    assert list(aside.tokens.values()) == ["Владимир Путин", "東京"]
    assert set_aside("Я люблю Москву.", "ru").tokens == {} and set_aside("Москва", "sym").tokens == {}


def test_template_expressions_are_set_aside_whole():
    """The models wrote "{Zzählung }" for "{{ count }}"."""
    aside = set_aside("Hello {{ user.name }}, you have {{count}} messages in {% block title %}.")
    assert aside.text == "Hello {0}, you have {1} messages in {2}."
    assert list(aside.tokens.values()) == ["{{ user.name }}", "{{count}}", "{% block title %}"]
    assert set_aside("Open https://x.org/users/{{ user.id }}/edit now.").tokens == {
        "{0}": "https://x.org/users/{{ user.id }}/edit"
    }


def test_a_template_written_against_a_word_stays_against_it():
    """What a template renders there has no space: "{% if paid %} bezahlt {% endif %}." had rendered
    "Ihre Bestellung  bezahlt ."; a template between spaces keeps them."""
    aside = set_aside("Your order {% if paid %}was paid{% endif %}, {{ name }}, in {{currency}}EUR.")
    assert aside.text == "Your order {0}was paid{1}, {2}, in {3}EUR."
    translated = links(
        "Your order {0}was paid{1}, {2}, in {3}EUR.",
        "Ihre Bestellung {0} wurde bezahlt {1}, {2}, in {3} EUR.",
        [0, 1, 2, 2, 3, 3, 4, 5, 6, 6],
    )
    back = put_back(translated, aside, "en", "de")
    assert " ".join(back.target_words) == (
        "Ihre Bestellung {% if paid %}wurde bezahlt{% endif %}, {{ name }}, in {{currency}}EUR."
    )
    assert back.weights.shape == (len(back.target_words), len(back.source_words))
    assert np.allclose(back.weights.sum(axis=1), 1.0)


def test_a_reference_mark_against_a_word_is_set_aside_and_stays_against_the_word_before_it():
    """An encyclopedia's reference marks ("old.[1]", "1887.[2][3]") were read as part of the word:
    the models left "old.[1]" untranslated and wrote "1887.[2] gebaut.[2]". Set aside, each comes
    back against the word the translation writes before it; a bracketed number after a space ("see
    [1]"), or within brackets, is the sentence's."""
    aside = set_aside("The bridge[1] is old.[2][3] See [4] or (see[5]) and a[[6]].")
    assert aside.text == "The bridge{0} is old.{1} See [4] or (see{2}) and a[[6]]."
    assert aside.tokens == {"{0}": "[1]", "{1}": "[2][3]", "{2}": "[5]"}
    translated = links("The bridge{0} is old.{1}", "Die Brücke {0} ist alt.{1}", [0, 1, 1, 2, 3])
    assert put_back(translated, set_aside("The bridge[1] is old.[2][3]"), "en", "de").target_words == [
        "Die",
        "Brücke[1]",
        "ist",
        "alt.[2][3]",
    ]


def test_a_tokens_own_spacing_comes_back():
    """Its words are words of the alignment, joined one space apart: `ls    -la` came back `ls -la`."""
    aside = set_aside("Run `ls    -la` and {{  name  }} now.")
    assert (
        spaced_as_written("Starte `ls -la` und {{ name }} jetzt.", aside)
        == "Starte `ls    -la` und {{  name  }} jetzt."
    )
    twice = set_aside("Run `ls -la` then `ls    -la`.")  # which of the two is the wide one: not known
    assert spaced_as_written("Starte `ls -la` dann `ls -la`.", twice) == "Starte `ls -la` dann `ls -la`."


def test_a_part_of_a_sentence_without_its_templates_is_put_back():
    """A long sentence is translated in parts, each put back with the whole sentence's tokens: a
    template glued in another part raised a KeyError."""
    aside = set_aside("Total{{ amount }} and more words here.")
    part = links("and more words here.", "und mehr Wörter hier.", [0, 1, 2, 3])
    assert put_back(part, aside, "en", "de").target_words == ["und", "mehr", "Wörter", "hier."]
