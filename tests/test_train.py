"""Training is reproducible: same seed → same weights; stop + resume → the uninterrupted result."""

import dataclasses

import pytest
import torch
from rich.console import Console

from attn.export.training.train import Trainer, learning_rate_schedule

from .conftest import reverse_config

pytestmark = pytest.mark.system


def config_with(steps: int, checkpoint_every: int = 10**9):
    config = reverse_config(steps=steps, dropout=0.1)
    train = dataclasses.replace(config.train, checkpoint_every=checkpoint_every, batch_tokens=400)
    return dataclasses.replace(config, train=train)


def weights(trainer: Trainer) -> dict:
    return {k: v.clone() for k, v in trainer.model.state_dict().items()}


def assert_same_weights(a: dict, b: dict):
    assert a.keys() == b.keys()
    for name in a:
        assert torch.equal(a[name], b[name]), name


def test_same_seed_gives_the_same_model(tmp_path):
    first = Trainer(config_with(30), tmp_path / "a", Console(quiet=True))
    first.train()
    second = Trainer(config_with(30), tmp_path / "b", Console(quiet=True))
    second.train()
    assert_same_weights(weights(first), weights(second))


def test_resume_reaches_the_uninterrupted_result(tmp_path):
    straight = Trainer(config_with(40), tmp_path / "straight", Console(quiet=True))
    straight.train()
    stopped = Trainer(config_with(20), tmp_path / "resumed", Console(quiet=True))
    stopped.train()
    resumed = Trainer(config_with(40), tmp_path / "resumed", Console(quiet=True))
    assert resumed.state["step"] == 20
    resumed.train()
    assert_same_weights(weights(straight), weights(resumed))


def test_checkpoints_load_with_weights_only(tmp_path):
    trainer = Trainer(config_with(10, checkpoint_every=5), tmp_path, Console(quiet=True))
    trainer.train()
    for name in ("last.pt", "best.pt"):
        assert "model" in torch.load(tmp_path / name, weights_only=True)


def test_schedule_warms_up_then_decays():
    schedule = learning_rate_schedule(100)
    assert schedule(0) < schedule(50) < schedule(99) == 1.0
    assert schedule(399) == 0.5


def test_cooldown_takes_the_rate_linearly_to_zero():
    plain, cooled = learning_rate_schedule(100), learning_rate_schedule(100, max_steps=1000, cooldown_steps=200)
    assert [cooled(step) for step in range(801)] == [plain(step) for step in range(801)]
    assert cooled(900) == pytest.approx(plain(800) / 2)
    assert cooled(999) == pytest.approx(plain(800) / 200)
    assert cooled(1000) == 0.0


def test_a_resumed_run_can_end_with_a_cooldown(tmp_path):
    """A run trained without one is resumed with a longer max_steps and a cooldown: the learning
    rate is the decay's until the cooldown starts, then falls to zero by the last update."""
    Trainer(config_with(20), tmp_path, Console(quiet=True)).train()
    config = config_with(30)
    config = dataclasses.replace(config, train=dataclasses.replace(config.train, cooldown_steps=6))
    resumed = Trainer(config, tmp_path, Console(quiet=True))
    peak, plain = config.train.learning_rate, learning_rate_schedule(config.train.warmup_steps)
    assert resumed.optimizer.param_groups[0]["lr"] == pytest.approx(peak * plain(20))
    resumed.train()
    assert resumed.state["step"] == 30
    assert resumed.optimizer.param_groups[0]["lr"] == 0.0


def test_kept_checkpoints_average(tmp_path):
    from attn.export.training.train import average_checkpoints

    config = config_with(30, checkpoint_every=10)
    config = dataclasses.replace(config, train=dataclasses.replace(config.train, keep_checkpoints=2))
    trainer = Trainer(config, tmp_path, Console(quiet=True))
    trainer.train()
    kept = sorted((tmp_path / "checkpoints").glob("step-*.pt"))
    assert [p.name for p in kept] == ["step-0000020.pt", "step-0000030.pt"]
    average, steps = average_checkpoints(tmp_path, 2)
    assert steps == [20, 30]
    first, last = (torch.load(p, weights_only=True)["model"] for p in kept)
    name = "embedding.weight"
    assert torch.allclose(average[name], (first[name] + last[name]) / 2)
    # `[train] init_from` with `init_average`: a new run starts from that mean, not from best.pt
    start = dataclasses.replace(config.train, init_from=str(tmp_path), init_average=2)
    started = Trainer(dataclasses.replace(config, train=start), tmp_path / "next", Console(quiet=True))
    assert_same_weights(weights(started), average)


def test_training_uses_every_core_by_default():
    from attn.export.config import config_from_dict

    assert config_from_dict({}).train.threads == 0  # 0: every core (torch.set_num_threads(os.cpu_count()))


def test_several_training_files_and_upsampled_origins(tmp_path):
    from attn.export.training.data import sample_origins
    from attn.runtime.tsv import Row

    rows = [Row(f"a{i}", "x", "small") for i in range(3)] + [Row(f"b{i}", "y", "large") for i in range(10)]
    kept = sample_origins(rows, {"small": 7, "large": 4}, seed=1)
    assert sum(r.origin == "small" for r in kept) == 7 and {r.source for r in kept if r.origin == "small"} == {
        "a0",
        "a1",
        "a2",
    }
    assert sum(r.origin == "large" for r in kept) == 4
    first, second = tmp_path / "one.tsv", tmp_path / "two.tsv"
    first.write_text("a0 b1\tb1 a0\n" * 5)
    second.write_text("c2 d3\td3 c2\n" * 5)
    config = reverse_config(steps=1)
    data = dataclasses.replace(config.data, train=[str(first), str(second)], dev=[str(first)])
    trainer = Trainer(dataclasses.replace(config, data=data), tmp_path / "work", Console(quiet=True))
    assert len(trainer.corpus.train) == 10


def test_held_out_rows_are_the_same_every_run_and_either_way_round(tmp_path):
    """[data] hold_out: rows of the named origins, chosen by their first column's hash, leave
    training with every row of the same text, join the dev rows, and are written for `attn eval`."""
    import gzip

    from attn.export.training.data import hold_out
    from attn.runtime.tsv import Row, read_tsv

    rows = [Row(f"news {i}", f"nachricht {i}", "news") for i in range(40)] + [
        Row("news 3", "andere 3", "web"),
        Row("soft 1", "weich 1", "software"),
    ]
    kept, held = hold_out(rows, {"news": 5})
    assert len({row.source for row in held}) == 5 and not {row.source for row in held} & {row.source for row in kept}
    assert ("news 3" in {row.source for row in held}) == (Row("news 3", "andere 3", "web") in held)
    swapped_kept, swapped_held = hold_out([row.swapped() for row in rows], {"news": 5}, key=lambda row: row.target)
    assert [row.swapped() for row in swapped_held] == held and hold_out(rows, {"news": 5})[1] == held
    source = tmp_path / "rows.tsv"
    source.write_text("".join(f"a{i % 4} b1\tb1 a{i % 4}\tsym\n" for i in range(12)) + "c2 d3\td3 c2\tother\n")
    config = reverse_config(steps=1)
    data = dataclasses.replace(config.data, train=str(source), dev=str(source), hold_out={"sym": 4})
    trainer = Trainer(dataclasses.replace(config, data=data), tmp_path / "work", Console(quiet=True))
    written = read_tsv(tmp_path / "work" / "held-out.tsv.gz")
    assert len(written) == 6 and len({row.source for row in written}) == 2  # whole texts: at least 4 rows, 3 a text
    assert len(trainer.corpus.train) == 7 and len(trainer.corpus.dev) == 13 + 6
    assert gzip.decompress((tmp_path / "work" / "held-out.tsv.gz").read_bytes()).decode().count("\tsym\n") == 6


def test_swapped_columns_train_the_reverse_direction(tmp_path):
    """[data] swap_columns: the files' second column is the source (de→en from en-de files)."""
    from attn.runtime.tsv import Row, read_tsv

    corpus = tmp_path / "en-de.tsv"
    corpus.write_text("the house\tdas Haus\tding\n" * 4)
    assert read_tsv(corpus, swap_columns=True)[0] == Row("das Haus", "the house", "ding")
    config = reverse_config(steps=1)
    data = dataclasses.replace(config.data, train=str(corpus), dev=str(corpus), swap_columns=True)
    trainer = Trainer(dataclasses.replace(config, data=data), tmp_path / "work", Console(quiet=True))
    tokenizer = trainer.corpus.tokenizer
    assert tokenizer.decode(trainer.corpus.train[0].target[1:-1]) == "the house"  # BOS … EOS
    assert trainer.corpus.dev_directions[0].rows[0].source == "das Haus"


def test_both_directions_read_each_pair_both_ways_behind_the_target_token(tmp_path):
    """[data] directions: one corpus, each pair once per direction, every source opening with
    the token of the language it is to be translated into (Johnson et al. 2017)."""
    corpus = tmp_path / "en-de.tsv"
    corpus.write_text("the house\tdas Haus\tding\n" * 4)
    config = reverse_config(steps=1)
    task = dataclasses.replace(config.task, source_lang="en", target_lang="de")
    data = dataclasses.replace(config.data, train=str(corpus), dev=str(corpus), directions=[["en", "de"], ["de", "en"]])
    trainer = Trainer(dataclasses.replace(config, task=task, data=data), tmp_path / "work", Console(quiet=True))
    tokenizer = trainer.corpus.tokenizer
    to_german, to_english = tokenizer.language_token("de"), tokenizer.language_token("en")
    assert {to_german, to_english} == {4, 5}  # right after the four special tokens
    seen = {
        (pair.source[0], tokenizer.decode(pair.source[1:-1]), tokenizer.decode(pair.target[1:-1]))
        for pair in trainer.corpus.train
    }
    assert seen == {(to_german, "the house", "das Haus"), (to_english, "das Haus", "the house")}
    assert [d.prefix for d in trainer.corpus.dev_directions] == [[to_german], [to_english]]
    assert trainer.corpus.dev_directions[1].rows[0].source == "das Haus"


def test_a_one_way_origin_is_learned_toward_its_real_side_only(tmp_path):
    """[data] one_way: back-translated rows (a model's French beside real English) teach fr→en
    alone; the other rows go both ways. An origin the files lack is refused."""
    from attn.export.config import ConfigError

    corpus = tmp_path / "en-fr.tsv"
    corpus.write_text("the house\tla maison\treal\n" * 4 + "a green tree\tun arbre vert\tbt-europarl\n" * 4)
    config = reverse_config(steps=1)
    task = dataclasses.replace(config.task, source_lang="en", target_lang="fr")
    data = dataclasses.replace(
        config.data,
        train=str(corpus),
        dev=str(corpus),
        directions=[["en", "fr"], ["fr", "en"]],
        one_way={"bt-europarl": ["fr", "en"]},
    )
    trainer = Trainer(dataclasses.replace(config, task=task, data=data), tmp_path / "work", Console(quiet=True))
    tokenizer = trainer.corpus.tokenizer
    seen = {(tokenizer.decode(pair.source[1:-1]), tokenizer.decode(pair.target[1:-1])) for pair in trainer.corpus.train}
    assert seen == {("the house", "la maison"), ("la maison", "the house"), ("un arbre vert", "a green tree")}
    misspelt = dataclasses.replace(data, one_way={"bt-europal": ["fr", "en"]})  # would be learned both ways
    with pytest.raises(ConfigError, match="no rows of origin 'bt-europal'"):
        Trainer(dataclasses.replace(config, task=task, data=misspelt), tmp_path / "other", Console(quiet=True))


def test_one_way_names_one_of_the_directions():
    from attn.export.config import ConfigError, config_from_dict

    data = {"directions": [["en", "fr"], ["fr", "en"]], "one_way": {"bt-europarl": ["fr", "en"]}}
    config_from_dict({"task": {"source_lang": "en", "target_lang": "fr"}, "data": data})
    task = {"source_lang": "en", "target_lang": "fr"}
    for wrong in ({"one_way": {"bt": ["de", "en"]}}, {"hold_out": {"bt-europarl": 10}}):
        with pytest.raises(ConfigError, match="one_way"):
            config_from_dict({"task": task, "data": {**data, **wrong}})


def test_directions_must_hold_the_tasks_pair():
    from attn.export.config import ConfigError, config_from_dict

    task = {"source_lang": "en", "target_lang": "de"}
    config_from_dict({"task": task, "data": {"directions": [["en", "de"], ["de", "en"]]}})
    for directions in ([["en", "fr"]], [["de", "en"]], [["en", "de"], ["en", "de"]]):
        with pytest.raises(ConfigError, match="directions"):
            config_from_dict({"task": task, "data": {"directions": directions}})
    with pytest.raises(ConfigError, match="directions"):  # a summarizer writes one language
        config_from_dict({"task": {**task, "kind": "summarize"}, "data": {"directions": [["en", "de"]]}})


def test_bf16_autocast_is_taken_on_a_cpu_only_where_it_has_bf16_instructions(monkeypatch):
    """Emulated bf16 is several times slower than fp32: a config asking for it is not obeyed there."""
    from attn.export.training.train import bf16_autocast

    cpu, gpu = torch.device("cpu"), torch.device("cuda")
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: False)
    for native in (False, True):
        monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda native=native: native)
        assert bf16_autocast(True, cpu) is native and bf16_autocast(False, cpu) is False
    assert bf16_autocast(False, gpu) is True


def test_checkpoints_hold_cpu_tensors_whatever_the_device(tmp_path):
    from attn.export.training.train import on_cpu

    nested = {"model": {"w": torch.ones(2)}, "optimizer": {"state": {0: {"exp_avg": torch.zeros(2)}}, "groups": [1]}}
    assert on_cpu(nested)["optimizer"]["state"][0]["exp_avg"].device.type == "cpu"
    trainer = Trainer(config_with(3, checkpoint_every=1), tmp_path / "run", Console(quiet=True))
    trainer.train()
    saved = torch.load(tmp_path / "run" / "last.pt", weights_only=True)
    assert all(value.device.type == "cpu" for value in saved["model"].values())


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (runs on the device machine)")
def test_a_run_trained_on_the_gpu_resumes_on_the_cpu(tmp_path):
    gpu_config = config_with(20, checkpoint_every=10)
    gpu = Trainer(
        dataclasses.replace(gpu_config, train=dataclasses.replace(gpu_config.train, device="cuda")),
        tmp_path / "run",
        Console(quiet=True),
    )
    assert next(gpu.model.parameters()).device.type == "cuda"
    gpu.train()
    cpu_config = config_with(30, checkpoint_every=10)
    cpu = Trainer(
        dataclasses.replace(cpu_config, train=dataclasses.replace(cpu_config.train, device="cpu")),
        tmp_path / "run",
        Console(quiet=True),
    )
    assert cpu.state["step"] == 20
    assert cpu.train()["steps"] == 30
