"""What one generate/best/top call knows: the board, the rack, and each line holding an
anchor with its squares, premiums and cross-checks."""

from __future__ import annotations

from games.engine.crossword import CENTRE, SIZE, Board, Variant, multiplier_combiner, premium_table
from games.engine.movegen.cross_checks import cross_cache, line_cross_checks
from games.engine.movegen.dawg import dawg
from games.engine.movegen.left_parts import LeftParts
from games.engine.tiles import BLANK

#: The directions searched (True = across), when the first play's mirror needs none down.
ACROSS_ONLY, BOTH_WAYS = (True,), (True, False)


class Line:
    """One line's squares (a row, or a column read top to bottom) for one rack.

    ``cross[i]`` is None where no cross word can form, else a dict letter -> points of
    the cross word the letter makes there (only letters that could be laid: rack
    letters, or all with a blank). The rest feeds the shadow bounds.
    """

    __slots__ = (
        "across",
        "anchors",
        "blank_points",
        "cross",
        "cross_mult",
        "is_anchor",
        "line",
        "lm",
        "max_value",
        "searcher",
        "tile_values",
        "tiles",
        "wm",
    )


class Call:
    """What one generate/best/top call knows about the board and rack."""

    def __init__(self, board: Board, rack: str, variant: Variant, lexicon) -> None:
        self.root = dawg(lexicon)
        self.variant = variant
        self.letter_values = variant.letter_values
        self.combine = multiplier_combiner(variant)
        self.letter_mult, self.word_mult = premium_table(variant)
        self.rack_size = variant.rack_size
        self.max_length = variant.max_word_length
        cells = [None if letter == "." else letter for letter in board.cells]
        values = [0] * (SIZE * SIZE)
        for index, letter in enumerate(cells):
            if letter is not None and (index // SIZE, index % SIZE) not in board.blanks:
                values[index] = self.letter_values[letter]
        self.cells, self.values = cells, values
        self.row_text = [board.cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
        self.col_text = [board.cells[c::SIZE] for c in range(SIZE)]
        self.cross_words = cross_cache(lexicon)
        self.first_move = all(letter is None for letter in cells)
        self.min_length = variant.first_word_min_length if self.first_move else 2

        rack = rack.lower()
        self.rack = rack
        counts = dict.fromkeys("abcdefghijklmnopqrstuvwxyz", 0)
        counts[BLANK] = 0
        for tile in rack:
            counts[tile] += 1
        self.counts = counts
        self.rack_length = len(rack)
        self.rack_tiles = sorted(set(rack))  # "?" sorts first, as in a leave
        self.has_blank = counts[BLANK] > 0
        self.rack_letters = frozenset(rack) - {BLANK}
        # Tile values best first: the most any k tiles of the rack can be worth on the
        # k best squares is the k highest values paired with the k highest multipliers.
        self.values_desc = sorted((0 if tile == BLANK else self.letter_values[tile] for tile in rack), reverse=True)

        filled = [letter is not None for letter in cells]
        self.filled = filled
        anchors = set()
        if self.first_move:
            anchors.add(CENTRE[0] * SIZE + CENTRE[1])
        else:
            for index in range(SIZE * SIZE):
                if filled[index]:
                    continue
                row, col = divmod(index, SIZE)
                if (
                    (col > 0 and filled[index - 1])
                    or (col < SIZE - 1 and filled[index + 1])
                    or (row > 0 and filled[index - SIZE])
                    or (row < SIZE - 1 and filled[index + SIZE])
                ):
                    anchors.add(index)
        self.anchor_squares = anchors
        # The first play, mirrored across the diagonal, is the same words on the same
        # premiums; only the centre row need be searched when the premiums agree.
        lm, wm = self.letter_mult, self.word_mult
        self.mirror = self.first_move and all(
            lm[r * SIZE + c] == lm[c * SIZE + r] and wm[r * SIZE + c] == wm[c * SIZE + r]
            for r in range(SIZE)
            for c in range(SIZE)
        )
        self._left_parts: LeftParts | None = None

    def directions(self) -> tuple[bool, ...]:
        return ACROSS_ONLY if self.mirror else BOTH_WAYS

    def lines(self) -> list[Line]:
        """Every line holding an anchor, with its cross-checks."""
        result = []
        for across in self.directions():
            for line in range(SIZE):
                squares = line_squares(line, across)
                anchors = [i for i, square in enumerate(squares) if square in self.anchor_squares]
                if anchors:
                    result.append(self._line(line, across, squares, anchors))
        return result

    def _line(self, line: int, across: bool, squares: list[int], anchors: list[int]) -> Line:
        data = Line()
        data.line, data.across, data.anchors = line, across, anchors
        data.is_anchor = [False] * SIZE
        for i in anchors:
            data.is_anchor[i] = True
        data.tiles = [self.cells[s] for s in squares]
        data.tile_values = [self.values[s] for s in squares]
        data.lm = [self.letter_mult[s] for s in squares]
        data.wm = [self.word_mult[s] for s in squares]
        line_cross_checks(self, data, squares, SIZE if across else 1)
        data.searcher = None
        return data

    # -- left parts ----------------------------------------------------------------------

    def left_parts(self, longest: int, every_way: bool, hint: int = 0) -> LeftParts:
        """The left parts (see ``LeftParts``), indexed up to at least ``longest``;
        ``hint``, when first asked, is how long any later anchor may need them."""
        if self._left_parts is None:
            self._left_parts = LeftParts(self.root, self.counts, every_way)
            self._left_parts.hint = hint
        self._left_parts.upto(longest)
        return self._left_parts

    def left_limit(self, data: Line, anchor: int) -> int:
        """How many free squares before ``anchor`` a left part may use (0 when a tile
        is there: then the tiles are the left part)."""
        tiles = data.tiles
        if anchor > 0 and tiles[anchor - 1] is not None:
            return 0
        is_anchor = data.is_anchor
        limit = 0
        j = anchor - 1
        while j >= 0 and tiles[j] is None and not is_anchor[j] and limit < self.rack_length - 1:
            limit += 1
            j -= 1
        return limit


def line_squares(line: int, across: bool) -> list[int]:
    """Board indexes (row * 15 + col) of a line's squares, left to right or top to bottom."""
    if across:
        return [line * SIZE + i for i in range(SIZE)]
    return [i * SIZE + line for i in range(SIZE)]
