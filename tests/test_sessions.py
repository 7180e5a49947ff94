"""Provider choice: asking for CUDA where the session does not get it is said, never silent; the
per-machine cache of optimized CPU graphs changes nothing but the start-up time."""

import os
import shutil

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper

from attn.runtime import sessions
from attn.runtime.sessions import create_session

from .forked_cli import run_attn

pytestmark = pytest.mark.integration


def test_cuda_fallback_is_reported_once(reverse_model, monkeypatch):
    monkeypatch.setattr(sessions, "_no_cuda_said", False)
    messages = []
    for graph in ("encoder.onnx", "decoder.onnx"):
        session = create_session(reverse_model / graph, device="cuda", threads=1, notify=messages.append)
    if "CUDAExecutionProvider" in session.get_providers():
        assert messages == []
    else:
        assert len(messages) == 1 and "no CUDA provider" in messages[0] and "onnxruntime-gpu" in messages[0]
        assert session.get_providers() == ["CPUExecutionProvider"]


def test_cpu_is_silent_and_unknown_devices_are_refused(reverse_model):
    messages = []
    session = create_session(reverse_model / "encoder.onnx", device="cpu", threads=1, notify=messages.append)
    assert messages == [] and session.get_providers() == ["CPUExecutionProvider"]
    with pytest.raises(ValueError, match="unknown device"):
        create_session(reverse_model / "encoder.onnx", device="tpu")


def test_cli_says_so_on_stderr(reverse_model):

    result = run_attn(["translate", "-m", str(reverse_model), "--device", "cuda", "a0 b1"], text=True, timeout=120)
    assert result.returncode == 0 and result.stdout == "b1 a0\n"
    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        assert result.stderr.count("no CUDA provider") == 1


class FakeCudaSession:
    """Stands in for onnxruntime.InferenceSession on a machine with the CUDA provider: it records
    the providers asked for and, as onnxruntime does, keeps the shape nodes on the CPU."""

    def __init__(self, path, options, providers):
        self.asked = providers

    def get_providers(self):
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]


def test_a_cuda_session_computes_in_fp32_and_says_nothing(monkeypatch, reverse_model):
    """On an H200, a node-by-node fallback check failed on every graph (onnxruntime puts the shape
    nodes on the CPU by design), and TF32 changed 2 of 500 outputs (benchmarks/GPU.md): the
    session asks for CUDA with TF32 off, the CPU for the rest, and no notice follows."""
    monkeypatch.setattr(
        onnxruntime, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"]
    )
    monkeypatch.setattr(onnxruntime, "InferenceSession", FakeCudaSession)
    monkeypatch.setattr(sessions, "_preload_cuda_libraries", lambda notify: None)
    messages = []
    session = create_session(reverse_model / "decoder.onnx", device="cuda", notify=messages.append)
    assert messages == []
    assert session.asked == [("CUDAExecutionProvider", {"use_tf32": "0"}), "CPUExecutionProvider"]


def test_cuda_libraries_are_preloaded_once_and_what_that_prints_is_a_notice(monkeypatch):
    calls = []

    def preload_dlls():
        calls.append(1)
        print("WARNING: libcudnn.so.9 not found")
        raise OSError("libcublas.so.13: cannot open shared object file")

    monkeypatch.setattr(onnxruntime, "preload_dlls", preload_dlls, raising=False)
    monkeypatch.setattr(sessions, "_cuda_preload_done", False)
    messages = []
    sessions._preload_cuda_libraries(messages.append)
    sessions._preload_cuda_libraries(messages.append)
    assert calls == [1]
    assert messages == [
        "onnxruntime.preload_dlls: libcublas.so.13: cannot open shared object file",
        "WARNING: libcudnn.so.9 not found",
    ]


def test_optimized_graphs_are_cached_and_change_nothing(reverse_model, tmp_path):
    """The first run caches both optimized graphs; later runs load them and translate the same; a
    damaged cache file is made again; a cache folder that cannot be made leaves a plain session."""

    def translate(cache):
        return run_attn(
            ["translate", "-m", str(reverse_model), "-n", "3", "-f", "jsonl", "a0 b1 c2 d3"],
            check=True,
            env={**os.environ, "XDG_CACHE_HOME": str(cache)},
        )

    (tmp_path / "file-not-folder").write_text("")  # a file where the cache folder would go
    uncached = translate(tmp_path / "file-not-folder")
    assert uncached.stderr == b"" and (tmp_path / "file-not-folder").is_file()
    first = translate(tmp_path / "cache")
    folder = tmp_path / "cache" / "attn" / "graphs"
    graphs = sorted(folder.glob("*.onnx"))
    assert len(graphs) == 2 and all(graph.stat().st_size > 1000 for graph in graphs)
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        [g.name for g in graphs] + [g.name + ".sha256" for g in graphs]
    )
    graphs[0].write_bytes(b"not a graph")
    again = translate(tmp_path / "cache")
    assert first.stdout == again.stdout == uncached.stdout and again.stderr == b""
    assert graphs[0].stat().st_size > 1000 and len(list(folder.iterdir())) == 4
    # a valid graph that is not the one recorded (the other graph of the model) is not used
    graphs[0].write_bytes(graphs[1].read_bytes())
    third = translate(tmp_path / "cache")
    assert third.stdout == first.stdout and third.stderr == b""


def test_a_cache_that_cannot_be_written_leaves_a_working_session(reverse_model, tmp_path, monkeypatch):
    """A full disk makes onnxruntime fail the optimized graph's write with its own error, not an
    OSError: the session is made without the cache and nothing half-written is left."""
    from attn.runtime import sessions

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    plain = sessions._session

    def full_disk(graph, threads, providers, optimize=True, save_optimized=None):
        if save_optimized is not None:
            save_optimized.write_bytes(b"half")
            raise onnxruntime.capi.onnxruntime_pybind11_state.InvalidProtobuf("Protobuf serialization failed.")
        return plain(graph, threads, providers, optimize)

    monkeypatch.setattr(sessions, "_session", full_disk)
    data = (reverse_model / "encoder.onnx").read_bytes()
    session = create_session(reverse_model / "encoder.onnx", threads=1, checksum="1" * 64, data=data)
    assert [i.name for i in session.get_inputs()] == ["source_ids", "source_mask"]
    assert list((tmp_path / "cache" / "attn" / "graphs").iterdir()) == []


def test_a_graph_changed_after_its_check_is_refused_not_loaded(reverse_model, tmp_path):
    """The bytes hashed are the bytes loaded: a file swapped between the manifest's
    check and the load is refused, and so never reaches the cache."""
    from attn.runtime.manifest import ModelFolderError, read_manifest, verified_bytes

    folder = tmp_path / "model"
    shutil.copytree(reverse_model, folder)
    manifest = read_manifest(folder)
    (folder / "encoder.onnx").write_bytes((folder / "decoder.onnx").read_bytes())
    with pytest.raises(ModelFolderError, match="checksum mismatch"):
        verified_bytes(folder, manifest, "encoder.onnx")


def test_a_missing_home_is_not_created(reverse_model, tmp_path, monkeypatch):
    """HOME naming a folder that does not exist: no cache, and nothing made there."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "gone" / "cache"))
    create_session(reverse_model / "encoder.onnx", threads=1, checksum="2" * 64)
    assert not (tmp_path / "gone").exists()


def test_the_cache_keeps_the_graphs_last_used(reverse_model, tmp_path, monkeypatch):
    from attn.runtime.sessions import GRAPHS_KEPT

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "attn" / "graphs"
    folder.mkdir(parents=True)
    for index in range(GRAPHS_KEPT + 3):
        stale = folder / f"stale-{index}.onnx"
        stale.write_bytes(b"x")
        os.utime(stale, (index, index))
    create_session(reverse_model / "encoder.onnx", threads=1, checksum="0" * 64)
    kept = {graph.name for graph in folder.glob("*.onnx")}
    assert len(kept) == GRAPHS_KEPT and any(name.startswith("0" * 64) for name in kept)
    assert "stale-0.onnx" not in kept and f"stale-{GRAPHS_KEPT + 2}.onnx" in kept


def test_a_translator_hashes_each_file_once(reverse_model, hashed):
    """Starting a translator hashes each file of the folder once, whether it reads a graph's bytes
    (a graph not in the optimized-graph cache: verified_bytes) or only checks its checksum (cold
    start)."""
    from attn.runtime.loaded_model import LoadedModel
    from attn.runtime.manifest import read_manifest

    sizes = {(reverse_model / name).stat().st_size for name in read_manifest(reverse_model).files}
    LoadedModel(reverse_model, threads=1)
    assert sum(hashed) == sum(sizes)


def test_a_second_start_hashes_nothing_and_still_refuses_a_damaged_folder(hashed, reverse_model, tmp_path, monkeypatch):
    from attn.runtime import checksums

    """The first start of a folder hashes its files and caches its optimized graphs, the second
    hashes those; the third reads no graph into Python and hashes nothing, and translates the
    same. A graph replaced since (another file renamed over it, as an export writes) is refused."""
    from attn.runtime import sessions
    from attn.runtime.loaded_model import LoadedModel
    from attn.runtime.manifest import ModelFolderError
    from attn.runtime.search import SearchOptions

    folder = tmp_path / "model"
    shutil.copytree(reverse_model, folder)
    first = LoadedModel(folder, threads=1).translate(["a0 b1 c2"], SearchOptions(beam=2))
    LoadedModel(folder, threads=1)
    assert sum(hashed) > 0
    hashed.clear()
    read = []
    real_read = checksums.read_with_sha256
    monkeypatch.setattr(sessions, "read_with_sha256", lambda path: read.append(path) or real_read(path))
    again = LoadedModel(folder, threads=1).translate(["a0 b1 c2"], SearchOptions(beam=2))
    assert sum(hashed) == 0 and read == [] and again[0][0].text == first[0][0].text
    damaged = bytearray((folder / "decoder.onnx").read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    (folder / "new.onnx").write_bytes(bytes(damaged))
    os.replace(folder / "new.onnx", folder / "decoder.onnx")
    with pytest.raises(ModelFolderError, match="decoder.onnx: checksum mismatch"):
        LoadedModel(folder, threads=1)


def test_every_session_takes_one_arena_registered_once(reverse_model, tmp_path, monkeypatch):
    """Sessions share the CPU arena registered with onnxruntime's environment (one per process, not
    one per session: SPEED-HISTORY.md, "One arena"), plain or from the optimized-graph cache."""
    import hashlib

    from attn.runtime import sessions

    registered = []
    monkeypatch.setattr(sessions, "_shared_cpu_arena_registered", False)
    monkeypatch.setattr(onnxruntime, "create_and_register_allocator", lambda *args: registered.append(args))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    graph = reverse_model / "decoder.onnx"
    plain = create_session(graph, threads=1)
    cached = create_session(graph, threads=1, checksum=hashlib.sha256(graph.read_bytes()).hexdigest())
    assert len(registered) == 1
    for session in (plain, cached):
        assert session.get_session_options().get_session_config_entry(sessions.USE_ENV_ALLOCATORS) == "1"


def test_a_cpu_session_keeps_the_residual_add_and_its_layer_norm_apart(tmp_path):
    """onnxruntime's SkipLayerNormalization, the fusion of the two, took several times their time
    on an Intel Xeon (docs/studies/IMPORTED-SPEED.md): CPU sessions leave that fusion out, and a
    graph cached with it is not served to them."""
    width = 8
    graph = helper.make_graph(
        [
            helper.make_node("Add", ["x", "residual"], ["sum"]),
            helper.make_node("LayerNormalization", ["sum", "gain", "shift"], ["y"], axis=-1),
        ],
        "residual",
        [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["N", "S", width]) for name in ("x", "residual")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "S", width])],
        [
            numpy_helper.from_array(np.ones(width, np.float32), "gain"),
            numpy_helper.from_array(np.zeros(width, np.float32), "shift"),
        ],
    )
    data = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    ops = {}
    for kept in (False, True):
        saved = tmp_path / f"optimized-{kept}.onnx"
        if kept:
            sessions._session(data, 1, sessions.PROVIDERS["cpu"], save_optimized=saved)
        else:  # what onnxruntime makes of the graph by itself
            options = onnxruntime.SessionOptions()
            options.optimized_model_filepath = str(saved)
            onnxruntime.InferenceSession(data, options, providers=sessions.PROVIDERS["cpu"])
        ops[kept] = {node.op_type for node in onnx.load(str(saved)).graph.node}
    if "SkipLayerNormalization" not in ops[False]:
        pytest.skip(f"onnxruntime {onnxruntime.__version__} does not make this fusion: nothing to leave out")
    assert "SkipLayerNormalization" not in ops[True] and {"Add", "LayerNormalization"} <= ops[True]


def test_the_cached_graphs_name_says_which_fusions_were_left_out(monkeypatch):
    name = sessions.cached_graph_name("0" * 64)
    assert all(fusion in name for fusion in sessions.CPU_FUSIONS_LEFT_OUT)
    monkeypatch.setattr(sessions, "CPU_FUSIONS_LEFT_OUT", ())
    assert sessions.cached_graph_name("0" * 64) != name
