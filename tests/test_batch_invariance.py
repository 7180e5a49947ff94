"""The shipped models translate a sentence the same alone, in any batch, at any position, at any
thread count and through the CLI's stream, in the precision they ship (en-de is int8).

With activations quantized per tensor, a sentence's rounding followed its batch companions' largest
values and 25 of these 240 lines changed with the batch; export/quantize.py now scales each row
on its own (README, "Hardening")."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from attn.runtime.registry import resolve_model
from attn.runtime.translator import Translator
from attn.runtime.tsv import read_tsv

pytestmark = pytest.mark.system

FIXTURES = Path(__file__).parent / "fixtures"
TRANSLATE_SLICE = FIXTURES / "en-de-test-slice.tsv"
SUMMARIZE_SLICE = FIXTURES / "summarize-test-slice.tsv"


def best_texts(translator: Translator, texts: list[str], batch_size: int) -> list[str]:
    return [hypotheses[0].text for hypotheses in translator.translate(texts, translator.default_options(), batch_size)]


@pytest.fixture(scope="module")
def translate_sources():
    return [row.source for row in read_tsv(TRANSLATE_SLICE)]


@pytest.fixture(scope="module")
def alone(translate_sources):
    """Each line of the slice translated on its own: one sentence per call, one thread."""
    translator = Translator(resolve_model(None, "translate", "en", "de"), threads=1)
    return [best_texts(translator, [text], 1)[0] for text in translate_sources]


def test_the_shipped_translator_is_int8():
    translator = Translator(resolve_model(None, "translate", "en", "de"), threads=1)
    assert translator.manifest.architecture["precision"] == "int8"


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("batch_size", [1, 7, 32])
def test_one_call_equals_line_by_line(translate_sources, alone, threads, batch_size):
    translator = Translator(resolve_model(None, "translate", "en", "de"), threads=threads)
    assert best_texts(translator, translate_sources, batch_size) == alone


def test_shuffled_order_changes_nothing(translate_sources, alone):
    translator = Translator(resolve_model(None, "translate", "en", "de"), threads=2)
    order = list(range(len(translate_sources)))
    random.Random(7).shuffle(order)
    shuffled = best_texts(translator, [translate_sources[i] for i in order], 32)
    assert [shuffled[order.index(i)] for i in range(len(order))] == alone


def test_the_cli_stream_equals_line_by_line(translate_sources, alone):
    """`attn translate < slice` with the defaults (both cores, batch 32) prints what each line gives alone."""
    result = subprocess.run([sys.executable, "-m", "attn.cli", "translate"], capture_output=True, timeout=600,
                            input=("\n".join(translate_sources) + "\n").encode())
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == alone


def test_the_shipped_summarizer_is_batch_invariant():
    documents = [row.source for row in read_tsv(SUMMARIZE_SLICE)][:60]
    summarizer = Translator(resolve_model(None, "summarize", None, None), threads=1)
    alone = [best_texts(summarizer, [document], 1)[0] for document in documents]
    assert best_texts(Translator(summarizer.folder, threads=2), documents, 16) == alone
