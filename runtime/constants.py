"""Names and numbers shared by training, export and the runtime: one place for each."""

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIAL_TOKENS = ["<pad>", "<unk>", "<s>", "</s>"]
SPECIAL_IDS = {"pad": PAD, "unk": UNK, "bos": BOS, "eos": EOS}  # as a manifest records them

FORMAT_VERSION = 3  # 2: the output layer moved out of decoder.onnx; 3: the manifest declares every state's kind
OLDEST_FORMAT = 2   # the oldest model folder format this runtime reads
MANIFEST = "manifest.json"
ENCODER = "encoder.onnx"
DECODER = "decoder.onnx"
TOKENIZER = "tokenizer.json"
OUTPUT_LAYER = "output_layer.npz"
LEXICON = "lexicon.npz"  # optional: the target-vocabulary shortlist

TASKS = ("translate", "summarize")
