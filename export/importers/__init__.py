"""Public models as attn model folders: Hugging Face Marian (OPUS-MT) checkpoints and Argos Translate packages."""
