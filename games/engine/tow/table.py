"""The table: an immutable, unbounded set of tiles keyed by cell."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cells import STEPS, Cell
from .tiles import LETTER


@dataclass(frozen=True)
class Tile:
    """A tile on the table: its letter (a wildcard's declared letter), kind and play."""

    letter: str
    kind: str
    play: int

    @property
    def is_wildcard(self) -> bool:
        return self.kind != LETTER


class Table:
    """An immutable, unbounded table of tiles keyed by (row, col)."""

    __slots__ = ("_cells", "_key")

    def __init__(self, cells: dict[Cell, Tile] | None = None) -> None:
        object.__setattr__(self, "_cells", dict(cells or {}))
        object.__setattr__(self, "_key", None)

    def __setattr__(self, name, value):
        raise AttributeError("a Table is immutable")

    @classmethod
    def empty(cls) -> Table:
        """The table before the first play."""
        return _EMPTY_TABLE

    def with_tiles(self, tiles: Iterable[Sequence]) -> Table:
        """A table with ``(row, col, letter, kind, play)`` tiles added; no checks."""
        cells = dict(self._cells)
        for row, col, letter, kind, play in tiles:
            cells[(int(row), int(col))] = Tile(str(letter).lower(), str(kind), int(play))
        return Table(cells)

    def get(self, row: int, col: int) -> Tile | None:
        """The tile on a cell, or None."""
        return self._cells.get((row, col))

    def letter(self, row: int, col: int) -> str | None:
        tile = self._cells.get((row, col))
        return None if tile is None else tile.letter

    def __contains__(self, cell) -> bool:
        return cell in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    @property
    def is_empty(self) -> bool:
        return not self._cells

    def cells(self) -> frozenset[Cell]:
        return frozenset(self._cells)

    def tiles(self) -> tuple[tuple[int, int, str, str, int], ...]:
        """Every tile as ``(row, col, letter, kind, play)``, row by row."""
        return tuple((r, c, t.letter, t.kind, t.play) for (r, c), t in sorted(self._cells.items()))

    def bounds(self) -> tuple[int, int, int, int] | None:
        """(min row, min col, max row, max col) of the tiles, or None when empty."""
        if not self._cells:
            return None
        rows = [r for r, _ in self._cells]
        cols = [c for _, c in self._cells]
        return min(rows), min(cols), max(rows), max(cols)

    @property
    def play_count(self) -> int:
        """Plays that laid the tiles on the table (the next play's number)."""
        return max((t.play for t in self._cells.values()), default=-1) + 1

    def is_connected(self) -> bool:
        """True if the tiles form one orthogonally connected structure (or none)."""
        if not self._cells:
            return True
        start = next(iter(self._cells))
        seen = {start}
        todo = [start]
        while todo:
            r, c = todo.pop()
            for dr, dc in STEPS:
                cell = (r + dr, c + dc)
                if cell in self._cells and cell not in seen:
                    seen.add(cell)
                    todo.append(cell)
        return len(seen) == len(self._cells)

    def rows(self) -> tuple[str, ...]:
        """The table as text rows over its bounds: "." empty, wildcards in upper case."""
        bounds = self.bounds()
        if bounds is None:
            return ()
        r0, c0, r1, c1 = bounds
        lines = []
        for r in range(r0, r1 + 1):
            line = ""
            for c in range(c0, c1 + 1):
                tile = self._cells.get((r, c))
                line += "." if tile is None else (tile.letter.upper() if tile.is_wildcard else tile.letter)
            lines.append(line)
        return tuple(lines)

    def _frozen(self) -> frozenset:
        if self._key is None:
            object.__setattr__(self, "_key", frozenset(self._cells.items()))
        return self._key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self._frozen() == other._frozen()

    def __hash__(self) -> int:
        return hash(self._frozen())

    def __repr__(self) -> str:
        return f"<Table {len(self)} tiles>"

    def __str__(self) -> str:
        return "\n".join(self.rows())


_EMPTY_TABLE = Table()
