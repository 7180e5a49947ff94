"""`--heatmap FILE.png|svg`: the alignment drawn as in the articles (matplotlib, optional extra).

One sentence writes FILE; several write FILE-1.png, FILE-2.png, … in input order."""

from __future__ import annotations

from pathlib import Path

from attn.runtime.alignment import JoinedAlignment, WordAlignment
from attn.runtime.errors import UsageError
from attn.runtime.sessions import warn_on_stderr

FORMATS = (".png", ".svg", ".pdf")


def heatmap_path(path: Path, index: int, total: int) -> Path:
    return path if total == 1 else path.with_name(f"{path.stem}-{index + 1}{path.suffix}")


def heatmap_alignment(alignment: WordAlignment | JoinedAlignment, number: int) -> WordAlignment:
    """What the heat map of input `number` draws: its alignment, or for a line translated in
    parts the first part's (a note says so): a drawing of thousands of words shows nothing."""
    parts = alignment.parts
    if len(parts) > 1:
        warn_on_stderr(f"input {number} was translated in {len(parts)} parts: its heat map shows the first")
    return parts[0][2]


def write_heatmap(alignment: WordAlignment, path: Path, title: str = "") -> None:
    """Source words along x, target words along y, darker = more attention; written atomically."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--heatmap needs matplotlib: pip install 'attn[plot]'") from None
    rows, columns = alignment.weights.shape
    figure, axes = plt.subplots(figsize=(1.0 + 0.55 * max(columns, 2), 1.0 + 0.45 * max(rows, 2)))
    axes.imshow(alignment.weights, cmap="Greys", vmin=0.0, vmax=1.0, aspect="auto")
    axes.set_xticks(range(columns), alignment.source_words, rotation=60, ha="right")
    axes.set_yticks(range(rows), alignment.target_words)
    axes.xaxis.tick_top()
    plt.setp(axes.get_xticklabels(), ha="left")
    if title:
        axes.set_title(title, fontsize=9, pad=12)
    figure.tight_layout()
    temporary = path.with_name(f".{path.name}.tmp{path.suffix}")
    figure.savefig(temporary)
    plt.close(figure)
    temporary.replace(path)
