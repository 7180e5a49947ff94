"""A model folder with its shortlist learned again (`attn shortlist`): the graphs, the output
layer and the tokenizer as they are, `lexicon.npz` learned on a config's training data in the
model's own pieces with the config's [shortlist] sizes, the manifest's checksums renewed. A shipped
model's shortlist can so be widened or narrowed, as dev says (benchmarks/tune_shortlist.py),
without training it again."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from rich.console import Console

from attn.export.config import Config, ConfigError, check_directions
from attn.export.graphs.staging import check_replaceable, staged_folder, write_derived_manifest
from attn.runtime.constants import LEXICON, TOKENIZER
from attn.runtime.manifest import read_manifest
from attn.runtime.shortlist import Shortlist


def write_with_shortlist(model: Path, config: Config, out: Path, console: Console) -> Shortlist:
    """Write the folder `out` (replacing it only on success): the model folder `model` with the
    shortlist of `config`'s [shortlist] sizes as its lexicon.npz, learned on its [data] train
    pairs as the model's tokenizer cuts them; returns the shortlist. A folder that is no model, a
    size of 0 or an `out` that is no model folder is refused before PyTorch loads."""
    manifest = read_manifest(model)
    files = [name for name in manifest.files if name != LEXICON]
    # another pair's config had been refused naming a temporary tokenizer and a wrong cause
    check_directions(config, model, manifest.pairs)
    if not config.shortlist.frequent:
        raise ConfigError("[shortlist] frequent is 0: there is no shortlist to learn")
    check_replaceable(out)
    from attn.export.graphs.lexicon import run_shortlist
    from attn.export.training.train import prepare_corpus

    with tempfile.TemporaryDirectory() as scratch:
        shutil.copyfile(model / TOKENIZER, Path(scratch) / TOKENIZER)
        corpus = prepare_corpus(config, Path(scratch), console)
    shortlist = run_shortlist(corpus, config.shortlist, console)
    with staged_folder(out) as staging:
        for name in files:
            shutil.copyfile(model / name, staging / name)
        shortlist.save(staging / LEXICON)
        write_derived_manifest(model, staging, [*files, LEXICON])
    return shortlist
