"""Negations counted in each language, and those a translation drops (runtime/negations.py)."""

import pytest

from attn.runtime.negations import negation_spans, negations, negations_lost


@pytest.mark.unit
@pytest.mark.parametrize(
    ("text", "language", "count"),
    [
        ("It has not been shown yet.", "en", 1),
        ("I don't know, and nobody does.", "en", 2),
        ("No, there is no time.", "en", 2),
        ("Room No. 5 is free, invoice no. A-2024-0815.", "en", 0),  # a number's abbreviation
        ("No 10 said so.", "en", 0),
        ("The answer is no.", "en", 1),
        ("I have no 15 million.", "en", 1),
        ("Ask your doctor whether or not to take it, no matter what.", "en", 0),
        ("A no-fly zone.", "en", 0),
        ("Never mind, it was not until 1990 that it fell.", "en", 0),  # "egal", "erst 1990"
        ("It never fell, and it was not built until 1990.", "en", 2),
        ("Write to no-reply@example.com or run git commit --no-verify.", "en", 0),  # no words of the sentence
        ("Die Wirkung wurde noch nicht gezeigt.", "de", 1),
        ("Es gibt keine Zeit und nichts zu tun.", "de", 2),
        ("Nichtsdestotrotz kommt er.", "de", 0),  # "nevertheless"
        ("Meine Nichte kommt.", "de", 0),  # a niece
        ("Il ne vient pas.", "fr", 1),  # "ne … pas" is one
        ("Il ne vient plus, personne ne vient.", "fr", 2),
        ("Il n'y a que deux chambres.", "fr", 0),  # "ne … que" is "only"
        ("Il y a pas mal de gens.", "fr", 0),  # "quite a few"
        ("Ce n'est pas mal.", "fr", 1),
        ("Un pas en avant, pas à pas, ses premiers pas.", "fr", 0),  # a step
        ("Pas de problème, pourquoi pas ?", "fr", 2),
        ("Je veux être partie de la solution, pas du problème.", "fr", 1),
        ("La personne n'est pas là.", "fr", 1),  # a person
        ("La personne ne vient plus.", "fr", 1),
        ("Qu'est-ce qui ne va pas ? Quelque chose ne va pas.", "fr", 0),  # "what's wrong", "something is wrong"
        ("Il ne va pas à l'école, un élève qui ne va pas bien.", "fr", 2),
        ("De rien, rien que pour vous.", "fr", 0),  # "you're welcome", "just"
        ("Il n'a rien dit à personne.", "fr", 1),
        ("Le meilleur jeu jamais écrit.", "fr", 0),  # "ever"; "n'a jamais" is "never"
        ("Il n'a jamais vu ça.", "fr", 1),
        ("Les touches ne choisissent plus que les fichiers.", "fr", 0),  # "only"
        ("L'Allemagne n'en sera que plus respectée.", "fr", 0),  # "only the more"
        ("Tu ne me dis jamais rien.", "fr", 1),  # the words after "ne … jamais" make one negation
        ("Il n'y a plus personne.", "fr", 1),
        ("Rien ne va plus, personne n'est jamais venu.", "fr", 2),  # the words before "ne" make one with it
        ("You are tired, aren't you?", "en", 0),  # a question tag asks, it negates nothing
        ("You aren't tired, are you?", "en", 1),
        ("Why don't you?", "en", 1),
        ("Du bist müde, nicht wahr?", "de", 0),
        ("Das ist nicht wahr.", "de", 1),
        ("Tu es fatigué, n'est-ce pas ?", "fr", 0),
        ("Tu es fatigué, non ?", "fr", 0),
        ("Vous êtes fatigués, pas vrai ?", "fr", 0),
        ("Non ?", "fr", 1),
        ("Ce n'est pas vrai, n'est-ce pas ?", "fr", 1),
        ("Pourquoi n'est-ce pas ?", "fr", 1),  # "why not?", no tag
        ("Du kommst, oder nicht?", "de", 0),
        ("It works, no?", "en", 0),
    ],
)
def test_negations_are_counted_as_each_language_writes_them(text, language, count):
    assert negations(text, language) == count


@pytest.mark.unit
def test_a_translation_counts_the_words_that_carry_a_negation_of_their_own_too():
    """A source's "sans perte" is "lossless", "ohne" "without", "non désiré" "unwanted": no drop."""
    assert negations("Un algorithme sans perte.", "fr") == 0
    assert negations("A lossless algorithm, without a doubt.", "en", translation=True) == 2
    assert negations("Ein Nichtraucher, kostenlos, ohne Frage.", "de", translation=True) == 3
    assert negations("Un envoi non désiré.", "fr", translation=True) == 1
    # words that only look so carry none: "nevertheless", a name
    assert negations("Nevertheless, Carlos came.", "en", translation=True) == 0
    assert negations("Trotzdem kam Carlos.", "de", translation=True) == 0


@pytest.mark.unit
def test_a_pair_that_makes_one_negation_counts_one_in_every_language():
    counts = {
        negations("He has neither time nor money.", "en"),
        negations("He has no time or money.", "en"),
        negations("Er hat weder Zeit noch Geld.", "de"),
        negations("Il n'a ni temps ni argent.", "fr"),
    }
    assert counts == {1}


@pytest.mark.unit
def test_a_language_is_read_from_its_locale_and_one_without_a_list_counts_none():
    assert negations("Il ne fait pas froid.", "fr_CA") == 1
    assert negations("Non fa freddo.", "it") is None


@pytest.mark.unit
def test_a_translation_drops_the_negations_it_writes_fewer_of():
    source = "Die Wirkung von Vitamin D wurde noch nicht deutlich aufgezeigt."
    assert negations_lost(source, "de", "The effect of vitamin D has also been shown.", "en") == 1
    assert negations_lost(source, "de", "The effect of vitamin D has not been clearly shown.", "en") == 0
    assert negations_lost("It is not cold, it is never cold.", "en", "Il ne fait jamais froid.", "fr") == 1
    assert negations_lost("Ce n'est pas grave.", "fr", "It's harmless.", "en") == 0
    # more negations are no drop, and a language without a list counts none
    assert negations_lost("It is cold.", "en", "Il ne fait pas froid.", "fr") == 0
    assert negations_lost("Es ist nicht kalt.", "de", "Non fa freddo.", "it") == 0


@pytest.mark.unit
def test_each_negation_is_found_with_the_words_it_spans_in_each_language():
    assert negation_spans("Il n'a jamais vu ça, ne pas toucher.".split(), "fr") == [[1, 2], [5, 6]]
    assert negation_spans("Er kommt nicht, keiner kommt, ohne Grund.".split(), "de") == [[2], [3]]  # "ohne": none
    assert negation_spans("I don't know, nobody does, without.".split(), "en", translation=True) == [[1], [3], [5]]
    assert negation_spans("Non fa freddo.".split(), "it") == []
