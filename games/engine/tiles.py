"""Letter values, tile bags and hunt dice (the rules pages, docs/rules-*.md).

Everything here is data: the games read their letters from these tables instead of
repeating them. A blank is written ``?`` in a bag or rack and is always worth 0.
"""

from __future__ import annotations

from types import MappingProxyType

BLANK = "?"

LETTER_VALUES = MappingProxyType(
    {
        **dict.fromkeys("aeioulnstr", 1),
        **dict.fromkeys("dg", 2),
        **dict.fromkeys("bcmp", 3),
        **dict.fromkeys("fhvwy", 4),
        "k": 5,
        **dict.fromkeys("jx", 8),
        **dict.fromkeys("qz", 10),
        BLANK: 0,
    }
)


def letter_value(letter: str) -> int:
    """Face value of one tile; ``?`` (a blank) is 0."""
    return LETTER_VALUES[letter]


def _bag(counts: str, blanks: int) -> tuple[str, ...]:
    """Expand a count list such as ``"A9 B2"`` into a sorted tuple of tiles."""
    tiles: list[str] = []
    for entry in counts.split():
        tiles.extend(entry[0].lower() * int(entry[1:]))
    tiles.extend(BLANK * blanks)
    return tuple(tiles)


# RULES §3: 98 letters and 2 blanks.
WORD_GRID_BAG = _bag("A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1", 2)

# RULES §4: 102 letters and 2 blanks.
WORDGAME_BAG = _bag("A8 B2 C3 D5 E13 F3 G2 H3 I8 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S5 T7 U4 V2 W2 X1 Y2 Z1", 2)

# RULES §1: Rampage draws its 16 tiles from the Word Grid bag without its blanks.
RAMPAGE_BAG = tuple(tile for tile in WORD_GRID_BAG if tile != BLANK)

QU = "qu"


def _dice(spec: str) -> tuple[tuple[str, ...], ...]:
    """Parse die specs such as ``"HIMNU(Qu)"``; ``(Qu)`` is one face spelling "qu"."""
    dice = []
    for die in spec.split():
        faces = die.lower().replace("(qu)", "*")
        dice.append(tuple(QU if face == "*" else face for face in faces))
    return tuple(dice)


# RULES §2, standard letter dice.
CLASSIC_DICE_4 = _dice(
    "AAEEGN ABBJOO ACHOPS AFFKPS AOOTTW CIMOTU DEILRX DELRVY DISTTY EEGHNW EEINSU EHRTVW EIOSST ELRTTY HIMNU(Qu) HLNNRZ"
)
CLASSIC_DICE_5 = _dice(
    "AAAFRS AAEEEE AAFIRS ADENNN AEEEEM AEEGMU AEGMNN AFIRSY BJK(Qu)XZ CCENST "
    "CEIILT CEILPT CEIPST DDHNOT DHHLOR DHLNOR DHLNOR EIIITT EMOTTT ENSSSU FIPRSY GORRVW "
    "IPRRRY NOOTUW OOOTTU"
)

CLASSIC_DICE = MappingProxyType({4: CLASSIC_DICE_4, 5: CLASSIC_DICE_5})
