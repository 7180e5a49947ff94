"""A model folder with lists of the words its training data holds: the rows its config's run
learns from (the train files, less the hold-out, sampled with the run's seed).

- A summarizer's target_words.txt (`attn target-words`): each target's words (runtime/word_check.py's
  WORD) that hold no digit; with it, its beam search writes no word that is neither the
  document's nor one of these.
- A translation model's words.LANGUAGE.txt (`attn language-words`), one per language of its pair:
  the runs of letters of that side of each pair. A name none of them holds is set aside where a
  translation lost it (runtime/unlearned_names.py); a source word the source's list holds and the
  target's does not, left as it was in a translation, is searched again (runtime/untranslated.py).

Each lower-cased, sorted, one per line; the manifest's checksums renewed, the graphs as they are.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from attn.export.config import Config, ConfigError, check_directions
from attn.export.graphs.staging import check_replaceable, staged_folder, write_derived_manifest
from attn.runtime.constants import LANGUAGE_WORDS_FORMAT, SOURCE_WORDS, TARGET_WORDS, WORDS_FORMAT, language_words_file
from attn.runtime.manifest import read_manifest
from attn.runtime.unlearned_names import training_words
from attn.runtime.word_check import WORD


def training_target_words(config: Config) -> list[str]:
    """The words of the targets `config`'s run learns from that hold no digit (a summary's numbers
    are its document's), lower-cased and sorted."""
    from attn.export.training.train import corpus_rows  # PyTorch's: loaded once the rest is checked

    rows, _, _ = corpus_rows(config)
    words = {word.lower() for row in rows for word in WORD.findall(row.target)}
    return sorted(word for word in words if not any(character.isdigit() for character in word))


def training_language_words(config: Config) -> dict[str, list[str]]:
    """The runs of letters (runtime/unlearned_names.py training_words) of each side of the pairs
    `config`'s run learns from, by the side's language, lower-cased and sorted."""
    from attn.export.training.train import corpus_rows  # PyTorch's: loaded once the rest is checked

    rows, _, _ = corpus_rows(config)
    sources: set[str] = set()
    targets: set[str] = set()
    for row in rows:
        sources |= training_words(row.source)
        targets |= training_words(row.target)
    return {config.task.source_lang: sorted(sources), config.task.target_lang: sorted(targets)}


def write_target_words(model: Path, config: Config, out: Path) -> int:
    """Write the folder `out` (replacing it only on success): the summarizer folder `model` with
    the words of `config`'s training targets (TARGET_WORDS); returns how many."""
    return sum(
        write_word_lists(
            model, config, out, "summarize", WORDS_FORMAT, lambda: {TARGET_WORDS: training_target_words(config)}
        ).values()
    )


def write_language_words(model: Path, config: Config, out: Path, languages: list[str] | None = None) -> dict[str, int]:
    """Write the folder `out` (replacing it only on success): the translation model folder `model`
    with the words of each of `languages` (default: both of the config's pair) in `config`'s
    training data (language_words_file); format 6's single list (SOURCE_WORDS) is left out. Returns how
    many words each file holds."""
    pair = [config.task.source_lang, config.task.target_lang]
    unknown = sorted(set(languages or pair) - set(pair))
    if unknown:
        raise ConfigError(f"the config's pair is {'-'.join(pair)}: no words of {', '.join(unknown)} in its data")

    def lists() -> dict[str, list[str]]:
        found = training_language_words(config)
        return {language_words_file(language): found[language] for language in languages or pair}

    return write_word_lists(model, config, out, "translate", LANGUAGE_WORDS_FORMAT, lists, dropped=(SOURCE_WORDS,))


def write_word_lists(
    model: Path,
    config: Config,
    out: Path,
    task: str,
    least_format: int,
    lists: Callable[[], dict[str, list[str]]],
    dropped: tuple[str, ...] = (),
) -> dict[str, int]:
    """Write the folder `out` (replacing it only on success): the model folder `model` with the
    word lists `lists()` gives (file name → words), less the files `dropped`; returns how many words
    each holds. A model or config of another task than `task`, a config whose directions are not
    the model's, or an `out` that is no model folder, is refused before the data is read."""
    manifest = read_manifest(model)
    if manifest.task != task:
        raise ConfigError(f"{model} is a {manifest.task} model; this word list is for {task} models")
    if config.task.kind != task:
        raise ConfigError(f'this word list is for {task} models: [task] kind is not "{task}"')
    check_directions(config, model, manifest.pairs)
    check_replaceable(out)
    written = lists()
    files = [file for file in manifest.files if file not in written and file not in dropped]
    with staged_folder(out) as staging:
        for file in files:
            shutil.copyfile(model / file, staging / file)
        for name, words in written.items():
            (staging / name).write_text("".join(word + "\n" for word in words), encoding="utf-8")
        write_derived_manifest(model, staging, [*files, *written], least_format=least_format)
    return {name: len(words) for name, words in written.items()}
