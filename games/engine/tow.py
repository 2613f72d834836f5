"""TOW, the free-form tile table (RULES.md §5): table, play legality, scoring, game.

Public API::

    table = Table.empty().with_tiles([(0, 0, "c", "letter", 0), ...])
    #   (row, col, letter, kind, play): kind "letter", "corner" or "pz"; a wildcard's
    #   letter is the letter it was declared as; play numbers the play that placed it.
    play = evaluate(table, [(0, 3, "s", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)], lex)
    play.score; play.words       # [(word, points), ...] main word first, reversed readings
    play.bonuses                 # {"bridge": 10, ...}: only the play bonuses earned
    play.details                 # ScoredWord per word: cells, letter bonus, multiplier
    paths(table, placement, "cats")   # every path spelling the word under the path rules
    cell_name(0, 1) == "B1"; parse_cell("B1") == (0, 1)

    game = new_game(players=3, seed="t-1", lexicon=lex, house_vote=True)
    game = game.apply(Move.place(seat, placement, path))   # swap, pass_, resign, forfeit
    game = game.apply(Move.vote(seat, True))                # house-vote tables
    replay(3, "t-1", moves, lex, house_vote=True) == game

Cells are (row, col) with any integers: the table has no edges. Players see a cell as a
column name and a row number, spreadsheet style, counted from the cell (0, 0): columns
0, 1, ..., 25, 26 are A, B, ..., Z, AA and columns -1, -2, ... are -A, -B, ...; rows
0, 1, 2 are 1, 2, 3 and rows -1, -2 are -1, -2 (there is no row 0). So (0, 0) is "A1",
(2, 1) is "B3", (-1, -2) is "-B-1". A game's first play is laid around (0, 0), so
names stay short; ``cell_name`` is the only place that spells a cell.

A rack or bag holds letters ``a``-``z``, ``+`` for a corner tile and ``*`` for a PZ
tile. Nothing here reads a clock or the global random generator: every shuffle is a
``random.Random`` seeded from the game's seed, so a game replays exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from games.engine.crossword import FrozenList
from games.engine.crossword import IllegalPlay as _CrosswordIllegalPlay
from games.engine.tiles import BLANK, LETTER_VALUES, WORD_GRID_BAG
from games.engine.turns import FORFEIT, LEAVING, PASS, PLACE, RESIGN, SWAP, SeatedGame, SeatMoves, deal, shuffled
from games.engine.turns import LAST_SEAT as LAST_SEAT  # end reasons, named here too
from games.engine.turns import WENT_OUT as WENT_OUT

LETTER, CORNER, PZ = "letter", "corner", "pz"
KINDS = (LETTER, CORNER, PZ)
CORNER_TILE, PZ_TILE = "+", "*"
TILE_OF_KIND = MappingProxyType({CORNER: CORNER_TILE, PZ: PZ_TILE})
KIND_OF_TILE = MappingProxyType({CORNER_TILE: CORNER, PZ_TILE: PZ})
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")

RACK_SIZE = 7
# RULES §5: the 98 letters of the Word Grid bag, 4 corner tiles and 2 PZ tiles.
BAG = tuple(t for t in WORD_GRID_BAG if t != BLANK) + (CORNER_TILE,) * 4 + (PZ_TILE,) * 2
TILE_COUNT = len(BAG)
# A game lays at most 104 tiles around (0, 0), so no real cell is this far out; the
# limit keeps a hostile placement from making the table's bounds absurd.
MAX_COORDINATE = 10_000

# Letter bonuses, for words of 4 or more letters (RULES §5).
LETTER_BONUS_MIN_LENGTH = 4
LETTER_BONUS = MappingProxyType({"v": 2, "j": 2, "q": 2, "x": 3, "z": 3})
KIND_MULTIPLIER = MappingProxyType({CORNER: 2, PZ: 3})

BRIDGE, FULL_FIT, CLUSTER, MULTI_DIRECTION, CORNER_DOUBLE, RING = (
    "bridge",
    "full_fit",
    "cluster",
    "multi_direction",
    "corner_double",
    "ring",
)
PLAY_BONUSES = MappingProxyType({BRIDGE: 10, FULL_FIT: 50, CLUSTER: 5, MULTI_DIRECTION: 5, CORNER_DOUBLE: 10, RING: 25})
BONUS_LABELS = MappingProxyType(
    {
        BRIDGE: "Bridge",
        FULL_FIT: "Full fit",
        CLUSTER: "Cluster",
        MULTI_DIRECTION: "Multi-direction",
        CORNER_DOUBLE: "Corner double",
        RING: "Ring",
    }
)

Cell = tuple[int, int]
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class IllegalPlay(_CrosswordIllegalPlay):
    """A play the rules refuse; ``reason`` is shown to the player and names the cells."""


# -- cell names -------------------------------------------------------------------------


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


def _names(cells: Iterable[Cell]) -> str:
    return ", ".join(cell_name(*cell) for cell in cells)


# -- the table --------------------------------------------------------------------------


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
            for dr, dc in _STEPS:
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


# -- plays ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredWord:
    """One scored reading of a word, itemised for the score preview and history.

    ``letters`` is the face value of its letters, ``letter_bonus`` what the V/J/Q and
    X/Z bonuses added, ``multiplier`` the corner/PZ word bonus (1, 2, 3 or 6);
    ``points = (letters + letter_bonus) * multiplier``. ``role`` is "main" or
    "secondary"; ``reversed`` marks the backward reading of a straight word.
    """

    word: str
    points: int
    cells: tuple[Cell, ...]
    letters: int
    letter_bonus: int
    multiplier: int
    role: str
    reversed: bool = False

    @property
    def word_bonus(self) -> str:
        """What the multiplier comes from, for people: "corner", "PZ", "corner and PZ"."""
        return _WORD_BONUS_NAMES[self.multiplier]

    def to_dict(self) -> dict:
        return {
            "word": self.word,
            "points": self.points,
            "cells": [list(c) for c in self.cells],
            "letters": self.letters,
            "letter_bonus": self.letter_bonus,
            "multiplier": self.multiplier,
            "word_bonus": self.word_bonus,
            "role": self.role,
            "reversed": self.reversed,
        }


_WORD_BONUS_NAMES = MappingProxyType(
    {
        1: "",
        KIND_MULTIPLIER[CORNER]: "corner",
        KIND_MULTIPLIER[PZ]: "PZ",
        KIND_MULTIPLIER[CORNER] * KIND_MULTIPLIER[PZ]: "corner and PZ",
    }
)


@dataclass(frozen=True, eq=True)
class Play:
    """A legal play and its score.

    ``placement`` holds the new tiles ``(row, col, letter, kind)``, ``path`` the main
    word's cells. ``unknown_words`` lists the words not in the lexicon on a house-vote
    table (always empty otherwise): such a play waits for the other players' votes.
    """

    score: int
    words: tuple[tuple[str, int], ...]
    bonuses: MappingProxyType
    details: tuple[ScoredWord, ...]
    placement: tuple[tuple[int, int, str, str], ...]
    path: tuple[Cell, ...]
    unknown_words: tuple[str, ...] = ()

    __hash__ = None

    @property
    def main_word(self) -> str:
        return self.words[0][0]

    def to_dict(self) -> dict:
        """A JSON-ready form for the score preview and the move history."""
        return {
            "score": self.score,
            "words": [list(w) for w in self.words],
            "details": [d.to_dict() for d in self.details],
            "bonuses": [
                {"name": name, "label": BONUS_LABELS[name], "points": points} for name, points in self.bonuses.items()
            ],
            "unknown_words": list(self.unknown_words),
            "path": [list(c) for c in self.path],
        }


def _normalise_placement(placement: Iterable[Sequence]) -> tuple[tuple[int, int, str, str], ...]:
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


def _normalise_path(path: Iterable[Sequence]) -> tuple[Cell, ...]:
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


def _check_table(table: Table) -> None:
    if len(table) > TILE_COUNT:
        raise IllegalPlay(f"the table holds {len(table)} tiles; a game has only {TILE_COUNT}")


def _check_cells(table: Table, tiles) -> None:
    taken = [(r, c) for r, c, _, _ in tiles if (r, c) in table]
    if taken:
        raise IllegalPlay(f"{_names(taken)} already {'holds a tile' if len(taken) == 1 else 'hold tiles'}")


def _directional_lines(path: tuple[Cell, ...]) -> list[tuple[Cell, ...]]:
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


def _check_path(table: Table, new: dict, path: tuple[Cell, ...]) -> None:
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


def _check_joined(table: Table, new: dict, path: tuple[Cell, ...]) -> None:
    """Every new tile reaches the word through new tiles; a later play touches the table."""
    reached = set(path)
    todo = list(path)
    while todo:
        r, c = todo.pop()
        for dr, dc in _STEPS:
            cell = (r + dr, c + dc)
            if cell in new and cell not in reached:
                reached.add(cell)
                todo.append(cell)
    loose = sorted(cell for cell in new if cell not in reached)
    if loose:
        which = "a new tile is" if len(loose) == 1 else "new tiles are"
        raise IllegalPlay(f"{which} not joined to the word: {_names(loose)}")
    if not table.is_empty and not any((r + dr, c + dc) in table for r, c in new for dr, dc in _STEPS):
        raise IllegalPlay(
            "the play does not touch the table: at least one new tile must sit next to a tile already there"
        )


def _runs(table: Table, new: dict) -> list[tuple[Cell, ...]]:
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


def _word_points(cells: tuple[Cell, ...], tile_at) -> tuple[int, int, int]:
    """(letters, letter bonus, word multiplier) of a word over ``cells``."""
    letters = bonus = 0
    kinds = set()
    long_enough = len(cells) >= LETTER_BONUS_MIN_LENGTH
    for cell in cells:
        letter, kind = tile_at(cell)
        if kind != LETTER:
            kinds.add(kind)
            continue
        value = LETTER_VALUES[letter]
        letters += value
        if long_enough:
            bonus += value * (LETTER_BONUS.get(letter, 1) - 1)
    multiplier = 1
    for kind in kinds:
        multiplier *= KIND_MULTIPLIER[kind]
    return letters, bonus, multiplier


def _scored(word: str, cells, tile_at, role: str, reversed_: bool = False) -> ScoredWord:
    letters, bonus, multiplier = _word_points(cells, tile_at)
    return ScoredWord(word, (letters + bonus) * multiplier, tuple(cells), letters, bonus, multiplier, role, reversed_)


def evaluate(
    table: Table, placement: Iterable[Sequence], path: Iterable[Sequence], lexicon, *, house_vote: bool = False
) -> Play:
    """Check a play against RULES §5 and score it.

    ``placement``: the new tiles ``(row, col, letter, kind)``; ``path``: the main word's
    cells, first letter first. Returns a ``Play`` or raises ``IllegalPlay``. On a
    house-vote table (``house_vote=True``) a word missing from ``lexicon`` does not
    refuse the play: it is listed in ``play.unknown_words`` for the vote, scored as it
    reads (the main word as declared, another run left to right or top to bottom).
    The rack is not checked here: that is the game's job.
    """
    _check_table(table)
    tiles = _normalise_placement(placement)
    cells = _normalise_path(path)
    _check_cells(table, tiles)
    new = {(r, c): (letter, kind) for r, c, letter, kind in tiles}
    _check_path(table, new, cells)
    _check_joined(table, new, cells)

    def tile_at(cell: Cell) -> tuple[str, str]:
        if cell in new:
            return new[cell]
        tile = table.get(*cell)
        return tile.letter, tile.kind

    def spell(run) -> str:
        return "".join(tile_at(cell)[0] for cell in run)

    unknown: list[str] = []
    details: list[ScoredWord] = []
    lines = _directional_lines(cells)
    main = spell(cells)
    if main not in lexicon:
        if not house_vote:
            raise IllegalPlay(f"{main.upper()} is not in the word list")
        unknown.append(main)
    details.append(_scored(main, cells, tile_at, "main"))
    if len(lines) == 1 and main[::-1] != main and main[::-1] in lexicon:
        details.append(_scored(main[::-1], cells[::-1], tile_at, "main", True))

    line_sets = {frozenset(line) for line in lines}
    for run in _runs(table, new):
        if frozenset(run) in line_sets:
            continue
        forward = spell(run)
        backward = forward[::-1]
        readings = [(forward, run, False)]
        if backward != forward:
            readings.append((backward, run[::-1], True))
        valid = [reading for reading in readings if reading[0] in lexicon]
        if not valid:
            if not house_vote:
                shown = "-".join(forward.upper())
                raise IllegalPlay(f"the run {shown} ({_names([run[0], run[-1]])}) is not a word either way")
            unknown.append(forward)
            valid = readings[:1]
        for word, ordered, backwards in valid:
            details.append(_scored(word, ordered, tile_at, "secondary", backwards))

    bonuses = _play_bonuses(table, new, cells, lines, details, tile_at)
    score = sum(d.points for d in details) + sum(bonuses.values())
    return Play(
        score,
        FrozenList((d.word, d.points) for d in details),
        MappingProxyType(bonuses),
        tuple(details),
        FrozenList(tiles),
        tuple(cells),
        tuple(dict.fromkeys(unknown)),
    )


def is_legal(table: Table, placement, path, lexicon, *, house_vote: bool = False) -> bool:
    """True if ``evaluate`` accepts the play."""
    try:
        evaluate(table, placement, path, lexicon, house_vote=house_vote)
    except IllegalPlay:
        return False
    return True


# -- play bonuses -----------------------------------------------------------------------


def _play_bonuses(table: Table, new: dict, path, lines, details, tile_at) -> dict[str, int]:
    earned = {}
    if _is_bridge(table, new):
        earned[BRIDGE] = PLAY_BONUSES[BRIDGE]
    if len(new) == RACK_SIZE:
        earned[FULL_FIT] = PLAY_BONUSES[FULL_FIT]
    if len(path) == 4 and len({r for r, _ in path}) == 2 and len({c for _, c in path}) == 2:
        rows = sorted({r for r, _ in path})
        cols = sorted({c for _, c in path})
        if rows[1] - rows[0] == 1 and cols[1] - cols[0] == 1:
            earned[CLUSTER] = PLAY_BONUSES[CLUSTER]
    if len(lines) >= 4:
        earned[MULTI_DIRECTION] = PLAY_BONUSES[MULTI_DIRECTION]
    if _is_corner_double(details, tile_at):
        earned[CORNER_DOUBLE] = PLAY_BONUSES[CORNER_DOUBLE]
    if _closes_ring(table, new):
        earned[RING] = PLAY_BONUSES[RING]
    return earned


def _is_bridge(table: Table, new: dict) -> bool:
    """The new tiles touch two earlier plays that did not touch each other."""
    touched = set()
    for r, c in new:
        for dr, dc in _STEPS:
            tile = table.get(r + dr, c + dc)
            if tile is not None:
                touched.add(tile.play)
    if len(touched) < 2:
        return False
    touching = set()
    for r, c, _, _, play in table.tiles():
        if play not in touched:
            continue
        for dr, dc in _STEPS:
            other = table.get(r + dr, c + dc)
            if other is not None and other.play != play:
                touching.add((play, other.play))
    ordered = sorted(touched)
    return any((a, b) not in touching for i, a in enumerate(ordered) for b in ordered[i + 1 :])


def _is_corner_double(details, tile_at) -> bool:
    """A corner tile is the first or last letter of two different words scored."""
    ends: dict[Cell, set] = {}
    for word in details:
        key = frozenset(word.cells)  # a reversed reading is the same word of the table
        for cell in (word.cells[0], word.cells[-1]):
            if tile_at(cell)[1] == CORNER:
                ends.setdefault(cell, set()).add(key)
    return any(len(words) >= 2 for words in ends.values())


def _enclosed(filled, start: Cell, bounds, cap: int) -> frozenset[Cell] | None:
    """The empty region around ``start`` if no empty path leads out of ``bounds``."""
    r0, c0, r1, c1 = bounds
    region = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        if not (r0 < r < r1 and c0 < c < c1):
            return None
        for dr, dc in _STEPS:
            cell = (r + dr, c + dc)
            if cell not in region and not filled(cell):
                region.add(cell)
                todo.append(cell)
                if len(region) > cap:
                    return None
    return frozenset(region)


def _closes_ring(table: Table, new: dict) -> bool:
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
        for dr, dc in _STEPS:
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


# -- finding paths -----------------------------------------------------------------------


def paths(table: Table, placement: Iterable[Sequence], word: str) -> list[list[Cell]]:
    """Every path that spells ``word`` with the new tiles under the path rules of §5.

    A path returned is one ``evaluate`` accepts when every word it forms is in the
    lexicon: it goes through a new tile, turns only at new tiles, every new tile is
    joined to it and (after the first play) the placement touches the table. A
    malformed placement or table raises IllegalPlay; no path gives [].
    """
    _check_table(table)
    tiles = _normalise_placement(placement)
    _check_cells(table, tiles)
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
                    _check_joined(table, new, tuple(path))
                except IllegalPlay:
                    pass
                else:
                    found.append(list(path))
        else:
            for step in _STEPS:
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


# -- finding plays for a rack (the casual bot) -----------------------------------------------

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
        return any((cell[0] + dr, cell[1] + dc) in occupied for dr, dc in _STEPS)

    if table.is_empty:
        starts = [(0, 0)]
        first_steps = [(0, 1)]
    else:
        near = set()
        for r, c in occupied:
            for k in range(1, RACK_SIZE + 1):
                for dr, dc in _STEPS:
                    near.add((r + dr * k, c + dc * k))
        # Table tiles and the cells next to them first: most words go through them.
        starts = sorted(occupied | near, key=lambda cell: (cell not in occupied, not touches(cell), cell))
        first_steps = list(_STEPS)

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
            options = options + [s for s in _STEPS if s != direction and s != (-direction[0], -direction[1])]
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


# -- the game -----------------------------------------------------------------------------

# The moves of turns.py (PLACE, SWAP, PASS, RESIGN, FORFEIT) and the house vote's own.
VOTE, CLOSE_VOTE = "vote", "close_vote"
MOVE_KINDS = (PLACE, SWAP, PASS, RESIGN, FORFEIT, VOTE, CLOSE_VOTE)

# Why a game ended (Game.end_reason), besides turns.WENT_OUT and turns.LAST_SEAT.
PASSES = "everyone passed twice"

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def rack_tile(letter: str, kind: str) -> str:
    """The rack tile a placed tile came from: its letter, ``+`` or ``*``."""
    return letter if kind == LETTER else TILE_OF_KIND[kind]


def tile_value(tile: str) -> int:
    """Face value of a rack tile; corner and PZ tiles are worth 0."""
    return 0 if tile in KIND_OF_TILE else LETTER_VALUES[tile]


def _coordinate(value: object) -> int:
    """A row or column as given, if it is a whole number (a bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalPlay(f"a row or column must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True)
class Move(SeatMoves):
    """One action of one seat. ``accept`` is a vote's answer."""

    kind: str
    seat: int
    placement: tuple[tuple[int, int, str, str], ...] = ()
    path: tuple[Cell, ...] = ()
    tiles: str = ""
    accept: bool | None = None

    @classmethod
    def place(cls, seat: int, placement: Iterable[Sequence], path: Iterable[Sequence]) -> Move:
        """A play of ``placement`` (row, column, letter, kind) naming its main word by ``path``.

        Rows and columns must be whole numbers: ``int()`` would quietly take 7.9 for 7
        or True for 1, placing a tile where the player did not.
        """
        tiles = tuple(
            (_coordinate(r), _coordinate(c), str(letter).lower(), str(kind)) for r, c, letter, kind in placement
        )
        return cls(PLACE, seat, tiles, tuple((_coordinate(r), _coordinate(c)) for r, c in path))

    @classmethod
    def vote(cls, seat: int, accept: bool) -> Move:
        return cls(VOTE, seat, accept=bool(accept))

    @classmethod
    def close_vote(cls, seat: int) -> Move:
        """The vote's time is up: it is decided on the votes cast (``seat``: the player)."""
        return cls(CLOSE_VOTE, seat)

    def to_dict(self) -> dict:
        data = {"kind": self.kind, "seat": self.seat}
        if self.kind == PLACE:
            data["placement"] = [list(t) for t in self.placement]
            data["path"] = [list(c) for c in self.path]
        if self.kind == SWAP:
            data["tiles"] = self.tiles
        if self.kind == VOTE:
            data["accept"] = self.accept
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Move:
        kind, seat = data["kind"], int(data["seat"])
        if kind == PLACE:
            return cls.place(seat, data["placement"], data["path"])
        if kind == SWAP:
            return cls.swap(seat, data["tiles"])
        if kind == VOTE:
            return cls.vote(seat, data["accept"])
        return cls(kind, seat)


@dataclass(frozen=True)
class TurnRecord:
    """What a turn did. A house-vote play carries its ``votes`` ((seat, accept), ...);
    ``accepted`` is False for a play the vote rejected (taken back: the seat moves again)."""

    move: Move
    score: int
    play: Play | None = None
    drawn: int = 0
    votes: tuple[tuple[int, bool], ...] = ()
    accepted: bool = True


@dataclass(frozen=True)
class PendingVote:
    """A house-vote play waiting for the other players' votes."""

    move: Move
    play: Play
    votes: tuple[tuple[int, bool], ...] = ()

    def vote_of(self, seat: int) -> bool | None:
        return dict(self.votes).get(seat)


def _draw_rank(tile: str) -> int:
    if tile == PZ_TILE:
        return 0
    if tile == CORNER_TILE:
        return 1
    return 2 + ord(tile) - ord("a")


def first_draw(players: int, seed) -> tuple[tuple[tuple[tuple[int, str], ...], ...], int]:
    """RULES §5 first player: every seat draws a tile; a PZ beats all, then a corner
    tile, then the letter closest to A; tied seats draw again. Returns the rounds of
    draws ((seat, tile), ...) and the seat that opens."""
    contenders = list(range(players))
    rounds = []
    while True:
        bag = shuffled(BAG, seed, f"first-draw/{len(rounds)}")
        draws = tuple((seat, bag[i]) for i, seat in enumerate(contenders))
        rounds.append(draws)
        best = min(_draw_rank(tile) for _, tile in draws)
        contenders = [seat for seat, tile in draws if _draw_rank(tile) == best]
        if len(contenders) == 1:
            return tuple(rounds), contenders[0]


@dataclass(frozen=True, kw_only=True)
class Game(SeatedGame):
    """An immutable TOW game; ``apply`` returns the next state or raises IllegalPlay."""

    illegal_play = IllegalPlay
    turn_record = TurnRecord
    streak_end = PASSES

    house_vote: bool
    table: Table
    draws: tuple = ()  # the first-player draw, round by round
    pending: PendingVote | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move applied, votes included, in order (what ``replay`` needs)."""
        return self._moves

    @property
    def voters(self) -> tuple[int, ...]:
        """Seats that vote on the pending play: everyone in play but its player."""
        if self.pending is None:
            return ()
        return tuple(s for s in range(self.players) if self.in_play[s] and s != self.pending.move.seat)

    @staticmethod
    def tile_value(tile: str) -> int:
        return tile_value(tile)

    # -- moving ----------------------------------------------------------------------

    def check(self, move: Move) -> None:
        """Raise IllegalPlay if ``move`` may not be made now, before the table is looked at.

        The game must go on and the seat be in play. A vote needs a play waiting for the
        seat's vote; while one waits, nobody takes a turn. A turn needs the turn and the
        tiles it places or swaps on the rack. ``apply`` checks these first; whether a
        placement is well formed and makes words is :func:`evaluate`'s to say.
        """
        self._check_seat(move)
        if move.kind in LEAVING:
            return
        if move.kind in (VOTE, CLOSE_VOTE):
            if self.pending is None:
                raise IllegalPlay("no play is waiting for votes")
            if move.kind == CLOSE_VOTE:
                return
            if move.seat == self.pending.move.seat:
                raise IllegalPlay("you cannot vote on your own play")
            if self.pending.vote_of(move.seat) is not None:
                raise IllegalPlay("you have already voted")
            return
        if self.pending is not None:
            raise IllegalPlay("a play is waiting for the house vote")
        if move.seat != self.to_move:
            raise IllegalPlay("it is not your turn")
        if move.kind == PLACE:
            try:
                tiles = _normalise_placement(move.placement)
            except IllegalPlay:
                return  # malformed: evaluate refuses it, saying why
            self._check_rack(move.seat, [rack_tile(letter, kind) for _, _, letter, kind in tiles])
        elif move.kind == SWAP:
            self._check_rack(move.seat, move.tiles)

    def apply(self, move: Move) -> Game:
        self.check(move)
        game = self._apply(move)
        return replace(game, _moves=self._moves + (move,))

    def _apply(self, move: Move) -> Game:
        if move.kind in LEAVING:
            return self._leave(move)
        if move.kind == VOTE:
            pending = replace(self.pending, votes=self.pending.votes + ((move.seat, move.accept),))
            return replace(self, pending=pending)._decide()
        if move.kind == CLOSE_VOTE:
            return self._decide(force=True)
        if move.kind == PLACE:
            return self._place(move)
        if move.kind == SWAP:
            return self._swap(move)
        if move.kind == PASS:
            return self._after_turn(move, 0, None, self.racks, self.bag, 0)
        raise IllegalPlay(f"unknown move: {move.kind}")

    def evaluate(self, placement, path) -> Play:
        """Score a play on this game's table with its lexicon and vote setting."""
        return evaluate(self.table, placement, path, self.lexicon, house_vote=self.house_vote)

    def _place(self, move: Move) -> Game:
        # check() made sure the rack holds the tiles of a well-formed placement.
        play = self.evaluate(move.placement, move.path)
        if play.unknown_words:
            return replace(self, pending=PendingVote(move, play))
        return self._lay(move, play)

    def _lay(self, move: Move, play: Play, votes=()) -> Game:
        used = [rack_tile(letter, kind) for _, _, letter, kind in play.placement]
        racks, bag, drawn = self._drawn_after(move.seat, used, RACK_SIZE)
        number = self.table.play_count
        table = self.table.with_tiles((r, c, letter, kind, number) for r, c, letter, kind in play.placement)
        game = replace(self, table=table, pending=None)
        return game._after_turn(move, play.score, play, racks, bag, drawn, votes)

    def _decide(self, force: bool = False) -> Game:
        """Majority of the voters accepts; a tie rejects. ``force``: decide on the votes
        cast so far (the move time ran out)."""
        pending = self.pending
        voters = self.voters
        votes = {seat: accept for seat, accept in pending.votes if seat in voters}
        yes = sum(votes.values())
        no = len(votes) - yes
        if force:
            accepted = yes > no
        elif yes * 2 > len(voters):
            accepted = True
        elif no * 2 >= len(voters):
            accepted = False
        else:
            return self
        if accepted:
            return self._lay(pending.move, pending.play, pending.votes)
        record = TurnRecord(pending.move, 0, pending.play, votes=pending.votes, accepted=False)
        return replace(self, pending=None, turns=self.turns + (record,))

    def _swap(self, move: Move) -> Game:
        racks, bag, drawn = self._swapped(move)
        return self._after_turn(move, 0, None, racks, bag, drawn)

    def _after_turn(self, move, score, play, racks, bag, drawn, votes=()) -> Game:
        game = self._scored(move, score, TurnRecord(move, score, play, drawn, votes), racks, bag)
        return game._end_or_next(move)

    def _streak_reached(self) -> bool:
        """Every seat still in play passed on each of its last two turns (a play the house
        rejected was no turn)."""
        return self._every_seat_last_turns(2, lambda turn: turn.move.kind == PASS if turn.accepted else None)

    def _seat_left(self, seat: int) -> Game:
        """A leaving seat's play no longer waits for votes, nor does any play once one
        seat is left."""
        if self.pending is not None and (self.pending.move.seat == seat or sum(self.in_play) < 2):
            return replace(self, pending=None)
        return self

    def _settle_after_leaving(self) -> Game | None:
        """One voter fewer may settle the vote."""
        return self._decide() if self.pending is not None else None

    _moves: tuple[Move, ...] = ()


def new_game(players: int, seed, lexicon, game_number: int = 1, house_vote: bool = False) -> Game:
    """A fresh game: the first player drawn, the bag shuffled from ``seed``, racks dealt."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"TOW takes {MIN_PLAYERS}–{MAX_PLAYERS} players")
    draws, opener = first_draw(players, f"{seed}/{game_number}")
    racks, bag = deal(shuffled(BAG, seed, f"bag/{game_number}"), players, RACK_SIZE)
    return Game(
        players=players,
        seed=seed,
        game_number=game_number,
        house_vote=house_vote,
        table=Table.empty(),
        racks=racks,
        bag=bag,
        scores=(0,) * players,
        to_move=opener,
        in_play=(True,) * players,
        draws=draws,
        lexicon=lexicon,
    )


def replay(players: int, seed, moves: Iterable[Move], lexicon, game_number: int = 1, house_vote: bool = False) -> Game:
    """Rebuild a game from its seed and moves (raises IllegalPlay on a bad move)."""
    game = new_game(players, seed, lexicon, game_number, house_vote)
    for move in moves:
        game = game.apply(move)
    return game
