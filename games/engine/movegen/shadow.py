"""Shadow bounds: the most any play grown from an anchor could score, without looking at
words (docs/movegen.md tells how they are made and why they never undercut a play)."""

from __future__ import annotations

from operator import mul
from typing import TYPE_CHECKING

from games.engine.crossword import SIZE
from games.engine.movegen.plays import NO_PLAY

if TYPE_CHECKING:
    from games.engine.movegen.plays import Leaves
    from games.engine.movegen.position import Call, Line


def quick_bound(call: Call, data: Line, anchor: int, limit: int, leaves: Leaves | None) -> float:
    """A quick bound on every play grown from an anchor, however long its left part.

    All the squares any such play could cover are taken at once: their board tiles,
    every word multiplier among them, the rack's values paired with their multipliers,
    the best cross words, the whole-rack bonus if the rack fits. Each play covers a
    subset of them, so none scores more (see ``size_bounds`` for the exact bound).
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
        return NO_PLAY
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


def size_bounds(call: Call, data: Line, anchor: int, limit: int, leaves: Leaves | None) -> list[float]:
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

    bounds = [NO_PLAY] * (limit + 1)
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
