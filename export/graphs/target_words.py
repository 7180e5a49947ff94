"""A summarizer's folder with the words of its training targets (`attn target-words`): the rows
its config's run learns from (the train files, less the hold-out, sampled with the run's seed),
each target's words (runtime/word_check.py's WORD) that hold no digit, lower-cased, sorted, one
per line, as target_words.txt; the manifest's checksums renewed, the graphs as they are. With that file, its
beam search writes no word that is neither the document's nor one of these."""

from __future__ import annotations

import shutil
from pathlib import Path

from attn.export.config import Config, ConfigError
from attn.export.graphs.staging import check_replaceable, staged_folder, write_derived_manifest
from attn.runtime.constants import TARGET_WORDS, WORDS_FORMAT
from attn.runtime.manifest import read_manifest
from attn.runtime.word_check import WORD


def training_target_words(config: Config) -> list[str]:
    """The words of the targets `config`'s run learns from that hold no digit (a summary's numbers
    are its document's), lower-cased and sorted."""
    from attn.export.training.train import corpus_rows  # PyTorch's: loaded once the rest is checked

    rows, _, _ = corpus_rows(config)
    words = {word.lower() for row in rows for word in WORD.findall(row.target)}
    return sorted(word for word in words if not any(character.isdigit() for character in word))


def write_with_target_words(model: Path, config: Config, out: Path) -> int:
    """Write the folder `out` (replacing it only on success): the summarizer folder `model` with
    the words of `config`'s training targets as its target_words.txt; returns how many. A
    translation model or config, or an `out` that is no model folder, is refused before the
    targets are read."""
    manifest = read_manifest(model)
    if manifest.task != "summarize":
        raise ConfigError(f"{model} is a {manifest.task} model; target words are for summarizers")
    if config.task.kind != "summarize":
        raise ConfigError('target words are for summarizers: [task] kind is not "summarize"')
    check_replaceable(out)
    words = training_target_words(config)
    files = [name for name in manifest.files if name != TARGET_WORDS]
    with staged_folder(out) as staging:
        for name in files:
            shutil.copyfile(model / name, staging / name)
        (staging / TARGET_WORDS).write_text("".join(word + "\n" for word in words), encoding="utf-8")
        write_derived_manifest(model, staging, [*files, TARGET_WORDS], least_format=WORDS_FORMAT)
    return len(words)
