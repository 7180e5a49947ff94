"""The training config: a TOML file validated into typed, frozen dataclasses.

A wrong key, a wrong type or an impossible combination is a `ConfigError` naming the key.
Relative data paths are resolved against the config file's folder.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path

import tomllib

from attn.runtime.constants import TASKS
from attn.runtime.errors import UsageError
from attn.runtime.search import MODEL_SEARCH_DEFAULTS, SEARCH_LIMITS, check_search_value

ARCHITECTURES = ("rnn", "transformer")
TRAINING_DEVICES = ("", "cpu", "cuda")
CELLS = ("gru", "lstm")
STYLES = ("bahdanau", "luong")
SCORES = ("additive", "dot", "general", "concat", "scaled_dot")
LAYER_NORMS = ("pre", "post")
ACTIVATIONS = ("relu", "swish", "gelu")
POSITIONS = ("tensor2tensor", "marian", "table")


class ConfigError(UsageError):
    """A config file that cannot be used, with the offending key in the message."""


@dataclass(frozen=True)
class TaskConfig:
    kind: str = "translate"
    source_lang: str = "en"
    target_lang: str = "de"
    # What the model's data allows, when it is not the shipped models' (models/README.md): written
    # to its manifest and shown by `attn models`
    licence: str = ""
    # Used only when named (`-m NAME`), never picked for a language pair (runtime/registry.py)
    by_name_only: bool = False


@dataclass(frozen=True)
class DataConfig:
    train: str | list[str] = ""  # one TSV file or a list of them, read as one corpus
    dev: str | list[str] = ""
    max_source_pieces: int = 100
    max_target_pieces: int = 100
    truncate_source: bool = False  # cut longer sources to max_source_pieces instead of dropping the pair
    sample: dict[str, int] = field(default_factory=dict)  # rows per named origin: fewer sampled, more repeated
    # rows per named origin held out of the train files for choosing on dev (export/training/data.py hold_out):
    # added to the dev rows and written to the run folder's held-out.tsv.gz for `attn eval`
    hold_out: dict[str, int] = field(default_factory=dict)
    swap_columns: bool = False  # the files' second column is the source: the reverse direction (de→en from en-de)
    # One model for several directions (Johnson et al. 2017): [task]'s pair and/or its reverse, as
    # [source, target]; the files read both ways, each source opening with its target's token.
    directions: list[list[str]] = field(default_factory=list)
    # Origins learned in one of those directions only, {origin: [source, target]}: back-translated
    # rows (export/training/back_translation.py), whose one side is a model's output, are learned
    # toward their real side alone.
    one_way: dict[str, list[str]] = field(default_factory=dict)
    dev_bleu_sentences: int = 400


@dataclass(frozen=True)
class VocabConfig:
    size: int = 8000
    min_frequency: int = 2


@dataclass(frozen=True)
class ModelConfig:
    architecture: str = (
        "rnn"  # "rnn" (export/models/encoder.py, decoder.py) or "transformer" (export/models/transformer.py)
    )
    cell: str = "gru"
    style: str = "bahdanau"
    score: str = "additive"
    embedding_size: int = 256
    encoder_hidden: int = 256
    encoder_layers: int = 1
    decoder_hidden: int = 512
    decoder_layers: int = 1
    attention_size: int = 256
    dropout: float = 0.2
    tie_embeddings: bool = True
    copy: bool = False  # pointer-generator: copy source pieces (See et al. 2017)
    coverage: bool = False  # coverage vector in the additive score, and a coverage loss
    heads: int = 4  # transformer: attention heads; embedding_size is the model width
    feedforward_size: int = 1024  # transformer: the feed-forward sublayer's hidden width
    attention_dropout: float = 0.1  # transformer: dropout on the attention weights
    alignment_layer: int = (
        -1
    )  # transformer: the decoder layer whose encoder-decoder attention is `attention` (-1: last)
    # The Transformer variants an imported model needs (`attn import marian`, export/importers/marian.py);
    # attn's own models use the defaults.
    layer_norm: str = "pre"  # transformer: "pre" (before each sublayer, one after each stack) or "post" (after each residual sum; Marian, Vaswani et al.)
    activation: str = "relu"  # transformer: the feed-forward sublayer's activation, "relu", "swish" (SiLU) or "gelu"
    embedding_scale: bool = True  # transformer: embeddings × √width before the positions are added
    positions: str = "tensor2tensor"  # transformer: sinusoid frequencies 10000^(-i/(D/2-1)) ("tensor2tensor") or 10000^(-2i/D) ("marian"), or a "table" of position_table_size rows (weights)
    position_table_size: int = 0  # transformer, positions "table": the positions it holds
    source_eos: bool = (
        True  # transformer: sources end with EOS; false: the model read them without (imported; attn trains with)
    )


# Keys that only one architecture reads: setting one for the other is a ConfigError.
RNN_ONLY = (
    "cell",
    "style",
    "score",
    "encoder_hidden",
    "decoder_hidden",
    "attention_size",
    "tie_embeddings",
    "coverage",
)
TRANSFORMER_ONLY = (
    "heads",
    "feedforward_size",
    "attention_dropout",
    "alignment_layer",
    "layer_norm",
    "activation",
    "embedding_scale",
    "positions",
    "position_table_size",
    "source_eos",
)


def model_settings(config: "Config") -> dict:
    """The [model] keys that the config's architecture reads (what a manifest records)."""
    skipped = TRANSFORMER_ONLY if config.model.architecture == "rnn" else RNN_ONLY
    return {key: value for key, value in config.to_dict()["model"].items() if key not in skipped}


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 1
    batch_tokens: int = 4000
    learning_rate: float = 1e-3
    warmup_steps: int = 500
    cooldown_steps: int = 0  # the last N steps before max_steps take the learning rate linearly to zero (a time budget that ends the run first leaves it undone)
    label_smoothing: float = 0.1
    clip_norm: float = 1.0
    max_steps: int = 100_000
    time_budget_minutes: float = 60.0
    eval_every: int = 1000
    checkpoint_every: int = 500
    threads: int = 0  # 0: every core
    bf16_autocast: bool = False  # bf16 matmuls on a CPU with bf16 instructions (always on a GPU)
    keep_checkpoints: int = 0
    coverage_loss_weight: float = 1.0  # λ of Σ_t Σ_j min(a_tj, c_tj), with [model] coverage
    device: str = ""  # "cpu", "cuda", or "" for a GPU when one is visible (bf16 autocast there)
    init_from: str = ""  # a run folder or an exported Transformer folder (models/en-de): a new run starts from its weights (a run's best.pt; those whose name and shape fit; a pre-norm Transformer's layers it lacks start as the identity) and its tokenizer; relative to the current folder
    init_average: int = 0  # with init_from a run folder: the mean of that run's last N kept checkpoints instead of its best.pt (as `attn export --average N`)
    init_new_vocab: bool = False  # with init_from: learn this run's own tokenizer ([vocab]) on its mix instead of taking init_from's; each piece's embedding row and output bias start as the mean of those of the old pieces that spell it


@dataclass(frozen=True)
class SearchConfig:
    """Default search settings written into the exported manifest."""

    beam: int = MODEL_SEARCH_DEFAULTS["beam"]
    length_penalty: float = MODEL_SEARCH_DEFAULTS["length_penalty"]
    min_length: int = MODEL_SEARCH_DEFAULTS["min_length"]
    no_repeat_ngram: int = MODEL_SEARCH_DEFAULTS["no_repeat_ngram"]
    max_length_ratio: float = MODEL_SEARCH_DEFAULTS["max_length_ratio"]
    max_length_offset: int = MODEL_SEARCH_DEFAULTS["max_length_offset"]
    replace_unk: bool = MODEL_SEARCH_DEFAULTS["replace_unk"]
    max_source_pieces: int = MODEL_SEARCH_DEFAULTS["max_source_pieces"]
    reverse_weight: float = MODEL_SEARCH_DEFAULTS["reverse_weight"]


@dataclass(frozen=True)
class ShortlistConfig:
    """The target-vocabulary shortlist `attn export` learns (runtime/shortlist.py); frequent 0: none."""

    frequent: int = 0  # the most frequent target pieces, candidates of every batch
    per_source: int = 20  # and each source piece's likeliest translations (IBM Model 1)
    iterations: int = 5  # EM iterations of IBM Model 1 over the training pairs
    min_probability: float = 1e-3  # translations less likely than this, t(target | source), are left out


@dataclass(frozen=True)
class Config:
    task: TaskConfig = TaskConfig()
    data: DataConfig = DataConfig()
    vocab: VocabConfig = VocabConfig()
    model: ModelConfig = ModelConfig()
    train: TrainConfig = TrainConfig()
    search: SearchConfig = SearchConfig()
    shortlist: ShortlistConfig = ShortlistConfig()

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def load_config(path: str | Path, overrides: typing.Sequence[str] = ()) -> Config:
    """Read, type-check and validate a TOML config, after `section.key=value` overrides (the value
    in TOML syntax; a bare word is a string); data paths become absolute."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError as error:  # TOML is UTF-8: it had been an internal error
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise ConfigError(f"{path}, line {line}: not UTF-8 text (TOML is UTF-8; save it so)") from None
    except IsADirectoryError:
        raise ConfigError(f"{path} is a folder, not a config file") from None
    for override in overrides:
        apply_override(raw, override)
    config = config_from_dict(raw, source=str(path))
    base = path.resolve().parent
    data = dataclasses.replace(
        config.data,
        train=_resolve(base, config.data.train),
        dev=_resolve(base, config.data.dev),
    )
    return dataclasses.replace(config, data=data)


def apply_override(raw: dict, override: str) -> None:
    """Set raw[section][key] from 'section.key=value'."""
    name, equals, text = override.partition("=")
    section, dot, key = name.strip().partition(".")
    if not equals or not dot or not section or not key:
        raise ConfigError(f"override {override!r} must look like section.key=value (e.g. model.copy=false)")
    try:
        value = tomllib.loads(f"value = {text.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        value = text.strip()
    table = raw.setdefault(section, {})
    if not isinstance(table, dict):
        raise ConfigError(f"override {override!r}: [{section}] is not a table")
    table[key] = value


def config_from_dict(raw: dict, source: str = "config") -> Config:
    """Build a validated `Config` from nested dicts (unknown keys and wrong types are errors)."""
    sections = {}
    hints = typing.get_type_hints(Config)
    for name, value in raw.items():
        if name not in hints:
            raise ConfigError(f"{source}: unknown section [{name}] (known: {', '.join(hints)})")
        if not isinstance(value, dict):
            raise ConfigError(f"{source}: [{name}] must be a table")
        sections[name] = _section(hints[name], value, f"{source}: [{name}]")
    config = Config(**sections)
    _validate(config, source)
    given = raw.get("model", {})
    foreign = RNN_ONLY if config.model.architecture == "transformer" else TRANSFORMER_ONLY
    for key in foreign:
        if key in given:
            raise ConfigError(f"{source}: [model] '{key}' does not apply to architecture '{config.model.architecture}'")
    return config


def _section(cls: type, values: dict, where: str):
    hints = typing.get_type_hints(cls)
    for key, value in values.items():
        if key not in hints:
            raise ConfigError(f"{where} unknown key '{key}' (known: {', '.join(hints)})")
        if not _matches(value, hints[key]):
            raise ConfigError(f"{where} '{key}' must be {_type_name(hints[key])}, got {value!r}")
    converted = {k: float(v) if hints[k] is float else v for k, v in values.items()}
    return cls(**converted)


def _matches(value, hint) -> bool:
    if isinstance(hint, types.UnionType):
        return any(_matches(value, option) for option in typing.get_args(hint))
    if typing.get_origin(hint) is list:
        [item_type] = typing.get_args(hint)
        return isinstance(value, list) and all(_matches(item, item_type) for item in value)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if typing.get_origin(hint) is dict:
        key_type, value_type = typing.get_args(hint)
        return isinstance(value, dict) and all(
            _matches(k, key_type) and _matches(v, value_type) for k, v in value.items()
        )
    return isinstance(value, hint)


def _type_name(hint) -> str:
    if isinstance(hint, types.UnionType):
        return " or ".join(_type_name(option) for option in typing.get_args(hint))
    return getattr(hint, "__name__", str(hint))


BIG = 1 << 20
# The accepted range [low, high] of every numeric key; a float key's range also refuses NaN.
# (tests/test_config.py checks that no numeric key of the dataclasses above is missing here.)
RANGES: dict[str, tuple[float, float]] = {
    "data.max_source_pieces": (1, 10_000),
    "data.max_target_pieces": (1, 10_000),
    "data.dev_bleu_sentences": (1, BIG),
    "vocab.size": (300, 1 << 18),
    "vocab.min_frequency": (1, BIG),
    "model.embedding_size": (1, 1 << 14),
    "model.encoder_hidden": (1, 1 << 14),
    "model.encoder_layers": (1, 64),
    "model.decoder_hidden": (1, 1 << 14),
    "model.decoder_layers": (1, 64),
    "model.attention_size": (1, 1 << 14),
    "model.dropout": (0.0, 0.99),
    "model.heads": (1, 64),
    "model.feedforward_size": (1, 1 << 16),
    "model.attention_dropout": (0.0, 0.99),
    "model.alignment_layer": (-64, 63),
    "model.position_table_size": (0, 1 << 20),
    "train.seed": (0, 2**63 - 1),
    "train.batch_tokens": (1, 1 << 24),
    "train.learning_rate": (1e-9, 10.0),
    "train.warmup_steps": (0, BIG),
    "train.cooldown_steps": (0, 1 << 40),
    "train.label_smoothing": (0.0, 0.99),
    "train.clip_norm": (1e-6, 1e6),
    "train.max_steps": (1, 1 << 40),
    "train.time_budget_minutes": (1e-3, 1e7),
    "train.eval_every": (1, 1 << 40),
    "train.checkpoint_every": (1, 1 << 40),
    "train.threads": (0, 1024),
    "train.keep_checkpoints": (0, 1000),
    "train.init_average": (0, 1000),
    "train.coverage_loss_weight": (0.0, 1000.0),
    "search.max_source_pieces": (1, 10_000),
    "shortlist.frequent": (0, BIG),
    "shortlist.per_source": (1, 10_000),
    "shortlist.iterations": (1, 1000),
    "shortlist.min_probability": (0.0, 1.0),
}


def _out_of_range(config: Config) -> str | None:
    """The first numeric value outside its range (RANGES, and the runtime's search limits for
    [search]), as a message naming the key."""
    for name, (low, high) in RANGES.items():
        section, key = name.split(".")
        value = getattr(getattr(config, section), key)
        if not low <= value <= high:  # NaN fails too
            return f"[{section}] {key} must be in [{low}, {high}], got {value!r}"
    for key in SEARCH_LIMITS:
        if hasattr(config.search, key):
            try:
                check_search_value(key, getattr(config.search, key))
            except UsageError as error:
                return f"[search] {key}: {error}"
    for name in ("sample", "hold_out"):
        for origin, count in getattr(config.data, name).items():
            if count < 0:
                return f"[data] {name} of {origin!r} must be >= 0, got {count}"
    return None


def _validate(config: Config, source: str) -> None:
    model, task = config.model, config.task
    problem = _out_of_range(config)
    if problem:
        raise ConfigError(f"{source}: {problem}")
    checks = [
        (task.kind in TASKS, f"[task] kind must be one of {TASKS}"),
        (
            not config.data.directions
            or task.kind == "translate"
            and task.source_lang != task.target_lang
            and all(
                pair in ([task.source_lang, task.target_lang], [task.target_lang, task.source_lang])
                for pair in config.data.directions
            )
            and [task.source_lang, task.target_lang] in config.data.directions
            and len(config.data.directions) == len({tuple(pair) for pair in config.data.directions}),
            "[data] directions lists [task]'s [source_lang, target_lang] and may add its reverse, each once",
        ),
        (
            all(pair in config.data.directions for pair in config.data.one_way.values()),
            "[data] one_way needs [data] directions and gives each origin one of them",
        ),
        (
            not set(config.data.one_way) & set(config.data.hold_out),
            "[data] one_way origins cannot be held out: one of their sides is a model's output, no reference",
        ),
        (model.architecture in ARCHITECTURES, f"[model] architecture must be one of {ARCHITECTURES}"),
        (config.train.device in TRAINING_DEVICES, f"[train] device must be one of {TRAINING_DEVICES}"),
        (config.train.cooldown_steps <= config.train.max_steps, "[train] cooldown_steps must not exceed max_steps"),
        (
            model.architecture != "transformer" or model.embedding_size % model.heads == 0,
            "[model] embedding_size (the model width) must be a multiple of heads",
        ),
        (
            model.architecture != "transformer"
            or -model.decoder_layers <= model.alignment_layer < model.decoder_layers,
            "[model] alignment_layer must name one of the decoder layers (negative: from the top)",
        ),
        (model.cell in CELLS, f"[model] cell must be one of {CELLS}"),
        (model.layer_norm in LAYER_NORMS, f"[model] layer_norm must be one of {LAYER_NORMS}"),
        (model.activation in ACTIVATIONS, f"[model] activation must be one of {ACTIVATIONS}"),
        (model.positions in POSITIONS, f"[model] positions must be one of {POSITIONS}"),
        (
            (model.positions == "table") == (model.position_table_size > 0),
            '[model] position_table_size goes with positions = "table" (and only with it)',
        ),
        (
            model.source_eos,
            "[model] source_eos = false describes an imported model; attn trains with EOS after each source",
        ),
        (model.style in STYLES, f"[model] style must be one of {STYLES}"),
        (model.score in SCORES, f"[model] score must be one of {SCORES}"),
        (
            model.score != "dot" or model.decoder_hidden == 2 * model.encoder_hidden,
            "[model] score 'dot' needs decoder_hidden == 2 * encoder_hidden",
        ),
        (
            not model.coverage or model.score in ("additive", "concat"),
            "[model] coverage needs score 'additive' or 'concat' (it enters the additive score)",
        ),
    ]
    for ok, message in checks:
        if not ok:
            raise ConfigError(f"{source}: {message}")


def _resolve(base: Path, value: str | list[str]) -> str | list[str]:
    if isinstance(value, list):
        return [_resolve(base, item) for item in value]
    return str((base / value).resolve()) if value else value


def learned_directions(config: Config) -> list[tuple[str, str]]:
    """The (source, target) pairs the model learns: [data] directions, or [task]'s pair alone."""
    return [tuple(pair) for pair in config.data.directions] or [(config.task.source_lang, config.task.target_lang)]


def data_files(value: str | list[str]) -> list[str]:
    """The files of a [data] train or dev setting."""
    return value if isinstance(value, list) else [value]


def check_directions(config: Config, model: Path, pairs: list[tuple[str, str]]) -> None:
    """ConfigError unless `config`'s run learns the directions `pairs` of the model folder `model`
    translates: a word list or a shortlist learned on another pair's data names the mismatch."""
    if set(learned_directions(config)) != set(pairs):
        raise ConfigError(
            f"{model} translates {', '.join('→'.join(pair) for pair in pairs)}; the config's run learns "
            f"{', '.join('→'.join(pair) for pair in learned_directions(config))}"
        )
