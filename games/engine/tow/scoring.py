"""Scoring (RULES §5): each word's letters, letter bonus and word multiplier, itemised, and
the bonuses a whole play earns."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from games.engine.tiles import LETTER_VALUES

from .cells import STEPS, Cell
from .rings import closes_ring
from .table import Table
from .tiles import CORNER, KIND_MULTIPLIER, LETTER, LETTER_BONUS, LETTER_BONUS_MIN_LENGTH, PZ, RACK_SIZE

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


def word_points(cells: tuple[Cell, ...], tile_at) -> tuple[int, int, int]:
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


def scored(word: str, cells, tile_at, role: str, reversed_: bool = False) -> ScoredWord:
    letters, bonus, multiplier = word_points(cells, tile_at)
    return ScoredWord(word, (letters + bonus) * multiplier, tuple(cells), letters, bonus, multiplier, role, reversed_)


def play_bonuses(table: Table, new: dict, path, lines, details, tile_at) -> dict[str, int]:
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
    if closes_ring(table, new):
        earned[RING] = PLAY_BONUSES[RING]
    return earned


def _is_bridge(table: Table, new: dict) -> bool:
    """The new tiles touch two earlier plays that did not touch each other."""
    touched = set()
    for r, c in new:
        for dr, dc in STEPS:
            tile = table.get(r + dr, c + dc)
            if tile is not None:
                touched.add(tile.play)
    if len(touched) < 2:
        return False
    touching = set()
    for r, c, _, _, play in table.tiles():
        if play not in touched:
            continue
        for dr, dc in STEPS:
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
