"""Tables for the terminal that stay readable at 80 columns and when piped.

Rich shrinks a table that is wider than the console by cutting its cells (``contr…``,
``Pyram…``).  :func:`print_table` never does: a table too wide for the console is split into
several tables of consecutive columns (each repeating the first column, which names the
row), and only the columns marked ``wrap`` (sentences, such as notes) are wrapped at word
boundaries.  A first column too long for the console is folded, never cut.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rich import box
from rich.console import JustifyMethod
from rich.cells import cell_len
from rich.table import Table

__all__ = ["Column", "print_table", "split_columns"]

_BOX = box.SIMPLE_HEAD
#: Width a column adds to a table besides its text (padding 1 + 1, and the separator).
_PAD = 3
_WRAP_MIN = 24


@dataclass
class Column:
    """A column: its header, its cells (strings), alignment, and whether it may wrap."""

    header: str
    cells: list = field(default_factory=list)
    justify: JustifyMethod = "right"
    wrap: bool = False

    @property
    def natural(self) -> int:
        return max([cell_len(self.header)] + [cell_len(str(c)) for c in self.cells])

    @property
    def need(self) -> int:
        """The narrowest this column may be: its full width, or a wrapped minimum."""
        return min(self.natural, _WRAP_MIN) if self.wrap else self.natural


def split_columns(columns: list[Column], width: int, keys: int = 1) -> list[list[Column]]:
    """Groups of columns that fit ``width``; each group starts with the ``keys`` first
    columns (which name the rows)."""
    first, rest = columns[:keys], columns[keys:]
    base = 1 + sum(c.need + _PAD for c in first)
    groups, current, used = [], list(first), base
    for col in rest:
        if len(current) > keys and used + col.need + _PAD > width:
            groups.append(current)
            current, used = list(first), base
        current.append(col)
        used += col.need + _PAD
    groups.append(current)
    return groups


def print_table(console, columns: list[Column], title: str = "", caption: str = "",
                row_styles: list | None = None, keys: int = 1) -> None:
    """Print ``columns`` (all of the same length) on ``console`` without cutting a cell.

    The first ``keys`` columns name the rows and are repeated in each part when the table
    is split.
    """
    width = console.width
    groups = split_columns(columns, width, keys)
    n = len(columns[0].cells)
    for k, group in enumerate(groups):
        part = f" ({k + 1}/{len(groups)})" if len(groups) > 1 else ""
        table = Table(title=f"[bold]{title}{part}" if title else None, title_justify="left",
                      caption=caption if caption and k == len(groups) - 1 else None,
                      caption_justify="left", box=_BOX)
        fixed = sum(c.need + _PAD for c in group if not c.wrap) + 1
        for j, col in enumerate(group):
            if col.wrap:
                table.add_column(col.header, justify=col.justify, overflow="fold",
                                 min_width=min(col.natural, _WRAP_MIN))
            elif j == 0 and fixed > width:         # a name too long for any console: fold it
                table.add_column(col.header, justify=col.justify, overflow="fold",
                                 max_width=max(8, width - _PAD - 1 - sum(
                                     c.need + _PAD for c in group[1:])))
            else:
                table.add_column(col.header, justify=col.justify, no_wrap=True,
                                 min_width=col.natural)
        for i in range(n):
            table.add_row(*[str(c.cells[i]) for c in group],
                          style=row_styles[i] if row_styles else None)
        console.print(table)
