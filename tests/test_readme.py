"""README.md's tour prints what README.md shows: every `$ attn …` line of it that is
followed by output runs here, with the shipped models, and must print that output. Another
CPU's rounding may decide a near tie in a translation the other way, so a translated line that
differs must be one of the 5 best, scored within NEAR_TIE of the best (as the everyday probe)."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from .test_shipped_model import NEAR_TIE

pytestmark = pytest.mark.system

README = Path(__file__).resolve().parent.parent / "README.md"


def tour() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of each `$ …` line that runs attn and is followed by output."""
    examples, lines = [], README.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if line.startswith("    $ ") and "attn " in line and "#" not in line:
            output = []
            for following in lines[index + 1 :]:
                if not following.startswith("    ") or following.startswith("    $"):
                    break
                output.append(following[4:])
            if output:
                examples.append((line[6:], output))
    return examples


def run(command: str) -> str:
    shell = command.replace("attn ", f"{shlex.quote(sys.executable)} -m attn.cli ")
    result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def test_the_tour_has_examples_with_output():
    assert len(tour()) >= 3


@pytest.mark.parametrize("command, expected", tour(), ids=[command for command, _ in tour()])
def test_the_readme_command_prints_what_the_readme_shows(command, expected):
    printed = run(command).splitlines()
    if printed == expected:
        return
    assert " -f " not in command and "attn translate" in command, (printed, expected)
    listed = [
        json.loads(line)
        for line in run(command.replace("attn translate", "attn translate -f jsonl -n 5", 1)).splitlines()
    ]
    assert len(listed) == len(expected)
    for record, line in zip(listed, expected):
        scores = {best["text"]: best["score"] for best in record["n_best"]}
        assert line in scores and scores[line] >= record["n_best"][0]["score"] - NEAR_TIE, (line, scores)


def python_snippet() -> str:
    """The code block of README's "From Python" section, as written."""
    section = README.read_text(encoding="utf-8").split("## From Python", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line[4:] for line in section.splitlines() if line.startswith("    "))


def test_the_readme_python_snippet_runs_as_written():
    snippet = python_snippet()
    assert "import attn.runtime as attn" in snippet and "attn.load(" in snippet
    result = subprocess.run([sys.executable, "-c", snippet], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    apple, french, detailed = result.stdout.decode().splitlines()
    assert apple == run('attn translate "she is eating a green apple"').strip()
    assert french == run('attn translate -s de -t fr "Guten Morgen, wie geht es dir?"').strip()
    assert detailed.startswith(run('attn translate "The file could not be opened."').strip() + " -")


def test_the_readme_gives_each_shipped_models_size_as_attn_models_does():
    """The table's sizes had stayed those of an earlier round (en-de 25.8 MB, de-en 12.6) after
    word lists joined the folders: each is the size `attn models` prints (cli/models_list.py)."""
    import re

    from attn.runtime.registry import installed_models

    stated = dict(re.findall(r"`([\w-]+)`(?: \(both ways\))?, ([\d.]+) MB", README.read_text(encoding="utf-8")))
    shipped = {
        model.folder.name: f"{model.size_bytes / 1e6:.1f}" for model in installed_models([README.parent / "models"])
    }
    assert stated and set(stated) <= set(shipped)
    assert {name: shipped[name] for name in stated} == stated
