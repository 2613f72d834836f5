"""The Appel–Jacobson search of one line: left parts before an anchor, then letters
rightwards through it while the word stays in the DAWG.

The module is plain Python and, compiled (``make engine``), Cython's pure-Python mode:
the ``cython`` decorators type the search's counters and squares as C ints and make
``extend`` and ``record`` C functions, so the compiled search steps without a Python
call or a boxed number per letter tried. Run as Python they change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cython

from games.engine.crossword import SIZE, FrozenList, play_total
from games.engine.movegen.blanks import lay_blanks
from games.engine.movegen.dawg import letter_mask, walk
from games.engine.tiles import BLANK

if TYPE_CHECKING:
    from games.engine.movegen.plays import Leaves, Plays
    from games.engine.movegen.position import Call, Line

_FREE = tuple((letter, 0) for letter in "abcdefghijklmnopqrstuvwxyz")

#: For each board square (row * 15 + col), indexed by letter code (``ord(letter) -
#: 97``): the placement item (row, col, letter, False) of its own tile there, and that
#: of a blank. Made once, so laying a tile in the search allocates nothing (and gives
#: the garbage collector nothing to count); about 1 MB.

#: All 26 letters as bits: a square without a cross word allows every letter.
ALL_LETTERS = (1 << 26) - 1
#: Letters are looked up by ``ord(letter)`` in the search's lists (rack counts, tile
#: values): a C int in the compiled build, where a dict look-up hashed a str.
CODES = 128
BLANK_CODE = cython.declare(cython.int, ord(BLANK))


def _laid(blank: bool) -> list:
    return [
        [(square // SIZE, square % SIZE, letter, blank) for letter in "abcdefghijklmnopqrstuvwxyz"]
        for square in range(SIZE * SIZE)
    ]


_OWN_LAID: list = _laid(False)
_BLANK_LAID: list = _laid(True)


def searcher(call: Call, data: Line, out: Plays, leaves: Leaves | None, every_way: bool) -> Searcher:
    """The Appel–Jacobson search of one line, as a callable of one anchor (see ``Searcher``)."""
    return Searcher(call, data, out, leaves, every_way)


@cython.cclass
class Searcher:
    """The Appel–Jacobson search of one line.

    ``searcher(anchor, size_floor)`` appends to ``out`` every play grown from the
    anchor (LeftPart/ExtendRight); with ``size_floor`` (the bound of each left-part
    size) it skips left-part sizes whose bound is below ``out.floor``.

    With ``every_way`` each letter is tried with its own tile and with a blank, as
    generating every play needs. Without it (ranking) the search spells words: a letter
    takes its own tile while one is left, else a blank, and ``record`` lays the blanks
    every way the word allows. The rest of the search is then not repeated for each
    way of laying the blanks.
    """

    call = cython.declare(object)
    data = cython.declare(object)
    out = cython.declare(object)
    leaves = cython.declare(object)
    every_way = cython.declare(cython.bint)
    spelled_blanks = cython.declare(cython.bint)
    across = cython.declare(cython.bint)
    line = cython.declare(cython.int)
    anchor = cython.declare(cython.int)
    rack_length = cython.declare(cython.int)
    rack_size = cython.declare(cython.int)
    max_length = cython.declare(cython.int)
    min_length = cython.declare(cython.int)
    tiles = cython.declare(list)
    tile_values = cython.declare(list)
    cross = cython.declare(list)
    # Per square of the line (and one past the edge), C arrays in the compiled build:
    # the letters allowed as bits, whether a cross word forms, its points by letter code.
    cross_mask = cython.declare(cython.int[16])
    cross_here = cython.declare(cython.int[16])
    cross_points = cython.declare(cython.int[26][16])  # C: int[16][26]
    blank_points = cython.declare(cython.int[16])
    lm = cython.declare(cython.int[16])
    wm = cython.declare(cython.int[16])
    runs = cython.declare(list)
    run_points = cython.declare(cython.int[16])
    next_free = cython.declare(cython.int[16])
    is_anchor = cython.declare(list)
    placed = cython.declare(list)
    # The rack's tiles left and the letters' values, by ord(letter) ("?" included).
    counts = cython.declare(cython.int[128])
    letter_values = cython.declare(cython.int[128])
    rack_tiles = cython.declare(list)
    leave_best = cython.declare(object)
    leave_of_value = cython.declare(object)
    root = cython.declare(tuple)
    combine = cython.declare(object)
    variant = cython.declare(object)
    # The left part laid on the free squares before the anchor: its letters, and the
    # tiles they took ("?" for a blank).
    left_word = cython.declare(str)
    left_used = cython.declare(str)
    own_laid = cython.declare(list)
    blank_laid = cython.declare(list)

    def __init__(self, call: Call, data: Line, out: Plays, leaves: Leaves | None, every_way: bool) -> None:
        self.call, self.data, self.out, self.leaves = call, data, out, leaves
        self.every_way = every_way
        self.line, self.across = data.line, data.across
        self.tiles, self.tile_values, self.cross = data.tiles, data.tile_values, list(data.cross)
        self.blank_points, self.lm, self.wm = [*data.blank_points, 0], [*data.lm, 1], [*data.wm, 1]
        self.is_anchor = data.is_anchor
        self.root, self.rack_length = call.root, call.rack_length
        counts = [0] * CODES
        for tile, count in call.counts.items():
            counts[ord(tile)] = count
        letter_values = [0] * CODES
        for letter, value in call.letter_values.items():
            letter_values[ord(letter)] = value
        self.counts, self.letter_values = counts, letter_values
        self.combine, self.variant = call.combine, call.variant
        self.rack_size, self.max_length, self.min_length = call.rack_size, call.max_length, call.min_length
        self.rack_tiles = call.rack_tiles
        self.spelled_blanks = call.counts[BLANK] > 0 and not every_way
        self.leave_best = leaves.best_by_played if leaves is not None else None
        self.leave_of_value = leaves.value if leaves is not None else None
        # (row, col, letter, is_blank) laid from the anchor rightwards: already the
        # placement's own items, so recording a play copies the list as it is.
        self.placed = []
        self.left_word = self.left_used = ""
        self.anchor = 0
        squares = (
            [data.line * SIZE + i for i in range(SIZE)] if data.across else [i * SIZE + data.line for i in range(SIZE)]
        )
        self.own_laid = [_OWN_LAID[square] for square in squares]
        self.blank_laid = [_BLANK_LAID[square] for square in squares]
        # For each empty square: the tiles right after it, their points, and the next
        # empty square, so a letter laid there is checked against those tiles before
        # recursing.
        tiles, tile_values = self.tiles, self.tile_values
        runs = [""] * (SIZE + 1)
        run_points = [0] * (SIZE + 1)
        next_free = list(range(1, SIZE + 2))
        for i in range(SIZE - 1, -1, -1):
            if i + 1 < SIZE and tiles[i + 1] is not None:
                runs[i] = tiles[i + 1] + runs[i + 1]
                run_points[i] = tile_values[i + 1] + run_points[i + 1]
                next_free[i] = next_free[i + 1]
        self.runs, self.run_points, self.next_free = runs, run_points, next_free[: SIZE + 1]
        self.cross.append(None)  # the square past the edge: nothing can be laid there
        # The cross-checks again for the search's inner loop: the letters a square
        # allows as bits, and the cross word's points by letter code (None: no cross word).
        cross_mask = [ALL_LETTERS] * (SIZE + 1)
        cross_here = [0] * (SIZE + 1)
        cross_points = [[0] * 26 for _ in range(SIZE + 1)]
        for i in range(SIZE):
            checks = self.cross[i]
            if checks is not None:
                for letter, value in checks.items():
                    cross_points[i][ord(letter) - 97] = value
                cross_mask[i] = letter_mask(checks)
                cross_here[i] = 1
        self.cross_mask, self.cross_here, self.cross_points = cross_mask, cross_here, cross_points

    @cython.cfunc
    @cython.locals(
        end=cython.int,
        start=cython.int,
        main_points=cython.int,
        multiplier=cython.int,
        cross_points=cython.int,
        square=cython.int,
        count=cython.int,
        main=cython.int,
        score=cython.int,
        line=cython.int,
        blank=cython.bint,
    )
    @cython.returns(cython.void)
    def record(self, end, start, main_points, multiplier, cross_points):
        # The left part is scored here, not while it grows: far fewer plays are
        # recorded than left parts tried, and only now is its first square known.
        if end - start < self.min_length:
            return
        placed = self.placed
        tiles_laid = placed
        left_word = self.left_word
        if left_word:
            tiles_laid = []
            square = self.anchor - len(left_word)
            for letter, tile in zip(left_word, self.left_used):
                if tile == BLANK:
                    tiles_laid.append(self.blank_laid[square][ord(letter) - 97])
                else:
                    main_points += self.letter_values[ord(letter)] * self.lm[square]
                    tiles_laid.append(self.own_laid[square][ord(letter) - 97])
                if self.wm[square] != 1:
                    multiplier = self.combine(multiplier, self.wm[square])
                square += 1
            tiles_laid.extend(placed)
        elif len(placed) == 1 and not self.across and self.cross[placed[0][0]] is not None:
            return  # a lone tile with neighbours across is that across play
        count = len(tiles_laid)
        main = main_points * multiplier
        if count == self.rack_size:
            score = play_total(self.variant, main, cross_points, count)
        else:
            score = main + cross_points
        out = self.out
        if self.spelled_blanks:
            left = None if self.leaves is None else {tile: self.counts[ord(tile)] for tile in self.rack_tiles}
            spare = self.counts[BLANK_CODE]
            lay_blanks(self.call, self.data, out, self.leaves, spare, left, tiles_laid, count, score, multiplier)
            return
        floor = out.floor
        if self.leaves is None:
            if score < floor:
                return
            rank, leave = score, None
        else:
            if score + self.leave_best[count] < floor:
                return
            leave = "".join([tile * self.counts[ord(tile)] for tile in self.rack_tiles])
            rank = score + self.leave_of_value(leave)
            if rank < floor:
                return
        out.append((rank, score, FrozenList(tiles_laid), self.across, leave))
        if len(out) == out.check_at:
            out.trim()

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.locals(
        i=cython.int,
        main_points=cython.int,
        multiplier=cython.int,
        cross_points=cython.int,
        start=cython.int,
        used=cython.int,
        after=cython.int,
        letter_mult=cython.int,
        new_multiplier=cython.int,
        blank_cross=cython.int,
        end_only=cython.bint,
        blanks=cython.int,
        own=cython.int,
        points=cython.int,
        letter_points=cython.int,
        mask=cython.long,
        after_mask=cython.long,
        child_mask=cython.long,
        code=cython.int,
        bit=cython.int,
        k=cython.Py_ssize_t,
        n=cython.Py_ssize_t,
        j=cython.Py_ssize_t,
        node=tuple,
        own_laid=list,
        blank_laid=list,
        here=cython.int,
        run=str,
        letters=str,
        children=tuple,
        child=tuple,
        placed=list,
    )
    @cython.returns(cython.void)
    def extend(self, i, node, main_points, multiplier, cross_points, start, used):
        """Lay a tile on the empty square i, the word so far spanning start..i-1."""
        if i > self.anchor and node[2] and i - start >= 2:
            self.record(i, start, main_points, multiplier, cross_points)
        if i == SIZE or used == self.rack_length:
            return
        after = self.next_free[i]
        if after - start > self.max_length:
            return
        mask = self.cross_mask[i]
        here = self.cross_here[i]
        letter_mult = self.lm[i]
        new_multiplier = multiplier
        if self.wm[i] != 1:
            new_multiplier = self.combine(multiplier, self.wm[i])
        run = self.runs[i]
        main_points += self.run_points[i]
        blank_cross = cross_points
        if here:
            blank_cross += self.blank_points[i]
        # Past the last rack tile or the edge only a word end is of use: such a
        # word is recorded here rather than through a call that would only record it.
        end_only = used + 1 == self.rack_length or after == SIZE
        after_mask = self.cross_mask[after]
        placed = self.placed
        blanks = self.counts[BLANK_CODE]
        every_way = self.every_way
        used += 1
        own_laid, blank_laid = self.own_laid[i], self.blank_laid[i]
        letters, children = node[0], node[1]
        n = len(letters)
        for k in range(n):
            code = ord(letters[k])
            bit = code - 97
            if not (mask >> bit) & 1:
                continue  # the cross word it would make is no word
            own = self.counts[code]
            if not own and not blanks:
                continue  # no tile left for this letter
            points = self.cross_points[i][bit] if here else 0
            child = children[k]
            for tile in run:
                j = cython.cast(str, child[0]).find(tile)
                if j < 0:
                    break
                child = cython.cast(tuple, child[1])[j]
            else:
                if not child[2]:
                    if end_only:
                        continue
                    child_mask = child[3]
                    if not (after_mask & child_mask):
                        continue  # no letter the next square allows goes on with the word
                if own:
                    self.counts[code] = own - 1
                    placed.append(own_laid[bit])
                    letter_points = self.letter_values[code] * letter_mult
                    if end_only:
                        self.record(after, start, main_points + letter_points, new_multiplier, cross_points + points)
                    else:
                        self.extend(
                            after,
                            child,
                            main_points + letter_points,
                            new_multiplier,
                            cross_points + points,
                            start,
                            used,
                        )
                    placed.pop()
                    self.counts[code] = own
                if blanks and (every_way or not own):
                    self.counts[BLANK_CODE] = blanks - 1
                    placed.append(blank_laid[bit])
                    if end_only:
                        self.record(after, start, main_points, new_multiplier, blank_cross)
                    else:
                        self.extend(after, child, main_points, new_multiplier, blank_cross, start, used)
                    placed.pop()
                    self.counts[BLANK_CODE] = blanks

    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.locals(
        at=cython.int,
        start=cython.int,
        limit=cython.int,
        j=cython.int,
        after=cython.int,
        multiplier=cython.int,
        blank_points_here=cython.int,
        size=cython.int,
        end_only=cython.bint,
        record_here=cython.bint,
        main_points=cython.int,
        points=cython.int,
        run_points_here=cython.int,
        rack_length=cython.int,
        anchor=cython.int,
        k=cython.Py_ssize_t,
        code=cython.int,
        bit=cython.int,
        after_mask=cython.long,
        child_mask=cython.long,
        used_tile=cython.Py_UCS4,
        child=tuple,
        letter_mult=cython.int,
        placed=list,
        tiles=list,
        checks=dict,
        run=str,
        left_used=str,
        index=dict,
        entries=list,
        own_laid=list,
        blank_laid=list,
    )
    def __call__(self, at, size_floor: list | None = None) -> None:
        self.anchor = anchor = at
        tiles = self.tiles
        rack_length = self.rack_length
        if anchor > 0 and tiles[anchor - 1] is not None:
            start = anchor - 1
            while start > 0 and tiles[start - 1] is not None:
                start -= 1
            node = walk(self.root, tiles[start:anchor])
            if node is not None:
                self.left_word = self.left_used = ""
                self.extend(anchor, node, sum(self.tile_values[start:anchor]), 1, 0, start, 0)
            return
        out = self.out
        is_anchor = self.is_anchor
        limit = 0
        j = anchor - 1
        while j >= 0 and tiles[j] is None and not is_anchor[j] and limit < rack_length - 1:
            limit += 1
            j -= 1
        if size_floor is not None:
            floor = out.floor
            while limit and size_floor[limit] < floor:
                limit -= 1
        every_way = self.every_way
        left_parts = self.call.left_parts(limit, every_way)
        by_size, followed_by = left_parts.by_size, left_parts.followed_by
        # Left parts are looked up by the letter they need on the anchor, so only
        # letters passing the anchor's cross-check are ever tried there.
        checks = self.cross[anchor]
        letters_here = checks.items() if checks is not None else _FREE
        after = self.next_free[anchor]
        run = self.runs[anchor]
        run_points_here = self.run_points[anchor]
        after_mask = self.cross_mask[after]
        multiplier = self.combine(1, self.wm[anchor])
        blank_points_here = 0 if checks is None else self.blank_points[anchor]
        placed = self.placed
        letter_mult = self.lm[anchor]
        own_laid, blank_laid = self.own_laid[anchor], self.blank_laid[anchor]
        sizes = range(limit + 1)
        if size_floor is not None:
            # Likeliest sizes first, so that the floor rises early.
            sizes = sorted(sizes, key=lambda size: -size_floor[size])
        for size in sizes:
            start = anchor - size
            if after - start > self.max_length:
                continue
            if size_floor is not None and size_floor[size] < out.floor:
                continue
            end_only = size + 1 == rack_length or after == SIZE
            # A word ending right after the anchor is recorded here (when it has two
            # letters or more), as extend would do first thing.
            record_here = end_only and after - start >= 2
            index = by_size[size]
            for letter, points in letters_here:
                entries = index[letter]
                if run and len(entries) > 16:
                    # Before tiles on the board only left parts whose word can go on
                    # with the first of them are worth walking.
                    entries = followed_by(size, letter, run[0])
                code = ord(letter)
                bit = code - 97
                main_points = self.letter_values[code] * letter_mult + run_points_here
                # left_word and left_used are what record reads.
                for child, left_word, left_used, own, blank_ok in entries:
                    for tile in run:
                        k = cython.cast(str, child[0]).find(tile)
                        if k < 0:
                            break
                        child = cython.cast(tuple, child[1])[k]
                    else:
                        if not child[2]:
                            if end_only:
                                continue
                            child_mask = child[3]
                            if not (after_mask & child_mask):
                                continue
                        self.left_word, self.left_used = left_word, left_used
                        for used_tile in left_used:
                            self.counts[ord(used_tile)] -= 1
                        if own:
                            self.counts[code] -= 1
                            placed.append(own_laid[bit])
                            if record_here:
                                self.record(after, start, main_points, multiplier, points)
                            elif not end_only:
                                self.extend(after, child, main_points, multiplier, points, start, size + 1)
                            placed.pop()
                            self.counts[code] += 1
                        if blank_ok and (every_way or not own):
                            self.counts[BLANK_CODE] -= 1
                            placed.append(blank_laid[bit])
                            if record_here:
                                self.record(after, start, run_points_here, multiplier, blank_points_here)
                            elif not end_only:
                                self.extend(
                                    after, child, run_points_here, multiplier, blank_points_here, start, size + 1
                                )
                            placed.pop()
                            self.counts[BLANK_CODE] += 1
                        for used_tile in left_used:
                            self.counts[ord(used_tile)] += 1
        self.left_word = self.left_used = ""
