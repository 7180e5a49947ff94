"""`--heatmap FILE.png|svg`: the alignment drawn as in the articles (matplotlib, optional extra).

One sentence writes FILE (replacing it, as -o does); several write FILE-1.png, FILE-2.png, … in
input order, and refuse to replace a numbered file that is already there: the user named FILE,
not its numbered neighbours."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import typer

from attn.cli.output import check_writable
from attn.runtime.alignment import JoinedAlignment, WordAlignment
from attn.runtime.errors import UsageError
from attn.runtime.files import replace_whole
from attn.runtime.sessions import warn_on_stderr

FORMATS = (".png", ".svg", ".pdf")
MAX_HEATMAPS = 50  # drawn by one command: a heat map is read one sentence at a time


def check_heatmap_path(path: Path | None, inputs: int = 2) -> None:
    """--heatmap's file must be of a kind matplotlib writes (FORMATS), in an existing folder, not a
    folder itself, and the numbered files of `inputs` heat maps (when several, or not known yet:
    2) must be free: checked before translating."""
    if path is None:
        return
    if path.suffix.lower() not in FORMATS:
        raise typer.BadParameter(f"the file must end in {', '.join(FORMATS)}", param_hint="--heatmap")
    check_writable(path, "--heatmap")  # before translating: /proc/x.png had been refused after it
    check_numbered_free(path, inputs)


def check_numbered_free(path: Path, total: int) -> None:
    """The numbered files of `total` heat maps must not exist already (one heat map: none)."""
    taken = [heatmap_path(path, index, total) for index in range(total) if total > 1]
    taken = [str(found) for found in taken if found.exists()]
    if taken:
        shown = ", ".join(taken[:3]) + (f" and {len(taken) - 3} more" if len(taken) > 3 else "")
        raise UsageError(
            f"--heatmap {path}: {shown} already exist; several inputs write FILE-1, FILE-2, …: "
            f"remove them or name another file"
        )


class Heatmaps:
    """The heat maps of one command: each input's best result is kept as it comes (`add`), and all
    are drawn at the end (`write`): to `path` for one input, path-1, path-2, … for several, the
    first MAX_HEATMAPS inputs (a note says when there are more), but an input without words (a
    blank line: its file had been an empty drawing, with matplotlib's warnings). Without a path,
    nothing is kept."""

    def __init__(self, path: Path | None, notify=warn_on_stderr):
        self.path = path
        self.notify = notify
        self.kept: list[tuple[WordAlignment, str] | None] = []
        self.inputs = 0

    def add(self, source: str, result) -> None:
        """`result`: the input's n-best list (the translation given first, with alignment and score)."""
        if self.path is None:
            return
        self.inputs += 1
        if self.inputs == MAX_HEATMAPS + 1:
            self.notify(f"--heatmap draws the first {MAX_HEATMAPS} inputs; the others are not drawn")
        if self.inputs <= MAX_HEATMAPS:
            best = result[0]
            drawn = heatmap_alignment(best.alignment, self.inputs, self.notify)
            has_words = bool(drawn.source_words) and bool(drawn.target_words)
            self.kept.append((drawn, heatmap_title(source, best.score)) if has_words else None)

    def write(self) -> None:
        if self.path is not None:
            check_numbered_free(self.path, len(self.kept))
        for index, kept in enumerate(self.kept):
            path = heatmap_path(self.path, index, len(self.kept))
            if kept is None:
                self.notify(f"input {index + 1} has no words: no heat map drawn ({path} not written)")
                continue
            alignment, title = kept
            write_heatmap(alignment, path, title, self.notify)


def heatmap_path(path: Path, index: int, total: int) -> Path:
    return path if total == 1 else path.with_name(f"{path.stem}-{index + 1}{path.suffix}")


# A block-diagonal alignment (several sentences, or a long line in parts) is drawn whole up to this
# many words a side; beyond, its first block only: a drawing of hundreds of words shows nothing.
MAX_DRAWN_WORDS = 60
# Cells this many or fewer a side carry their weight as a number (two digits, the leading 0 dropped).
MAX_NUMBERED_CELLS = 24


def heatmap_alignment(alignment: WordAlignment | JoinedAlignment, number: int, notify=warn_on_stderr) -> WordAlignment:
    """What the heat map of input `number` draws: its alignment as one (T, S) matrix, blocks
    included, or for a large joined alignment its first block (a note says so)."""
    parts = alignment.parts
    if len(parts) == 1:
        return parts[0][2]
    if max(len(alignment.source_words), len(alignment.target_words)) > MAX_DRAWN_WORDS:
        notify(
            f"input {number} was translated in {len(parts)} parts, too many words to draw: its heat map shows the first"
        )
        return parts[0][2]
    weights = np.zeros((len(alignment.target_words), len(alignment.source_words)), np.float32)
    for row, column, part in parts:
        weights[row : row + part.weights.shape[0], column : column + part.weights.shape[1]] = part.weights
    return WordAlignment(alignment.source_words, alignment.target_words, weights)


def heatmap_title(source: str, score: float) -> str:
    """The source (its first 120 characters, whitespace folded) and the translation's score."""
    source = " ".join(source.split())
    shown = source if len(source) <= 120 else source[:119] + "…"
    return f"{shown}\nscore {score:.3f}"


def write_heatmap(alignment: WordAlignment, path: Path, title: str = "", notify=warn_on_stderr) -> None:
    """Source words along the top, target words down the side, darker = more attention, with a
    colour scale; each target word's strongest source word (the hard link) is outlined; small
    maps carry the weights in their cells. The figure grows with the words so that no two labels
    overlap. Written atomically; the file's name goes to `notify`."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError:
        raise UsageError("--heatmap needs matplotlib: pip install 'attn[plot]'") from None
    rows, columns = alignment.weights.shape
    longest_source = max((len(w) for w in alignment.source_words), default=1)
    longest_target = max((len(w) for w in alignment.target_words), default=1)
    # 0.42 in per column and 0.32 in per row hold 9-point labels; rotated source labels need
    # height, target labels width, in proportion to their longest word.
    width = 1.8 + 0.08 * min(longest_target, 40) + 0.42 * max(columns, 2)
    # at least as tall as the colour bar's label (cut off beside a sentence of two words)
    height = max(1.4 + 0.07 * min(longest_source, 40) + 0.32 * max(rows, 2) + (0.4 if title else 0), 3.0)
    figure, axes = plt.subplots(figsize=(width, height), layout="constrained")
    image = axes.imshow(alignment.weights, cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto")
    axes.set_xticks(range(columns), alignment.source_words, rotation=60, ha="left", rotation_mode="anchor", fontsize=9)
    axes.set_yticks(range(rows), alignment.target_words, fontsize=9)
    axes.xaxis.tick_top()
    axes.tick_params(length=0)
    for s, t in alignment.hard_links():
        axes.add_patch(Rectangle((s - 0.5, t - 0.5), 1, 1, fill=False, edgecolor="#d62728", linewidth=1.5))
    if max(rows, columns) <= MAX_NUMBERED_CELLS:
        for t in range(rows):
            for s in range(columns):
                weight = float(alignment.weights[t, s])
                if weight >= 0.05:
                    axes.text(
                        s,
                        t,
                        f"{weight:.2f}".lstrip("0"),
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if weight > 0.6 else "black",
                    )
    colour_bar = figure.colorbar(image, ax=axes, shrink=0.8, pad=0.02)
    colour_bar.set_label("attention weight (rows sum to 1)\noutlined: hard link", fontsize=8)
    if title:
        axes.set_title(title, fontsize=9, loc="left", wrap=True)
    path = Path(os.path.realpath(path))  # through a symbolic link: the file it names, as -o does
    try:
        with warnings.catch_warnings():  # a long source leaves constrained layout no room for its margins
            warnings.simplefilter("ignore", UserWarning)
            hidden = path.with_name(f".{path.name}.tmp{path.suffix}")  # its suffix names savefig's format
            replace_whole(path, lambda temporary: figure.savefig(temporary, dpi=150), hidden)
    except OSError as error:  # named as the user named it, not by its temporary name
        raise OSError(error.errno, error.strerror, str(path)) from None
    finally:
        plt.close(figure)
    notify(f"wrote {path}")
