"""Finding plays for a rack (the casual bot): straight or once-bent words, best first."""

from __future__ import annotations

from .cells import STEPS, Cell
from .paths import IllegalPlay
from .play import Play, evaluate
from .table import Table
from .tiles import KIND_OF_TILE, LETTER, RACK_SIZE

#: Search nodes ``find_plays`` visits at most: a casual bot, not an exhaustive one.
FIND_BUDGET = 15_000


def find_plays(table: Table, rack: str, lexicon, *, max_bends: int = 1, budget: int = FIND_BUDGET) -> list[Play]:
    """Legal plays of ``rack``'s tiles whose main word is straight or bends at most
    ``max_bends`` times (at a new tile), best score first.

    The search walks the lexicon letter by letter from every start cell, so it needs a
    ``lexicon.core.Lexicon``; it stops after ``budget`` steps, which keeps a bot's turn
    short on a big table (it may then miss plays). Wildcards are tried as every letter.
    On an empty table words start at (0, 0) and read across.
    """
    child = lexicon.child
    is_word = lexicon.is_word
    children = lexicon.children
    found: dict[tuple, Play] = {}
    steps_left = [budget]
    occupied = table.cells()

    def touches(cell: Cell) -> bool:
        return any((cell[0] + dr, cell[1] + dc) in occupied for dr, dc in STEPS)

    if table.is_empty:
        starts = [(0, 0)]
        first_steps = [(0, 1)]
    else:
        near = set()
        for r, c in occupied:
            for k in range(1, RACK_SIZE + 1):
                for dr, dc in STEPS:
                    near.add((r + dr * k, c + dc * k))
        # Table tiles and the cells next to them first: most words go through them.
        starts = sorted(occupied | near, key=lambda cell: (cell not in occupied, not touches(cell), cell))
        first_steps = list(STEPS)

    path: list[Cell] = []
    placed: list[tuple[int, int, str, str]] = []

    def record() -> None:
        key = (tuple(sorted(placed)), tuple(path))
        if key in found:
            return
        try:
            play = evaluate(table, placed, path, lexicon)
        except IllegalPlay:
            return
        found[key] = play

    def extend(cell: Cell, node: int, rack_left: list[str], direction, bends: int, touching: bool) -> None:
        if steps_left[0] <= 0:
            return
        steps_left[0] -= 1
        if len(path) >= 2 and placed and is_word(node) and (touching or table.is_empty):
            record()
        options = [direction] if direction is not None else first_steps
        if direction is not None and bends < max_bends and cell not in occupied:
            options = options + [s for s in STEPS if s != direction and s != (-direction[0], -direction[1])]
        for step in options:
            nxt = (cell[0] + step[0], cell[1] + step[1])
            if nxt in path:
                continue
            turned = bends + (direction is not None and step != direction)
            _step(nxt, node, rack_left, step, turned, touching)

    def _step(cell: Cell, node: int, rack_left: list[str], direction, bends: int, touching: bool) -> None:
        letter = table.letter(*cell)
        if letter is not None:
            nxt = child(node, letter)
            if nxt is None:
                return
            path.append(cell)
            extend(cell, nxt, rack_left, direction, bends, touching)
            path.pop()
            return
        tried = set()
        for i, tile in enumerate(rack_left):
            if tile in tried:
                continue
            tried.add(tile)
            rest = rack_left[:i] + rack_left[i + 1 :]
            if tile in KIND_OF_TILE:
                choices = [(letter, nxt) for letter, nxt in children(node)]
                kind = KIND_OF_TILE[tile]
            else:
                nxt = child(node, tile)
                choices = [] if nxt is None else [(tile, nxt)]
                kind = LETTER
            for letter, nxt in choices:
                path.append(cell)
                placed.append((cell[0], cell[1], letter, kind))
                extend(cell, nxt, rest, direction, bends, touching or touches(cell))
                placed.pop()
                path.pop()

    # Plain letters first, then again with the wildcards, each with its own budget, so
    # the wildcards' 26-way branching cannot starve the plain search.
    letters = sorted(t for t in rack if t not in KIND_OF_TILE)
    passes = [letters] + ([sorted(rack)] if len(letters) < len(rack) else [])
    for tiles in passes:
        steps_left[0] = budget
        for start in starts:
            if steps_left[0] <= 0:
                break
            _step(start, lexicon.root, tiles, None, 0, False)
    return sorted(found.values(), key=lambda p: (-p.score, len(p.placement), p.path, tuple(sorted(p.placement))))


def best_play(table: Table, rack: str, lexicon, **options) -> Play | None:
    """The highest-scoring play ``find_plays`` finds, or None."""
    plays = find_plays(table, rack, lexicon, **options)
    return plays[0] if plays else None
