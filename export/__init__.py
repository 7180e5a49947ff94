"""Training and ONNX export (PyTorch). Importing the runtime first switches onnxruntime's
telemetry off (runtime/__init__.py) before any export module imports onnxruntime."""

import attn.runtime  # noqa: F401
