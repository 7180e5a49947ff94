"""Names and numbers shared by training, export and the runtime: one place for each."""

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIAL_TOKENS = ["<pad>", "<unk>", "<s>", "</s>"]

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
ENCODER = "encoder.onnx"
DECODER = "decoder.onnx"
TOKENIZER = "tokenizer.json"

TASKS = ("translate", "summarize")
