"""The runtime: model folders decoded with onnxruntime, without PyTorch.

attn works offline, so onnxruntime's usage telemetry (since 1.29 it records events about the
machine and every session in ~/.cache/Microsoft/DeveloperTools) is switched off before
onnxruntime is first imported; a user who sets ORT_DISABLE_TELEMETRY themselves decides.
"""

import os

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
