"""Where a search puts the plays it finds, and the leave values of one rack."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import cython

from games.engine.crossword import FrozenList, Play

if TYPE_CHECKING:
    from games.engine.movegen.position import Call

NO_PLAY = float("-inf")

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


@cython.locals(entry=tuple, down=tuple, plays=list)
def as_plays(found: list, source: tuple, mirror: bool = False) -> list[Play]:
    """The ``Play`` of each (rank, score, placement, across, leave) a search found; with
    ``mirror``, then the mirror of each down the centre column (an empty board's plays
    are searched across only). The placements are FrozenLists, as ``generate``'s search
    records them."""
    plays = []
    for entry in found:
        plays.append(_play(entry[1], entry[2], entry[3], source))
    if mirror:
        for entry in found:
            down = mirrored(entry)
            plays.append(_play(down[1], down[2], down[3], source))
    return plays


@cython.ccall
@cython.returns(tuple)
@cython.locals(entry=tuple, square=tuple)
def mirrored(entry: tuple) -> tuple:
    """The entry (rank, score, placement, across, leave) of the mirror of an across
    play on an empty board, down the centre column: rows and columns swapped, the
    same rank, score and leave (the premium squares are symmetric)."""
    return (
        entry[0],
        entry[1],
        FrozenList([(square[1], square[0], square[2], square[3]) for square in entry[2]]),
        False,
        entry[4],
    )


@cython.cfunc
@cython.inline
def _play(score, placement, across, source: tuple) -> Play:
    play = _new_play(Play)
    _set_score(play, score)
    _set_placement(play, placement)
    _set_across(play, across)
    _set_words(play, None)
    _set_source(play, source)
    return play


class Plays(list):
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
        self.floor = NO_PLAY
        self.check_at = -1 if keep is None else keep

    def trim(self) -> None:
        self.sort(key=lambda play: -play[0])
        self.floor = self[self.keep - 1][0]
        while self[-1][0] < self.floor:
            self.pop()
        self.check_at = len(self) + self.keep


class Leaves:
    """Leave values for one rack: each leave's value asked once, and the best value any
    leave of each size can have (the bound's leave term)."""

    def __init__(self, call: Call, leave_value: Callable[[str], float], leave_bound: float | None) -> None:
        self.leave_value = leave_value
        self.values: dict[str, float] = {}
        rack_length = call.rack_length
        if leave_bound is not None:
            self.best_by_played = [float(leave_bound)] * (rack_length + 1)
            return
        best = [NO_PLAY] * (rack_length + 1)
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
