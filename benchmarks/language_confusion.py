"""What `--from auto` does with languages no shipped model reads: sentences written for this
check in Spanish, Italian, Portuguese and Dutch (and, as controls, English, German and French),
each detected among the shipped models' languages (en, de, fr) as `attn translate --from auto`
does it; a language outside them is written out unchanged. Prints the confusion table.

    python benchmarks/language_confusion.py
"""

from __future__ import annotations

from collections import Counter

from attn.runtime.language_id import OTHER_LANGUAGE_PROBABILITY, detect_language

SENTENCES = {
    "es": [
        "¿Dónde está la estación de tren?",
        "Me gustaría un café con leche, por favor.",
        "Mañana vamos a la playa con los niños.",
        "No entiendo lo que quieres decir.",
        "El archivo no se pudo abrir.",
        "Mi hermana vive en una ciudad pequeña.",
        "Hace mucho frío esta mañana.",
        "¿Cuánto cuesta este libro?",
    ],
    "it": [
        "Dov'è la stazione dei treni?",
        "Vorrei un caffè, per favore.",
        "Domani andiamo al mare con i bambini.",
        "Non capisco cosa vuoi dire.",
        "Il file non è stato aperto.",
        "Mia sorella abita in una piccola città.",
        "Fa molto freddo stamattina.",
        "Quanto costa questo libro?",
    ],
    "pt": [
        "Onde fica a estação de comboios?",
        "Queria um café com leite, por favor.",
        "Amanhã vamos à praia com as crianças.",
        "Não percebo o que queres dizer.",
        "Não foi possível abrir o ficheiro.",
        "A minha irmã vive numa cidade pequena.",
        "Está muito frio esta manhã.",
        "Quanto custa este livro?",
    ],
    "nl": [
        "Waar is het treinstation?",
        "Ik wil graag een koffie, alstublieft.",
        "Morgen gaan we met de kinderen naar het strand.",
        "Ik begrijp niet wat je bedoelt.",
        "Het bestand kon niet worden geopend.",
        "Mijn zus woont in een kleine stad.",
        "Het is erg koud vanochtend.",
        "Hoeveel kost dit boek?",
    ],
    "en": [
        "Where is the train station?",
        "I would like a coffee, please.",
        "My sister lives in a small town.",
        "The file could not be opened.",
    ],
    "de": [
        "Wo ist der Bahnhof?",
        "Ich hätte gern einen Kaffee, bitte.",
        "Meine Schwester wohnt in einer kleinen Stadt.",
        "Die Datei konnte nicht geöffnet werden.",
    ],
    "fr": [
        "Où est la gare ?",
        "Je voudrais un café, s'il vous plaît.",
        "Ma sœur habite dans une petite ville.",
        "Le fichier n'a pas pu être ouvert.",
    ],
}
SHIPPED = {"en", "de", "fr"}


def main() -> None:
    print(
        f"Command: `python benchmarks/language_confusion.py`; candidates {sorted(SHIPPED)}, "
        f"another language reported at probability ≥ {OTHER_LANGUAGE_PROBABILITY}\n"
    )
    print("| written in | sentences | detected as | translated by a wrong model |")
    print("|---|---|---|---|")
    for language, sentences in SENTENCES.items():
        found = Counter(detect_language(sentence, SHIPPED)[0] for sentence in sentences)
        wrong = sum(count for code, count in found.items() if code in SHIPPED and code != language)
        shown = ", ".join(f"{code} {count}" for code, count in found.most_common())
        print(f"| {language} | {len(sentences)} | {shown} | {wrong} |")


if __name__ == "__main__":
    main()
