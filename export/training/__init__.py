"""Training: the data, the run (checkpoints, resumption, dev scores), tokenizers and starting from a shipped folder."""
