"""Every legal crossword play for a rack, and the best ones fast: the move generator
behind bots, hints and analysis.

API::

    movegen.generate(board, "aetr?s", crossword.WORD_GRID, lexicon)  # -> [Play, ...]
    movegen.best(board, rack, variant, lexicon)       # highest-scoring play, or None
    movegen.top(board, rack, variant, lexicon, n=10)  # the n highest, best first
    # ranked by equity = score + leave_value(leave) instead; leave_bound is optional
    movegen.best(board, rack, variant, lexicon, leave_value=values.get, leave_bound=30.0)
    play.score; play.placement; play.words; play.leave ("aer?"); play.equity

Generation is Appel & Jacobson's ("The World's Fastest Scrabble Program", 1988) over
the lexicon's DAWG: for each line, the letters each empty square accepts (cross-checks,
with the points of the cross word each would make), anchors (empty squares next to a
tile, the centre on an empty board), left parts laid on the free squares before an
anchor, then letters rightwards through the anchor while the prefix stays in the DAWG.

``best`` and ``top`` do not generate every play. Before an anchor is searched its
*shadow* bound is worked out: the most any play grown from it could score (rack tile
values on the best squares, premium squares, cross words, the whole-rack bonus, the best
leave value), without looking at words. Anchors are searched highest bound first and
the search stops at the first anchor whose bound is below the n-th best play found so
far, so the result is exactly what full generation ranks first. docs/movegen.md tells
how the bounds are made and why they never undercut a real play.

An empty board is searched across only: every play down the centre column is the
mirror of one along the centre row, with the same words and score (the premium squares
are symmetric), so ``generate`` mirrors the across plays and ``top`` adds the mirrors of
the plays that rank.

Each play is produced once: a play lies in one line and is grown from its leftmost
anchor (a left part never covers an anchor), and a single tile with a neighbour across
is produced only across, matching ``evaluate``'s choice of main word.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from itertools import combinations
from operator import mul
from weakref import WeakKeyDictionary

from games.engine.crossword import (
    CENTRE,
    SIZE,
    Board,
    FrozenList,
    Play,
    Variant,
    multiplier_combiner,
    play_total,
    premium_table,
)
from games.engine.tiles import BLANK

# A DAWG node is a tuple (letters, children, is_word): ``letters`` the str of letters
# that continue a word from it, ``children`` the nodes they lead to, in the same order.

_DAWGS: WeakKeyDictionary[object, tuple] = WeakKeyDictionary()
_NO_PLAY = float("-inf")


def dawg(lexicon) -> tuple:
    """The lexicon as linked tuples (one per DAWG node), built once per Lexicon object.

    A tuple per node holds the node's letters (the Lexicon's own interned strings) and
    its children: about 6 MB for the ``en`` list where a dict per node took 11 MB, while
    iterating ``zip(letters, children)`` costs what iterating a dict does.
    """
    try:
        root = _DAWGS.get(lexicon)
    except TypeError:  # a lexicon-like object that cannot be weakly referenced
        return _build_dawg(lexicon)
    if root is None:
        root = _DAWGS[lexicon] = _build_dawg(lexicon)
    return root


def _build_dawg(lexicon) -> tuple:
    if hasattr(lexicon, "tables"):
        node_letters, first, targets, n_final = lexicon.tables()
        # A list indexed by node id: the one-off scaffolding stays small.
        built: list | dict = [None] * len(node_letters)

        def edges(node):
            return node_letters[node], targets[first[node] : first[node + 1]]

        def is_word(node):
            return node < n_final

        def done(node):
            return built[node] is not None
    else:
        letters_of, child_of, is_word = lexicon.letters, lexicon.child, lexicon.is_word
        built = {}

        def edges(node):
            letters = letters_of(node)
            return letters, [child_of(node, letter) for letter in letters]

        def done(node):
            return node in built

    # Children before parents, without recursion (a word list may hold long words).
    stack = [lexicon.root]
    while stack:
        node = stack[-1]
        if done(node):
            stack.pop()
            continue
        letters, targets_of_node = edges(node)
        waiting = [target for target in targets_of_node if not done(target)]
        if waiting:
            stack.extend(waiting)
            continue
        stack.pop()
        built[node] = (letters, tuple([built[target] for target in targets_of_node]), is_word(node))
    return built[lexicon.root]


def _walk(node: tuple | None, letters: Iterable[str]) -> tuple | None:
    for letter in letters:
        if node is None:
            return None
        i = node[0].find(letter)
        node = node[1][i] if i >= 0 else None
    return node


#: Most (tiles before, tiles after) pairs whose cross-check letters are remembered per
#: lexicon; a game meets the same short cross words again and again. About 1 MB.
CROSS_CACHE_SIZE = 4096

_CROSS_CACHES: WeakKeyDictionary[object, dict] = WeakKeyDictionary()


def _cross_cache(lexicon) -> dict:
    try:
        cache = _CROSS_CACHES.get(lexicon)
        if cache is None:
            cache = _CROSS_CACHES[lexicon] = {}
    except TypeError:
        cache = {}
    return cache


def _cross_letters(root: tuple, before: str, after: str) -> str:
    """The letters that make a word of ``before`` + letter + ``after``."""
    node = _walk(root, before)
    if node is None:
        return ""
    letters = []
    for letter, child in zip(node[0], node[1]):
        end = _walk(child, after)
        if end is not None and end[2]:
            letters.append(letter)
    return "".join(letters)


# -- one call: the board, the rack, and each line's squares -----------------------------


class _Line:
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


class _Call:
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
        self.cross_words = _cross_cache(lexicon)
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
        self._left_parts: _LeftParts | None = None

    def directions(self) -> tuple[bool, ...]:
        return (True,) if self.mirror else (True, False)

    def lines(self) -> list[_Line]:
        """Every line holding an anchor, with its cross-checks."""
        result = []
        for across in self.directions():
            for line in range(SIZE):
                squares = _line_squares(line, across)
                anchors = [i for i, square in enumerate(squares) if square in self.anchor_squares]
                if anchors:
                    result.append(self._line(line, across, squares, anchors))
        return result

    def _line(self, line: int, across: bool, squares: list[int], anchors: list[int]) -> _Line:
        data = _Line()
        data.line, data.across, data.anchors = line, across, anchors
        data.is_anchor = [False] * SIZE
        for i in anchors:
            data.is_anchor[i] = True
        data.tiles = [self.cells[s] for s in squares]
        data.tile_values = [self.values[s] for s in squares]
        data.lm = [self.letter_mult[s] for s in squares]
        data.wm = [self.word_mult[s] for s in squares]
        self._cross_checks(data, squares, SIZE if across else 1)
        data.searcher = None
        return data

    def _cross_checks(self, data: _Line, squares: list[int], perpendicular: int) -> None:
        cells, values = self.cells, self.values
        letter_values, combine = self.letter_values, self.combine
        wanted = None if self.has_blank else self.rack_letters
        rack_letters, has_blank = self.rack_letters, self.has_blank
        top_value = self.values_desc[0] if self.values_desc else 0
        known = self.cross_words
        cross: list = [None] * SIZE
        blank_points = [0] * SIZE
        cross_mult = [0] * SIZE
        max_value = [top_value] * SIZE
        # The perpendicular lines as text ("." for an empty square), to cut out the
        # tiles above and below (or left and right of) each square at C speed.
        across_line = perpendicular == 1
        for i, square in enumerate(squares):
            if cells[square] is not None:
                continue
            row, col = divmod(square, SIZE)
            if across_line:
                text, at, first = self.row_text[row], col, row * SIZE
            else:
                text, at, first = self.col_text[col], row, col
            before = text[:at].rsplit(".", 1)[-1]
            after = text[at + 1 :].split(".", 1)[0]
            if not before and not after:
                continue
            fixed = 0
            for k in range(at - len(before), at + len(after) + 1):
                fixed += values[first + k * perpendicular]
            # The cross word's only new square is this one, so its multiplier alone applies.
            lm, wm = self.letter_mult[square], combine(1, self.word_mult[square])
            if len(before) + len(after) >= self.max_length:
                letters = ""  # the cross word would be too long, whatever the letter
            else:
                key = (before, after)
                letters = known.get(key)
                if letters is None:
                    letters = _cross_letters(self.root, before, after)
                    if len(known) >= CROSS_CACHE_SIZE:
                        known.clear()
                    known[key] = letters
            allowed = {}
            best_value = -1
            for letter in letters:
                if wanted is None or letter in wanted:
                    value = letter_values[letter]
                    allowed[letter] = (fixed + value * lm) * wm
                    if value > best_value and letter in rack_letters:
                        best_value = value
            cross[i] = allowed
            blank_points[i] = fixed * wm
            cross_mult[i] = wm
            if best_value < 0:
                best_value = 0 if (allowed and has_blank) else -1
            max_value[i] = best_value  # -1: nothing from this rack can be laid here
        data.cross, data.blank_points = cross, blank_points
        data.cross_mult, data.max_value = cross_mult, max_value

    # -- left parts ----------------------------------------------------------------------

    def left_parts(self, longest: int, every_way: bool, hint: int = 0) -> _LeftParts:
        """The left parts (see ``_LeftParts``), indexed up to at least ``longest``;
        ``hint``, when first asked, is how long any later anchor may need them."""
        if self._left_parts is None:
            self._left_parts = _LeftParts(self.root, self.counts, every_way)
            self._left_parts.hint = hint
        self._left_parts.upto(longest)
        return self._left_parts

    def left_limit(self, data: _Line, anchor: int) -> int:
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


def _line_squares(line: int, across: bool) -> list[int]:
    """Board indexes (row * 15 + col) of a line's squares, left to right or top to bottom."""
    if across:
        return [line * SIZE + i for i in range(SIZE)]
    return [i * SIZE + line for i in range(SIZE)]


# -- collecting plays --------------------------------------------------------------------


class _Plays(list):
    """Where a search puts plays, as (rank, score, placement, across, leave).

    ``rank`` is the score, or the equity when leave values are given. With ``keep``
    set only the plays that can still be among the ``keep`` best (ties included) stay:
    ``floor`` rises to the ``keep``-th best rank found so far and plays below it are
    dropped before their placement is built; anchors whose bound is below it are
    never searched.
    """

    def __init__(self, keep: int | None = None) -> None:
        super().__init__()
        self.keep = keep
        self.floor = _NO_PLAY
        self.check_at = -1 if keep is None else keep

    def trim(self) -> None:
        self.sort(key=lambda play: -play[0])
        self.floor = self[self.keep - 1][0]
        while self[-1][0] < self.floor:
            self.pop()
        self.check_at = len(self) + self.keep


class _Leaves:
    """Leave values for one rack: each leave's value asked once, and the best value any
    leave of each size can have (the bound's leave term)."""

    def __init__(self, call: _Call, leave_value: Callable[[str], float], leave_bound: float | None) -> None:
        self.leave_value = leave_value
        self.values: dict[str, float] = {}
        rack_length = call.rack_length
        if leave_bound is not None:
            self.best_by_played = [float(leave_bound)] * (rack_length + 1)
            return
        best = [_NO_PLAY] * (rack_length + 1)
        tiles = call.rack_tiles
        counts = [call.counts[tile] for tile in tiles]

        def kept(i: int, leave: str) -> None:
            if i == len(tiles):
                played = rack_length - len(leave)
                value = self.value(leave)
                best[played] = max(best[played], value)
                return
            for count in range(counts[i] + 1):
                kept(i + 1, leave + tiles[i] * count)

        kept(0, "")
        self.best_by_played = best

    def value(self, leave: str) -> float:
        value = self.values.get(leave)
        if value is None:
            value = self.values[leave] = self.leave_value(leave)
        return value


_FREE = tuple((letter, 0) for letter in "abcdefghijklmnopqrstuvwxyz")


def _searcher(call: _Call, data: _Line, out: _Plays, leaves: _Leaves | None, every_way: bool):
    """The Appel–Jacobson search of one line, as a function of one anchor.

    ``search(anchor, size_floor)`` appends to ``out`` every play grown from the anchor
    (LeftPart/ExtendRight); with ``size_floor`` (the bound of each left-part size) it
    skips left-part sizes whose bound is below ``out.floor``.

    With ``every_way`` each letter is tried with its own tile and with a blank, as
    generating every play needs. Without it (ranking) the search spells words: a letter
    takes its own tile while one is left, else a blank, and ``record`` lays the blanks
    every way the word allows. The rest of the search is then not repeated for each
    way of laying the blanks.
    """
    line, across = data.line, data.across
    tiles, tile_values, cross, blank_points = (data.tiles, data.tile_values, list(data.cross), data.blank_points)
    lm, wm = data.lm, data.wm
    root, counts, rack_length = call.root, call.counts, call.rack_length
    letter_values, combine, variant = call.letter_values, call.combine, call.variant
    rack_size, max_length, min_length = call.rack_size, call.max_length, call.min_length
    rack_tiles = call.rack_tiles
    spelled_blanks = counts[BLANK] > 0 and not every_way
    doubles = variant.all_tiles_doubles_main
    leave_best = leaves.best_by_played if leaves is not None else None
    leave_of_value = leaves.value if leaves is not None else None
    # (row, col, letter, is_blank) laid from the anchor rightwards: already the
    # placement's own items, so recording a play copies the list as it is.
    placed: list = []
    # Each square of the line as (row, col); for a column the row is the index in it.
    if across:
        rows, cols = [line] * SIZE, list(range(SIZE))
    else:
        rows, cols = list(range(SIZE)), [line] * SIZE
    # The left part laid on the free squares before the anchor: its letters, and the
    # tiles they took ("?" for a blank).
    left_word = left_used = ""
    anchor = 0

    def record(end, start, main_points, multiplier, cross_points):
        # The left part is scored here, not while it grows: far fewer plays are
        # recorded than left parts tried, and only now is its first square known.
        if end - start < min_length:
            return
        tiles_laid = placed
        if left_word:
            tiles_laid = []
            square = anchor - len(left_word)
            for letter, tile in zip(left_word, left_used):
                blank = tile == BLANK
                if not blank:
                    main_points += letter_values[letter] * lm[square]
                multiplier = combine(multiplier, wm[square])
                tiles_laid.append((rows[square], cols[square], letter, blank))
                square += 1
            tiles_laid.extend(placed)
        elif len(placed) == 1 and not across and cross[placed[0][0]] is not None:
            return  # a lone tile with neighbours across is that across play
        count = len(tiles_laid)
        main = main_points * multiplier
        if count == rack_size:
            score = play_total(variant, main, cross_points, count)
        else:
            score = main + cross_points
        if spelled_blanks:
            lay_blanks(tiles_laid, count, score, multiplier)
            return
        floor = out.floor
        if leaves is None:
            if score < floor:
                return
            rank, leave = score, None
        else:
            if score + leave_best[count] < floor:
                return
            leave = "".join([tile * counts[tile] for tile in rack_tiles])
            rank = score + leave_of_value(leave)
            if rank < floor:
                return
        out.append((rank, score, tuple(tiles_laid), across, leave))
        if len(out) == out.check_at:
            out.trim()

    def lay_blanks(tiles_laid, count, score, multiplier):
        """Record each way of laying the rack's blanks in a spelled word.

        A letter spelled with a blank (its own tiles ran out) keeps that many blanks
        among its squares, on any of them; a blank still on the rack may stand for any
        letter too, giving that letter's tile back to the rack. A blank on a square
        loses its letter's points there, in the main word and in the cross word.
        """
        if count == rack_size and doubles:
            multiplier *= 2
        # No way of laying the blanks scores more than all real tiles would.
        all_real = score
        for row, col, letter, blank in tiles_laid:
            if blank:
                square = col if across else row
                all_real += letter_values[letter] * lm[square] * multiplier
                checks = cross[square]
                if checks is not None:
                    all_real += checks[letter] - blank_points[square]
        floor = out.floor
        if all_real + (0 if leaves is None else leave_best[count]) < floor:
            return
        losses = []
        for row, col, letter, _ in tiles_laid:
            square = col if across else row
            loss = letter_values[letter] * lm[square] * multiplier
            checks = cross[square]
            if checks is not None:
                loss += checks[letter] - blank_points[square]
            losses.append(loss)
        needed: dict = {}
        for _, _, letter, blank in tiles_laid:
            if blank:
                needed[letter] = needed.get(letter, 0) + 1
        forced = sum(needed.values())
        spare = counts[BLANK]
        for size in range(forced, forced + spare + 1):
            for chosen in combinations(range(count), size):
                value = all_real
                for k in chosen:
                    value -= losses[k]
                if leaves is None:
                    if value < floor:
                        continue
                elif value + leave_best[count] < floor:
                    continue
                got: dict = {}
                for k in chosen:
                    letter = tiles_laid[k][2]
                    got[letter] = got.get(letter, 0) + 1
                if forced and any(got.get(letter, 0) < number for letter, number in needed.items()):
                    continue
                if leaves is None:
                    rank, leave = value, None
                else:
                    # Each letter keeps one tile for each blank laid for it beyond
                    # those it needed; the rack keeps that many blanks fewer.
                    kept = {tile: counts[tile] for tile in rack_tiles}
                    kept[BLANK] = spare - (size - forced)
                    for letter, number in got.items():
                        if number > needed.get(letter, 0):
                            kept[letter] += number - needed.get(letter, 0)
                    leave = "".join([tile * kept[tile] for tile in rack_tiles])
                    rank = value + leave_of_value(leave)
                    if rank < floor:
                        continue
                placement = tuple(
                    [(row, col, letter, k in chosen) for k, (row, col, letter, _) in enumerate(tiles_laid)]
                )
                out.append((rank, value, placement, across, leave))
                if len(out) == out.check_at:
                    out.trim()
                    floor = out.floor

    # For each empty square: the tiles right after it, their points, and the next empty
    # square, so a letter laid there is checked against those tiles before recursing.
    runs = [""] * (SIZE + 1)
    run_points = [0] * (SIZE + 1)
    next_free = list(range(1, SIZE + 2))
    for i in range(SIZE - 1, -1, -1):
        if i + 1 < SIZE and tiles[i + 1] is not None:
            runs[i] = tiles[i + 1] + runs[i + 1]
            run_points[i] = tile_values[i + 1] + run_points[i + 1]
            next_free[i] = next_free[i + 1]
    cross.append(None)  # the square past the edge: nothing can be laid there

    def extend(i, node, main_points, multiplier, cross_points, start, used):
        """Lay a tile on the empty square i, the word so far spanning start..i-1."""
        if i > anchor and node[2] and i - start >= 2:
            record(i, start, main_points, multiplier, cross_points)
        if i == SIZE or used == rack_length:
            return
        after = next_free[i]
        if after - start > max_length:
            return
        checks = cross[i]
        letter_mult = lm[i]
        new_multiplier = combine(multiplier, wm[i])
        run = runs[i]
        main_points += run_points[i]
        blank_cross = cross_points + (0 if checks is None else blank_points[i])
        # Past the last rack tile or the edge only a word end is of use: such a
        # word is recorded here rather than through a call that would only record it.
        end_only = used + 1 == rack_length or after == SIZE
        after_checks = cross[after]
        blanks = counts[BLANK]
        used += 1
        row, col = rows[i], cols[i]
        for letter, child in zip(node[0], node[1]):
            own = counts[letter]
            if not own and not blanks:
                continue  # no tile left for this letter
            if checks is None:
                points = 0
            else:
                points = checks.get(letter)
                if points is None:
                    continue
            for tile in run:
                k = child[0].find(tile)
                if k < 0:
                    break
                child = child[1][k]
            else:
                if not child[2] and (
                    end_only or (after_checks is not None and after_checks.keys().isdisjoint(child[0]))
                ):
                    continue
                if own:
                    counts[letter] = own - 1
                    placed.append((row, col, letter, False))
                    if end_only:
                        record(
                            after,
                            start,
                            main_points + letter_values[letter] * letter_mult,
                            new_multiplier,
                            cross_points + points,
                        )
                    else:
                        extend(
                            after,
                            child,
                            main_points + letter_values[letter] * letter_mult,
                            new_multiplier,
                            cross_points + points,
                            start,
                            used,
                        )
                    placed.pop()
                    counts[letter] = own
                if blanks and (every_way or not own):
                    counts[BLANK] = blanks - 1
                    placed.append((row, col, letter, True))
                    if end_only:
                        record(after, start, main_points, new_multiplier, blank_cross)
                    else:
                        extend(after, child, main_points, new_multiplier, blank_cross, start, used)
                    placed.pop()
                    counts[BLANK] = blanks

    is_anchor = data.is_anchor

    def search(at: int, size_floor: list | None = None) -> None:
        nonlocal anchor, left_word, left_used
        anchor = at
        row, col = rows[at], cols[at]
        if anchor > 0 and tiles[anchor - 1] is not None:
            start = anchor - 1
            while start > 0 and tiles[start - 1] is not None:
                start -= 1
            node = _walk(root, tiles[start:anchor])
            if node is not None:
                left_word = left_used = ""
                extend(anchor, node, sum(tile_values[start:anchor]), 1, 0, start, 0)
            return
        limit = 0
        j = anchor - 1
        while j >= 0 and tiles[j] is None and not is_anchor[j] and limit < rack_length - 1:
            limit += 1
            j -= 1
        if size_floor is not None:
            floor = out.floor
            while limit and size_floor[limit] < floor:
                limit -= 1
        left_parts = call.left_parts(limit, every_way)
        by_size, followed_by = left_parts.by_size, left_parts.followed_by
        # Left parts are looked up by the letter they need on the anchor, so only
        # letters passing the anchor's cross-check are ever tried there.
        checks = cross[anchor]
        letters_here = checks.items() if checks is not None else _FREE
        after = next_free[anchor]
        run = runs[anchor]
        after_checks = cross[after]
        multiplier = combine(1, wm[anchor])
        blank_points_here = 0 if checks is None else blank_points[anchor]
        sizes = range(limit + 1)
        if size_floor is not None:
            # Likeliest sizes first, so that the floor rises early.
            sizes = sorted(sizes, key=lambda size: -size_floor[size])
        for size in sizes:
            start = anchor - size
            if after - start > max_length:
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
                main_points = letter_values[letter] * lm[anchor] + run_points[anchor]
                # left_word and left_used are the nonlocals that record reads.
                for child, left_word, left_used, own, blank_ok in entries:  # noqa: B007
                    for tile in run:
                        k = child[0].find(tile)
                        if k < 0:
                            break
                        child = child[1][k]
                    else:
                        if not child[2] and (
                            end_only or (after_checks is not None and after_checks.keys().isdisjoint(child[0]))
                        ):
                            continue
                        for tile in left_used:
                            counts[tile] -= 1
                        if own:
                            counts[letter] -= 1
                            placed.append((row, col, letter, False))
                            if record_here:
                                record(after, start, main_points, multiplier, points)
                            elif not end_only:
                                extend(after, child, main_points, multiplier, points, start, size + 1)
                            placed.pop()
                            counts[letter] += 1
                        if blank_ok and (every_way or not own):
                            counts[BLANK] -= 1
                            placed.append((row, col, letter, True))
                            if record_here:
                                record(after, start, run_points[anchor], multiplier, blank_points_here)
                            elif not end_only:
                                extend(after, child, run_points[anchor], multiplier, blank_points_here, start, size + 1)
                            placed.pop()
                            counts[BLANK] += 1
                        for tile in left_used:
                            counts[tile] += 1
        left_word = left_used = ""

    return search


class _LeftParts:
    """Every DAWG prefix the rack can spell, indexed for anchors.

    ``upto(longest)[size][letter]`` lists the left parts of ``size`` letters that a
    word can continue with ``letter``, as (node after that letter, the left part's
    letters, the tiles they take ("?" for a blank), letter still on the rack, blank
    still on the rack). With ``every_way`` a letter is spelled with its own tile and with a blank;
    without, with its own tile while one is left, else a blank (see ``_searcher``).
    The same index serves every anchor of every line; it is built again, longer, only
    if an anchor needs left parts longer than it holds.
    """

    def __init__(self, root: tuple, counts: dict, every_way: bool) -> None:
        self.root, self.counts, self.every_way = root, counts, every_way
        self.by_size: list[dict] = []
        self.followed: dict = {}
        self.hint = 0  # the longest any anchor may need, to build the index only once

    def upto(self, longest: int) -> list[dict]:
        if len(self.by_size) > longest:
            return self.by_size
        longest = max(longest, self.hint)
        counts, every_way = self.counts, self.every_way
        by_size = [{letter: [] for letter in "abcdefghijklmnopqrstuvwxyz"} for _ in range(longest + 1)]

        def grow(node, size, word, used, rest):
            # ``word``: the left part's letters; ``used``: the tiles it took ("?" for
            # a blank), one per letter; ``rest``: the rack tiles still free, sorted
            # ("?" first), so membership and removal are string operations.
            if not rest:
                return
            index = by_size[size]
            deeper = size < longest
            size += 1
            letters, children = node[0], node[1]
            if rest[0] == BLANK:
                after_blank = rest[1:]
                if not deeper:
                    # The longest size: entries only, without a call per child.
                    for letter, child in zip(letters, children):
                        index[letter].append((child, word, used, letter in rest, True))
                    return
                for letter, child in zip(letters, children):
                    # A child without letters ends every word through it: it leads to
                    # no longer left part (the call would only return).
                    if letter in rest:
                        index[letter].append((child, word, used, True, True))
                        if child[0]:
                            grow(child, size, word + letter, used + letter, rest.replace(letter, "", 1))
                            if every_way:
                                grow(child, size, word + letter, used + BLANK, after_blank)
                    else:
                        index[letter].append((child, word, used, False, True))
                        if child[0]:
                            grow(child, size, word + letter, used + BLANK, after_blank)
            else:
                # Without a blank only the rack's own letters can follow: look those
                # up rather than walk every child.
                previous = ""
                for letter in rest:
                    if letter == previous:
                        continue
                    previous = letter
                    k = letters.find(letter)
                    if k >= 0:
                        child = children[k]
                        index[letter].append((child, word, used, True, False))
                        if deeper and child[0]:
                            grow(child, size, word + letter, used + letter, rest.replace(letter, "", 1))

        grow(self.root, 0, "", "", "".join(sorted(tile * count for tile, count in counts.items())))
        self.by_size = by_size
        self.followed = {}
        return by_size

    def followed_by(self, size: int, letter: str, first: str) -> list:
        """The left parts of ``size`` letters before ``letter`` whose word can go on
        with ``first`` after it (kept: other anchors before the same tile ask again)."""
        key = (size, letter, first)
        entries = self.followed.get(key)
        if entries is None:
            entries = self.followed[key] = [entry for entry in self.by_size[size][letter] if first in entry[0][0]]
        return entries


# -- shadow bounds -----------------------------------------------------------------------


def _quick_bound(call: _Call, data: _Line, anchor: int, limit: int, leaves: _Leaves | None) -> float:
    """A quick bound on every play grown from an anchor, however long its left part.

    All the squares any such play could cover are taken at once: their board tiles,
    every word multiplier among them, the rack's values paired with their multipliers,
    the best cross words, the whole-rack bonus if the rack fits. Each play covers a
    subset of them, so none scores more (see ``_size_bounds`` for the exact bound).
    """
    tiles, tile_values = data.tiles, data.tile_values
    lm, wm, cross_mult, max_value, cross_points = (data.lm, data.wm, data.cross_mult, data.max_value, data.blank_points)
    combine = call.combine
    rack_length = call.rack_length
    points = 0
    if limit == 0 and anchor > 0 and tiles[anchor - 1] is not None:
        j = anchor - 1
        while j >= 0 and tiles[j] is not None:
            points += tile_values[j]
            j -= 1
    squares = list(range(anchor - limit, anchor))
    i = anchor
    laid = 0
    while i < SIZE and laid < rack_length and max_value[i] >= 0:
        squares.append(i)
        laid += 1
        i += 1
        while i < SIZE and tiles[i] is not None:
            points += tile_values[i]
            i += 1
    count = min(rack_length, len(squares))
    if count < 1:
        return _NO_PLAY
    multiplier = 1
    for square in squares:
        multiplier = combine(multiplier, wm[square])
    bonus = 0
    if count == call.rack_size:
        bonus = call.variant.all_tiles_bonus
        if call.variant.all_tiles_doubles_main:
            multiplier *= 2
    coefficients = sorted([lm[square] * (multiplier + cross_mult[square]) for square in squares], reverse=True)
    crossing = sorted([cross_points[square] for square in squares], reverse=True)
    bound = points * multiplier + sum(map(mul, call.values_desc, coefficients)) + sum(crossing[:count]) + bonus
    if leaves is not None:
        bound += max(leaves.best_by_played[1 : count + 1])
    return bound


def _size_bounds(call: _Call, data: _Line, anchor: int, limit: int, leaves: _Leaves | None) -> list[float]:
    """For each left-part size an anchor allows, the most a play grown from it with a
    left part of that size can score (plus the best leave value it could keep).

    A play starting ``size`` squares before the anchor covers those free squares, the
    anchor, and rightwards further empty squares (each taking a rack tile that passes
    its cross-check) and the tiles between them. Its score is at most: the board tiles
    of its main word times the word multiplier, plus each cross word's board tiles
    times its multiplier, plus the rack tiles' values on their squares — bounded by the
    rack's values, highest first, paired with the squares' multipliers, highest first,
    and by each square's best allowed tile — plus the whole-rack bonus. Every term grows
    when a square is added, so the longest such span (up to the rack's size and the
    longest word) bounds all the shorter ones with the same start.
    """
    tiles, tile_values = data.tiles, data.tile_values
    lm, wm, cross_mult, max_value, cross_points = (data.lm, data.wm, data.cross_mult, data.max_value, data.blank_points)
    combine = call.combine
    rack_length, rack_size = call.rack_length, call.rack_size
    max_length, min_length = call.max_length, call.min_length
    values = call.values_desc
    variant = call.variant
    bonus_points, doubles = variant.all_tiles_bonus, variant.all_tiles_doubles_main

    if anchor > 0 and tiles[anchor - 1] is not None:
        fixed_start = anchor - 1
        while fixed_start > 0 and tiles[fixed_start - 1] is not None:
            fixed_start -= 1
        points = sum(tile_values[fixed_start:anchor])
    else:
        fixed_start = None
        points = 0
    # The ends a play can reach rightwards: (rack tiles laid from the anchor on, last
    # square of the word, board tiles' points in the word); with, for the first k
    # squares laid, their word multiplier and cross words' board points.
    ends = []
    squares: list[int] = []
    right_mult = [1]
    right_cross = [0]
    i = anchor
    while i < SIZE and len(squares) < rack_length and max_value[i] >= 0:
        squares.append(i)
        right_mult.append(combine(right_mult[-1], wm[i]))
        right_cross.append(right_cross[-1] + cross_points[i])
        j = i + 1
        while j < SIZE and tiles[j] is not None:
            points += tile_values[j]
            j += 1
        ends.append((len(squares), j - 1, points))
        i = j

    bounds = [_NO_PLAY] * (limit + 1)
    left_mult = 1
    for size in range(limit + 1):
        if size:
            left_mult = combine(left_mult, wm[anchor - size])
        start = anchor - size if fixed_start is None else fixed_start
        chosen = -1
        for k, (laid, end, _) in enumerate(ends):
            if laid + size > rack_length or end - start + 1 > max_length:
                break
            chosen = k
        if chosen < 0:
            continue
        laid, end, points = ends[chosen]
        if end - start + 1 < min_length:
            continue
        new = list(range(anchor - size, anchor)) + squares[:laid] if size else squares[:laid]
        multiplier = combine(left_mult, right_mult[laid])
        bonus = 0
        if laid + size == rack_size:
            bonus = bonus_points
            if doubles:
                multiplier *= 2
        coefficients = [lm[square] * (multiplier + cross_mult[square]) for square in new]
        cap = sum(map(mul, [max_value[square] for square in new], coefficients))
        coefficients.sort(reverse=True)
        paired = sum(map(mul, values, coefficients))
        bound = points * multiplier + right_cross[laid] + min(cap, paired) + bonus
        if leaves is not None:
            best = leaves.best_by_played
            bound += max([best[ends[k][0] + size] for k in range(chosen + 1)])
        bounds[size] = bound
    return bounds


# -- the API -----------------------------------------------------------------------------


class RankedPlay(Play):
    """A Play as ``best`` and ``top`` return it: also the tiles kept and the equity.

    ``leave`` is the rack tiles not played, as a sorted string ("?" for a blank);
    ``equity`` is ``score + leave_value(leave)``, or the score when no leave value
    was given.
    """

    __slots__ = ("equity", "leave")

    def __init__(self, score, placement, across, leave: str, equity: float, source=None):
        super().__init__(score, placement, across, source=source)
        object.__setattr__(self, "leave", leave)
        object.__setattr__(self, "equity", equity)

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]} leave={self.leave or '-'} equity={self.equity:g}>"


def leave_of(rack: str, placement) -> str:
    """The rack tiles a placement keeps, sorted, "?" for a blank."""
    kept = list(rack.lower())
    for _, _, letter, blank in placement:
        kept.remove(BLANK if blank else letter)
    return "".join(sorted(kept))


def _mirrored(entry: tuple) -> tuple:
    rank, score, placement, _, leave = entry
    return (rank, score, tuple([(c, r, letter, blank) for r, c, letter, blank in placement]), False, leave)


def generate(board: Board, rack: str, variant: Variant, lexicon) -> list[Play]:
    """Every legal play of ``rack`` ("?" = blank) on ``board``, each with its score.

    Both directions, every blank letter, cross words checked; each placement once.
    """
    call = _Call(board, rack, variant, lexicon)
    out = _Plays()
    if call.rack_length:
        for data in call.lines():
            search = _searcher(call, data, out, None, True)
            for anchor in data.anchors:
                search(anchor)
    if call.mirror:
        out.extend([_mirrored(entry) for entry in out])
    source = (board, variant)
    return [_play(score, placement, across, source) for _, score, placement, across, _ in out]


# Plays are built by setting Play's slots directly: the same values Play.__init__ sets,
# at half its cost, which counts when a position has thousands of plays.
_new_play = Play.__new__
_set_score, _set_placement, _set_across, _set_words, _set_source = (
    Play.score.__set__,
    Play.placement.__set__,
    Play.across.__set__,
    Play._words.__set__,
    Play._source.__set__,
)


def _play(score: int, placement: tuple, across: bool, source) -> Play:
    play = _new_play(Play)
    _set_score(play, score)
    _set_placement(play, FrozenList(placement))
    _set_across(play, across)
    _set_words(play, None)
    _set_source(play, source)
    return play


def top(
    board: Board,
    rack: str,
    variant: Variant,
    lexicon,
    n: int = 10,
    *,
    leave_value: Callable[[str], float] | None = None,
    leave_bound: float | None = None,
) -> list[RankedPlay]:
    """The ``n`` best plays, best first (equal ones ordered by their squares, so
    ``top(n)`` always extends ``top(n - 1)``).

    Without ``leave_value`` plays are ranked by score. With it, a callable taking a
    leave (the rack tiles kept, as a sorted string, "?" for blanks) and returning a
    float, plays are ranked by equity = score + leave_value(leave). The search asks
    ``leave_value`` about every leave the rack allows (at most 256), to bound each
    anchor's best equity; a caller whose leave values are costly may pass
    ``leave_bound`` instead, a number no leave value exceeds (a looser bound makes the
    search slower, never wrong). Each returned play carries ``leave`` and ``equity``
    as well as ``score``, ``words`` and ``placement``.
    """
    if n <= 0:
        return []
    call = _Call(board, rack, variant, lexicon)
    leaves = None if leave_value is None else _Leaves(call, leave_value, leave_bound)
    out = _Plays(n)
    if call.rack_length:
        # Every anchor first gets a quick bound (all the squares it could reach at
        # once); only an anchor still above the n-th best when its turn comes gets its
        # exact bound per left-part size, and only one still above then is searched.
        heap = []
        longest = 0
        for data in call.lines():
            for anchor in data.anchors:
                limit = call.left_limit(data, anchor)
                bound = _quick_bound(call, data, anchor, limit, leaves)
                if bound > _NO_PLAY:
                    # With no room for a left part, the quick bound takes the same
                    # squares as the exact one would: it serves as that anchor's.
                    heap.append((-bound, len(heap), None if limit else [bound], data, anchor, limit))
                    longest = max(longest, limit)
        heapq.heapify(heap)
        serial = len(heap)
        while heap:
            negative, _, bounds, data, anchor, limit = heapq.heappop(heap)
            if -negative < out.floor:
                break
            if bounds is None:
                bounds = _size_bounds(call, data, anchor, limit, leaves)
                bound = max(bounds)
                if bound > _NO_PLAY:
                    heapq.heappush(heap, (-bound, serial, bounds, data, anchor, limit))
                    serial += 1
                continue
            if data.searcher is None:
                data.searcher = _searcher(call, data, out, leaves, False)
                call.left_parts(0, False, longest)
            data.searcher(anchor, bounds)
    found = list(out)
    if call.mirror:
        found.extend([_mirrored(entry) for entry in found])
    chosen = heapq.nsmallest(n, found, key=lambda entry: (-entry[0], sorted(entry[2])))
    source = (board, variant)
    return [
        RankedPlay(
            score, placement, across, leave if leave is not None else leave_of(rack, placement), rank, source=source
        )
        for rank, score, placement, across, leave in chosen
    ]


def best(
    board: Board,
    rack: str,
    variant: Variant,
    lexicon,
    *,
    leave_value: Callable[[str], float] | None = None,
    leave_bound: float | None = None,
) -> RankedPlay | None:
    """The best play (by score, or by equity with ``leave_value``; see ``top``), or
    None when the rack has no legal play."""
    plays = top(board, rack, variant, lexicon, 1, leave_value=leave_value, leave_bound=leave_bound)
    return plays[0] if plays else None
