"""TOW's tiles (RULES §5): letters and the two wildcards, the bag and the rack, their values
and the letter bonuses and word multipliers they bring."""

from __future__ import annotations

from types import MappingProxyType

from games.engine.tiles import BLANK, LETTER_VALUES, WORD_GRID_BAG

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


def rack_tile(letter: str, kind: str) -> str:
    """The rack tile a placed tile came from: its letter, ``+`` or ``*``."""
    return letter if kind == LETTER else TILE_OF_KIND[kind]


def tile_value(tile: str) -> int:
    """Face value of a rack tile; corner and PZ tiles are worth 0."""
    return 0 if tile in KIND_OF_TILE else LETTER_VALUES[tile]
