import re
from pathlib import Path

import pytest

from attn.export.config import ConfigError, config_from_dict, load_config

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("*.toml")), ids=lambda p: p.name)
def test_every_example_config_loads(path):
    config = load_config(path)
    assert Path(config.data.train).is_absolute()


@pytest.mark.parametrize(
    "raw, message",
    [
        ({"model": {"cel": "gru"}}, "unknown key 'cel'"),
        ({"modle": {}}, "unknown section [modle]"),
        ({"model": {"dropout": "high"}}, "'dropout' must be float"),
        ({"train": {"batch_tokens": 1.5}}, "'batch_tokens' must be int"),
        ({"train": {"batch_tokens": True}}, "'batch_tokens' must be int"),
        ({"model": {"score": "cosine"}}, "score must be one of"),
        ({"model": {"score": "dot", "encoder_hidden": 32, "decoder_hidden": 32}}, "decoder_hidden == 2 * encoder_hidden"),
        ({"data": {"sample": {"ding-lex": "all"}}}, "'sample' must be"),
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


def test_overrides_set_values_in_toml_syntax():
    config = load_config(ROOT / "configs" / "summarize-debian.toml",
                         ["model.copy=false", "model.coverage = false", "train.learning_rate=0.001", "task.kind=summarize"])
    assert (config.model.copy, config.model.coverage, config.train.learning_rate) == (False, False, 0.001)
    with pytest.raises(ConfigError, match="section.key=value"):
        load_config(ROOT / "configs" / "reverse.toml", ["copy=false"])
    with pytest.raises(ConfigError, match="unknown key 'copi'"):
        load_config(ROOT / "configs" / "reverse.toml", ["model.copi=true"])


def test_a_run_folder_refuses_a_different_model(tmp_path):
    from attn.export.train import check_run_config

    config = config_from_dict({})
    check_run_config(config, tmp_path)
    check_run_config(config, tmp_path)  # the same settings resume
    changed = config_from_dict({"model": {"copy": True}, "vocab": {"size": 500}})
    with pytest.raises(ConfigError, match=r"different \[model\] copy"):
        check_run_config(changed, tmp_path)
