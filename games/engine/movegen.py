"""Every legal crossword play for a rack: the move generator behind bots, hints and analysis.

API::

    movegen.generate(board, "aetr?s", crossword.WORD_GRID, lexicon)  # -> [Play, ...]
    movegen.best(board, rack, variant, lexicon)       # highest-scoring Play, or None
    movegen.top(board, rack, variant, lexicon, n=10)  # the n highest, best first
    # ranked by equity = score + leave_value(leave) instead; leave_bound is optional
    movegen.best(board, rack, variant, lexicon, leave_value=values.get, leave_bound=30.0)
    play.score; play.placement; play.words; play.leave ("aer?"); play.equity

The algorithm is Appel & Jacobson's ("The World's Fastest Scrabble Program", 1988) over
the lexicon's DAWG. For each line (the 15 rows, then the 15 columns read as rows) it
works out, for every empty square with tiles above or below it (beside it, for columns),
which letters make a valid cross word and what that cross word would score. Anchors are
the empty squares next to a tile (only the centre on an empty board). A play is grown
from each anchor: a left part on the free squares before it (or the tiles already
there), then letters rightwards through the anchor while the prefix stays in the DAWG
and each letter passes its square's cross-check. A blank tries every letter the DAWG
allows there. Scores are accumulated square by square with the multiplier rule of
``crossword.multiplier_combiner`` and finished with ``crossword.play_total``, the same
functions ``evaluate`` uses.

What makes it fast enough in pure Python (DESIGN.md budgets): the DAWG is copied once
per lexicon into nested dicts; cross-checks are dicts letter -> cross-word points, so
one lookup both checks and scores; the left parts a rack can spell are enumerated once
per call and indexed by the letter they need on the anchor, so an anchor only meets
left parts that fit its cross-check; a letter is walked through the tiles right after
its square, and the next empty square's cross-check is looked at, before recursing;
left parts are scored only when a play is recorded.

Each play is produced once: a play lies in one line and is grown from its leftmost
anchor (a left part never covers an anchor), and a single tile with a neighbour across
is produced only across, matching ``evaluate``'s choice of main word.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from weakref import WeakKeyDictionary

from games.engine.crossword import (
    CENTRE,
    SIZE,
    Board,
    Play,
    Variant,
    multiplier_combiner,
    play_total,
    premium_table,
)
from games.engine.tiles import BLANK

# A DAWG node is a dict letter -> child node; END is present in nodes that end a word.
END = None

_DAWGS: WeakKeyDictionary[object, dict] = WeakKeyDictionary()


def dawg(lexicon) -> dict:
    """The lexicon as nested dicts (one per DAWG node), built once per Lexicon object.

    Dict lookups are the fastest traversal Python offers; sharing the lexicon's minimal
    automaton keeps the copy small (one dict per node, not per prefix).
    """
    try:
        root = _DAWGS.get(lexicon)
    except TypeError:  # a lexicon-like object that cannot be weakly referenced
        return _build_dawg(lexicon)
    if root is None:
        root = _DAWGS[lexicon] = _build_dawg(lexicon)
    return root


def _build_dawg(lexicon) -> dict:
    # letters() and child() rather than children(): they leave the lexicon's own
    # cache of children tuples alone.
    letters, child_of, is_word = lexicon.letters, lexicon.child, lexicon.is_word
    nodes = {lexicon.root: {}}
    stack = [lexicon.root]
    while stack:
        node = stack.pop()
        edges = nodes[node]
        for letter in letters(node):
            target = child_of(node, letter)
            child = nodes.get(target)
            if child is None:
                child = nodes[target] = {}
                stack.append(target)
            edges[letter] = child
        if is_word(node):
            edges[END] = True
    return nodes[lexicon.root]


def _walk(node: dict | None, letters: Iterable[str]) -> dict | None:
    for letter in letters:
        if node is None:
            return None
        node = node.get(letter)
    return node


# -- per-line data ----------------------------------------------------------------------

def _line_squares(line: int, across: bool) -> list[int]:
    """Board indexes (row * 15 + col) of a line's squares, left to right or top to bottom."""
    if across:
        return [line * SIZE + i for i in range(SIZE)]
    return [i * SIZE + line for i in range(SIZE)]


def _cross_checks(cells, values, root, squares, perpendicular, letter_mult, word_mult,
                  letter_values, max_length, combine):
    """For each square of a line: None if no cross word can form there, else a dict
    letter -> points of the cross word that letter would make (letters absent from the
    dict are refused); plus the cross word's points with a blank there."""
    cross = [None] * SIZE
    blank_points = [0] * SIZE
    for i, square in enumerate(squares):
        if cells[square] is not None:
            continue
        before = []
        j = square - perpendicular
        while j >= 0 and _same_line(j, square, perpendicular) and cells[j] is not None:
            before.append(j)
            j -= perpendicular
        after = []
        j = square + perpendicular
        while j < SIZE * SIZE and _same_line(j, square, perpendicular) and cells[j] is not None:
            after.append(j)
            j += perpendicular
        if not before and not after:
            continue
        before.reverse()
        fixed = sum(values[j] for j in before) + sum(values[j] for j in after)
        # The cross word's only new square is this one, so its multiplier alone applies.
        lm, wm = letter_mult[square], combine(1, word_mult[square])
        allowed = {}
        node = _walk(root, (cells[j] for j in before))
        if node is not None and len(before) + len(after) < max_length:
            tail = [cells[j] for j in after]
            for letter, child in node.items():
                if letter is END:
                    continue
                end = _walk(child, tail)
                if end is not None and END in end:
                    allowed[letter] = (fixed + letter_values[letter] * lm) * wm
        cross[i] = allowed
        blank_points[i] = fixed * wm
    return cross, blank_points


def _same_line(a: int, b: int, step: int) -> bool:
    # A step of 1 runs along a row and must not wrap onto the next one.
    return step != 1 or a // SIZE == b // SIZE


# -- generation -------------------------------------------------------------------------

class _Plays(list):
    """Where generation puts plays, as (score, placement, across).

    With ``best`` set it keeps only the plays that can still be among the ``best``
    highest (ties included): ``floor`` rises as better plays come, and plays below it
    are dropped before their placement is even built.
    """

    def __init__(self, best: int | None = None) -> None:
        super().__init__()
        self.best = best
        self.floor = -1
        self.check_at = -1 if best is None else 4 * best + 256

    def trim(self) -> None:
        self.sort(key=lambda play: -play[0])
        self.floor = self[self.best - 1][0]
        while self[-1][0] < self.floor:
            self.pop()
        self.check_at = len(self) + 4 * self.best + 256


def _raw_plays(board: Board, rack: str, variant: Variant, lexicon, best: int | None = None):
    """Every legal play as (score, placement, across); see ``_Plays`` for ``best``."""
    root = dawg(lexicon)
    letter_values = variant.letter_values
    combine = multiplier_combiner(variant)
    letter_mult, word_mult = premium_table(variant)
    rack_size = variant.rack_size
    max_length = variant.max_word_length
    cells = [None if letter == "." else letter for letter in board.cells]
    values = [0] * (SIZE * SIZE)
    for index, letter in enumerate(cells):
        if letter is not None and (index // SIZE, index % SIZE) not in board.blanks:
            values[index] = letter_values[letter]
    first_move = all(letter is None for letter in cells)
    min_length = variant.first_word_min_length if first_move else 2

    counts = dict.fromkeys("abcdefghijklmnopqrstuvwxyz", 0)
    counts[BLANK] = 0
    rack = rack.lower()
    for tile in rack:
        counts[tile] += 1
    rack_length = len(rack)

    filled = [letter is not None for letter in cells]
    anchor_squares = set()
    if first_move:
        anchor_squares.add(CENTRE[0] * SIZE + CENTRE[1])
    else:
        for index in range(SIZE * SIZE):
            if filled[index]:
                continue
            row, col = divmod(index, SIZE)
            if ((col > 0 and filled[index - 1]) or (col < SIZE - 1 and filled[index + 1])
                    or (row > 0 and filled[index - SIZE])
                    or (row < SIZE - 1 and filled[index + SIZE])):
                anchor_squares.add(index)

    left_parts = _left_parts(
        root, counts, _longest_left_part(anchor_squares, filled, rack_length - 1))
    out = _Plays(best)
    for across in (True, False):
        perpendicular = SIZE if across else 1
        for line in range(SIZE):
            squares = _line_squares(line, across)
            anchors = [i for i, square in enumerate(squares) if square in anchor_squares]
            if not anchors:
                continue
            cross, blank_points = _cross_checks(
                cells, values, root, squares, perpendicular, letter_mult, word_mult,
                letter_values, max_length, combine)
            _line_plays(
                out, line, across, [cells[s] for s in squares], [values[s] for s in squares],
                cross, blank_points, [letter_mult[s] for s in squares],
                [word_mult[s] for s in squares], anchors, root, counts, rack_length,
                letter_values, combine, variant, rack_size, max_length, min_length,
                left_parts)
    return out


def _longest_left_part(anchor_squares, filled, most: int) -> int:
    """The most free squares before any anchor (across or down) that a left part may use."""
    longest = 0
    for square in anchor_squares:
        row, col = divmod(square, SIZE)
        for step, room in ((1, col), (SIZE, row)):
            size = 0
            j = square - step
            while size < room and size < most and not filled[j] and j not in anchor_squares:
                size += 1
                j -= step
            longest = max(longest, size)
    return max(longest, 0)


def _line_plays(out, line, across, tiles, tile_values, cross, blank_points, lm, wm,
                anchors, root, counts, rack_length, letter_values, combine, variant,
                rack_size, max_length, min_length, left_parts):
    """Append every play of one line to ``out`` (Appel–Jacobson LeftPart/ExtendRight)."""
    is_anchor = [False] * SIZE
    for i in anchors:
        is_anchor[i] = True
    placed: list = []  # (index in line, letter, is_blank) laid from the anchor rightwards
    left_part: tuple = ()  # (letter, is_blank) laid on the free squares before the anchor
    anchor = 0

    def record(end, start, main_points, multiplier, cross_points):
        # The left part is scored here, not while it grows: far fewer plays are
        # recorded than left parts tried, and only now is its first square known.
        if end - start < min_length:
            return
        tiles_laid = placed
        if left_part:
            tiles_laid = []
            square = anchor - len(left_part)
            for letter, blank in left_part:
                if not blank:
                    main_points += letter_values[letter] * lm[square]
                multiplier = combine(multiplier, wm[square])
                tiles_laid.append((square, letter, blank))
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
        if score < out.floor:
            return
        if across:
            placement = tuple([(line, i, letter, blank) for i, letter, blank in tiles_laid])
        else:
            placement = tuple([(i, line, letter, blank) for i, letter, blank in tiles_laid])
        out.append((score, placement, across))
        if len(out) == out.check_at:
            out.trim()

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
        if i > anchor and END in node and i - start >= 2:
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
        # Past the last rack tile or the edge only a word end is of use.
        end_only = used + 1 == rack_length or after == SIZE
        after_checks = cross[after]
        blanks = counts[BLANK]
        used += 1
        for letter, child in node.items():
            if letter is END:
                continue
            if checks is None:
                points = 0
            else:
                points = checks.get(letter)
                if points is None:
                    continue
            for tile in run:
                child = child.get(tile)
                if child is None:
                    break
            else:
                if END not in child and (end_only or (
                        after_checks is not None and after_checks.keys().isdisjoint(child))):
                    continue
                if counts[letter]:
                    counts[letter] -= 1
                    placed.append((i, letter, False))
                    extend(after, child, main_points + letter_values[letter] * letter_mult,
                           new_multiplier, cross_points + points, start, used)
                    placed.pop()
                    counts[letter] += 1
                if blanks:
                    counts[BLANK] = blanks - 1
                    placed.append((i, letter, True))
                    extend(after, child, main_points, new_multiplier, blank_cross, start, used)
                    placed.pop()
                    counts[BLANK] = blanks

    for anchor in anchors:
        if anchor > 0 and tiles[anchor - 1] is not None:
            start = anchor - 1
            while start > 0 and tiles[start - 1] is not None:
                start -= 1
            node = _walk(root, tiles[start:anchor])
            if node is not None:
                left_part = ()
                extend(anchor, node, sum(tile_values[start:anchor]), 1, 0, start, 0)
            continue
        limit = 0
        j = anchor - 1
        while j >= 0 and tiles[j] is None and not is_anchor[j] and limit < rack_length - 1:
            limit += 1
            j -= 1
        # Left parts are looked up by the letter they need on the anchor, so only
        # letters passing the anchor's cross-check are ever tried there.
        checks = cross[anchor]
        letters_here = checks.items() if checks is not None else _FREE
        after = next_free[anchor]
        run = runs[anchor]
        after_checks = cross[after]
        multiplier = combine(1, wm[anchor])
        blank_points_here = 0 if checks is None else blank_points[anchor]
        for size in range(limit + 1):
            start = anchor - size
            if after - start > max_length:
                break
            end_only = size + 1 == rack_length or after == SIZE
            index = left_parts[size]
            for letter, points in letters_here:
                entries = index.get(letter)
                if entries is None:
                    continue
                main_points = letter_values[letter] * lm[anchor] + run_points[anchor]
                for child, left_part, used, real_ok, blank_ok in entries:
                    for tile in run:
                        child = child.get(tile)
                        if child is None:
                            break
                    else:
                        if END not in child and (end_only or (
                                after_checks is not None
                                and after_checks.keys().isdisjoint(child))):
                            continue
                        for tile in used:
                            counts[tile] -= 1
                        if real_ok:
                            counts[letter] -= 1
                            placed.append((anchor, letter, False))
                            extend(after, child, main_points, multiplier, points, start, size + 1)
                            placed.pop()
                            counts[letter] += 1
                        if blank_ok:
                            counts[BLANK] -= 1
                            placed.append((anchor, letter, True))
                            extend(after, child, run_points[anchor], multiplier,
                                   blank_points_here, start, size + 1)
                            placed.pop()
                            counts[BLANK] += 1
                        for tile in used:
                            counts[tile] += 1


_FREE = tuple((letter, 0) for letter in "abcdefghijklmnopqrstuvwxyz")


def _left_parts(root: dict, counts: dict, longest: int) -> list[dict]:
    """Every DAWG prefix the rack can spell, up to ``longest`` letters, indexed for anchors.

    ``result[size][letter]`` lists the left parts of ``size`` letters that a word can
    continue with ``letter``, as (node after that letter, ((letter, is_blank), ...) of
    the left part, tiles it uses, letter still on the rack, blank still on the rack).
    The same index serves every anchor of every line.
    """
    by_size: list[dict] = [{} for _ in range(longest + 1)]
    spelled: list = []
    used: list = []

    def grow(node):
        size = len(spelled)
        index = by_size[size]
        left_part = tuple(spelled)
        tiles_used = tuple(used)
        blanks = counts[BLANK]
        for letter, child in node.items():
            if letter is END:
                continue
            real_ok = counts[letter] > 0
            if real_ok or blanks:
                entry = (child, left_part, tiles_used, real_ok, blanks > 0)
                entries = index.get(letter)
                if entries is None:
                    index[letter] = [entry]
                else:
                    entries.append(entry)
        if size == longest:
            return
        for letter, child in node.items():
            if letter is END:
                continue
            if counts[letter]:
                counts[letter] -= 1
                spelled.append((letter, False))
                used.append(letter)
                grow(child)
                used.pop()
                spelled.pop()
                counts[letter] += 1
            if blanks:
                counts[BLANK] = blanks - 1
                spelled.append((letter, True))
                used.append(BLANK)
                grow(child)
                used.pop()
                spelled.pop()
                counts[BLANK] = blanks

    grow(root)
    return by_size


def generate(board: Board, rack: str, variant: Variant, lexicon) -> list[Play]:
    """Every legal play of ``rack`` ("?" = blank) on ``board``, each with its score.

    Both directions, every blank letter, cross words checked; each placement once.
    """
    source = (board, variant)
    return [Play(score, placement, across, source=source)
            for score, placement, across in _raw_plays(board, rack, variant, lexicon)]


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


def top(board: Board, rack: str, variant: Variant, lexicon, n: int = 10, *,
        leave_value=None, leave_bound: float | None = None) -> list[RankedPlay]:
    """The ``n`` best plays, best first (ties in a fixed order: by squares).

    Without ``leave_value`` plays are ranked by score. With it, a callable taking a
    leave (the rack tiles kept, as a sorted string, "?" for blanks) and returning a
    float, plays are ranked by equity = score + leave_value(leave). ``leave_bound``,
    if given, must be at least every value ``leave_value`` can return for this rack;
    the search may use it to skip plays that cannot rank. Each returned play carries
    ``leave`` and ``equity`` as well as ``score``, ``words`` and ``placement``.
    """
    source = (board, variant)
    if leave_value is None:
        raw = _raw_plays(board, rack, variant, lexicon, best=max(n, 1))
        ranked = [(score, placement, across, score) for score, placement, across in raw]
    else:
        values: dict[str, float] = {}
        ranked = []
        for score, placement, across in _raw_plays(board, rack, variant, lexicon):
            leave = leave_of(rack, placement)
            value = values.get(leave)
            if value is None:
                value = values[leave] = leave_value(leave)
            ranked.append((score, placement, across, score + value))
    # Equal equities are ordered by placement, so top(n) always extends top(n - 1).
    chosen = heapq.nsmallest(n, ranked, key=lambda r: (-r[3], sorted(r[1])))
    return [RankedPlay(score, placement, across, leave_of(rack, placement), equity,
                       source=source)
            for score, placement, across, equity in chosen]


def best(board: Board, rack: str, variant: Variant, lexicon, *, leave_value=None,
         leave_bound: float | None = None) -> RankedPlay | None:
    """The best play (by score, or by equity with ``leave_value``; see ``top``), or
    None when the rack has no legal play."""
    plays = top(board, rack, variant, lexicon, 1, leave_value=leave_value,
                leave_bound=leave_bound)
    return plays[0] if plays else None
