"""hunt.word_points: the one rule for a found word's points (Rampage the path, Classic the word)."""

from __future__ import annotations

import pytest

from games.engine import hunt

ROWS = [["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["qu", "e", "e", "n"]]
CAT = ((0, 0), (0, 1), (0, 2))


def test_rampage_scores_the_path_with_its_bonuses():
    """Rampage: letter values times letter bonuses, times the word bonuses on the path."""
    board = hunt.Board(ROWS, bonuses={(0, 0): "3L", (0, 2): "2W"})
    c, a, t = (hunt.face_value(f) for f in "cat")
    assert hunt.word_points(hunt.RAMPAGE, board, "cat", CAT) == (3 * c + a + t) * 2
    assert hunt.word_points(hunt.RAMPAGE, hunt.Board(ROWS), "cat", CAT) == c + a + t


def test_rampage_without_a_path_scores_the_best_path():
    """With no path given, a Rampage word is scored where it scores most."""
    board = hunt.Board(ROWS, bonuses={(2, 2): "3W"})
    best = hunt.find_path(board, "nee")
    assert (2, 2) in best  # two paths spell it; the one over the bonus wins
    assert hunt.word_points(hunt.RAMPAGE, board, "nee") == hunt.score_rampage(board, best)
    with pytest.raises(ValueError):
        hunt.word_points(hunt.RAMPAGE, board, "zebra")


@pytest.mark.parametrize("rules", [hunt.CLASSIC_4, hunt.CLASSIC_5])
def test_classic_scores_the_word_by_length_whatever_the_path(rules):
    """Classic: points by length only; bonuses and path play no part."""
    board = hunt.Board(ROWS, bonuses={(0, 0): "3W"})
    assert hunt.word_points(rules, board, "cats", CAT) == hunt.classic_points("cats") == 1
    assert hunt.word_points(rules, board, "coring") == 3
