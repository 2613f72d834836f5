"""Every legal crossword play for a rack: the move generator behind bots, hints and analysis.

API::

    movegen.generate(board, "aetr?s", crossword.WORD_GRID, lexicon)  # -> [Play, ...]
    movegen.best(board, rack, variant, lexicon)       # highest-scoring Play, or None
    movegen.top(board, rack, variant, lexicon, n=10)  # the n highest, best first

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

Each play is produced once: a play lies in one line and is grown from its leftmost
anchor (a left part never covers an anchor), and a single tile with neighbours on both
axes is produced only across, matching ``evaluate``'s choice of main word.
"""

from __future__ import annotations

import heapq
from typing import Iterable
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

_DAWGS: "WeakKeyDictionary[object, dict]" = WeakKeyDictionary()


def dawg(lexicon) -> dict:
    """The lexicon as nested dicts (one per DAWG node), built once per Lexicon object.

    Dict lookups are the fastest traversal Python offers; sharing the lexicon's minimal
    automaton keeps the copy small (one dict per node, not per prefix).
    """
    root = _DAWGS.get(lexicon)
    if root is None:
        root = _DAWGS[lexicon] = _build_dawg(lexicon)
    return root


def _build_dawg(lexicon) -> dict:
    children, is_word = lexicon.children, lexicon.is_word
    nodes = {lexicon.root: {}}
    stack = [lexicon.root]
    while stack:
        node = stack.pop()
        edges = nodes[node]
        for letter, target in children(node):
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
                  letter_values, max_length):
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
        lm, wm = letter_mult[square], word_mult[square]
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

def _raw_plays(board: Board, rack: str, variant: Variant, lexicon):
    """Every legal play as (score, placement, across)."""
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

    out: list = []
    for across in (True, False):
        perpendicular = SIZE if across else 1
        for line in range(SIZE):
            squares = _line_squares(line, across)
            anchors = [i for i, square in enumerate(squares) if square in anchor_squares]
            if not anchors:
                continue
            cross, blank_points = _cross_checks(
                cells, values, root, squares, perpendicular, letter_mult, word_mult,
                letter_values, max_length)
            _line_plays(
                out, line, across, [cells[s] for s in squares], [values[s] for s in squares],
                cross, blank_points, [letter_mult[s] for s in squares],
                [word_mult[s] for s in squares], anchors, root, counts, rack_length,
                letter_values, combine, variant, rack_size, max_length, min_length)
    return out


def _line_plays(out, line, across, tiles, tile_values, cross, blank_points, lm, wm,
                anchors, root, counts, rack_length, letter_values, combine, variant,
                rack_size, max_length, min_length):
    """Append every play of one line to ``out`` (Appel–Jacobson LeftPart/ExtendRight)."""
    is_anchor = [False] * SIZE
    for i in anchors:
        is_anchor[i] = True
    placed: list = []  # (index in line, letter, is_blank) of the tiles laid so far
    anchor = 0

    def record(end, start, main_points, multiplier, cross_points):
        if end - start < min_length:
            return
        count = len(placed)
        if count == 1 and not across and cross[placed[0][0]] is not None:
            return  # a lone tile with neighbours across is that across play
        main = main_points * multiplier
        if count == rack_size:
            score = play_total(variant, main, cross_points, count)
        else:
            score = main + cross_points
        if across:
            placement = tuple([(line, i, letter, blank) for i, letter, blank in placed])
        else:
            placement = tuple([(i, line, letter, blank) for i, letter, blank in placed])
        out.append((score, placement, across))

    def extend(i, node, main_points, multiplier, cross_points, start):
        """Grow the word spanning start..i-1 by the square at i."""
        if i < SIZE:
            letter = tiles[i]
            if letter is not None:
                child = node.get(letter)
                if child is not None and i - start < max_length:
                    extend(i + 1, child, main_points + tile_values[i], multiplier,
                           cross_points, start)
                return
        if i > anchor and END in node and i - start >= 2:
            record(i, start, main_points, multiplier, cross_points)
        if i == SIZE or i - start >= max_length or len(placed) == rack_length:
            return
        checks = cross[i]
        letter_mult = lm[i]
        new_multiplier = combine(multiplier, wm[i])
        blanks = counts[BLANK]
        for letter, child in node.items():
            if letter is END:
                continue
            if checks is None:
                points = 0
            else:
                points = checks.get(letter)
                if points is None:
                    continue
            if counts[letter]:
                counts[letter] -= 1
                placed.append((i, letter, False))
                extend(i + 1, child, main_points + letter_values[letter] * letter_mult,
                       new_multiplier, cross_points + points, start)
                placed.pop()
                counts[letter] += 1
            if blanks:
                counts[BLANK] = blanks - 1
                placed.append((i, letter, True))
                extend(i + 1, child, main_points, new_multiplier,
                       cross_points + (0 if checks is None else blank_points[i]), start)
                placed.pop()
                counts[BLANK] = blanks

    left_part: list = []  # (letter, is_blank) laid on the free squares before the anchor

    def left(node, limit):
        """Try each left part spelled so far, then every longer one."""
        size = len(left_part)
        if size:
            start = anchor - size
            main_points = 0
            multiplier = 1
            for offset, (letter, blank) in enumerate(left_part):
                square = start + offset
                if not blank:
                    main_points += letter_values[letter] * lm[square]
                multiplier = combine(multiplier, wm[square])
                placed.append((square, letter, blank))
            extend(anchor, node, main_points, multiplier, 0, start)
            placed.clear()
        else:
            extend(anchor, node, 0, 1, 0, anchor)
        if size == limit:
            return
        blanks = counts[BLANK]
        for letter, child in node.items():
            if letter is END:
                continue
            if counts[letter]:
                counts[letter] -= 1
                left_part.append((letter, False))
                left(child, limit)
                left_part.pop()
                counts[letter] += 1
            if blanks:
                counts[BLANK] = blanks - 1
                left_part.append((letter, True))
                left(child, limit)
                left_part.pop()
                counts[BLANK] = blanks

    for anchor in anchors:
        if anchor > 0 and tiles[anchor - 1] is not None:
            start = anchor - 1
            while start > 0 and tiles[start - 1] is not None:
                start -= 1
            node = _walk(root, tiles[start:anchor])
            if node is not None:
                extend(anchor, node, sum(tile_values[start:anchor]), 1, 0, start)
        else:
            limit = 0
            j = anchor - 1
            while j >= 0 and tiles[j] is None and not is_anchor[j] and limit < rack_length - 1:
                limit += 1
                j -= 1
            left(root, limit)


def generate(board: Board, rack: str, variant: Variant, lexicon) -> list[Play]:
    """Every legal play of ``rack`` ("?" = blank) on ``board``, each with its score.

    Both directions, every blank letter, cross words checked; each placement once.
    """
    source = (board, variant)
    return [Play(score, placement, across, source=source)
            for score, placement, across in _raw_plays(board, rack, variant, lexicon)]


def top(board: Board, rack: str, variant: Variant, lexicon, n: int = 10) -> list[Play]:
    """The ``n`` highest-scoring plays, best first (ties in a fixed order)."""
    raw = _raw_plays(board, rack, variant, lexicon)
    # Equal scores are ordered by placement, so top(n) always extends top(n - 1).
    best_raw = heapq.nsmallest(n, raw, key=lambda r: (-r[0], sorted(r[1])))
    source = (board, variant)
    return [Play(score, placement, across, source=source)
            for score, placement, across in best_raw]


def best(board: Board, rack: str, variant: Variant, lexicon) -> Play | None:
    """The highest-scoring play, or None when the rack has no legal play."""
    plays = top(board, rack, variant, lexicon, 1)
    return plays[0] if plays else None
