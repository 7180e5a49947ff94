import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn.export.config import ConfigError, config_from_dict, load_config
from attn.runtime.errors import UsageError

from .forked_cli import run_attn

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("*.toml")), ids=lambda p: p.name)
def test_every_example_config_loads(path):
    config = load_config(path)
    from attn.export.config import data_files

    assert all(Path(file).is_absolute() for file in data_files(config.data.train))


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"model": {"cel": "gru"}}, "unknown key 'cel'"),
        ({"modle": {}}, "unknown section [modle]"),
        ({"model": {"dropout": "high"}}, "'dropout' must be float"),
        ({"train": {"batch_tokens": 1.5}}, "'batch_tokens' must be int"),
        ({"train": {"batch_tokens": True}}, "'batch_tokens' must be int"),
        ({"model": {"score": "cosine"}}, "score must be one of"),
        (
            {"model": {"score": "dot", "encoder_hidden": 32, "decoder_hidden": 32}},
            "decoder_hidden == 2 * encoder_hidden",
        ),
        ({"data": {"sample": {"ding-lex": "all"}}}, "'sample' must be"),
        ({"train": {"max_steps": 100, "cooldown_steps": 101}}, "cooldown_steps must not exceed max_steps"),
    ],
)
def test_bad_configs_name_the_key(raw, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        config_from_dict(raw)


def test_ints_are_accepted_for_floats():
    assert config_from_dict({"train": {"learning_rate": 1}}).train.learning_rate == 1.0


def test_missing_file_and_bad_toml(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[model\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    latin = tmp_path / "latin.toml"  # it had been an internal error (a newcomer's trial)
    latin.write_bytes(b"[task]\n# caf\xe9\n")
    with pytest.raises(ConfigError, match="latin.toml, line 2: not UTF-8 text"):
        load_config(latin)
    with pytest.raises(ConfigError, match="is a folder, not a config file"):
        load_config(tmp_path)


def test_overrides_set_values_in_toml_syntax():
    config = load_config(
        ROOT / "configs" / "summarize-debian.toml",
        ["model.copy=false", "model.coverage = false", "train.learning_rate=0.001", "task.kind=summarize"],
    )
    assert (config.model.copy, config.model.coverage, config.train.learning_rate) == (False, False, 0.001)
    with pytest.raises(ConfigError, match="section.key=value"):
        load_config(ROOT / "configs" / "reverse.toml", ["copy=false"])
    with pytest.raises(ConfigError, match="unknown key 'copi'"):
        load_config(ROOT / "configs" / "reverse.toml", ["model.copi=true"])


def test_a_run_folder_refuses_a_different_model(tmp_path):
    from attn.export.training.train import check_run_config

    config = config_from_dict({})
    check_run_config(config, tmp_path)
    assert not (tmp_path / "config.json").exists()  # recorded only once the run was built
    check_run_config(config, tmp_path, record=True)
    check_run_config(config, tmp_path)  # the same settings resume
    changed = config_from_dict({"model": {"copy": True}, "vocab": {"size": 500}})
    with pytest.raises(ConfigError, match=r"different \[model\] copy"):
        check_run_config(changed, tmp_path)
    transformer = {"architecture": "transformer", "decoder_layers": 2}
    (tmp_path / "t").mkdir()
    check_run_config(config_from_dict({"model": transformer}), tmp_path / "t", record=True)
    check_run_config(
        config_from_dict({"model": {**transformer, "alignment_layer": 0}}), tmp_path / "t"
    )  # export's choice
    # a folder recorded before a key existed: the key counts as its default
    recorded = json.loads((tmp_path / "t" / "config.json").read_text())
    del recorded["model"]["layer_norm"]
    (tmp_path / "t" / "config.json").write_text(json.dumps(recorded))
    check_run_config(config_from_dict({"model": transformer}), tmp_path / "t")
    with pytest.raises(ConfigError, match=r"different \[model\] layer_norm"):
        check_run_config(config_from_dict({"model": {**transformer, "layer_norm": "post"}}), tmp_path / "t")


# ---- ranges and fuzzing (docs/hardening.md) ---------------------------------------------
def config_keys() -> list[tuple[str, str, type]]:
    """(section, key, type) of every key a config file can set."""
    import typing

    from attn.export.config import Config

    return [
        (section, key, hint)
        for section, cls in typing.get_type_hints(Config).items()
        for key, hint in typing.get_type_hints(cls).items()
    ]


def test_every_numeric_key_has_a_range():
    from attn.export.config import RANGES
    from attn.runtime.search import SEARCH_LIMITS

    missing = [
        f"{section}.{key}"
        for section, key, hint in config_keys()
        if hint in (int, float) and f"{section}.{key}" not in RANGES and key not in SEARCH_LIMITS
    ]
    assert missing == []


@pytest.mark.parametrize(
    "key, value",
    [
        ("model.embedding_size", -64),
        ("train.eval_every", 0),
        ("train.checkpoint_every", 0),
        ("train.threads", -1),
        ("train.label_smoothing", 2.0),
        ("train.learning_rate", float("nan")),
        ("search.beam", 0),
        ("search.min_length", 10**6),
        ("data.max_source_pieces", 0),
        ("vocab.min_frequency", 0),
        ("model.decoder_hidden", 10**9),
    ],
)
def test_out_of_range_values_name_the_key(key, value):
    section, name = key.split(".")
    with pytest.raises(ConfigError, match=re.escape(name)):
        config_from_dict({section: {name: value}})


TOML_VALUES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=6)
    | st.lists(st.integers(), max_size=2)
    | st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)
)


KEYS = st.sampled_from([(section, key) for section, key, _ in config_keys()]) | st.tuples(
    st.sampled_from(["model", "train", "other"]), st.text(max_size=12)
)


@given(where=KEYS, value=TOML_VALUES)
def test_any_value_for_any_key_is_accepted_or_named(where, value):
    """A config value of any type, known key or not: a Config, or a ConfigError naming the key
    (TOML has no null: None stands for a missing section)."""
    section, key = where
    raw = {section: {} if value is None else {key: value}}
    try:
        config_from_dict(raw)
    except ConfigError as error:
        assert f"[{section}]" in str(error) and (key in str(error) or section == "other" or value is None)


# ---- training data --------------------------------------------------------------------------
def trainer_on(tmp_path, train_text: str, dev_text: str = "a0 b1\tb1 a0\n"):
    from rich.console import Console

    from attn.export.training.train import Trainer

    from .conftest import reverse_config

    (tmp_path / "train.tsv").write_text(train_text)
    (tmp_path / "dev.tsv").write_text(dev_text)
    config = reverse_config()
    data = __import__("dataclasses").replace(
        config.data, train=str(tmp_path / "train.tsv"), dev=str(tmp_path / "dev.tsv")
    )
    return Trainer(__import__("dataclasses").replace(config, data=data), tmp_path / "work", Console(quiet=True))


@pytest.mark.parametrize(
    "train_text, dev_text, message",
    [
        ("", "a0\tb1\n", "holds no pairs"),
        ("\n\n", "a0\tb1\n", "holds no pairs"),
        ("a0 b1\tb1 a0\n" * 10, "", "holds no pairs"),
        ("one column only\n", "a0\tb1\n", "found one column"),
        ("a0\tb1\twith\ta tab\tinside\n", "a0\tb1\n", "found 5 columns"),
        (("a0 " * 300 + "\tb1\n") * 5, "a0\tb1\n", "fits max_source_pieces"),
    ],
)
def test_unusable_training_data_is_refused_before_training(tmp_path, train_text, dev_text, message):
    with pytest.raises(ConfigError if "column" not in message else UsageError, match=message):
        trainer_on(tmp_path, train_text, dev_text)
    assert not (tmp_path / "work").exists()  # no folder locked to the failed run, nor an empty one left


@pytest.mark.parametrize("suffix", [".gz", ".xz"])
def test_a_truncated_compressed_file_is_named_not_interrupted(tmp_path, suffix):
    import gzip
    import lzma

    from attn.runtime.tsv import read_tsv

    data = {".gz": gzip.compress, ".xz": lzma.compress}[suffix](b"a0 b1\tb1 a0\n" * 1000)
    cut = tmp_path / f"cut.tsv{suffix}"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(UsageError, match=f"cut.tsv{suffix}: damaged or truncated compressed"):
        read_tsv(cut)
    result = run_attn(["eval", str(cut)], timeout=120)
    assert result.returncode == 2 and b"truncated compressed" in result.stderr and b"interrupted" not in result.stderr


def test_crlf_and_lone_carriage_returns(tmp_path):
    from attn.runtime.tsv import read_tsv

    (tmp_path / "x.tsv").write_bytes(b"a\rb\tc\r\nd\te\n")
    assert [(r.source, r.target) for r in read_tsv(tmp_path / "x.tsv")] == [("a\rb", "c"), ("d", "e")]


def test_a_byte_that_is_not_utf8_is_named_at_its_line_and_place(tmp_path):
    """The line and byte of the decoder's 8 KB chunk were given, not the file's."""
    from attn.runtime.tsv import read_tsv

    lines = [f"source {i}\ttarget {i}\n".encode() for i in range(1, 301)] + [b"caf\xe9 latte\tKaffee\n"]
    (tmp_path / "latin1.tsv").write_bytes(b"".join(lines))
    with pytest.raises(
        UsageError, match=r"latin1.tsv:301: not UTF-8 \(invalid continuation byte at byte 4 of the line\)"
    ):
        read_tsv(tmp_path / "latin1.tsv")


def test_a_line_without_end_is_refused_before_it_fills_memory(tmp_path):
    """/dev/zero as the training file grew to 7.5 GB, then ran out of memory."""
    from attn.runtime import tsv

    (tmp_path / "endless.tsv").write_bytes(b"a\tb\n" + b"\0" * (tsv.MAX_LINE_BYTES + 10))
    with pytest.raises(UsageError, match=r"endless.tsv:2: a line longer than"):
        tsv.read_tsv(tmp_path / "endless.tsv")
    result = run_attn(["eval", "/dev/zero"], timeout=120)
    assert result.returncode == 2 and b"a line longer than" in result.stderr, result.stderr


def test_a_models_licence_and_use_by_name_only_go_to_its_manifest():
    from attn.export.config import TaskConfig
    from attn.export.graphs.onnx_export import manifest_terms

    assert manifest_terms(TaskConfig()) == {}
    assert manifest_terms(TaskConfig(licence="research use only", by_name_only=True)) == {
        "licence": "research use only",
        "by_name_only": True,
    }
    hansard = load_config(ROOT / "configs" / "fr-en-hansard.toml")
    assert hansard.task.by_name_only and "research use only" in hansard.task.licence
