import pytest
import numpy as np

from attn.runtime.alignment import WordAlignment
from attn.runtime.verbatim import copy_verbatim, looks_verbatim

pytestmark = pytest.mark.unit


def aligned(source: str, target: str) -> WordAlignment:
    """A monotonic one-to-one alignment between equal-length word lists."""
    s, t = source.split(), target.split()
    return WordAlignment(s, t, np.eye(len(t), len(s), dtype=np.float32))


def test_near_miss_copies_are_repaired_keeping_punctuation():
    alignment = aligned("install libfoo2-dev version 2.4.13 now", "installiere libfoo3-dev Version 2.4.31, jetzt")
    assert copy_verbatim(alignment) == ["installiere", "libfoo2-dev", "Version", "2.4.13,", "jetzt"]


def test_ordinary_words_and_unrelated_targets_are_left_alone():
    alignment = aligned("the green apple /usr/lib", "der grüne Apfel Bibliothek")
    assert copy_verbatim(alignment) == ["der", "grüne", "Apfel", "Bibliothek"]


def test_what_looks_verbatim():
    assert all(map(looks_verbatim, ["2.4", "/usr/lib", "%s", "libfoo_bar", "GNOME3", "OpenOffice", "x86-64"]))
    assert not any(map(looks_verbatim, ["apple", "Apple", "well-", "end."]))
