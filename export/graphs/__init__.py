"""From a trained model to a model folder: ONNX export verified against PyTorch, int8, calibrated scales and the shortlist."""
