"""Cross-checks: the letters each empty square of a line accepts, with the points of the
cross word each makes there, and the per-lexicon cache of the letters for a pair of
(tiles before, tiles after)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from games.engine.crossword import SIZE
from games.engine.movegen.dawg import walk

if TYPE_CHECKING:
    from games.engine.movegen.position import Call, Line


#: Most (tiles before, tiles after) pairs whose cross-check letters are remembered per
#: lexicon; a game meets the same short cross words again and again. About 1 MB.
CROSS_CACHE_SIZE = 4096

_CROSS_CACHES: WeakKeyDictionary[object, dict] = WeakKeyDictionary()


def cross_cache(lexicon) -> dict:
    try:
        cache = _CROSS_CACHES.get(lexicon)
        if cache is None:
            cache = _CROSS_CACHES[lexicon] = {}
    except TypeError:
        cache = {}
    return cache


def cross_letters(root: tuple, before: str, after: str) -> str:
    """The letters that make a word of ``before`` + letter + ``after``."""
    node = walk(root, before)
    if node is None:
        return ""
    letters = []
    for letter, child in zip(node[0], node[1]):
        end = walk(child, after)
        if end is not None and end[2]:
            letters.append(letter)
    return "".join(letters)


def line_cross_checks(call: Call, data: Line, squares: list[int], perpendicular: int) -> None:
    """Fill in ``data``'s cross-checks and what the shadow bounds need of them (see ``Line``)."""
    cells, values = call.cells, call.values
    letter_values, combine = call.letter_values, call.combine
    wanted = None if call.has_blank else call.rack_letters
    rack_letters, has_blank = call.rack_letters, call.has_blank
    top_value = call.values_desc[0] if call.values_desc else 0
    known = call.cross_words
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
            text, at, first = call.row_text[row], col, row * SIZE
        else:
            text, at, first = call.col_text[col], row, col
        before = text[:at].rsplit(".", 1)[-1]
        after = text[at + 1 :].split(".", 1)[0]
        if not before and not after:
            continue
        fixed = 0
        for k in range(at - len(before), at + len(after) + 1):
            fixed += values[first + k * perpendicular]
        # The cross word's only new square is this one, so its multiplier alone applies.
        lm, wm = call.letter_mult[square], combine(1, call.word_mult[square])
        if len(before) + len(after) >= call.max_length:
            letters = ""  # the cross word would be too long, whatever the letter
        else:
            key = (before, after)
            letters = known.get(key)
            if letters is None:
                letters = cross_letters(call.root, before, after)
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
