"""Hostile and damaged model folders: only known files inside the folder, every manifest field
checked, files that match their checksum but disagree with each other refused; always one line
on stderr and exit 2, never a traceback, a hang or a read outside the folder (docs/hardening.md)."""

import json
import os
import shutil
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attn.export.graphs.quantize import quantize_folder
from attn.runtime.errors import UsageError
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import ModelFolderError, read_manifest, sha256_of
from attn.runtime.search import SearchOptions

from .forked_cli import run_attn

pytestmark = pytest.mark.integration

ATTN = [sys.executable, "-m", "attn.cli"]


@pytest.fixture
def folder(reverse_model, tmp_path):
    copy = tmp_path / "bundle" / "model"
    shutil.copytree(reverse_model, copy)
    return copy


def manifest_of(folder) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def write_manifest(folder, manifest: dict) -> None:
    (folder / "manifest.json").write_text(json.dumps(manifest))


def rehash(folder, name) -> None:
    """What an attacker or a hand-built folder does: the manifest's checksum follows the file."""
    manifest = manifest_of(folder)
    manifest["files"][name] = sha256_of(folder / name)
    write_manifest(folder, manifest)


def refused(folder) -> str:
    """The folder is refused in-process with a ModelFolderError; returns its message."""
    with pytest.raises(ModelFolderError) as error:
        LoadedModel(folder, threads=1)
    return str(error.value)


def shortlist_refused(folder) -> str:
    """The folder opens, and its shortlist, read when a search first uses it, is refused with a
    ModelFolderError; returns its message."""
    translator = LoadedModel(folder, threads=1)
    with pytest.raises(ModelFolderError) as error:
        translator.translate(["a0"], SearchOptions(shortlist=True))
    return str(error.value)


def refused_by_the_cli(folder) -> str:
    result = run_attn(["translate", "-m", str(folder), "a0"], timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"" and err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ---- names and paths ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["../.bashrc", "/etc/passwd", "../../../../../../etc/passwd", "sub/file", "notes.txt"])
def test_only_known_file_names(folder, name):
    manifest = manifest_of(folder)
    manifest["files"][name] = "0" * 64
    write_manifest(folder, manifest)
    assert "unknown file name" in refused_by_the_cli(folder)


def test_quantize_writes_nothing_outside_its_output(folder, tmp_path):
    (folder.parent / ".bashrc").write_text("echo pwned\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("mine\n")
    manifest = manifest_of(folder)
    manifest["files"]["../.bashrc"] = sha256_of(folder.parent / ".bashrc")
    write_manifest(folder, manifest)
    with pytest.raises(ModelFolderError, match="unknown file name"):
        quantize_folder(folder, home / "model-int8")
    assert (home / ".bashrc").read_text() == "mine\n" and not (home / "model-int8").exists()


def test_a_symbolic_link_out_of_the_folder_is_refused(folder, tmp_path):
    outside = tmp_path / "outside.json"
    shutil.copy(folder / "tokenizer.json", outside)
    (folder / "tokenizer.json").unlink()
    (folder / "tokenizer.json").symlink_to(outside)
    assert "not a regular file" in refused(folder)


def test_a_manifest_that_is_a_fifo_does_not_hang(folder):
    (folder / "manifest.json").unlink()
    os.mkfifo(folder / "manifest.json")
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(pytest.raises(ModelFolderError, read_manifest, folder)))
    worker.start()
    worker.join(timeout=30)
    if worker.is_alive():  # unblock the reader before failing
        os.close(os.open(folder / "manifest.json", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO manifest hung")
    assert "not a regular file" in str(outcome[0].value)


def test_a_manifest_linked_to_dev_zero_is_refused(folder):
    (folder / "manifest.json").unlink()
    (folder / "manifest.json").symlink_to("/dev/zero")
    assert "not a regular file" in refused(folder)


def test_a_huge_manifest_is_refused_unread(folder):
    (folder / "manifest.json").write_bytes(b" " * (2 << 20) + b"{}")
    assert "larger than" in refused(folder)


def test_a_deeply_nested_manifest(folder):
    (folder / "manifest.json").write_text("[" * 200_000 + "]" * 200_000)
    assert "not valid JSON" in refused_by_the_cli(folder)


# ---- fields ----------------------------------------------------------------------------------
FIELD_DAMAGE = {
    "files null": ({"files": None}, "files"),
    "architecture a list": ({"architecture": []}, "architecture"),
    "search null": ({"search": None}, "search"),
    "states not names": ({"states": [{"name": "hidden", "kind": 3}]}, "states"),
    "states of another kind": ({"states": [{"name": "memory", "kind": "cache"}]}, "states"),
    "states unknown to the graph": ({"states": [{"name": "cell", "kind": "row"}]}, "states"),
    "state_names of an older format": ({"format_version": 2, "state_names": ["hidden", 3]}, "state_names"),
    "special ids changed": ({"special_ids": {"pad": 1, "unk": 0, "bos": 2, "eos": 3}}, "special_ids"),
    "format version a string": ({"format_version": "2"}, "format_version must be an integer"),
    "task unknown": ({"task": "paint"}, "unknown task"),
    "language not a code": ({"source_lang": "../x"}, "source_lang"),
}
SEARCH_DAMAGE = [
    ("beam", 0),
    ("beam", "5"),
    ("beam", 2.5),
    ("beam", 10**9),
    ("length_penalty", "x"),
    ("length_penalty", float("nan")),
    ("max_source_pieces", 0),
    ("max_source_pieces", -3),
    ("min_length", 10**6),
    ("replace_unk", "no"),
    ("max_length_ratio", -1.0),
    ("unheard_of", 1),
]


@pytest.mark.parametrize("change", FIELD_DAMAGE.values(), ids=FIELD_DAMAGE.keys())
def test_every_field_is_checked(folder, change):
    fields, expected = change
    write_manifest(folder, {**manifest_of(folder), **fields})
    assert expected in refused(folder)


@pytest.mark.parametrize("name, least", [("target_words.txt", 5), ("source_words.txt", 6), ("LANGUAGE", 7)])
def test_a_word_list_needs_the_format_version_that_holds_it(folder, name, least):
    """An older attn says to upgrade rather than read a folder without the list it holds."""
    manifest = manifest_of(folder)
    name = f"words.{manifest['source_lang']}.txt" if name == "LANGUAGE" else name
    manifest["files"][name] = "0" * 64
    manifest["format_version"] = least - 1
    write_manifest(folder, manifest)
    assert f"{name} needs format version {least}" in refused(folder)


def test_a_word_list_is_of_a_language_the_model_translates(folder):
    manifest = manifest_of(folder)
    manifest["files"]["words.xx.txt"] = "0" * 64
    write_manifest(folder, manifest)
    assert "words.xx.txt is of a language the model does not translate" in refused(folder)


@pytest.mark.parametrize("key, value", SEARCH_DAMAGE, ids=[f"{k}={v!r}" for k, v in SEARCH_DAMAGE])
def test_every_search_default_is_range_checked(folder, key, value):
    manifest = manifest_of(folder)
    manifest["search"][key] = value
    write_manifest(folder, manifest)  # json writes NaN as NaN, which json reads back
    message = refused(folder)
    assert "search" in message and key.replace("_", "-") in message.replace("_", "-")


def test_the_vocabulary_size_is_checked(folder):
    manifest = manifest_of(folder)
    manifest["architecture"]["vocab_size"] = "300"
    write_manifest(folder, manifest)
    assert "vocab_size" in refused(folder)


def test_unknown_top_level_fields_are_ignored(folder):
    write_manifest(folder, {**manifest_of(folder), "licence": "MIT"})
    LoadedModel(folder, threads=1)


# ---- files that match their checksum but not each other --------------------------------
def test_a_lexicon_with_ids_out_of_range(reverse_shortlist_model, tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(reverse_shortlist_model, folder)
    np.savez(folder / "lexicon.npz", frequent=np.array([10**6], np.int32), translations=np.zeros((2, 1), np.int32))
    rehash(folder, "lexicon.npz")
    assert "lexicon.npz" in shortlist_refused(folder)


@pytest.mark.parametrize(
    "tokens, by_language, problem",
    [
        ([10**6], [[5]], "outside the vocabulary"),
        ([4], [[5], [6]], "language_tokens (L,) and language_frequent (L, F)"),
        ([4], [[-7]], "outside the vocabulary"),
    ],
)
def test_a_lexicon_with_damaged_language_lists(reverse_shortlist_model, tmp_path, tokens, by_language, problem):
    folder = tmp_path / "model"
    shutil.copytree(reverse_shortlist_model, folder)
    with np.load(folder / "lexicon.npz") as stored:
        frequent, translations = stored["frequent"], stored["translations"]
    np.savez(
        folder / "lexicon.npz",
        frequent=frequent,
        translations=translations,
        language_tokens=np.array(tokens, np.int32),
        language_frequent=np.array(by_language, np.int32),
    )
    rehash(folder, "lexicon.npz")
    assert problem in shortlist_refused(folder)


def test_an_output_layer_of_the_wrong_width(folder):
    with np.load(folder / "output_layer.npz") as stored:
        weight, bias = stored["weight"], stored["bias"]
    np.savez(folder / "output_layer.npz", weight=np.zeros((len(weight), weight.shape[1] + 3), np.float32), bias=bias)
    rehash(folder, "output_layer.npz")
    assert "width" in refused(folder)


def test_an_output_layer_that_is_not_a_zip(folder):
    (folder / "output_layer.npz").write_bytes(b"PK\x03\x04 not really a zip")
    rehash(folder, "output_layer.npz")
    assert "output layer" in refused_by_the_cli(folder)


def test_a_graph_that_is_not_onnx(folder):
    (folder / "decoder.onnx").write_bytes(b"\x08\x07garbage" * 100)
    rehash(folder, "decoder.onnx")
    assert "cannot load ONNX graph" in refused_by_the_cli(folder)


def test_a_tokenizer_of_the_same_size_from_elsewhere(folder):
    """A re-hashed tokenizer of the right size but another model's pieces: the graphs record the
    checksum of the tokenizer they were exported with."""
    data = json.loads((folder / "tokenizer.json").read_text())
    vocab = data["model"]["vocab"]
    first, second = sorted((t for t, i in vocab.items() if i > 10), key=vocab.get)[:2]
    vocab[first], vocab[second] = vocab[second], vocab[first]
    (folder / "tokenizer.json").write_text(json.dumps(data))
    rehash(folder, "tokenizer.json")
    assert "not the tokenizer" in refused(folder)


# ---- fuzzing ----------------------------------------------------------------------------------
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
MANIFEST_FIELDS = [
    "task",
    "source_lang",
    "target_lang",
    "architecture",
    "special_ids",
    "states",
    "state_names",
    "files",
    "search",
    "training",
    "directions",
    "format_version",
]


@given(field=st.sampled_from(MANIFEST_FIELDS), value=JSON_VALUES)
def test_any_value_in_any_manifest_field(reverse_model, tmp_path_factory, field, value):
    folder = tmp_path_factory.mktemp("fuzz") / "model"
    shutil.copytree(reverse_model, folder)
    write_manifest(folder, {**manifest_of(folder), field: value})
    try:
        LoadedModel(folder, threads=1)
    except UsageError:
        pass


@given(
    name=st.sampled_from(["manifest.json", "encoder.onnx", "decoder.onnx", "output_layer.npz", "tokenizer.json"]),
    damage=st.sampled_from(["flip", "truncate", "delete"]),
    where=st.floats(0, 1),
    rehashed=st.booleans(),
)
# found by the fuzz-folders profile: a damaged .npy header (numpy raised SyntaxError), and a graph
# whose metadata was no longer UTF-8 (onnxruntime raised UnicodeDecodeError)
@example(name="output_layer.npz", damage="flip", where=0.001, rehashed=True)
@example(name="encoder.onnx", damage="flip", where=1.0, rehashed=True)
@example(name="encoder.onnx", damage="flip", where=0.015625, rehashed=True)  # onnxruntime's message not UTF-8
def test_any_damage_to_any_file(reverse_model, tmp_path_factory, name, damage, where, rehashed):
    folder = tmp_path_factory.mktemp("fuzz") / "model"
    shutil.copytree(reverse_model, folder)
    path = folder / name
    data = bytearray(path.read_bytes())
    at = min(int(where * len(data)), len(data) - 1)
    if damage == "delete":
        path.unlink()
    elif damage == "truncate":
        path.write_bytes(bytes(data[:at]))
    else:
        data[at] ^= 0xFF
        path.write_bytes(bytes(data))
    if rehashed and damage != "delete" and name != "manifest.json":
        rehash(folder, name)
    try:
        LoadedModel(folder, threads=1).translate(["a0 b1 c2"])
    except UsageError:
        pass


# ---- non-finite weights --------------------------------------------------------
def nan_folder(model: Path, tmp_path: Path) -> Path:
    """A copy of `model` whose encoder embeddings are NaN, its checksum re-written."""
    import onnx
    from onnx import numpy_helper

    folder = tmp_path / "model"
    shutil.copytree(model, folder)
    graph = onnx.load(folder / "encoder.onnx")
    initializer = next(t for t in graph.graph.initializer if t.data_type == onnx.TensorProto.FLOAT and len(t.dims) == 2)
    values = numpy_helper.to_array(initializer).copy()
    values[:] = np.nan  # the embeddings: the memory, then every log-probability, is NaN
    initializer.CopyFrom(numpy_helper.from_array(values, initializer.name))
    onnx.save(graph, folder / "encoder.onnx")
    rehash(folder, "encoder.onnx")
    return folder


@pytest.mark.parametrize("options", [[], ["--beam", "1"], ["-f", "jsonl", "--beam", "1"], ["--sample", "--seed", "1"]])
def test_nan_weights_are_refused_at_decoding_in_every_search(transformer_model, tmp_path, options):
    """An internal error (beam), an empty line with exit 0 (greedy, sampling), `"score": NaN`."""
    folder = nan_folder(transformer_model, tmp_path)
    result = run_attn(["translate", "-m", str(folder), *options, "a0 b1"], timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 2 and err.count("\n") == 1 and "not finite" in err, err
    assert b"NaN" not in result.stdout


def test_a_server_refuses_nan_weights_at_start(transformer_model, tmp_path):
    """It started, then answered every request with a 500."""
    folder = nan_folder(transformer_model, tmp_path)
    result = run_attn(["serve", "--models", str(folder), "--port", "0"], timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 2 and str(folder) in err and "not finite" in err and "Traceback" not in err, err


def test_a_graph_with_external_data_is_refused(transformer_model, tmp_path):
    """A re-hashed graph whose weights lay in an unlisted weights.bin loaded it unchecked."""
    import onnx

    folder = tmp_path / "model"
    shutil.copytree(transformer_model, folder)
    graph = onnx.load(folder / "encoder.onnx")
    onnx.save(graph, folder / "encoder.onnx", save_as_external_data=True, location="weights.bin", size_threshold=0)
    rehash(folder, "encoder.onnx")
    result = run_attn(["translate", "-m", str(folder), "a0 b1"], timeout=120)
    err = result.stderr.decode()
    assert result.returncode == 2 and "external data" in err and err.count("\n") == 1, err


def test_a_zip_bomb_member_is_refused_before_it_is_unpacked(folder):
    """A re-hashed lexicon or output layer whose member unpacks to gigabytes was unpacked whole
    before its shape was checked (a thousand times its stored size is what gives it away)."""
    import zipfile

    with zipfile.ZipFile(folder / "output_layer.npz", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open("weight.npy", "w", force_zip64=True) as member:
            header = b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (8192, 8192), }"
            member.write(header.ljust(127) + b"\n")
            for _ in range(256):
                member.write(bytes(1 << 20))  # 256 MiB of zeros, a quarter of a MB stored
    rehash(folder, "output_layer.npz")
    assert "would unpack" in refused_by_the_cli(folder)


@pytest.mark.parametrize("graph", ["encoder.onnx", "decoder.onnx"])
def test_a_re_hashed_graph_with_a_weight_that_is_not_a_number_is_refused(tmp_path, graph):
    """A re-hashed copy of the shipped en-de whose encoder had one NaN bias printed "Japan Japan
    Japan …" with exit 0: its int8 products turned the NaN into finite values."""
    import onnx
    from onnx import numpy_helper

    from attn.runtime.registry import shipped_root

    copy = tmp_path / "en-de"
    shutil.copytree(shipped_root() / "en-de", copy)
    model = onnx.load(copy / graph)
    for index, tensor in enumerate(model.graph.initializer):
        values = numpy_helper.to_array(tensor)
        if values.dtype == np.float32 and values.size > 1 and "bias" in tensor.name.lower():
            values = values.copy()
            values.flat[0] = np.nan
            model.graph.initializer[index].CopyFrom(numpy_helper.from_array(values, tensor.name))
            break
    else:
        pytest.fail(f"no float bias in {graph}")
    onnx.save(model, copy / graph)
    rehash(copy, graph)
    assert "not finite numbers" in refused(copy)


def test_a_word_list_is_named_by_any_language_code_a_manifest_accepts():
    """`attn language-words` names a list by the model's language code: "pt-BR" as well as "de"."""
    from attn.runtime.constants import LANGUAGE_WORDS, language_words_file

    assert [LANGUAGE_WORDS.fullmatch(language_words_file(code))["language"] for code in ("de", "pt-BR")] == [
        "de",
        "pt-BR",
    ]
    assert LANGUAGE_WORDS.fullmatch("words.../x.txt") is None
