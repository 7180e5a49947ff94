"""Every script in benchmarks/ still imports, so that none rots between the runs that use it: each
module found there is imported as `benchmarks.NAME` (how they run: `python -m benchmarks.NAME`
from the repository root), which does no work (a script's work is in its `main`), needs no
optional package (eflomal, aiohttp, ctranslate2 are imported inside the functions that use them),
no data and no network."""

import importlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
# the modules the scripts import, which are not run themselves
HELPERS = {
    "__init__",
    "report",
    "training_run",
    "ctranslate2_engine",
    "against_ctranslate2",
    "abbreviation_forms",
    "sentence_sets",
}
MODULES = sorted(path.stem for path in BENCHMARKS.glob("*.py"))


def test_the_helpers_named_here_exist():
    assert HELPERS <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_a_benchmark_module_imports_and_a_script_has_a_main(name):
    module = importlib.import_module("benchmarks" if name == "__init__" else f"benchmarks.{name}")
    if name not in HELPERS:
        assert callable(getattr(module, "main", None)), f"benchmarks/{name}.py: a script runs from main()"
        assert 'if __name__ == "__main__":' in (BENCHMARKS / f"{name}.py").read_text(encoding="utf-8")
