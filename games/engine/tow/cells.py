"""Cells of the unbounded table and their names for players, spreadsheet style.

Cells are (row, col) with any integers: the table has no edges. Columns 0, 1, ..., 25,
26 are A, B, ..., Z, AA and columns -1, -2, ... are -A, -B, ...; rows 0, 1, 2 are 1, 2, 3
and rows -1, -2 are -1, -2 (there is no row 0). ``cell_name`` is the only place that
spells a cell."""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]


STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _column_letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (bijective base 26)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def column_name(col: int) -> str:
    """A column's part of a cell name: 0 -> "A", 26 -> "AA", -1 -> "-A"."""
    return _column_letters(col) if col >= 0 else "-" + _column_letters(-col - 1)


def row_name(row: int) -> str:
    """A row's part of a cell name: 0 -> "1", -1 -> "-1" (there is no row 0)."""
    return str(row + 1) if row >= 0 else str(row)


def cell_name(row: int, col: int) -> str:
    """Name a cell for players: (0, 0) -> "A1", (2, 1) -> "B3", (-1, -2) -> "-B-1"."""
    return column_name(col) + row_name(row)


def parse_cell(name: str) -> Cell:
    """Inverse of ``cell_name``; raises ValueError for a name that is no cell."""
    text = name.strip().upper()
    negative_col = text.startswith("-")
    if negative_col:
        text = text[1:]
    letters = ""
    while text and text[0].isalpha() and text[0].isascii():
        letters, text = letters + text[0], text[1:]
    if not letters or not text:
        raise ValueError(f"no such cell: {name!r}")
    try:
        number = int(text)
    except ValueError:
        raise ValueError(f"no such cell: {name!r}") from None
    if number == 0:
        raise ValueError(f"no such cell: {name!r} (there is no row 0)")
    col = 0
    for letter in letters:
        col = col * 26 + (ord(letter) - ord("A") + 1)
    col -= 1
    return (number - 1 if number > 0 else number), (-col - 1 if negative_col else col)


def names(cells: Iterable[Cell]) -> str:
    return ", ".join(cell_name(*cell) for cell in cells)
