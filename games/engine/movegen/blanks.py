"""Blanks in a spelled word: the ranking search spells words with a letter's own tiles
first, and each way of laying the rack's blanks among its squares is recorded here."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from games.engine.tiles import BLANK

if TYPE_CHECKING:
    from games.engine.movegen.plays import Leaves, Plays
    from games.engine.movegen.position import Call, Line


def lay_blanks(
    call: Call,
    data: Line,
    out: Plays,
    leaves: Leaves | None,
    spare: int,
    counts: dict | None,
    tiles_laid: list,
    count: int,
    score: int,
    multiplier: int,
) -> None:
    """Record in ``out`` each way of laying the rack's blanks in a word the search spelled
    (``spare``: the blanks still on the rack; ``counts``, with leave values only: the
    rack's tiles still free, by tile).

    A letter spelled with a blank (its own tiles ran out) keeps that many blanks
    among its squares, on any of them; a blank still on the rack may stand for any
    letter too, giving that letter's tile back to the rack. A blank on a square
    loses its letter's points there, in the main word and in the cross word.
    """
    across, lm, cross, blank_points = data.across, data.lm, data.cross, data.blank_points
    rack_tiles, letter_values = call.rack_tiles, call.letter_values
    leave_best = leaves.best_by_played if leaves is not None else None
    if count == call.rack_size and call.variant.all_tiles_doubles_main:
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
                rank = value + leaves.value(leave)
                if rank < floor:
                    continue
            placement = tuple([(row, col, letter, k in chosen) for k, (row, col, letter, _) in enumerate(tiles_laid)])
            out.append((rank, value, placement, across, leave))
            if len(out) == out.check_at:
                out.trim()
                floor = out.floor
