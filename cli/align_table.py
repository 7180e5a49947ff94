"""The `--align` view: a Rich table per sentence, target words as rows, source words as columns,
each cell shaded by its weight, the strongest link of each row marked. Columns that do not fit
the console width go to a continuation table; long words are abbreviated with "…"."""

from __future__ import annotations

from rich.console import Console, Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from attn.runtime.alignment import JoinedAlignment, WordAlignment

MAX_WORD = 10
CELL_PADDING = 1


def abbreviate(word: str, width: int = MAX_WORD) -> str:
    return word if len(word) <= width else word[: width - 1] + "…"


def _shade(weight: float) -> Style:
    level = int(255 - 200 * min(max(weight, 0.0), 1.0))
    return Style(bgcolor=f"rgb({level},{level},255)", color="black" if level > 120 else "white")


def _cell(weight: float, strongest: bool) -> Text:
    label = f"{weight:.2f}".lstrip("0") if weight >= 0.005 else ""
    if strongest:
        return Text(f"●{label}", style=_shade(weight) + Style(bold=True))
    return Text(label, style=_shade(weight))


def column_groups(source_words: list[str], row_header: int, width: int) -> list[list[int]]:
    """Split source columns into groups whose table fits `width` characters."""
    groups, current, used = [], [], row_header + 4
    for index, word in enumerate(source_words):
        column = max(len(abbreviate(word)), 5) + 2 * CELL_PADDING + 1
        if current and used + column > width:
            groups.append(current)
            current, used = [], row_header + 4
        current.append(index)
        used += column
    if current:
        groups.append(current)
    return groups


def alignment_tables(alignment: WordAlignment, width: int, title: str = "") -> Group:
    """One renderable per sentence: the alignment as one or more tables fitting `width`."""
    row_header = max([len(abbreviate(w)) for w in alignment.target_words] + [6])
    strongest = dict((t, s) for s, t in alignment.hard_links())
    tables = []
    for part, columns in enumerate(column_groups(alignment.source_words, row_header, width)):
        caption = title if part == 0 else f"{title} (continued)".strip()
        table = Table(title=caption or None, title_justify="left", padding=(0, CELL_PADDING), show_lines=False)
        table.add_column("", no_wrap=True, style="bold")
        for index in columns:
            table.add_column(abbreviate(alignment.source_words[index]), justify="center", no_wrap=True)
        for t, word in enumerate(alignment.target_words):
            cells = [_cell(float(alignment.weights[t, s]), strongest.get(t) == s) for s in columns]
            table.add_row(abbreviate(word), *cells)
        tables.append(table)
    return Group(*tables)


def render_alignment(alignment: WordAlignment | JoinedAlignment, console: Console, title: str = "") -> None:
    """The alignment's tables; a line translated in parts gets one alignment per part."""
    parts = alignment.parts
    for number, (_, _, part) in enumerate(parts, 1):
        caption = title if len(parts) == 1 else f"{title} · part {number} of {len(parts)}".strip(" ·")
        console.print(alignment_tables(part, console.width, caption))
