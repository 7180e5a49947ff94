"""`attn translate-corpus` with the shipped models, as --from and --to say it reads and routes:
each line's language detected with --to alone, a pair no model translates through English. The
actors' work is checked without starting Ray (tests/test_corpus.py runs the whole command on it)."""

import numpy as np
import pytest

from attn.cli.corpus import TranslatingActor
from attn.runtime.registry import installed_models, pickable

from .test_cli import attn

pytestmark = pytest.mark.system


def test_each_line_is_detected_and_routed_as_attn_translate_does(tmp_path):
    """--to alone had been refused ("several installed translate models fit"), as had "-s auto"."""
    lines = ["Ich bin müde.", "Je suis fatigué.", "The cat sleeps."]
    folders = [str(m.folder) for m in pickable(installed_models()) if m.manifest.task == "translate"]
    actor = TranslatingActor(folders, "cpu", 1, 32, None, "en")
    translated = actor({"text": np.array(lines, dtype=object)})["translation"]
    expected = attn("translate", "--to", "en", stdin="\n".join(lines).encode()).stdout.decode().splitlines()
    assert list(translated) == expected
    into_french = TranslatingActor(folders, "cpu", 1, 32, "de", "fr")({"text": np.array(lines[:1], dtype=object)})
    assert list(into_french["translation"]) == [
        attn("translate", "-s", "de", "-t", "fr", lines[0]).stdout.decode().strip()
    ]
    corpus = tmp_path / "mixed.txt"
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused = attn(
        "translate-corpus", str(corpus), "--output", str(tmp_path / "it"), "-s", "it", "-t", "en", check_rc=2
    )
    assert b"no model here translates it into en" in refused.stderr and not (tmp_path / "it").exists()
