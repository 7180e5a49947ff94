"""`--heatmap FILE.png|svg`: the alignment drawn as in the articles (matplotlib, optional extra).

One sentence writes FILE; several write FILE-1.png, FILE-2.png, … in input order."""

from __future__ import annotations

from pathlib import Path

from attn.runtime.alignment import WordAlignment

FORMATS = (".png", ".svg", ".pdf")


def heatmap_path(path: Path, index: int, total: int) -> Path:
    return path if total == 1 else path.with_name(f"{path.stem}-{index + 1}{path.suffix}")


def write_heatmap(alignment: WordAlignment, path: Path, title: str = "") -> None:
    """Source words along x, target words along y, darker = more attention; written atomically."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("--heatmap needs matplotlib: pip install 'attn[plot]'") from None
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
