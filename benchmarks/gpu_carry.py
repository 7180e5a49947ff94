"""onnxruntime-gpu, model folders and data carried to a lent GPU machine in calls of 64 MiB
(the working tree included), and put together there: how benchmarks/gpu_decoding.py ran on an
H200 (benchmarks/GPU.md).

    python -m benchmarks.gpu_carry pack --wheel onnxruntime_gpu-1.31.1-cp312-…whl --sm 90 \\
        --model work/ship/en-de-open2-fp32 --model models/en-de --data ../shared/data/en-de/test.tsv.gz \\
        --extra WHEELS… --out .gpu
    # .gpu1 … .gpuN, each carried by one call of the device tool (names in .git/info/exclude):
    #   mkdir -p /tmp/gpu && cp .gpuK/* /tmp/gpu/                      (calls 1 … N-1)
    #   cp .gpuN/* /tmp/gpu/ && python3 -m benchmarks.gpu_carry assemble /tmp/gpu && \\
    #   PYTHONPATH=/tmp/gpu/site python3 -m benchmarks.gpu_decoding --model /tmp/gpu/models/… …

The wheel's CUDA library holds each kernel for several GPU generations; `--sm` keeps the machine
code for one (the driver picks the entry for its GPU by the entries' headers and reads no other)
and zeroes the rest, which then compresses to nothing. What is packed is one xz tar of `site/`
(the wheel's files, importable with PYTHONPATH), `models/NAME/` and `data/FILE`, cut into pieces;
`--extra` files (small wheels to install there) ride in the first folder.
"""

from __future__ import annotations

import argparse
import io
import shutil
import struct
import tarfile
import zipfile
from pathlib import Path

from attn.export.training.device_run import TREE_LIMIT, tree_size

FATBIN_MAGIC = 0xBA55ED50  # a fatbin container's first four bytes (little-endian)
ELF_CUBIN = 2  # an entry's kind: machine code (1 is PTX, kept)
MARGIN = 1 << 20  # bytes left free in each call for what else travels (the scripts, a changed file)
PIECE, PIECES = "piece.{:03d}", "piece.[0-9][0-9][0-9]"  # a piece's name; the pattern of them all


def sections(elf: bytes) -> dict[str, tuple[int, int]]:
    """An ELF64 file's sections: name → (offset, size)."""
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", elf, shoff + i * entry_size) for i in range(count)]
    names_offset = headers[names_index][4]

    def name(at: int) -> str:
        end = elf.index(b"\0", names_offset + at)
        return elf[names_offset + at : end].decode()

    return {name(header[0]): (header[4], header[5]) for header in headers}


def keep_one_gpu(library: bytearray, sm: int) -> int:
    """Zero, in `library`'s .nv_fatbin, the machine code of every GPU but sm_`sm`, in the
    containers that hold code for sm_`sm` (others are left whole); the bytes zeroed."""
    found = sections(bytes(library)).get(".nv_fatbin")
    if found is None:
        return 0
    position, end = found[0], found[0] + found[1]
    zeroed = 0
    while position < end:
        magic, _, header_size, body_size = struct.unpack_from("<IHHQ", library, position)
        if magic != FATBIN_MAGIC:
            raise ValueError(f"no fatbin container at byte {position}")
        entries, at = [], position + header_size
        while at < position + header_size + body_size:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", library, at)
            if entry_header + payload == 0 or at + 32 > end:
                raise ValueError(f"no fatbin entry at byte {at}")
            (arch,) = struct.unpack_from("<I", library, at + 28)
            entries.append((kind, arch, at + entry_header, payload))
            at += entry_header + payload
        if any(kind == ELF_CUBIN and arch == sm for kind, arch, _, _ in entries):
            for kind, arch, start, payload in entries:
                if kind == ELF_CUBIN and arch != sm:
                    library[start : start + payload] = bytes(payload)
                    zeroed += payload
        position += header_size + body_size
        while position + 4 <= end and struct.unpack_from("<I", library, position)[0] != FATBIN_MAGIC:
            position += 1  # containers are aligned: padding between them
    return zeroed


def archive(wheel: Path, sm: int, models: list[Path], data: list[Path]) -> bytes:
    """The xz tar of site/ (the wheel's files, CUDA libraries kept for sm_`sm`), models/ and data/."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz", preset=6) as tar, zipfile.ZipFile(wheel) as wheel_files:
        for member in wheel_files.infolist():
            if member.is_dir():
                continue
            content = bytearray(wheel_files.read(member))
            if member.filename.endswith(".so") and content[:4] == b"\x7fELF":
                keep_one_gpu(content, sm)
            info = tarfile.TarInfo(f"site/{member.filename}")
            info.size, info.mode = len(content), 0o755 if member.filename.endswith(".so") else 0o644
            tar.addfile(info, io.BytesIO(bytes(content)))
        for folder in models:
            tar.add(folder, arcname=f"models/{folder.name}")
        for path in data:
            tar.add(path, arcname=f"data/{path.name}")
    return buffer.getvalue()


def pack(packed: bytes, extra: list[Path], out: str, per_call: int) -> list[Path]:
    """`packed` cut into folders OUT1, OUT2, … of at most `per_call` bytes each, the first also
    holding the `extra` files; the folders."""
    if per_call <= 0:
        raise ValueError("no room in a call: the working tree alone takes 64 MiB")
    first_room = per_call - sum(path.stat().st_size for path in extra)
    if first_room <= 0:
        raise ValueError(f"the extra files alone take more than {per_call} bytes")
    cuts = [0, min(first_room, len(packed))]
    while cuts[-1] < len(packed):
        cuts.append(min(cuts[-1] + per_call, len(packed)))
    folders = []
    for index, (start, stop) in enumerate(zip(cuts, cuts[1:]), 1):
        folder = Path(f"{out}{index}")
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        (folder / PIECE.format(index)).write_bytes(packed[start:stop])
        for path in extra if index == 1 else []:
            shutil.copy(path, folder / path.name)
        folders.append(folder)
    return folders


def assemble(folder: Path) -> None:
    """On the GPU machine: the pieces in `folder` joined and unpacked there (site/, models/, data/)."""
    pieces = sorted(folder.glob(PIECES))
    packed = b"".join(piece.read_bytes() for piece in pieces)
    with tarfile.open(fileobj=io.BytesIO(packed), mode="r:xz") as tar:
        tar.extractall(folder, filter="data")
    print(f"{len(pieces)} pieces, {len(packed)} bytes: {', '.join(sorted(p.name for p in folder.iterdir()))}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    packing = verbs.add_parser("pack")
    packing.add_argument("--wheel", type=Path, required=True, help="onnxruntime-gpu's wheel for the machine's Python")
    packing.add_argument("--sm", type=int, default=90, help="The GPU's compute capability: 90 for an H100 or H200.")
    packing.add_argument("--model", type=Path, action="append", default=[])
    packing.add_argument("--data", type=Path, action="append", default=[])
    packing.add_argument("--extra", type=Path, nargs="*", default=[], help="Files for the first folder.")
    packing.add_argument("--out", default=".gpu", help="Folders OUT1, OUT2, … (names for .git/info/exclude).")
    packing.add_argument("--per-call", type=int, help="Bytes per folder (default: what a call leaves beside the tree).")
    assembling = verbs.add_parser("assemble")
    assembling.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.verb == "assemble":
        assemble(args.folder)
        return
    per_call = args.per_call or TREE_LIMIT - tree_size(Path.cwd()) - MARGIN
    folders = pack(archive(args.wheel, args.sm, args.model, args.data), args.extra, args.out, per_call)
    print(f"{len(folders)} calls: {', '.join(str(folder) for folder in folders)} ({per_call} bytes each at most)")


if __name__ == "__main__":
    main()
