"""Public models as attn model folders: Hugging Face Marian (OPUS-MT) checkpoints and Argos Translate packages."""

# Imported models show the penultimate decoder layer's attention (docs/import.md: Garg et al. 2019
# found it the one that aligns best in a 6-layer Transformer).
ALIGNMENT_LAYER = -2
