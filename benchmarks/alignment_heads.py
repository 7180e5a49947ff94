"""Which encoder-decoder attention of a Transformer aligns words best: each decoder layer, its
heads averaged and each head alone, against eflomal's alignments (as alignment_agreement.py does
for model folders), with exported folders (an RNN's, say) in the same table.

    python benchmarks/alignment_heads.py configs/en-de-transformer.toml work/en-de-transformer \\
        --folders models/en-de --dev ../shared/data/en-de/dev.tsv.gz \\
        --train ../shared/data/en-de/train.tsv.gz --pairs 300 --context 20000 --out benchmarks/studies/ALIGNMENT.md

The Transformer is the run's best checkpoint (or the mean of the last `--average` kept ones, as
`attn export --average` takes), teacher-forced in PyTorch on the reference translation; each
candidate's (T, S) piece attention is merged to words by the runtime's rule and every target word
linked to its strongest source word. `[model] alignment_layer` picks the layer that the exported
`attention` output averages over heads.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch
from alignment_agreement import add_reference_arguments, agreement, reference_alignments
from report import command_line, finish
from training_run import add_run_arguments, run_model

from attn.runtime.alignment import merge_to_words
from attn.runtime.constants import BOS, TOKENIZER
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.tokenizer import SubwordTokenizer


def cross_attention(model, source_ids: list[int], target_ids: list[int]) -> list[np.ndarray]:
    """Each decoder layer's encoder-decoder weights (H, T + 1, S) under teacher forcing (the last
    row is the EOS step)."""
    recorded: list[np.ndarray] = []
    for layer in model.decoder_layers:
        attend = type(layer.cross_attention).attend.__get__(layer.cross_attention)

        def recording(*args, attend=attend):
            output, weights = attend(*args)
            recorded.append(weights[0].float().numpy())
            return output, weights

        layer.cross_attention.attend = recording
    source = torch.tensor([source_ids])
    with torch.no_grad():
        model(source, torch.ones_like(source), torch.tensor([[BOS] + target_ids]))
    for layer in model.decoder_layers:
        del layer.cross_attention.attend
    return recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser)
    parser.add_argument("--folders", nargs="*", type=Path, default=[], help="exported model folders to compare")
    add_reference_arguments(parser)
    args = parser.parse_args()
    dev, sure, possible = reference_alignments(args.dev, args.train, args.pairs, args.context)
    lines = [
        command_line(),
        "",
        f"{len(dev)} pairs of `{args.dev.name}` (every n-th row), eflomal with {args.context} pairs of "
        f"`{args.train.name}` beside them; sure links = both directions, possible = either. "
        "AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|); lower is better.",
        "",
        "| model | attention | links | AER | model links the aligner proposes |",
        "|---|---|---|---|---|",
    ]

    def report(model: str, attention: str, links: list[set]) -> None:
        count, aer, proposed = agreement(links, sure, possible)
        lines.append(f"| {model} | {attention} | {count} | {aer:.3f} | {proposed:.1%} |")
        print(lines[-1], flush=True)

    for folder in args.folders:
        translator = LoadedModel(folder, threads=1, notify=lambda message: None)
        report(
            str(folder),
            "exported `attention`",
            [set(translator.force(row.source, row.target).alignment.hard_links()) for row in dev],
        )

    _, model, steps = run_model(args)
    tokenizer = SubwordTokenizer.load(args.workdir / TOKENIZER)
    candidates: dict[str, list[set]] = {}
    for row in dev:
        source = tokenizer.encode_source(row.source)
        target = tokenizer.encode(row.target)
        words, word_of_piece = tokenizer.target_words(target)
        for layer, heads in enumerate(cross_attention(model, source.ids, target)):
            choices = {
                f"layer {layer}, heads averaged": heads.mean(axis=0),
                **{f"layer {layer}, head {h}": heads[h] for h in range(heads.shape[0])},
            }
            for name, attention in choices.items():
                alignment = merge_to_words(attention, source.word_of_piece, word_of_piece, source.words, words)
                candidates.setdefault(name, []).append(set(alignment.hard_links()))
    label = f"{args.workdir} (step{'s' if len(steps) > 1 else ''} {', '.join(map(str, steps))})"
    for name, links in candidates.items():
        report(label, name, links)
    finish(lines, args.out)


if __name__ == "__main__":
    main()
