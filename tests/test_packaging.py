"""Packaging: everything installs under `attn`, from the editable install and from a wheel."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import built_once

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent


def test_editable_install_imports_from_this_checkout():
    import attn.cli.app
    import attn.runtime.loaded_model

    assert Path(attn.runtime.loaded_model.__file__).resolve().parent == ROOT / "runtime"
    assert Path(attn.cli.app.__file__).resolve().parent == ROOT / "cli"


@pytest.fixture(scope="session")
def wheel(tmp_path_factory, worker_id) -> Path:
    """The wheel, built once per run: two builds at once (two xdist workers) collide in the
    checkout's build/ folder. Built with the setuptools of this environment: `pip install -e .`
    has already built the project in an isolated one from pyproject.toml's [build-system]
    (isolation doubled the build's 6 s)."""
    with built_once(tmp_path_factory, worker_id, "wheel") as out:
        if not list(out.glob("attn-*.whl")):
            build = ["wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)]
            subprocess.run(
                [sys.executable, "-m", "pip", *build],
                check=True,
                capture_output=True,
                timeout=600,
            )
        [built] = out.glob("attn-*.whl")
        return built


def test_wheel_holds_only_the_attn_namespace(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"attn"}
    for module in (
        "attn/cli/app.py",
        "attn/runtime/loaded_model.py",
        "attn/export/graphs/onnx_export.py",
        "attn/export/models/transformer.py",
        "attn/export/training/train.py",
        "attn/export/importers/marian.py",
        "attn/configs/reverse.toml",
        "attn/runtime/take_rows.onnx",
        "attn/runtime/best_columns.onnx",
        "attn/runtime/place_names.tsv",
        "attn/runtime/person_names.tsv",
    ):
        assert module in names
    assert not [n for n in names if n.startswith("attn/tests") or n.endswith(".pt")]


def test_wheel_holds_every_file_of_the_shipped_models(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for manifest in (ROOT / "models").glob("*/manifest.json"):
        listed = [*json.loads(manifest.read_text())["files"], "manifest.json"]
        assert {f"attn/models/{manifest.parent.name}/{name}" for name in listed} <= names


def test_wheel_installs_and_runs(wheel, tmp_path):
    venv = tmp_path / "venv"
    # a venv without its own pip (whose copying took 7 s), the wheel installed by this one's
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True, timeout=300
    )
    python = venv / "bin" / "python"
    install = ["-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)]
    subprocess.run([sys.executable, *install], check=True, timeout=300)
    probe = "import attn.runtime.loaded_model as t, attn.models as m; print(t.__file__); print(m.__file__)"
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}  # the venv's attn, not another
    out = subprocess.run(
        [str(python), "-c", probe], check=True, capture_output=True, text=True, cwd=tmp_path, env=env
    ).stdout
    assert all(str(venv) in line for line in out.splitlines())
    help_text = subprocess.run([str(venv / "bin" / "attn"), "--help"], capture_output=True, text=True, timeout=120)
    assert help_text.returncode == 0 and "translate" in help_text.stdout
