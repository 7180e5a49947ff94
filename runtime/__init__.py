"""The runtime: model folders decoded with onnxruntime, without PyTorch; and attn's Python API
(runtime/api.py, docs/python.md): `attn.runtime.load`, `Translator`, `Result`, `translate`,
`translate_html`, `translate_document` and `summarize`, imported on first use so that the command line does not pay for them.

attn works offline, so onnxruntime's usage telemetry (since 1.29 it records events about the
machine and every session in ~/.cache/Microsoft/DeveloperTools) is switched off before
onnxruntime is first imported; a user who sets ORT_DISABLE_TELEMETRY themselves decides.
"""

import os

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

API = ("load", "Translator", "Result", "translate", "translate_html", "translate_document", "summarize")
__all__ = list(API)


def __getattr__(name: str):
    if name in API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
