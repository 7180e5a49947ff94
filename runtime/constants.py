"""Names and numbers shared by training, export and the runtime: one place for each."""

PAD, UNK, BOS, EOS = 0, 1, 2, 3
SPECIAL_TOKENS = ["<pad>", "<unk>", "<s>", "</s>"]
SPECIAL_IDS = {"pad": PAD, "unk": UNK, "bos": BOS, "eos": EOS}  # as a manifest records them

# 2: the output layer moved out of decoder.onnx; 3: the manifest declares every state's kind;
# 4: a model of several directions (manifest `directions`, a target-language token before each source)
FORMAT_VERSION = 4
ONE_DIRECTION_FORMAT = 3  # a model of one direction is still written as format 3: attn before 4 reads it
OLDEST_FORMAT = 2   # the oldest model folder format this runtime reads
MANIFEST = "manifest.json"
ENCODER = "encoder.onnx"
DECODER = "decoder.onnx"
TOKENIZER = "tokenizer.json"
OUTPUT_LAYER = "output_layer.npz"
LEXICON = "lexicon.npz"  # optional: the target-vocabulary shortlist

TASKS = ("translate", "summarize")


def target_token(language: str) -> str:
    """The token that opens every source of a model trained in several directions and names the
    language to write (Johnson et al. 2017: "<2fr> The file…" asks for French)."""
    return f"<2{language}>"
