"""Training: Adam with warm-up and inverse-square-root decay, label smoothing, clipping, a
wall-clock budget, periodic checkpoints with exact resume, dev loss/BLEU and best-checkpoint keeping;
on every CPU core, a GPU, or several processes under torchrun (export/training/distributed.py).

A work folder holds everything of one run: tokenizer.json, last.pt (resume point), best.pt
(best dev score), summary.json. Running again on the same folder resumes where it stopped.
"""

from __future__ import annotations

import gzip
import json
import lzma
import math
import os
import random
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from tokenizers import Tokenizer
from torch import Tensor

from attn.export.config import Config, ConfigError, data_files, learned_directions
from attn.export.models import EncoderDecoder, build_model
from attn.export.training.data import (
    Direction,
    Pair,
    collate,
    encode_pairs,
    hold_out,
    pad,
    sample_origins,
    token_batches,
)
from attn.export.training.distributed import join_workers
from attn.export.training.exported_weights import exported_weights, is_exported_folder
from attn.export.training.subwords import train_tokenizer
from attn.export.training.vocab_transfer import spellings, transfer_vocabulary, vocabulary_tensor_names
from attn.runtime.constants import EOS, PAD, TOKENIZER, target_token
from attn.runtime.errors import UsageError
from attn.runtime.files import replace_whole
from attn.runtime.manifest import read_manifest
from attn.runtime.tokenizer import SubwordTokenizer
from attn.runtime.tsv import Row, read_tsv, spread

LOG_EVERY = 50
# The rows [data] hold_out kept out of training, in the files' column order, for `attn eval`.
HELD_OUT_FILE = "held-out.tsv.gz"


@dataclass
class Corpus:
    """The encoded pairs of every direction the model learns, and the dev rows of each."""

    tokenizer: SubwordTokenizer
    train: list[Pair]
    dev: list[Pair]
    dev_directions: list[Direction]


def corpus_rows(config: Config) -> tuple[list[Row], list[Row], list[Row]]:
    """The rows a run learns from (the train files less [data] hold_out, sampled by [data] sample
    with the run's seed), its dev rows (the dev files and the held-out rows), and the held-out
    rows alone, in the files' column order: all read as [task]'s direction ([data] swap_columns)."""
    swap = config.data.swap_columns
    read = [row for path in data_files(config.data.train) for row in read_tsv(path, swap)]
    absent = sorted(set(config.data.one_way) - {row.origin for row in read})
    if absent:  # a misspelt origin would be learned both ways, a model's output as the target
        raise ConfigError(f"[data] one_way: no rows of origin {', '.join(map(repr, absent))} in the train files")
    rows, held = hold_out(
        read,
        config.data.hold_out,
        key=lambda row: row.target if swap else row.source,
    )
    rows = sample_origins(rows, config.data.sample, config.train.seed)
    dev_rows = [row for path in data_files(config.data.dev) for row in read_tsv(path, swap)] + held
    for name, paths, found in (("train", config.data.train, rows), ("dev", config.data.dev, dev_rows)):
        if not found:
            raise ConfigError(f"[data] {name}: {', '.join(data_files(paths))} holds no pairs (source<TAB>target lines)")
    return rows, dev_rows, [row.swapped() if swap else row for row in held]


def prepare_corpus(config: Config, workdir: Path, console: Console) -> Corpus:
    """Read and sample the data (corpus_rows, the held-out rows written to HELD_OUT_FILE); train
    the tokenizer once (kept in the work folder); encode each direction (learned_directions:
    [task]'s, or both ways with target-language tokens; [data] one_way origins in theirs alone)."""
    rows, dev_rows, held = corpus_rows(config)
    if held:
        write_rows(workdir / HELD_OUT_FILE, held)
    directions = learned_directions(config)
    tagged = bool(config.data.directions)
    tokenizer_path = workdir / TOKENIZER
    learned = None  # a tokenizer learned now is written only once the data is known to be usable
    if tokenizer_path.exists():
        tokenizer = SubwordTokenizer.load(tokenizer_path)
    else:
        texts = [row.source for row in rows] + [row.target for row in rows]
        learned = train_tokenizer(
            texts, config.vocab.size, config.vocab.min_frequency, [target for _, target in directions] if tagged else ()
        ).to_str()
        tokenizer = SubwordTokenizer(Tokenizer.from_str(learned))
    train, dev, dev_directions = [], [], []
    dev_source_limit = config.data.max_source_pieces if config.data.truncate_source else 10_000
    for source_lang, target_lang in directions:
        prefix = _target_prefix(tokenizer, target_lang, tokenizer_path) if tagged else []
        backwards = source_lang != config.task.source_lang
        pair = [source_lang, target_lang]
        learned_rows = [row for row in rows if config.data.one_way.get(row.origin, pair) == pair]
        train += encode_pairs(
            [row.swapped() for row in learned_rows] if backwards else learned_rows,
            tokenizer,
            config.data.max_source_pieces,
            config.data.max_target_pieces,
            config.data.truncate_source,
            prefix,
        )
        direction = Direction(prefix, [row.swapped() for row in dev_rows] if backwards else dev_rows)
        dev += encode_pairs(direction.rows, tokenizer, dev_source_limit, 10_000, config.data.truncate_source, prefix)
        dev_directions.append(direction)
    if not train:
        raise ConfigError(
            f"[data] train: none of the {len(rows)} pairs of {', '.join(data_files(config.data.train))} fits "
            f"max_source_pieces {config.data.max_source_pieces} and max_target_pieces "
            f"{config.data.max_target_pieces}"
        )
    if not dev:
        raise ConfigError(f"[data] dev: no usable pair in {', '.join(data_files(config.data.dev))}")
    if learned is not None:
        _atomic_write(tokenizer_path, learned)
    ways = f" in {len(directions)} directions" if tagged else ""
    console.log(
        f"train pairs {len(train)} of {len(rows)} rows{ways}, dev pairs {len(dev)}, vocab {tokenizer.vocab_size}"
    )
    return Corpus(tokenizer, train, dev, dev_directions)


def _target_prefix(tokenizer: SubwordTokenizer, language: str, path: Path) -> list[int]:
    token = tokenizer.language_token(language)
    if token is None:
        raise ConfigError(
            f"[data] directions: {path} has no {target_token(language)} token (a tokenizer of a "
            f"one-direction run, taken through [train] init_from?); start from a run of the same directions"
        )
    return [token]


# [model] keys that leave the weights alone and choose only what `attn export` writes: which decoder
# layer's encoder-decoder attention becomes the `attention` output.
EXPORT_CHOICES = ("model.alignment_layer",)


def check_run_config(config: Config, workdir: Path, record: bool = False) -> None:
    """Compare the run's [model] and [vocab] with those recorded in the work folder: a later use
    with different ones (a forgotten --set, the wrong config) is a ConfigError, not a weight
    mismatch. `record` writes them when none are, which the Trainer does once the data and the
    model were built, so that a config that failed never locks the folder. Keys that only choose
    what an export writes (EXPORT_CHOICES) may differ; a key the folder does not record (it
    predates the key) counts as that key's default."""
    path = workdir / "config.json"
    fixed = {name: config.to_dict()[name] for name in ("model", "vocab")}
    defaults = Config().to_dict()
    if not path.exists():
        if record:
            _atomic_write(path, json.dumps(fixed, indent=2))
        return
    recorded = json.loads(path.read_text(encoding="utf-8"))
    for section, values in fixed.items():
        changed = sorted(
            k
            for k in values
            if recorded.get(section, {}).get(k, defaults[section][k]) != values[k]
            and f"{section}.{k}" not in EXPORT_CHOICES
        )
        if changed:
            raise ConfigError(
                f"{workdir} was trained with different [{section}] {', '.join(changed)} "
                f"(see {path}); use its settings or another --workdir"
            )


def seeded_model(config: Config, vocab_size: int) -> EncoderDecoder:
    torch.manual_seed(config.train.seed)
    return build_model(config.model, vocab_size)


def learning_rate_schedule(warmup_steps: int, max_steps: int = 0, cooldown_steps: int = 0):
    """LR multiplier of an update step: linear warm-up to 1, then decay as sqrt(warmup / step);
    with a cooldown, the last `cooldown_steps` before `max_steps` go linearly from the decay's
    value where the cooldown starts down to zero."""
    warmup = max(1, warmup_steps)
    start = max_steps - cooldown_steps

    def inverse_sqrt(step: int) -> float:
        return min((step + 1) / warmup, math.sqrt(warmup / (step + 1)))

    def factor(step: int) -> float:
        if cooldown_steps <= 0 or step < start:
            return inverse_sqrt(step)
        return inverse_sqrt(start) * max(0.0, max_steps - step) / cooldown_steps

    return factor


@contextmanager
def folder_made_for(folder: Path) -> Iterator[None]:
    """`folder` made for the block, and removed again when the block fails and leaves it empty
    (training data refused had left an empty work folder)."""
    made = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        if made and not any(folder.iterdir()):
            folder.rmdir()
        raise


class Trainer:
    def __init__(self, config: Config, workdir: str | Path, console: Console | None = None):
        self.config = config
        self.workdir = Path(workdir)
        with folder_made_for(self.workdir):  # a run refused for its data or start leaves no empty folder
            self.workers = join_workers(training_device(config.train.device))
            self.console = console or Console(stderr=True)
            if not self.workers.main:
                self.console = Console(stderr=True, quiet=True)
            torch.set_num_threads(config.train.threads or max(1, (os.cpu_count() or 1) // self.workers.size))
            check_run_config(config, self.workdir)
            starting = not (self.workdir / "last.pt").exists()
            if starting and config.train.init_from:
                check_start_folder(Path(config.train.init_from), config.model.architecture)
                if self.workers.main and not config.train.init_new_vocab:
                    adopt_tokenizer(Path(config.train.init_from), self.workdir)
            if not self.workers.main:
                self.workers.wait()  # the main process writes the tokenizer first
            self.corpus = prepare_corpus(config, self.workdir, self.console)
        if self.workers.main:
            self.workers.wait()
        self.device = torch.device(
            self.workers.device if self.workers.size > 1 else training_device(config.train.device)
        )
        self.model = seeded_model(config, self.corpus.tokenizer.vocab_size)
        if starting and config.train.init_from:
            taken, grown = initial_weights(
                self.model,
                Path(config.train.init_from),
                config.train.init_average,
                self.workdir / TOKENIZER if config.train.init_new_vocab else None,
            )
            total = len(self.model.state_dict())
            rest = "" if taken == total else ", the others freshly initialised"
            rest += f"; {grown} layers it lacks start as the identity" if grown else ""
            self.console.log(f"started from {config.train.init_from}: {taken} of {total} weight tensors taken{rest}")
        self.model = self.model.to(self.device)
        self.autocast = bf16_autocast(config.train.bf16_autocast, self.device)
        self.parallel = self.model if self.workers.size == 1 else torch.nn.parallel.DistributedDataParallel(self.model)
        if self.workers.main:
            check_run_config(config, self.workdir, record=True)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.train.learning_rate, betas=(0.9, 0.98))
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer,
            learning_rate_schedule(config.train.warmup_steps, config.train.max_steps, config.train.cooldown_steps),
        )
        self.state = {
            "step": 0,
            "epoch": 0,
            "batch": 0,
            "elapsed": 0.0,
            "best_bleu": -1.0,
            "best_step": 0,
            "target_tokens": 0,
            "padded_positions": 0,
            "history": [],
        }
        if (self.workdir / "last.pt").exists():
            self._restore(load_checkpoint(self.workdir / "last.pt"))

    # ---- the loop -----------------------------------------------------------------------
    def train(self) -> dict:
        """Train until max_steps or the time budget; returns the summary (also in summary.json)."""
        cfg = self.config.train
        budget = cfg.time_budget_minutes * 60.0
        started = time.monotonic() - self.state["elapsed"]
        window_tokens, window_start, loss_sum, loss_count = 0, time.monotonic(), 0.0, 0
        with self._progress() as progress:
            task = progress.add_task("train", total=cfg.max_steps, completed=self.state["step"], info="")
            batches, batches_epoch = [], None
            size = self.workers.size  # each step takes `size` batches, one per process
            while self.state["step"] < cfg.max_steps and not self.workers.any(time.monotonic() - started >= budget):
                if batches_epoch != self.state["epoch"]:  # the epoch's order, made once per epoch
                    batches = token_batches(self.corpus.train, cfg.batch_tokens, cfg.seed, self.state["epoch"])
                    batches_epoch = self.state["epoch"]
                if self.state["batch"] + size > len(batches):
                    self.state["epoch"] += 1
                    self.state["batch"] = 0
                    continue
                own = batches[self.state["batch"] + self.workers.rank]
                batch = collate([self.corpus.train[i] for i in own]).to(self.device)
                loss = self._update(batch)
                self.state["batch"] += size
                self.state["step"] += 1
                self.state["target_tokens"] += batch.target_tokens
                self.state["padded_positions"] += batch.target_out.numel()
                window_tokens += batch.target_tokens
                loss_sum, loss_count = loss_sum + loss, loss_count + 1
                self.state["elapsed"] = time.monotonic() - started
                step = self.state["step"]
                if step % LOG_EVERY == 0 or step == 1:
                    speed = window_tokens / max(time.monotonic() - window_start, 1e-9)
                    info = (
                        f"epoch {self.state['epoch']} loss {loss_sum / loss_count:.3f} "
                        f"{speed:,.0f} tgt tok/s lr {self.scheduler.get_last_lr()[0]:.2e} "
                        f"best BLEU {self.state['best_bleu']:.2f}"
                    )
                    progress.update(task, completed=step, info=info)
                    if not self.console.is_terminal:
                        self.console.log(f"step {step} {info} elapsed {self.state['elapsed'] / 60:.1f} min")
                    window_tokens, window_start, loss_sum, loss_count = 0, time.monotonic(), 0.0, 0
                if step % cfg.eval_every == 0:
                    self._main_only(self.evaluate)
                if step % cfg.checkpoint_every == 0:
                    self._main_only(self._save_checkpoint)
        if not self.state["history"] or self.state["history"][-1]["step"] != self.state["step"]:
            self._main_only(self.evaluate)
        self._main_only(self._save_checkpoint)
        summary = self.write_summary() if self.workers.main else {}
        self.workers.leave()
        return summary

    def _main_only(self, action) -> None:
        """Run `action` in the main process while the others wait for it."""
        if self.workers.main:
            action()
        self.workers.wait()

    def _update(self, batch) -> float:
        self.model.train()
        with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.autocast):
            scores, attention = self.parallel(batch.source, batch.mask, batch.target_in)
        loss = F.cross_entropy(  # its log_softmax leaves a copy model's log-probabilities as they are
            scores.float().reshape(-1, scores.shape[-1]),
            batch.target_out.reshape(-1),
            ignore_index=PAD,
            label_smoothing=self.config.train.label_smoothing,
        )
        if self.config.model.coverage:
            loss = loss + self.config.train.coverage_loss_weight * coverage_loss(attention.float(), batch.target_out)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.train.clip_norm)
        self.optimizer.step()
        self.scheduler.step()
        return loss.item()

    # ---- evaluation ---------------------------------------------------------------------
    @torch.no_grad()
    def evaluate(self) -> dict:
        """Dev loss (per target token) and greedy dev BLEU; keeps best.pt on BLEU."""
        import sacrebleu

        self.model.eval()
        total_loss, total_tokens = 0.0, 0
        for indices in token_batches(self.corpus.dev, self.config.train.batch_tokens, 0, 0):
            batch = collate([self.corpus.dev[i] for i in indices]).to(self.device)
            scores, _ = self.model(batch.source, batch.mask, batch.target_in)
            total_loss += float(
                F.cross_entropy(
                    scores.reshape(-1, scores.shape[-1]),
                    batch.target_out.reshape(-1),
                    ignore_index=PAD,
                    reduction="sum",
                )
            )
            total_tokens += batch.target_tokens
        hypotheses, references = self._dev_translations()
        bleu = sacrebleu.corpus_bleu(hypotheses, [references]).score
        result = {"step": self.state["step"], "dev_loss": total_loss / max(total_tokens, 1), "dev_bleu": bleu}
        self.state["history"].append(result)
        self.console.log(f"dev step {result['step']}: loss {result['dev_loss']:.3f} BLEU {bleu:.2f}")
        if bleu > self.state["best_bleu"]:
            self.state["best_bleu"], self.state["best_step"] = bleu, self.state["step"]
            _atomic_save({"model": self.model.state_dict(), "step": self.state["step"]}, self.workdir / "best.pt")
        return result

    def _dev_translations(self) -> tuple[list[str], list[str]]:
        """Greedy translations of `dev_bleu_sentences` dev rows, shared out over the directions,
        and their references."""
        directions = self.corpus.dev_directions
        tokenizer, search = self.corpus.tokenizer, self.config.search
        limit = self.config.data.max_source_pieces if self.config.data.truncate_source else None
        hypotheses, references = [], []
        for direction in directions:
            rows = spread(direction.rows, self.config.data.dev_bleu_sentences // len(directions))
            for start in range(0, len(rows), 64):
                chunk = rows[start : start + 64]
                source = pad(
                    [
                        [*direction.prefix, *ids[:limit], EOS]
                        for ids in tokenizer.encode_batch([r.source for r in chunk])
                    ]
                )
                max_length = int(search.max_length_ratio * source.shape[1] + search.max_length_offset)
                source = source.to(self.device)
                for ids in self.model.greedy(source, (source != PAD).long(), max_length):
                    hypotheses.append(tokenizer.decode(ids))
            references += [row.target for row in rows]
        return hypotheses, references

    # ---- checkpoints --------------------------------------------------------------------
    def _save_checkpoint(self) -> None:
        keep = self.config.train.keep_checkpoints
        if keep > 0:
            folder = self.workdir / "checkpoints"
            folder.mkdir(exist_ok=True)
            _atomic_save(
                {"model": self.model.state_dict(), "step": self.state["step"]},
                folder / f"step-{self.state['step']:07d}.pt",
            )
            for old in sorted(folder.glob("step-*.pt"))[:-keep]:
                old.unlink()
        _atomic_save(
            {
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "scheduler": self.scheduler.state_dict(),
                "torch_rng": torch.get_rng_state(),
                "python_rng": list(random.getstate()[1]),
                "state": dict(self.state, history=json.dumps(self.state["history"])),
            },
            self.workdir / "last.pt",
        )

    def _restore(self, checkpoint: dict) -> None:
        self.model.load_state_dict(checkpoint["model"])
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        self.scheduler.load_state_dict(checkpoint["scheduler"])
        torch.set_rng_state(checkpoint["torch_rng"])
        random.setstate((3, tuple(checkpoint["python_rng"]), None))
        state = dict(checkpoint["state"])
        state["history"] = json.loads(state["history"])
        self.state = state
        self.console.log(f"resumed at step {state['step']} (epoch {state['epoch']}, batch {state['batch']})")

    def write_summary(self) -> dict:
        """The run so far (steps, time, speed, padding share, dev history) → summary.json."""
        summary = {
            "steps": self.state["step"],
            "epochs": self.state["epoch"],
            "train_minutes": round(self.state["elapsed"] / 60, 1),
            "target_tokens_per_second": round(self.state["target_tokens"] / max(self.state["elapsed"], 1e-9)),
            "real_token_share": round(self.state["target_tokens"] / max(self.state["padded_positions"], 1), 3),
            "best_step": self.state["best_step"],
            "best_dev_bleu": round(self.state["best_bleu"], 2),
            "train_pairs": len(self.corpus.train),
            "history": self.state["history"],
        }
        _atomic_write(self.workdir / "summary.json", json.dumps(summary, indent=2))
        return summary

    def recorded_summary(self) -> dict:
        """The run's summary for an export without training: write_summary(), unless this folder
        holds the weights and summary.json of a run but not its state (last.pt; a run folder
        brought back from another machine), whose summary it keeps as the run wrote it."""
        recorded = self.workdir / "summary.json"
        if not (self.workdir / "last.pt").exists() and recorded.is_file():
            try:
                summary = json.loads(recorded.read_text(encoding="utf-8"))
            except ValueError:  # not a summary of ours (UnicodeDecodeError is one): written afresh
                summary = None
            if isinstance(summary, dict):
                return summary
        return self.write_summary()

    def _progress(self) -> Progress:
        return Progress(
            TextColumn("step {task.completed}/{task.total}"),
            BarColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[info]}"),
            console=self.console,
            disable=not self.console.is_terminal,
        )


def coverage_loss(attention: Tensor, target_out: Tensor) -> Tensor:
    """See et al.'s Σ_j min(a_tj, c_tj) with c_t the attention summed over steps before t, averaged
    over real target tokens: attention (B, T, S), target_out (B, T) PAD-padded → a scalar."""
    covered = torch.cumsum(attention, dim=1) - attention
    per_step = torch.minimum(attention, covered).sum(dim=-1)
    real = (target_out != PAD).to(per_step.dtype)
    return (per_step * real).sum() / real.sum().clamp(min=1.0)


def average_checkpoints(workdir: Path, count: int) -> tuple[dict, list[int]]:
    """Element-wise mean of the model weights of the last `count` kept checkpoints, and their steps."""
    paths = sorted((workdir / "checkpoints").glob("step-*.pt"))[-count:]
    if not paths:
        raise FileNotFoundError(f"{workdir / 'checkpoints'}: no kept checkpoints to average (set keep_checkpoints)")
    loaded = [torch.load(path, weights_only=True, map_location="cpu") for path in paths]
    average = {name: sum(c["model"][name].double() for c in loaded) / len(loaded) for name in loaded[0]["model"]}
    reference = loaded[0]["model"]
    return {name: value.to(reference[name].dtype) for name, value in average.items()}, [c["step"] for c in loaded]


def check_exportable(workdir: Path, average: int = 0) -> None:
    """Before an export without training reads the run folder `workdir`: the weights chosen_weights
    takes are there (a missing best.pt had been named after the folder was set up as a new run's,
    its config and tokenizer written)."""
    found = (workdir / "checkpoints").glob("step-*.pt") if average else [workdir / "best.pt"]
    if not any(path.is_file() for path in found):
        kind = "kept checkpoints (checkpoints/step-*.pt)" if average else "best.pt"
        raise UsageError(f"--no-train: {workdir} holds no {kind} to export: train the run first (leave out --no-train)")


def chosen_weights(workdir: Path, average: int = 0) -> tuple[dict, list[int]]:
    """The weights to export and their step(s): best.pt, or the mean of the last `average` kept."""
    if average:
        return average_checkpoints(workdir, average)
    best = torch.load(workdir / "best.pt", weights_only=True, map_location="cpu")
    return best["model"], [best["step"]]


def blended(weights: dict, other: dict, where: Path) -> dict:
    """The element-wise mean of two sets of the same model's weights (a run's and the folder
    `where` it started from, read back): what a continuation gained, with what it wore down
    partly given back. Another architecture or vocabulary is a ConfigError."""
    if set(weights) != set(other) or any(weights[name].shape != other[name].shape for name in weights):
        raise ConfigError(f"--blend {where}: its weights are not of this run's architecture and vocabulary")
    return {name: ((value.double() + other[name].double()) / 2).to(value.dtype) for name, value in weights.items()}


def check_start_folder(start: Path, architecture: str) -> None:
    """`[train] init_from` names a run folder (best.pt and its tokenizer) or an exported model
    folder of the run's `architecture`; anything else is a ConfigError (a Transformer's weights
    in a GRU would leave all but the embeddings untaken, a run from scratch nobody asked for)."""
    if not (start / TOKENIZER).is_file() or not (is_exported_folder(start) or (start / "best.pt").is_file()):
        raise ConfigError(
            f"[train] init_from: {start} is neither a run folder (best.pt and {TOKENIZER}) nor an exported model folder"
        )
    if is_exported_folder(start):
        theirs = read_manifest(start, verify_checksums=False).architecture.get("architecture", "rnn")
    else:
        recorded = start / "config.json"
        theirs = (
            json.loads(recorded.read_text(encoding="utf-8"))["model"].get("architecture", "rnn")
            if recorded.is_file()
            else architecture
        )
    if theirs != architecture:
        raise ConfigError(
            f"[train] init_from: {start} is a {theirs} model, this run's [model] a {architecture}: "
            f"none of its weights but the embeddings would fit"
        )


def adopt_tokenizer(start: Path, workdir: Path) -> None:
    """A run started from another's weights (`[train] init_from`) takes its tokenizer too, so
    that the pieces mean the same; a work folder with a different one already is a ConfigError."""
    source, target = start / TOKENIZER, workdir / TOKENIZER
    if not target.exists():
        _atomic_write(target, source.read_text(encoding="utf-8"))
    elif target.read_bytes() != source.read_bytes():
        raise ConfigError(f"[train] init_from: {workdir} already has another tokenizer than {start}")


def initial_weights(
    model: EncoderDecoder, start: Path, average: int = 0, new_tokenizer: Path | None = None
) -> tuple[int, int]:
    """Load into `model` the weights of `start` whose name and shape it has; how many, and how many
    of its layers start as the identity where `start` has none (grown_layers). `start` is
    a run folder (best.pt, or the mean of its last `average` kept checkpoints: `chosen_weights`)
    or an exported Transformer folder (its graphs' weights: exported_weights). With
    `new_tokenizer` (the run's own, `[train] init_new_vocab`), the vocabulary-indexed weights are
    first moved from `start`'s tokenizer to it (vocab_transfer)."""
    if is_exported_folder(start):
        if average:
            raise ConfigError(
                f"[train] init_average: {start} is an exported model folder, which holds one set of weights"
            )
        weights = exported_weights(start)
    else:
        weights, _ = chosen_weights(start, average)
    if new_tokenizer is not None:
        weights = transfer_vocabulary(
            weights, vocabulary_tensor_names(model), spellings(start / TOKENIZER, new_tokenizer)
        )
    own = model.state_dict()
    taken = {name: value for name, value in weights.items() if name in own and own[name].shape == value.shape}
    model.load_state_dict(taken, strict=False)
    grown = grown_layers(model, weights)
    for layer in grown:
        layer.start_as_identity()
    return len(taken), len(grown)


def grown_layers(model: EncoderDecoder, start: dict) -> list:
    """The layers of a pre-norm Transformer that the `start` weights have no weight of: those of a
    model deeper than the one it starts from, which start as the identity
    (NormedLayer.start_as_identity); a post-norm or RNN model's new layers start fresh."""
    if model.config.architecture != "transformer" or model.config.layer_norm != "pre":
        return []
    return [
        layer
        for stack in ("encoder_layers", "decoder_layers")
        for index, layer in enumerate(getattr(model, stack))
        if not any(name.startswith(f"{stack}.{index}.") for name in start)
    ]


def trained_model(config: Config, workdir: Path, average: int = 0) -> tuple[EncoderDecoder, list[int]]:
    """The model a run trained, in eval mode, with the weights `attn export` would take (best.pt,
    or the mean of the last `average` kept checkpoints), and their step(s); for the benchmarks.
    A config whose [model] differs from the run's is a ConfigError (check_run_config)."""
    check_run_config(config, workdir)
    model = build_model(config.model, SubwordTokenizer.load(workdir / TOKENIZER).vocab_size)
    weights, steps = chosen_weights(workdir, average)
    model.load_state_dict(weights)
    return model.eval(), steps


def training_device(name: str) -> str:
    """[train] device: "" picks a GPU when PyTorch sees one."""
    return name or ("cuda" if torch.cuda.is_available() else "cpu")


def on_cpu(value):
    """`value` with every tensor in it moved to the CPU: a checkpoint written on a GPU is the
    same as one written on a CPU, and a run resumes on either."""
    if isinstance(value, Tensor):
        return value.detach().cpu()
    if isinstance(value, dict):
        return {key: on_cpu(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(on_cpu(item) for item in value)
    return value


def load_checkpoint(path: Path) -> dict:
    """A checkpoint this trainer wrote, or a ConfigError naming the file: a user's file of that name,
    a damaged one, or one holding code (torch's weights-only loader refuses it, and its advice to
    turn that off is not passed on)."""
    try:
        with warnings.catch_warnings():  # torch warns about the file with advice not to follow here
            warnings.simplefilter("ignore")
            checkpoint = torch.load(path, weights_only=True, map_location="cpu")
    except Exception:  # UnpicklingError, RuntimeError, EOFError, …: all mean "not a checkpoint of ours"
        checkpoint = None
    if not isinstance(checkpoint, dict) or not {"model", "optimizer", "scheduler", "state"} <= set(checkpoint):
        raise ConfigError(f"{path}: not a training checkpoint of attn (damaged, or not ours); use another --workdir")
    return checkpoint


def _atomic_save(obj: dict, path: Path) -> None:
    """A checkpoint saved whole or not at all (runtime/files.py)."""
    try:
        replace_whole(path, lambda temporary: torch.save(on_cpu(obj), temporary))
    except RuntimeError as error:  # torch reports a full disk as "[enforce fail at inline_container.cc] …"
        raise OSError(
            f"{path}: cannot write the checkpoint (disk full?): {' '.join(str(error).split())[:200]}"
        ) from None


def bf16_autocast(asked: bool, device: torch.device) -> bool:
    """Whether a training step runs its matmuls in bf16: always on a GPU; on a CPU when asked
    ([train] bf16_autocast) and the CPU has bf16 instructions (AVX512-BF16 or AMX). Elsewhere bf16
    is emulated, slower than fp32 (`python -m benchmarks.bf16_autocast`: 6.5× fp32's time on an AVX2 AMD EPYC)."""
    if device.type == "cuda":
        return True
    native = (
        getattr(torch.cpu, "_is_avx512_bf16_supported", bool)() or getattr(torch.cpu, "_is_amx_tile_supported", bool)()
    )
    return asked and native


def write_rows(path: Path, rows: list[Row]) -> None:
    """Rows as a source<TAB>target<TAB>origin file, written whole or not at all: xz-compressed when
    `path` ends in .xz (its 64 MiB window finds rows a sample repeats), else gzipped."""
    data = "".join(f"{row.source}\t{row.target}\t{row.origin}\n" for row in rows).encode("utf-8")
    if path.suffix == ".xz":
        packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    else:
        packed = gzip.compress(data, mtime=0)
    replace_whole(path, lambda temporary: temporary.write_bytes(packed))


def _atomic_write(path: Path, text: str) -> None:
    """A text file written whole or not at all (runtime/files.py)."""
    replace_whole(path, lambda temporary: temporary.write_text(text, encoding="utf-8"))
