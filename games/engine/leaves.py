"""Rack leaves: what the tiles kept after a play are worth to the turns that follow.

A *leave* is the sorted string of rack tiles a play or swap keeps ("?" for a blank).
Good leaves (a blank, an S, a balanced mix of vowels and consonants) score more next
turn; bad ones (a Q without a U, three I's) score less. Strong bots rank plays by
*equity* = score + leave value, so they give up a few points now to keep a better rack.

Two evaluations live here:

* ``heuristic_value`` — a small hand-written rule of thumb (the club bot's): a value per
  tile, a cost per duplicate and a cost for too many vowels or consonants.
* ``LeaveTable`` — values *learned* from the project's own self-play
  (``scripts/learn_leaves.py``), in the spirit of the "superleaves" strong engines use.
  A leave is described by features — each tile kept, a second and a third copy of it,
  each pair of different tiles, and its vowel/consonant balance — and its value is the
  sum of the learned weights of its features. The weights were fitted so that the sum
  predicts how many points more (or fewer) than a fresh rack the leave scores on the
  next turn. The table and the settings that built it are JSON files in ``data/``.

Pure: no Django, no clock, no randomness.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from functools import cache
from itertools import combinations
from pathlib import Path

from games.engine.tiles import BLANK

VOWELS = frozenset("aeiou")
DATA_DIR = Path(__file__).resolve().parent / "data"


def features(leave: str) -> list[str]:
    """The features of a leave whose weights add up to its value.

    ``"e"`` a tile kept, ``"e2"``/``"e3"`` its second/third copy, ``"e+s"`` two different
    tiles kept together, ``"v2c1"`` two vowels and one consonant (blanks count as neither).
    The empty leave has no features: its value is 0, that of a fresh rack.
    """
    if not leave:
        return []
    counts = Counter(leave)
    found = []
    for tile, count in sorted(counts.items()):
        found.append(tile)
        if count >= 2:
            found.append(tile + "2")
        if count >= 3:
            found.append(tile + "3")
    found.extend(f"{a}+{b}" for a, b in combinations(sorted(counts), 2))
    vowels = sum(count for tile, count in counts.items() if tile in VOWELS)
    consonants = sum(count for tile, count in counts.items() if tile not in VOWELS and tile != BLANK)
    found.append(f"v{vowels}c{consonants}")
    return found


class LeaveTable:
    """Learned leave values: ``table.value("ers")`` is the worth of keeping E, R, S."""

    def __init__(self, weights: Mapping[str, float], settings: Mapping | None = None) -> None:
        self.weights = dict(weights)
        self.settings = dict(settings or {})
        self._values: dict[str, float] = {}

    @classmethod
    def from_json(cls, path: Path | str) -> LeaveTable:
        data = json.loads(Path(path).read_text())
        return cls(data["weights"], data.get("settings"))

    def to_json(self) -> str:
        weights = {name: round(value, 3) for name, value in sorted(self.weights.items())}
        return json.dumps({"settings": self.settings, "weights": weights}, indent=1) + "\n"

    def value(self, leave: str) -> float:
        """Points a leave is worth over a fresh rack (``leave`` sorted, "?" = blank)."""
        value = self._values.get(leave)
        if value is None:
            weights = self.weights
            value = sum(weights.get(name, 0.0) for name in features(leave))
            self._values[leave] = value
        return value

    __call__ = value


@cache
def learned(variant_name: str) -> LeaveTable:
    """The learned table shipped for a variant ("wordgrid" or "wordgame")."""
    return LeaveTable.from_json(DATA_DIR / f"leaves_{variant_name}.json")


# -- the club bot's rule of thumb ------------------------------------------------------

# What one copy of a tile is worth in a leave, from common experience of the game:
# blanks and S make plays everywhere, high-value awkward letters clog the rack.
_TILE_WORTH = {
    BLANK: 20.0,
    "s": 7.5,
    "e": 3.5,
    "r": 1.5,
    "z": 2.0,
    "x": 2.5,
    "h": 1.0,
    "d": 0.5,
    "l": 0.5,
    "n": 0.5,
    "t": 0.5,
    "a": 0.5,
    "c": 0.0,
    "m": 0.5,
    "i": -1.0,
    "o": -1.5,
    "p": -0.5,
    "y": -0.5,
    "k": -2.5,
    "g": -2.5,
    "b": -2.5,
    "f": -2.0,
    "w": -4.0,
    "j": -3.0,
    "u": -4.0,
    "v": -6.0,
    "q": -7.0,
}
_DUPLICATE_COST = 3.0


@cache
def heuristic_value(leave: str) -> float:
    """A rule-of-thumb value of a leave: tiles' worth, duplicates and balance."""
    if not leave:
        return 0.0
    counts = Counter(leave)
    value = sum(_TILE_WORTH.get(tile, 0.0) for tile in leave)
    value -= sum(_DUPLICATE_COST * (count - 1) ** 1.5 for count in counts.values())
    vowels = sum(counts[v] for v in VOWELS)
    consonants = len(leave) - vowels - counts[BLANK]
    value -= 2.5 * max(0, abs(vowels - consonants) - 1)
    if "q" in counts and "u" not in counts:
        value -= 4.0
    return value
