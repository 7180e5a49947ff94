"""benchmarks/gpu_carry.py: the CUDA library's machine code for other GPUs zeroed, exactly; a
wheel, a model folder and data cut into pieces and put together again, byte for byte."""

import shutil
import struct
import zipfile

import pytest

from benchmarks import gpu_carry

pytestmark = pytest.mark.unit


def entry(kind: int, arch: int, payload: bytes) -> bytes:
    header = bytearray(64)
    struct.pack_into("<HHIQ", header, 0, kind, 1, len(header), len(payload))
    struct.pack_into("<I", header, 28, arch)
    return bytes(header) + payload


def container(*entries: bytes) -> bytes:
    body = b"".join(entries)
    return struct.pack("<IHHQ", gpu_carry.FATBIN_MAGIC, 1, 16, len(body)) + body


def library(fatbin: bytes) -> bytes:
    """A minimal ELF64 file: sections null, .shstrtab and .nv_fatbin."""
    names = b"\0.shstrtab\0.nv_fatbin\0"
    names_at, fatbin_at = 64, 64 + len(names)
    table_at = fatbin_at + len(fatbin) + (-(fatbin_at + len(fatbin)) % 8)
    header = bytearray(64)
    header[:4] = b"\x7fELF"
    struct.pack_into("<Q", header, 0x28, table_at)
    struct.pack_into("<HHH", header, 0x3A, 64, 3, 1)
    section = struct.Struct("<IIQQQQIIQQ")
    table = bytes(64) + section.pack(1, 3, 0, 0, names_at, len(names), 0, 0, 1, 0)
    table += section.pack(11, 1, 2, 0, fatbin_at, len(fatbin), 0, 0, 8, 0)
    return bytes(header) + names + fatbin + bytes(table_at - fatbin_at - len(fatbin)) + table


def test_only_the_named_gpus_code_is_kept_where_the_container_has_it():
    hopper, ampere, turing, ptx = b"H" * 40, b"A" * 48, b"T" * 24, b"P" * 16
    fatbin = container(entry(2, 80, ampere), entry(2, 90, hopper), entry(1, 80, ptx)) + bytes(8)
    fatbin += container(entry(2, 75, turing))  # no sm_90 code here: left whole
    elf = bytearray(library(fatbin))
    assert gpu_carry.keep_one_gpu(elf, 90) == len(ampere)
    assert ampere not in elf and hopper in elf and ptx in elf and turing in elf
    assert len(elf) == len(library(fatbin))


def test_a_wheel_models_and_data_travel_in_pieces_and_come_back_whole(tmp_path, monkeypatch):
    fatbin = container(entry(2, 86, b"x" * 300), entry(2, 90, b"y" * 300))
    wheel = tmp_path / "onnxruntime_gpu-1.0-cp312-cp312-linux_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as files:
        files.writestr("onnxruntime/capi/libonnxruntime_providers_cuda.so", library(fatbin))
        files.writestr("onnxruntime/__init__.py", "version = 1\n")
    model = tmp_path / "en-de"
    model.mkdir()
    (model / "manifest.json").write_text("{}")
    (model / "decoder.onnx").write_bytes(bytes(range(256)) * 40)
    data = tmp_path / "test.tsv"
    data.write_text("a\tb\n")
    extra = tmp_path / "small-1.0-py3-none-any.whl"
    extra.write_bytes(b"wheel")
    monkeypatch.chdir(tmp_path)
    packed = gpu_carry.archive(wheel, 90, [model], [data])
    folders = gpu_carry.pack(packed, [extra], ".gpu", per_call=len(packed) // 3 + 50)
    assert [folder.name for folder in folders] == [".gpu1", ".gpu2", ".gpu3", ".gpu4"][: len(folders)]
    assert len(folders) >= 3 and (folders[0] / extra.name).read_bytes() == b"wheel"
    machine = tmp_path / "machine"
    machine.mkdir()
    for folder in folders:
        for path in folder.iterdir():
            shutil.copy(path, machine / path.name)
    gpu_carry.assemble(machine)
    assert (machine / "models" / "en-de" / "decoder.onnx").read_bytes() == (model / "decoder.onnx").read_bytes()
    assert (machine / "data" / "test.tsv").read_text() == "a\tb\n"
    assert (machine / "site" / "onnxruntime" / "__init__.py").read_text() == "version = 1\n"
    carried = (machine / "site" / "onnxruntime" / "capi" / "libonnxruntime_providers_cuda.so").read_bytes()
    assert b"y" * 300 in carried and b"x" * 300 not in carried and len(carried) == len(library(fatbin))
