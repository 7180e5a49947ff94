"""benchmarks/run.py's CTranslate2 section: attn and CTranslate2 on the same weights, side by side.

Every setting (precision × threads × beam) times both engines in alternating rounds on the same
lines, read whole; then CTranslate2's own settings at beam 5 (how its threads are split, its
vocabulary map), and the cold start and peak memory of each engine as a one-command process.
"""

from __future__ import annotations

import sys
from pathlib import Path

from attn.cli.bench import attn_command, cold_starts, peak_memory_mb
from attn.runtime.loaded_model import LoadedModel
from benchmarks.compare_folders import alternating_runs
from benchmarks.ctranslate2_engine import VOCABULARY_MAP, Ctranslate2Engine
from benchmarks.report import rate_row, table

COMPUTE_TYPES = {"fp32": "float32", "int8": "int8"}
BATCH = 32
COLD_START_TEXT = "she is eating a green apple"
COLD_START_RUNS = 15  # a cold start varies by a few per cent from run to run on a shared machine


def ctranslate2_command(folder: Path, tokenizer: Path, compute_type: str, threads: int, texts: list[str]) -> list[str]:
    """benchmarks/ctranslate2_translate.py's command line, run as this process runs (from the
    repository root, as a module)."""
    return [
        sys.executable,
        "-m",
        "benchmarks.ctranslate2_translate",
        "--compute-type",
        compute_type,
        "--threads",
        str(threads),
        "--batch-size",
        str(BATCH),
        str(folder),
        str(tokenizer),
        *texts,
    ]


def ctranslate2_section(
    converted: Path, ours: dict[str, Path], texts: list[str], references: list[str], threads: int, repeats: int
) -> str:
    """`converted`: ctranslate2_convert.py's folder; `ours`: our folders by precision ("fp32",
    "int8"), exported from the same weights. Markdown."""
    speed_rows, settings_rows, process_rows = [], [], []
    vmap = (converted / VOCABULARY_MAP).exists()  # our shortlist, converted: then both engines use it
    for precision, folder in ours.items():
        for thread_count in sorted({1, threads}):
            translator = LoadedModel(folder, threads=thread_count)
            engine = Ctranslate2Engine(
                converted,
                translator.tokenizer,
                COMPUTE_TYPES[precision],
                thread_count,
                max_lengths=translator.max_lengths,
            )
            for beam in (1, 5):
                best, outputs = alternating_runs(
                    [translator, engine], texts, beam, BATCH, repeats, sentences=False, shortlist=vmap
                )
                setting = f"{precision}, {thread_count} thread{'s' * (thread_count > 1)}, beam {beam}"
                for name, found, seconds in zip(("attn", "CTranslate2"), outputs, best):
                    speed_rows.append(rate_row(f"{setting}: {name}", found, seconds, references, translator.tokenizer))
                speed_rows[-2].append(f"**{best[1] / best[0]:.2f}×**")
                speed_rows[-1].append("")
    translator = LoadedModel(ours["int8"], threads=threads)
    variants = [
        (side_by_side, vocabulary_map)
        for side_by_side in (True, False)
        for vocabulary_map in ((True, False) if vmap else (False,))
    ]
    engines = [
        Ctranslate2Engine(
            converted, translator.tokenizer, "int8", threads, side_by_side, vocabulary_map, translator.max_lengths
        )
        for side_by_side, vocabulary_map in variants
    ]
    best, outputs = alternating_runs(engines, texts, 5, BATCH, repeats, sentences=False)
    for (side_by_side, vocabulary_map), found, seconds in zip(variants, outputs, best):
        split = (
            f"inter_threads {threads}, intra_threads 1" if side_by_side else f"inter_threads 1, intra_threads {threads}"
        )
        name = f"{split}, {'vmap' if vocabulary_map else 'whole vocabulary'}"
        settings_rows.append(rate_row(name, found, seconds, references, translator.tokenizer))
    sample = "".join(text + "\n" for text in texts)
    for precision, folder in ours.items():
        tokenizer = folder / "tokenizer.json"
        commands = {
            "attn": lambda text: attn_command(folder, "translate", text, ("--threads", str(threads))),
            "CTranslate2": lambda text: ctranslate2_command(
                converted, tokenizer, COMPUTE_TYPES[precision], threads, [text] if text else []
            ),
        }
        starts = cold_starts([command(COLD_START_TEXT) for command in commands.values()], COLD_START_RUNS)
        for (name, command), seconds in zip(commands.items(), starts):
            process_rows.append(
                [
                    f"{precision}: {name}",
                    f"{seconds:.3f}",
                    f"**{seconds / starts[-1]:.2f}×**" if name == "attn" else "",
                    f"{peak_memory_mb(command(COLD_START_TEXT)):.0f}",
                    f"{peak_memory_mb(command(''), stdin=sample):.0f}",
                ]
            )
    return f"""## Against CTranslate2 on the same weights

The model converted by `benchmarks/ctranslate2_convert.py` (its greedy output equals ours piece for
piece, fp32), {len(texts)} lines read whole, batch {BATCH}, fastest of {repeats} alternating rounds.
attn: {"the shortlist (per sentence)" if vmap else "the default search over the whole vocabulary"}, parallel batches (runtime/parallel.py).
CTranslate2: `inter_threads` = threads, `intra_threads` 1, {"its vocabulary map made from our shortlist" if vmap else "the whole vocabulary"},
`max_batch_size` {BATCH}.

{table(["setting: engine", "sentences/s", "target tokens/s", "BLEU", "attn / CTranslate2"], speed_rows)}

### CTranslate2's settings (int8, beam 5, {threads} threads)

{table(["setting", "sentences/s", "target tokens/s", "BLEU"], settings_rows)}

### One-command processes ({threads} threads, beam 5)

Cold start: median of {COLD_START_RUNS} runs translating "{COLD_START_TEXT}", the two engines taking turns
(`attn translate`; `benchmarks/ctranslate2_translate.py` for CTranslate2, which loads only
ctranslate2 and the tokenizer). Peak resident memory of that process, and of one translating the
{len(texts)} lines from standard input.

{table(["engine", "cold start, s", "attn / CTranslate2", "peak memory, one sentence, MB", f"peak memory, {len(texts)} lines, MB"], process_rows)}

"""
