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

import gc
import heapq
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from games.engine.build import prefer_compiled

prefer_compiled(__path__, "games/engine/movegen")

from games.engine.crossword import Board, Play, Variant  # noqa: E402
from games.engine.movegen.dawg import dawg as dawg  # noqa: E402
from games.engine.movegen.plays import NO_PLAY, Leaves, Plays, as_plays, mirrored  # noqa: E402
from games.engine.movegen.position import Call  # noqa: E402
from games.engine.movegen.search import searcher  # noqa: E402
from games.engine.movegen.shadow import quick_bound, size_bounds  # noqa: E402
from games.engine.tiles import BLANK  # noqa: E402

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


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for one search. A search allocates tens of
    thousands of tuples that hold no cycle (placements, left parts, plays), freed by
    reference counting; every 700 of them would start a collection that also walks the
    process's long-lived containers: up to a fifth of the compiled search's time.
    It is switched back on only if it was on (another thread's search may be running:
    it then simply collects again)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def generate(board: Board, rack: str, variant: Variant, lexicon) -> list[Play]:
    """Every legal play of ``rack`` ("?" = blank) on ``board``, each with its score.

    Both directions, every blank letter, cross words checked; each placement once.
    """
    with _collector_paused():
        return _generate(board, rack, variant, lexicon)


def _generate(board: Board, rack: str, variant: Variant, lexicon) -> list[Play]:
    call = Call(board, rack, variant, lexicon)
    out = Plays()
    if call.rack_length:
        lines = call.lines()
        # The left parts are indexed once, as long as the roomiest anchor needs.
        call.left_parts(
            max([call.left_limit(data, anchor) for data in lines for anchor in data.anchors], default=0), True
        )
        for data in lines:
            search = searcher(call, data, out, None, True)
            for anchor in data.anchors:
                search(anchor)
    return as_plays(out, (board, variant), call.mirror)


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
    with _collector_paused():
        return _top(board, rack, variant, lexicon, n, leave_value, leave_bound)


def _top(board, rack, variant, lexicon, n, leave_value, leave_bound) -> list[RankedPlay]:
    call = Call(board, rack, variant, lexicon)
    leaves = None if leave_value is None else Leaves(call, leave_value, leave_bound)
    out = Plays(n)
    if call.rack_length:
        # Every anchor first gets a quick bound (all the squares it could reach at
        # once); only an anchor still above the n-th best when its turn comes gets its
        # exact bound per left-part size, and only one still above then is searched.
        heap = []
        longest = 0
        for data in call.lines():
            for anchor in data.anchors:
                limit = call.left_limit(data, anchor)
                bound = quick_bound(call, data, anchor, limit, leaves)
                if bound > NO_PLAY:
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
                bounds = size_bounds(call, data, anchor, limit, leaves)
                bound = max(bounds)
                if bound > NO_PLAY:
                    heapq.heappush(heap, (-bound, serial, bounds, data, anchor, limit))
                    serial += 1
                continue
            if data.searcher is None:
                data.searcher = searcher(call, data, out, leaves, False)
                call.left_parts(0, False, longest)
            data.searcher(anchor, bounds)
    found = list(out)
    if call.mirror:
        found.extend([mirrored(entry) for entry in found])
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
