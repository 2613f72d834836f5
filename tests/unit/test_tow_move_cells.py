"""TOW Move.place: rows and columns are whole numbers, never floats or booleans quietly rounded."""

from __future__ import annotations

import pytest

from games.engine.tow import LETTER, IllegalPlay, Move


def test_whole_numbers_make_a_play():
    """Integer cells are kept as given."""
    move = Move.place(0, [(0, 0, "C", LETTER), (0, 1, "a", LETTER)], [(0, 0), (0, 1)])
    assert move.placement == ((0, 0, "c", LETTER), (0, 1, "a", LETTER)) and move.path == ((0, 0), (0, 1))


@pytest.mark.parametrize(
    ("placement", "path"),
    [
        ([(0.9, 0, "c", LETTER)], [(0, 0)]),
        ([(True, 0, "c", LETTER)], [(1, 0)]),
        ([(0, "1", "c", LETTER)], [(0, 1)]),
        ([(0, 0, "c", LETTER)], [(0.0, 0)]),
        ([(0, 0, "c", LETTER)], [(0, False)]),
    ],
    ids=["float-row", "bool-row", "text-column", "float-in-path", "bool-in-path"],
)
def test_other_cell_numbers_are_refused(placement, path):
    """A float, a bool or text as a row or column is an illegal play, not rounded into a cell."""
    with pytest.raises(IllegalPlay, match="whole number"):
        Move.place(0, placement, path)
