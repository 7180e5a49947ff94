"""Hostile and damaged checkpoints are refused in one line, before memory is spent on them and
before anything replaces a working folder."""

from __future__ import annotations

import json
import os
import shutil
import zipfile

import pytest

pytest.importorskip("torch")
pytest.importorskip("sentencepiece")

from .test_cli import attn  # noqa: E402

pytestmark = pytest.mark.integration


def changed_checkpoint(tiny_marian, tmp_path, **config_changes):
    changed = tmp_path / "changed"
    shutil.copytree(tiny_marian, changed)
    config = json.loads((changed / "config.json").read_text())
    (changed / "config.json").write_text(json.dumps({**config, **config_changes}))
    return changed


def refused(*arguments: str) -> str:
    result = attn("import", *arguments, check_rc=2)
    message = result.stderr.decode()
    assert message.count("\n") == 1 and "internal error" not in message, message
    return message


@pytest.mark.parametrize(
    "key, value",
    [
        ("encoder_layers", 10**6),
        ("vocab_size", 10**9),
        ("d_model", 10**6),
        ("encoder_attention_heads", 0),
        ("pad_token_id", 10**6),
    ],
)
def test_sizes_out_of_bounds_are_refused_before_anything_is_allocated(tiny_marian, tmp_path, key, value):
    """10^6 layers took 2.5 GB; 0 heads was a ZeroDivisionError."""
    changed = changed_checkpoint(
        tiny_marian,
        tmp_path,
        **({key: value, "decoder_attention_heads": value} if key == "encoder_attention_heads" else {key: value}),
    )
    assert key in refused("marian", str(changed), "--out", str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_what_is_refused_before_the_weights_is_refused_without_loading_pytorch(tiny_marian, tmp_path):
    """A refusal took four seconds, most of them PyTorch starting: the config, the languages, the
    SentencePiece models and the weights file's presence are checked before it is loaded."""
    import subprocess
    import sys

    too_deep = changed_checkpoint(tiny_marian, tmp_path, encoder_layers=10**6)
    no_pieces = tmp_path / "no-pieces"
    shutil.copytree(tiny_marian, no_pieces)
    (no_pieces / "target.spm").write_bytes(b"")
    no_weights = tmp_path / "no-weights"
    shutil.copytree(tiny_marian, no_weights, ignore=shutil.ignore_patterns("model.safetensors"))
    trial = (
        "import sys\nfrom pathlib import Path\n"
        "from attn.export.importers.imported import CheckpointError\n"
        "from attn.export.importers.marian import MarianImporter\n"
        "for folder, source in (sys.argv[1], None), (sys.argv[2], None), (sys.argv[3], None), (sys.argv[4], '<b>'):\n"
        "    try:\n"
        "        MarianImporter().write(Path(folder), Path(sys.argv[5]), source, None, -2)\n"
        "    except CheckpointError as error:\n"
        "        print(error)\n"
        "print('torch' in sys.modules)\n"
    )
    folders = (too_deep, no_pieces, no_weights, tiny_marian, tmp_path / "out")
    result = subprocess.run([sys.executable, "-c", trial, *map(str, folders)], capture_output=True, timeout=120)
    lines = result.stdout.decode().splitlines()
    assert result.returncode == 0 and len(lines) == 5, result.stderr.decode()
    assert "encoder_layers" in lines[0] and "no pieces" in lines[1] and "neither model.safetensors" in lines[2]
    assert "'<b>' is not a language code" in lines[3] and lines[4] == "False"


def test_a_fifo_or_an_empty_sentencepiece_model_is_refused(tiny_marian, tmp_path):
    """A FIFO config.json hung the import; an empty source.spm made every word unknown."""
    fifo = changed_checkpoint(tiny_marian, tmp_path)
    (fifo / "config.json").unlink()
    os.mkfifo(fifo / "config.json")
    assert "not a regular file" in refused("marian", str(fifo), "--out", str(tmp_path / "out"))
    empty = tmp_path / "empty"
    shutil.copytree(tiny_marian, empty)
    (empty / "source.spm").write_bytes(b"")
    assert "no pieces" in refused("marian", str(empty), "--out", str(tmp_path / "out"))


def test_a_damaged_normalization_table_is_refused_without_aborting(tiny_marian, tmp_path):
    """A random precompiled_charsmap killed the import with SIGABRT and a Rust backtrace."""
    from sentencepiece import sentencepiece_model_pb2

    damaged = tmp_path / "damaged"
    shutil.copytree(tiny_marian, damaged)
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString((damaged / "source.spm").read_bytes())
    proto.normalizer_spec.precompiled_charsmap = os.urandom(4096)
    (damaged / "source.spm").write_bytes(proto.SerializeToString())
    assert "damaged" in refused("marian", str(damaged), "--out", str(tmp_path / "out"))


def test_a_language_code_the_runtime_refuses_never_replaces_a_working_folder(tiny_marian, tmp_path):
    """`--from '<script>…'` wrote a folder that `attn translate` refuses, over a working one."""
    working = tmp_path / "working"
    attn("import", "marian", str(tiny_marian), "--out", str(working))
    before = (working / "manifest.json").read_bytes()
    refused("marian", str(tiny_marian), "--out", str(working), "--from", "<script>alert(1)</script>")
    assert (working / "manifest.json").read_bytes() == before
    assert attn("translate", "-m", str(working), "hello").returncode == 0


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    """A 552 KB package inflating model.bin to 400 MB reached 1 GB of memory."""
    package = tmp_path / "bomb.argosmodel"
    with zipfile.ZipFile(package, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("p/metadata.json", json.dumps({"from_code": "en", "to_code": "de"}))
        archive.writestr("p/sentencepiece.model", b"x")
        archive.writestr("p/model/model.bin", bytes(20 << 20))
    assert package.stat().st_size < 1 << 20
    assert "would inflate to" in refused("argos", str(package), "--out", str(tmp_path / "out"))


def test_out_is_checked_before_anything_is_made_and_its_parents_are_made(tiny_marian, tmp_path):
    """`--out /` made a scratch folder in / before refusing; `--out nope/deeper/model`
    failed on the scratch folder with Python's error."""
    before = set((tmp_path).iterdir())
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "notes.txt").write_text("mine")
    assert "not a model folder" in refused("marian", str(tiny_marian), "--out", str(tmp_path / "user"))
    assert set(tmp_path.iterdir()) == before | {tmp_path / "user"}  # no scratch folder beside it
    (tmp_path / "empty").mkdir()  # refused for its --out before its weights (none here) are looked for
    assert "not a model folder" in refused("marian", str(tmp_path / "empty"), "--out", str(tmp_path / "user"))
    attn("import", "marian", str(tiny_marian), "--out", str(tmp_path / "nope" / "deeper" / "model"))
    assert (tmp_path / "nope" / "deeper" / "model" / "manifest.json").is_file()


def test_a_killed_imports_scratch_folder_is_swept_and_an_unwritable_out_is_one_line(tiny_marian, tmp_path):
    """An import names its tokenizers' scratch folder as a staging folder of its process, which a
    later import sweeps once that process is gone (a killed import's stayed for good); a place
    even root cannot write in (/sys) was Python's `[Errno 1]`."""
    out = tmp_path / "model"
    abandoned = tmp_path / ".model.staging-999999-tokenizers-abcd1234"  # no process 999999 runs
    abandoned.mkdir()
    attn("import", "marian", str(tiny_marian), "--out", str(out))
    assert not abandoned.exists() and (out / "manifest.json").is_file()
    assert "cannot write beside it" in refused("marian", str(tiny_marian), "--out", "/sys/attn-model")


def test_sizes_each_in_bounds_but_too_many_together_are_refused(tiny_marian, tmp_path):
    """Width 8,192, 64 + 64 layers and a feed-forward of 65,536 each passed: hundreds of GB together."""
    changed = changed_checkpoint(
        tiny_marian,
        tmp_path,
        d_model=8192,
        encoder_layers=64,
        decoder_layers=64,
        encoder_ffn_dim=65536,
        decoder_ffn_dim=65536,
        encoder_attention_heads=8,
        decoder_attention_heads=8,
    )
    assert "parameters, more than attn converts" in refused("marian", str(changed), "--out", str(tmp_path / "out"))


def test_a_position_table_too_short_for_a_sentence_is_refused():
    """A package with a one-row position table ended in an internal error at export."""
    from attn.export.config import ModelConfig
    from attn.export.importers.imported import CheckpointError, checked_size

    settings = ModelConfig(architecture="transformer", embedding_size=64, heads=4, position_table_size=1)
    with pytest.raises(CheckpointError, match="a position table of 1 rows"):
        checked_size(settings, 100, "model.bin")


def test_a_pickle_that_would_run_code_is_refused_without_torchs_advice(tiny_marian, tmp_path):
    """The refusal relayed torch's advice to load with weights_only=False, which runs the file's code."""
    import torch

    pickled = tmp_path / "pickled"
    shutil.copytree(tiny_marian, pickled)
    (pickled / "model.safetensors").unlink()
    torch.save({"model": shutil.rmtree}, pickled / "pytorch_model.bin")  # a function: code, not weights
    message = refused("marian", str(pickled), "--out", str(tmp_path / "out"))
    assert "holds more than weights" in message and "weights_only" not in message


@pytest.mark.parametrize("damage", ["bad checksum", "deep json"])
def test_a_damaged_package_is_one_line(tmp_path, damage):
    """A member whose CRC does not match, and JSON nested 100,000 deep, ended in internal errors."""
    package = tmp_path / "damaged.argosmodel"
    metadata = "[" * 100_000 if damage == "deep json" else json.dumps({"from_code": "en", "to_code": "de"})
    with zipfile.ZipFile(package, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("p/metadata.json", metadata)
        archive.writestr("p/sentencepiece.model", b"x")
        archive.writestr("p/model/model.bin", b"WEIGHTS!" * 64)
    if damage == "bad checksum":
        data = package.read_bytes()
        package.write_bytes(data.replace(b"WEIGHTS!", b"WEIGHTS?", 1))
    message = refused("argos", str(package), "--out", str(tmp_path / "out"))
    assert "damaged" in message or "not valid JSON" in message
