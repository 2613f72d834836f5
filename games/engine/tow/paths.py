"""The path rules (RULES §5): a placement and its main word's path read and checked, the
runs of tiles a play makes, and every path that spells a word with the new tiles.

A path goes through a new tile, steps to a neighbour (never diagonally), turns only at a
tile placed this turn, and every new tile is joined to it; after the first play the new
tiles touch the table."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from games.engine.crossword import IllegalPlay as _CrosswordIllegalPlay

from .cells import STEPS, Cell, cell_name, names
from .table import Table
from .tiles import CORNER, KINDS, LETTER, LETTERS, MAX_COORDINATE, RACK_SIZE, TILE_COUNT


class IllegalPlay(_CrosswordIllegalPlay):
    """A play the rules refuse; ``reason`` is shown to the player and names the cells."""


def normalise_placement(placement: Iterable[Sequence]) -> tuple[tuple[int, int, str, str], ...]:
    tiles = []
    try:
        items = list(placement)
    except TypeError:
        raise IllegalPlay("the placement is not a list of tiles") from None
    if not items:
        raise IllegalPlay("no tiles placed")
    if len(items) > RACK_SIZE:
        raise IllegalPlay(f"a play places at most {RACK_SIZE} tiles")
    seen: set[Cell] = set()
    for item in items:
        try:
            row, col, letter, kind = item
        except (TypeError, ValueError):
            raise IllegalPlay("each tile is (row, col, letter, kind)") from None
        row, col = _coordinate(row), _coordinate(col)
        if row is None or col is None:
            raise IllegalPlay("a tile's row and column are whole numbers")
        if abs(row) > MAX_COORDINATE or abs(col) > MAX_COORDINATE:
            raise IllegalPlay(f"{cell_name(row, col)} is too far from the table")
        if kind not in KINDS:
            raise IllegalPlay(f"unknown tile kind {kind!r} at {cell_name(row, col)}")
        letter = letter.lower() if isinstance(letter, str) else ""
        if letter not in LETTERS:
            if kind == LETTER:
                raise IllegalPlay(f"not a letter: {letter!r} at {cell_name(row, col)}")
            name = "corner tile" if kind == CORNER else "PZ tile"
            raise IllegalPlay(f"the {name} at {cell_name(row, col)} needs its letter")
        if (row, col) in seen:
            raise IllegalPlay(f"two tiles placed on {cell_name(row, col)}")
        seen.add((row, col))
        tiles.append((row, col, letter, kind))
    return tuple(tiles)


def _coordinate(value) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def normalise_path(path: Iterable[Sequence]) -> tuple[Cell, ...]:
    try:
        items = list(path)
    except TypeError:
        raise IllegalPlay("the path is not a list of cells") from None
    cells = []
    for item in items:
        try:
            row, col = item
        except (TypeError, ValueError):
            raise IllegalPlay("each cell of the path is (row, col)") from None
        row, col = _coordinate(row), _coordinate(col)
        if row is None or col is None:
            raise IllegalPlay("a path cell's row and column are whole numbers")
        cells.append((row, col))
    return tuple(cells)


def check_table(table: Table) -> None:
    if len(table) > TILE_COUNT:
        raise IllegalPlay(f"the table holds {len(table)} tiles; a game has only {TILE_COUNT}")


def check_cells(table: Table, tiles) -> None:
    taken = [(r, c) for r, c, _, _ in tiles if (r, c) in table]
    if taken:
        raise IllegalPlay(f"{names(taken)} already {'holds a tile' if len(taken) == 1 else 'hold tiles'}")


def directional_lines(path: tuple[Cell, ...]) -> list[tuple[Cell, ...]]:
    """The maximal straight stretches of a path; neighbouring lines share their turn cell."""
    lines = []
    start = 0
    for i in range(1, len(path) - 1):
        before = (path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1])
        after = (path[i + 1][0] - path[i][0], path[i + 1][1] - path[i][1])
        if before != after:
            lines.append(path[start : i + 1])
            start = i
    lines.append(path[start:])
    return lines


def check_path(table: Table, new: dict, path: tuple[Cell, ...]) -> None:
    """Raise IllegalPlay unless the path follows §5's path rules over table and new tiles."""
    if len(path) < 2:
        raise IllegalPlay("the word needs at least 2 letters: trace it over 2 or more tiles")
    if len(path) > TILE_COUNT:
        raise IllegalPlay("the path is longer than the tiles of a game")
    seen: set[Cell] = set()
    for cell in path:
        if cell in seen:
            raise IllegalPlay(f"the path uses {cell_name(*cell)} twice")
        seen.add(cell)
        if cell not in new and cell not in table:
            raise IllegalPlay(f"the path crosses {cell_name(*cell)}, an empty cell")
    for a, b in itertools.pairwise(path):
        dr, dc = abs(b[0] - a[0]), abs(b[1] - a[1])
        if dr == 1 and dc == 1:
            raise IllegalPlay(f"diagonal step from {cell_name(*a)} to {cell_name(*b)}")
        if dr + dc != 1:
            raise IllegalPlay(f"{cell_name(*a)} and {cell_name(*b)} are not next to each other")
    if not any(cell in new for cell in path):
        raise IllegalPlay("the word does not use any tile placed this turn")
    for i in range(1, len(path) - 1):
        before = (path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1])
        after = (path[i + 1][0] - path[i][0], path[i + 1][1] - path[i][1])
        if before != after and path[i] not in new:
            raise IllegalPlay(
                f"the word turns at {cell_name(*path[i])}, a tile already on the table; "
                "it may turn only at a tile placed this turn"
            )


def check_joined(table: Table, new: dict, path: tuple[Cell, ...]) -> None:
    """Every new tile reaches the word through new tiles; a later play touches the table."""
    reached = set(path)
    todo = list(path)
    while todo:
        r, c = todo.pop()
        for dr, dc in STEPS:
            cell = (r + dr, c + dc)
            if cell in new and cell not in reached:
                reached.add(cell)
                todo.append(cell)
    loose = sorted(cell for cell in new if cell not in reached)
    if loose:
        which = "a new tile is" if len(loose) == 1 else "new tiles are"
        raise IllegalPlay(f"{which} not joined to the word: {names(loose)}")
    if not table.is_empty and not any((r + dr, c + dc) in table for r, c in new for dr, dc in STEPS):
        raise IllegalPlay(
            "the play does not touch the table: at least one new tile must sit next to a tile already there"
        )


def runs(table: Table, new: dict) -> list[tuple[Cell, ...]]:
    """Every maximal row or column run of 2+ tiles through a new tile, in reading order."""

    def filled(cell: Cell) -> bool:
        return cell in new or cell in table

    runs = {}
    for r, c in sorted(new):
        for dr, dc in ((0, 1), (1, 0)):
            sr, sc = r, c
            while filled((sr - dr, sc - dc)):
                sr, sc = sr - dr, sc - dc
            cells = []
            cr, cc = sr, sc
            while filled((cr, cc)):
                cells.append((cr, cc))
                cr, cc = cr + dr, cc + dc
            if len(cells) >= 2:
                runs[(dr, sr, sc)] = tuple(cells)
    return list(runs.values())


def paths(table: Table, placement: Iterable[Sequence], word: str) -> list[list[Cell]]:
    """Every path that spells ``word`` with the new tiles under the path rules of §5.

    A path returned is one ``evaluate`` accepts when every word it forms is in the
    lexicon: it goes through a new tile, turns only at new tiles, every new tile is
    joined to it and (after the first play) the placement touches the table. A
    malformed placement or table raises IllegalPlay; no path gives [].
    """
    check_table(table)
    tiles = normalise_placement(placement)
    check_cells(table, tiles)
    new = {(r, c): (letter, kind) for r, c, letter, kind in tiles}
    word = (word or "").strip().lower()
    if len(word) < 2 or len(word) > len(table) + len(new):
        return []

    def letter_at(cell: Cell) -> str | None:
        if cell in new:
            return new[cell][0]
        return table.letter(*cell)

    found: list[list[Cell]] = []
    path: list[Cell] = []

    def extend(cell: Cell, direction, uses_new: bool) -> None:
        path.append(cell)
        index = len(path)
        if index == len(word):
            if uses_new:
                try:
                    check_joined(table, new, tuple(path))
                except IllegalPlay:
                    pass
                else:
                    found.append(list(path))
        else:
            for step in STEPS:
                if direction is not None and step != direction and cell not in new:
                    continue  # a turn only at a tile placed this turn
                nxt = (cell[0] + step[0], cell[1] + step[1])
                if nxt in path or letter_at(nxt) != word[index]:
                    continue
                extend(nxt, step, uses_new or nxt in new)
        path.pop()

    starts = list(new) + [(r, c) for r, c, *_ in table.tiles()]
    for cell in sorted(starts):
        if letter_at(cell) == word[0]:
            extend(cell, None, cell in new)
    return sorted(found)
