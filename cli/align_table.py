"""The `--align` view: a table per sentence, target words as rows, source words as columns, each
cell shaded by its weight, the strongest link of each row marked. Columns that do not fit the
console width go to a continuation table; long words are abbreviated with "…". Each table row is
one line of styled text that Rich prints, not a Rich Table, whose layout costs about 0.3 ms a
cell: a 100,000-character line took 17 minutes as Rich tables."""

from __future__ import annotations

import functools

from rich.cells import cell_len
from rich.console import Console, Group
from rich.style import Style
from rich.text import Text

from attn.runtime.alignment import JoinedAlignment, WordAlignment

MAX_WORD = 10
CELL_PADDING = 1


def abbreviate(word: str, width: int = MAX_WORD) -> str:
    """`word`, or its first characters and "…", within `width` columns of a terminal (a CJK
    character or an emoji takes two: counted as one, they had pushed a row's cells out of line)."""
    if cell_len(word) <= width:
        return word
    kept = ""
    for character in word:
        if cell_len(kept + character) > width - 1:
            break
        kept += character
    return kept + "…"


def padded(text: str, width: int, centred: bool = False) -> str:
    """`text` filled with spaces to `width` terminal columns, after it or on both sides."""
    room = max(width - cell_len(text), 0)
    before = room // 2 if centred else 0
    return " " * before + text + " " * (room - before)


@functools.lru_cache(maxsize=None)
def _style(level: int, strongest: bool) -> Style:
    style = Style(bgcolor=f"rgb({level},{level},255)", color="black" if level > 120 else "white")
    return style + Style(bold=True) if strongest else style


def _cell(weight: float, strongest: bool, width: int) -> tuple[str, Style]:
    """A cell's text, `width` characters plus padding, and its shade."""
    label = f"{weight:.2f}".lstrip("0") if weight >= 0.005 else ""
    level = int(255 - 200 * min(max(weight, 0.0), 1.0))
    return " " * CELL_PADDING + padded(f"●{label}" if strongest else label, width, True) + " " * CELL_PADDING, _style(
        level, strongest
    )


def column_width(word: str) -> int:
    return max(cell_len(abbreviate(word)), 5)


def column_groups(source_words: list[str], row_header: int, width: int) -> list[list[int]]:
    """Split source columns into groups whose table fits `width` characters."""
    groups, current, used = [], [], row_header + 4
    for index, word in enumerate(source_words):
        column = column_width(word) + 2 * CELL_PADDING + 1
        if current and used + column > width:
            groups.append(current)
            current, used = [], row_header + 4
        current.append(index)
        used += column
    if current:
        groups.append(current)
    return groups


def alignment_tables(alignment: WordAlignment, width: int, title: str = "", styled: bool = True) -> Group:
    """One renderable per sentence: the alignment as one or more tables fitting `width`; shaded
    when `styled` (a console without colours gets the plain text, faster)."""
    row_header = max([cell_len(abbreviate(w)) for w in alignment.target_words] + [6])
    strongest = dict((t, s) for s, t in alignment.hard_links())
    lines: list[Text] = []
    for part, columns in enumerate(column_groups(alignment.source_words, row_header, width)):
        caption = title if part == 0 else f"{title} (continued)".strip()
        widths = [column_width(alignment.source_words[index]) for index in columns]
        if caption:
            lines.append(Text(caption, style="italic"))
        header = Text(" " * row_header + " │")
        for index, column in zip(columns, widths):
            header.append(
                " " * CELL_PADDING
                + padded(abbreviate(alignment.source_words[index]), column, True)
                + " " * CELL_PADDING,
                style="bold",
            )
        lines.append(header)
        lines.append(Text("─" * row_header + "─┼" + "".join("─" * (column + 2 * CELL_PADDING) for column in widths)))
        for t, word in enumerate(alignment.target_words):
            cells = [
                _cell(float(alignment.weights[t, index]), strongest.get(t) == index, column)
                for index, column in zip(columns, widths)
            ]
            if styled:
                row = Text(padded(abbreviate(word), row_header), style="bold")
                row.append(" │")
                for cell in cells:
                    row.append(*cell)
            else:
                row = Text(padded(abbreviate(word), row_header) + " │" + "".join(text for text, _ in cells))
            lines.append(row)
        lines.append(Text(""))
    return Group(*lines)


def render_alignment(alignment: WordAlignment | JoinedAlignment, console: Console, title: str = "") -> None:
    """The alignment's tables; a line translated in parts gets one alignment per part."""
    parts = alignment.parts
    for number, (_, _, part) in enumerate(parts, 1):
        caption = title if len(parts) == 1 else f"{title} · part {number} of {len(parts)}".strip(" ·")
        console.print(alignment_tables(part, console.width, caption, styled=console.color_system is not None))
