"""`attn import argos` against CTranslate2, on Argos packages the tests make: the small Marian
checkpoint of tests/tiny_marian.py converted by CTranslate2's own converter (float32, and int8 as
most Argos packages are), zipped with metadata.json and a SentencePiece model as an
`.argosmodel`. Every decoder step's log-probabilities agree with CTranslate2's scores within
1e-4, greedy search gives its tokens, and beam search too without a length penalty (docs/import.md)."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ctranslate2")

from .conftest import built_once  # noqa: E402
from .test_cli import attn  # noqa: E402
from .test_import_marian import TOLERANCE, agrees  # noqa: E402
from .tiny_marian import fixture_lines  # noqa: E402

pytestmark = pytest.mark.integration
TEXTS = fixture_lines()[0][:24]


def make_package(checkpoint, folder, quantization: str | None, files=("metadata.json", "sentencepiece.model", "model")):
    """An .argosmodel of the checkpoint, converted by CTranslate2 (`quantization` None: float32)."""
    import ctranslate2

    top = folder / "translate-en_de-0_1"
    ctranslate2.converters.TransformersConverter(str(checkpoint)).convert(str(top / "model"), quantization=quantization)
    shutil.copyfile(checkpoint / "source.spm", top / "sentencepiece.model")
    (top / "metadata.json").write_text(json.dumps({"package_version": "0.1", "from_code": "en", "to_code": "de"}))
    package = folder / "translate-en_de-0_1.argosmodel"
    with zipfile.ZipFile(package, "w") as archive:
        for path in sorted(top.rglob("*")):
            if path.relative_to(top).parts[0] in files:
                archive.write(path, path.relative_to(folder))
    return package


def imported_package(tiny_marian, tmp_path_factory, worker_id, quantization: str | None) -> tuple[Path, Path, Path]:
    """(the package, its imported folder, CTranslate2's model folder), made once per test run."""
    with built_once(tmp_path_factory, worker_id, f"argos-{quantization or 'float32'}") as folder:
        package = folder / "translate-en_de-0_1.argosmodel"
        if not (folder / "imported" / "manifest.json").exists():
            folder.mkdir(exist_ok=True)
            package = make_package(tiny_marian, folder, quantization)
            attn("import", "argos", str(package), "--out", str(folder / "imported"))
        return package, folder / "imported", folder / "translate-en_de-0_1" / "model"


@pytest.fixture(scope="session", params=[None, "int8"], ids=["float32", "int8"])
def imported(request, tiny_marian, tmp_path_factory, worker_id):
    """(the imported folder, CTranslate2's model folder) of a package."""
    return imported_package(tiny_marian, tmp_path_factory, worker_id, request.param)[1:]


@pytest.fixture(scope="session")
def engines(imported):
    import ctranslate2

    from attn.runtime.loaded_model import LoadedModel

    folder, converted = imported
    # float32 arithmetic on either package (CTranslate2 dequantizes the int8 one, as attn's import does)
    return LoadedModel(folder, threads=1), ctranslate2.Translator(str(converted), device="cpu", compute_type="float32")


def source_tokens(translator, text: str) -> list[str]:
    """The pieces Argos hands CTranslate2: SentencePiece's, without </s> (attn masks its EOS out)."""
    return [translator.tokenizer.pieces[i] for i in translator.tokenizer.encode_source(text).ids[:-1]]


def test_every_decoder_step_gives_ctranslate2s_log_probabilities(engines):
    translator, ctranslate2_translator = engines
    pieces = translator.tokenizer.pieces
    for text in TEXTS[:8]:
        target = ctranslate2_translator.translate_batch(
            [source_tokens(translator, text)], beam_size=1, max_decoding_length=20
        )[0].hypotheses[0]
        expected = ctranslate2_translator.score_batch([source_tokens(translator, text)], [target])[0].log_probs
        ids = [pieces.index(token) for token in target] + [3]
        state = translator.encode([translator.tokenizer.encode_source(text).ids], shortlist=False)
        got = []
        for previous, following in zip([2] + ids, ids):
            log_probs, _ = state.step(np.array([previous]))
            got.append(log_probs[0, following])
        assert np.abs(np.array(got) - np.array(expected)).max() < TOLERANCE, text


@pytest.mark.parametrize("beam", [1, 4])
def test_the_search_gives_ctranslate2s_tokens_alone_and_in_a_batch(engines, beam):
    """Greedy, and beam search without a length penalty: the same algorithm in both (with one,
    CTranslate2 divides by length^α where attn uses GNMT's penalty)."""
    translator, ctranslate2_translator = engines
    options = translator.default_options(beam=beam, length_penalty=0.0)
    batched = translator.translate(TEXTS, options)
    for text, in_batch in zip(TEXTS, batched):
        limit = int(translator.max_lengths(np.array([len(translator.tokenizer.encode_source(text).ids)]), options)[0])
        expected = ctranslate2_translator.translate_batch(
            [source_tokens(translator, text)], beam_size=beam, length_penalty=0.0, max_decoding_length=limit
        )[0].hypotheses[0]
        alone = translator.translate([text], options)[0][0]
        ids = [translator.tokenizer.pieces.index(token) for token in expected]
        assert agrees(translator, text, list(alone.tokens), ids, limit, greedy=beam == 1), text
        assert alone.tokens == in_batch[0].tokens


def test_the_command_imports_a_package_and_translates_with_alignments(imported):
    folder, _ = imported
    lines = attn("translate", "--model", str(folder), "-f", "pharaoh", *TEXTS[:2]).stdout.decode().splitlines()
    assert len(lines) == 2 and all(" ||| " in line for line in lines)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["architecture"]["source_eos"] is False and manifest["architecture"]["positions"] == "table"
    assert manifest["training"]["imported_from"] == "argos"


def test_a_package_without_its_tokenizer_or_model_is_refused(tiny_marian, tmp_path):
    for missing, message in (
        ("sentencepiece.model", "holds no sentencepiece.model"),
        ("model", "holds no model/model.bin"),
    ):
        folder = tmp_path / missing.replace(".", "-")
        folder.mkdir()
        kept = tuple(name for name in ("metadata.json", "sentencepiece.model", "model") if name != missing)
        package = make_package(tiny_marian, folder, None, kept)
        result = attn("import", "argos", str(package), "--out", str(folder / "out"), check_rc=2)
        error = result.stderr.decode()
        assert message in error and error.count("\n") == 1, error
        assert not (folder / "out").exists()
    not_zip = tmp_path / "not.argosmodel"
    not_zip.write_text("hello")
    assert (
        b"not an Argos package"
        in attn("import", "argos", str(not_zip), "--out", str(tmp_path / "o"), check_rc=2).stderr
    )


def repacked(package, folder, change) -> object:
    """The package with its shared vocabulary's files replaced by `change(tokens)` → {name: bytes}."""
    out = folder / f"changed-{len(list(folder.iterdir()))}.argosmodel"
    with zipfile.ZipFile(package) as source, zipfile.ZipFile(out, "w") as archive:
        vocabulary = next(name for name in source.namelist() if name.endswith("shared_vocabulary.json"))
        tokens = json.loads(source.read(vocabulary))
        for name in source.namelist():
            if name != vocabulary:
                archive.writestr(name, source.read(name))
        for name, data in change(tokens).items():
            archive.writestr(vocabulary.replace("shared_vocabulary.json", name), data)
    return out


def test_a_vocabulary_shorter_than_the_embeddings_is_refused_and_windows_line_ends_are_read(
    tiny_marian, tmp_path_factory, worker_id, tmp_path
):
    package, plain, _ = imported_package(tiny_marian, tmp_path_factory, worker_id, None)
    short = repacked(package, tmp_path, lambda tokens: {"shared_vocabulary.json": json.dumps(tokens[:-5]).encode()})
    result = attn("import", "argos", str(short), "--out", str(tmp_path / "short"), check_rc=2)
    assert b"embeddings have" in result.stderr and not (tmp_path / "short").exists()
    crlf = repacked(package, tmp_path, lambda tokens: {"shared_vocabulary.txt": "\r\n".join(tokens).encode() + b"\r\n"})
    attn("import", "argos", str(crlf), "--out", str(tmp_path / "crlf"))
    texts = "\n".join(TEXTS[:6]) + "\n"
    same = [attn("translate", "-m", str(folder), stdin=texts).stdout for folder in (tmp_path / "crlf", plain)]
    assert same[0] == same[1]
