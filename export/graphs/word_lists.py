"""A model folder with a list of the words its training data holds: the rows its config's run
learns from (the train files, less the hold-out, sampled with the run's seed).

- A summarizer's target_words.txt (`attn target-words`): each target's words (runtime/word_check.py's
  WORD) that hold no digit; with it, its beam search writes no word that is neither the
  document's nor one of these.
- A translation model's source_words.txt (`attn source-words`): the runs of letters of each
  source, of both sides for a model that learns both ways; a name none of them holds is set aside
  where a translation lost it (runtime/unlearned_names.py).

Each lower-cased, sorted, one per line; the manifest's checksums renewed, the graphs as they are.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from attn.export.config import Config, ConfigError, learned_directions
from attn.export.graphs.staging import check_replaceable, staged_folder, write_derived_manifest
from attn.runtime.constants import SOURCE_WORDS, SOURCE_WORDS_FORMAT, TARGET_WORDS, WORDS_FORMAT
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


def training_source_words(config: Config) -> list[str]:
    """The runs of letters (runtime/unlearned_names.py training_words) of the sources `config`'s run
    learns from, of both sides when it learns both ways, lower-cased and sorted."""
    from attn.export.training.train import corpus_rows  # PyTorch's: loaded once the rest is checked

    rows, _, _ = corpus_rows(config)
    both_ways = len(learned_directions(config)) > 1
    words: set[str] = set()
    for row in rows:
        for side in (row.source, row.target) if both_ways else (row.source,):
            words |= training_words(side)
    return sorted(words)


# Each list: its file, the task of the models it is for, the least format version that holds it,
# and what reads it from a config
WORD_LISTS = {
    TARGET_WORDS: ("summarize", WORDS_FORMAT, training_target_words),
    SOURCE_WORDS: ("translate", SOURCE_WORDS_FORMAT, training_source_words),
}


def write_with_words(model: Path, config: Config, out: Path, name: str) -> int:
    """Write the folder `out` (replacing it only on success): the model folder `model` with the
    word list `name` (WORD_LISTS) of `config`'s training data; returns how many words. A model or
    config of the other task, a config whose directions are not the model's, or an `out` that is no
    model folder, is refused before the data is read."""
    task, least_format, read = WORD_LISTS[name]
    manifest = read_manifest(model)
    if manifest.task != task:
        raise ConfigError(f"{model} is a {manifest.task} model; {name} is for {task} models")
    if config.task.kind != task:
        raise ConfigError(f'{name} is for {task} models: [task] kind is not "{task}"')
    if set(learned_directions(config)) != set(manifest.pairs):
        raise ConfigError(
            f"{model} translates {', '.join('→'.join(pair) for pair in manifest.pairs)}; the config's run learns "
            f"{', '.join('→'.join(pair) for pair in learned_directions(config))}"
        )
    check_replaceable(out)
    words = read(config)
    files = [file for file in manifest.files if file != name]
    with staged_folder(out) as staging:
        for file in files:
            shutil.copyfile(model / file, staging / file)
        (staging / name).write_text("".join(word + "\n" for word in words), encoding="utf-8")
        write_derived_manifest(model, staging, [*files, name], least_format=least_format)
    return len(words)
