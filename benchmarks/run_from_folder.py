"""A shipped model folder's weights as a training run folder, for the benchmarks that read a run
(run.py's PyTorch rows, ctranslate2_convert.py) when the run that made the folder is gone: the
weights read back from its graphs (an int8 folder's dequantized: export/training/exported_weights.py),
saved as the run's best.pt, with its tokenizer and the config's [model] and [vocab] recorded.

    python -m benchmarks.run_from_folder configs/en-de-everyday.toml models/en-de work/en-de-readback
    attn export configs/en-de-everyday.toml --workdir work/en-de-readback --no-train --out work/en-de-rb-fp32
    python -m benchmarks.ctranslate2_convert configs/en-de-everyday.toml work/en-de-readback \\
        --model work/en-de-rb-fp32 --out work/en-de-ct2 --check ../shared/data/en-de/test.tsv.gz --sentences 100
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch

from attn.export.config import load_config
from attn.export.models import build_model
from attn.export.training.exported_weights import exported_weights
from attn.export.training.train import check_run_config
from attn.runtime.constants import TOKENIZER
from attn.runtime.tokenizer import SubwordTokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path, help="the config the folder was trained with")
    parser.add_argument("folder", type=Path, help="an exported Transformer folder")
    parser.add_argument("workdir", type=Path, help="the run folder to write (new or empty)")
    args = parser.parse_args()
    config = load_config(args.config, [])
    args.workdir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.folder / TOKENIZER, args.workdir / TOKENIZER)
    model = build_model(config.model, SubwordTokenizer.load(args.workdir / TOKENIZER).vocab_size)
    model.load_state_dict(exported_weights(args.folder))  # strict: every tensor of the model, and no other
    torch.save({"model": model.state_dict(), "step": 0}, args.workdir / "best.pt")
    check_run_config(config, args.workdir, record=True)
    print(f"wrote {args.workdir}: the weights of {args.folder} as step 0")


if __name__ == "__main__":
    main()
