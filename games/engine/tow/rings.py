"""Rings (RULES §5): whether a play's new tiles fence in empty cells that were open before."""

from __future__ import annotations

from .cells import STEPS, Cell
from .table import Table


def _enclosed(filled, start: Cell, bounds, cap: int) -> frozenset[Cell] | None:
    """The empty region around ``start`` if no empty path leads out of ``bounds``."""
    r0, c0, r1, c1 = bounds
    region = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        if not (r0 < r < r1 and c0 < c < c1):
            return None
        for dr, dc in STEPS:
            cell = (r + dr, c + dc)
            if cell not in region and not filled(cell):
                region.add(cell)
                todo.append(cell)
                if len(region) > cap:
                    return None
    return frozenset(region)


def closes_ring(table: Table, new: dict) -> bool:
    """The new tiles enclose empty cells that were not enclosed before (RULES §5, Ring).

    A newly enclosed region has a new tile on its edge (its way out ran through one),
    so only the empty neighbours of new tiles need a look. ``cap`` bounds the search: n
    tiles cannot fence in more than about n²/8 cells.
    """
    before = table.bounds()
    if before is None:
        return False
    cells_after = table.cells() | frozenset(new)
    rows = [r for r, _ in cells_after]
    cols = [c for _, c in cells_after]
    after = (min(rows), min(cols), max(rows), max(cols))
    cap = len(cells_after) ** 2 // 4 + 16
    checked: set[Cell] = set()
    for r, c in new:
        for dr, dc in STEPS:
            start = (r + dr, c + dc)
            if start in cells_after or start in checked:
                continue
            region = _enclosed(cells_after.__contains__, start, after, cap)
            if region is None:
                checked.add(start)
                continue
            checked |= region
            if _enclosed(table.__contains__, start, before, cap) is None:
                return True
    return False
