"""`attn export` and `attn quantize` never delete what is not a model folder, swap folders
atomically and leave no staging debris behind, even after kill -9 (docs/hardening.md)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import onnx
import pytest

from attn.export.graphs.quantize import quantize_folder
from attn.export.graphs.staging import STAGING, staged_folder
from attn.runtime.constants import LANGUAGE_WORDS_FORMAT
from attn.runtime.errors import UsageError
from attn.runtime.manifest import read_manifest, sha256_of

from .forked_cli import run_attn

pytestmark = pytest.mark.integration

ATTN = [sys.executable, "-m", "attn.cli"]


def quantize_cli(model, out):
    return run_attn(["quantize", str(model), "--out", str(out)], timeout=300)


def test_a_folder_of_user_files_is_refused_and_kept(reverse_model, tmp_path):
    out = tmp_path / "thesis"
    (out / "sub").mkdir(parents=True)
    (out / "thesis.tex").write_text("years of work")
    (out / "sub" / "data.csv").write_text("1,2")
    result = quantize_cli(reverse_model, out)
    assert result.returncode == 2 and b"not a model folder" in result.stderr and result.stderr.count(b"\n") == 1
    assert (out / "thesis.tex").read_text() == "years of work" and (out / "sub" / "data.csv").exists()


@pytest.mark.parametrize("names", [["manifest.json"], ["manifest.json", "tokenizer.json"]])
def test_a_folder_whose_manifest_is_not_a_models_is_refused_and_kept(reverse_model, tmp_path, names):
    """A browser extension's manifest.json does not make a model folder."""
    out = tmp_path / "webext"
    out.mkdir()
    for name in names:
        (out / name).write_text('{"manifest_version": 3, "name": "mine"}')
    result = quantize_cli(reverse_model, out)
    assert result.returncode == 2 and b"not a model folder" in result.stderr and result.stderr.count(b"\n") == 1
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    with pytest.raises(UsageError, match="not a model folder"):
        with staged_folder(out):
            pass
    assert (out / "manifest.json").read_text() == '{"manifest_version": 3, "name": "mine"}'


def test_a_model_folder_whose_files_do_not_verify_is_refused(reverse_model, tmp_path):
    out = tmp_path / "model"
    shutil.copytree(reverse_model, out)
    (out / "tokenizer.json").write_text("my notes")  # no longer the file the manifest lists
    with pytest.raises(UsageError, match="not a model folder"):
        with staged_folder(out):
            pass
    assert (out / "tokenizer.json").read_text() == "my notes"


def test_a_file_is_refused_and_kept(reverse_model, tmp_path):
    out = tmp_path / "notes.txt"
    out.write_text("mine")
    assert quantize_cli(reverse_model, out).returncode == 2
    assert out.read_text() == "mine"


def test_the_current_folder_is_refused(reverse_model, tmp_path):
    (tmp_path / "config.toml").write_text("[model]\n")
    result = run_attn(["quantize", str(reverse_model), "--out", "."], cwd=tmp_path, timeout=300)
    assert result.returncode == 2 and (tmp_path / "config.toml").exists()


def test_a_model_folder_and_an_empty_folder_are_replaced(reverse_model, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    quantize_folder(reverse_model, empty)
    quantize_folder(reverse_model, empty)  # now a model folder: replaced again
    assert read_manifest(empty).architecture["precision"] == "int8"
    # a word list its manifest lists is the folder's own: a second `attn quantize` to a shipped
    # folder's copy had been refused; one it does not list is the user's, and refused
    (empty / "words.sym.txt").write_text("a0\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"not a model folder \(words.sym.txt\)"):
        quantize_folder(reverse_model, empty)
    manifest = json.loads((empty / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["words.sym.txt"] = sha256_of(empty / "words.sym.txt")
    manifest["format_version"] = max(manifest["format_version"], LANGUAGE_WORDS_FORMAT)
    (empty / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    quantize_folder(reverse_model, empty)
    assert not (empty / "words.sym.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]


def test_a_failed_build_leaves_nothing(tmp_path):
    out = tmp_path / "model"
    with pytest.raises(RuntimeError):
        with staged_folder(out) as staging:
            (staging / "encoder.onnx").write_text("half")
            raise RuntimeError("export failed")
    assert list(tmp_path.iterdir()) == []


def test_staging_of_a_killed_export_is_swept(reverse_model, tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    abandoned = tmp_path / f".model.{STAGING}-{dead.stdout.strip()}-0badc0de"
    abandoned.mkdir()
    (abandoned / "encoder.onnx").write_text("half-written")
    alive = tmp_path / f".model.{STAGING}-{os.getpid()}-0000cafe"  # another export still running
    alive.mkdir()
    quantize_folder(reverse_model, tmp_path / "model")
    assert not abandoned.exists() and alive.exists()


def test_the_swap_keeps_a_reader_from_finding_no_folder(reverse_model, tmp_path):
    """While one process replaces the folder again and again, the folder is always there."""
    out = tmp_path / "model"
    shutil.copytree(reverse_model, out)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys; from pathlib import Path; from attn.export.graphs.staging import staged_folder; import shutil\n"
                "for _ in range(200):\n"
                "    with staged_folder(Path(sys.argv[2])) as s:\n"
                "        shutil.copytree(sys.argv[1], s, dirs_exist_ok=True)\n"
            ),
            str(reverse_model),
            str(out),
        ]
    )
    missing = 0
    while writer.poll() is None:
        missing += not (out / "manifest.json").exists()
    assert writer.returncode == 0 and missing == 0


def test_quantize_writes_nothing_into_its_source(reverse_model, tmp_path, monkeypatch):
    """The source may be an installed, read-only folder, or read by another process meanwhile:
    not even a temporary file appears in it (onnxruntime's shape inference once wrote
    `encoder-inferred.onnx` there, and a concurrent reader saw a foreign file)."""
    written = []
    infer_shapes_path = onnx.shape_inference.infer_shapes_path

    def recording(model_path, output_path="", *args, **kwargs):
        written.append(Path(output_path or model_path).resolve())
        return infer_shapes_path(model_path, output_path, *args, **kwargs)

    monkeypatch.setattr(onnx.shape_inference, "infer_shapes_path", recording)
    before = sorted(p.name for p in reverse_model.iterdir())
    quantize_folder(reverse_model, tmp_path / "int8")
    assert written and not [path for path in written if path.parent == reverse_model.resolve()]
    assert sorted(p.name for p in reverse_model.iterdir()) == before


def test_a_symbolic_link_as_out_is_refused(reverse_model, tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    with pytest.raises(UsageError, match="symbolic link"):
        quantize_folder(reverse_model, tmp_path / "link")


def test_quantize_refuses_to_replace_its_own_source(reverse_model, tmp_path):
    """`attn quantize F --out F` replaced the fp32 folder by its int8 copy."""
    folder = tmp_path / "model"
    shutil.copytree(reverse_model, folder)
    result = quantize_cli(folder, folder)
    assert result.returncode == 2 and b"model being quantized" in result.stderr
    assert not read_manifest(folder).int8


def test_export_refuses_its_out_before_training(tmp_path):
    """An --out that will be refused was refused only after training."""
    from attn.runtime.constants import MANIFEST

    out = tmp_path / "notes"
    out.mkdir()
    (out / "thesis.tex").write_text("mine")
    config = Path(__file__).resolve().parent.parent / "configs" / "reverse.toml"
    result = run_attn(["export", str(config), "--workdir", str(tmp_path / "run"), "--out", str(out)], timeout=120)
    assert result.returncode == 2 and b"not a model folder" in result.stderr
    assert not (tmp_path / "run" / "last.pt").exists() and not (out / MANIFEST).exists()


def test_init_from_a_model_of_another_architecture_is_refused(transformer_model, tmp_path):
    """A Transformer folder as init_from of a GRU config trained from scratch, "0 of 20 weight
    tensors taken", exit 0."""
    config = Path(__file__).resolve().parent.parent / "configs" / "reverse.toml"
    result = run_attn(
        [
            "train",
            str(config),
            "--workdir",
            str(tmp_path / "run"),
            "--set",
            f'train.init_from="{transformer_model}"',
            "--set",
            "train.max_steps=5",
        ],
        timeout=120,
    )
    assert result.returncode == 2 and b"none of" in result.stderr and not (tmp_path / "run" / "last.pt").exists()
