"""A CTranslate2 model folder read without CTranslate2: `model.bin`'s variables, `config.json`,
the vocabulary. What `attn import argos` converts (export/importers/argos.py).

model.bin (binary version 6, written by CTranslate2 3.0 and later): the version (uint32), the
spec's name and revision, the variables (name, shape, type, bytes), then aliases (a name that
reads another variable). Strings are a uint16 length with a NUL at the end; numbers little-endian.
A weight quantized to int8 comes with `<name>_scale`, one scale per row: weight = q / scale.
"""

from __future__ import annotations

import json
import struct

import numpy as np

from attn.runtime.errors import UsageError

BINARY_VERSION = 6
TYPES = (np.float32, np.int8, np.int16, np.int32, np.float16)  # CTranslate2's DataType order (bfloat16 next: refused)
SCALE_SUFFIX = "_scale"


class Ctranslate2Error(UsageError):
    """A CTranslate2 model attn cannot read; the message names what."""


def read_variables(data: bytes, where: str) -> dict[str, np.ndarray]:
    """model.bin's bytes → every variable by name, aliases resolved, int8 weights dequantized to
    float32 (their `_scale` variables consumed)."""
    reader = _Reader(data, where)
    version = reader.number("I")
    if version != BINARY_VERSION:
        raise Ctranslate2Error(
            f"{where}: CTranslate2 binary version {version}; attn reads version {BINARY_VERSION} "
            "(CTranslate2 3.0 and later): convert the model again with a current CTranslate2"
        )
    spec = reader.string()
    if spec != "TransformerSpec":
        raise Ctranslate2Error(f"{where}: a {spec}; attn imports a TransformerSpec (an encoder-decoder translator)")
    reader.number("I")  # the spec's revision
    variables: dict[str, np.ndarray] = {}
    for _ in range(reader.number("I")):
        name = reader.string()
        shape = [reader.number("I") for _ in range(reader.number("B"))]
        kind = reader.number("B")
        if kind >= len(TYPES):
            raise Ctranslate2Error(
                f"{where}: {name} is of CTranslate2 type {kind} (bfloat16 or newer), which attn does not read"
            )
        variables[name] = reader.array(TYPES[kind], shape, reader.number("I"))
    aliases = [(reader.string(), reader.string()) for _ in range(reader.number("I"))]
    for name in [name for name in variables if name.endswith(SCALE_SUFFIX)]:
        weight = name.removesuffix(SCALE_SUFFIX)
        if weight in variables and variables[weight].dtype == np.int8:
            variables[weight] = variables[weight].astype(np.float32) / variables.pop(name).reshape(-1, 1)
    for alias, name in aliases:  # after dequantizing: an alias reads the float weight too
        if name not in variables:
            raise Ctranslate2Error(f"{where}: the alias {alias} names no variable ({name})")
        variables[alias] = variables[name]
    return {name: value.astype(np.float32) if value.dtype == np.float16 else value for name, value in variables.items()}


class _Reader:
    def __init__(self, data: bytes, where: str):
        self.data, self.where, self.position = data, where, 0

    def number(self, kind: str) -> int:
        try:
            (value,) = struct.unpack_from("<" + kind, self.data, self.position)
        except struct.error:
            raise Ctranslate2Error(f"{self.where}: ends early (damaged or not a CTranslate2 model)") from None
        self.position += struct.calcsize(kind)
        return value

    def string(self) -> str:
        length = self.number("H")
        raw = self.data[self.position : self.position + length]
        self.position += length
        if len(raw) != length or not raw.endswith(b"\0"):
            raise Ctranslate2Error(f"{self.where}: damaged (a name without its end)")
        return raw[:-1].decode("utf-8", errors="replace")

    def array(self, kind, shape: list[int], size: int) -> np.ndarray:
        itemsize = np.dtype(kind).itemsize
        if size != itemsize * int(np.prod(shape, dtype=np.int64)) or self.position + size > len(self.data):
            raise Ctranslate2Error(f"{self.where}: a variable's size does not match its shape (damaged)")
        value = np.frombuffer(self.data, dtype=kind, count=size // itemsize, offset=self.position).reshape(shape)
        self.position += size
        return value


def read_vocabulary(files: dict[str, bytes], where: str) -> list[str]:
    """The shared vocabulary of a CTranslate2 folder (`shared_vocabulary.json`, a list of
    tokens, or `.txt`, one per line), from the folder's files by name."""
    if "shared_vocabulary.json" in files:
        tokens = json.loads(files["shared_vocabulary.json"].decode("utf-8"))
    elif "shared_vocabulary.txt" in files:
        tokens = (
            files["shared_vocabulary.txt"].decode("utf-8").replace("\r\n", "\n").split("\n")
        )  # Windows line ends too
        tokens = tokens[:-1] if tokens and tokens[-1] == "" else tokens
    elif any(name.startswith("source_vocabulary") for name in files):
        raise Ctranslate2Error(f"{where}: separate source and target vocabularies; attn imports models that share one")
    else:
        raise Ctranslate2Error(f"{where}: no shared_vocabulary.json or shared_vocabulary.txt")
    if (
        not isinstance(tokens, list)
        or not all(isinstance(token, str) for token in tokens)
        or len(set(tokens)) != len(tokens)
    ):
        raise Ctranslate2Error(f"{where}: the vocabulary must list distinct tokens")
    return tokens
