"""Placement legality and scoring of the crossword games (RULES §3, §4)."""

import pytest

from games.engine import crossword as cw
from games.engine.crossword import WORD_GRID, WORDGAME, Board, IllegalPlay, evaluate
from lexicon.core import Lexicon

LEX = Lexicon.from_words(
    "cat cats at ta act scat as ax xi quiz zoo oo to ox jo tax".split()
    + ["abcdefghij", "abcdefghijk", "stone", "stones", "tones", "notes", "onset", "at"]
    + ["aeiouaeiouae", "eatings"]
)


def tiles(row, col, word, across=True, blanks=()):
    """Tiles spelling ``word`` from (row, col); ``blanks`` are indexes into the word."""
    dr, dc = (0, 1) if across else (1, 0)
    return [(row + dr * i, col + dc * i, letter, i in blanks) for i, letter in enumerate(word)]


def reason(board, placement, variant=WORD_GRID, lexicon=LEX):
    with pytest.raises(IllegalPlay) as caught:
        evaluate(board, placement, variant, lexicon)
    return caught.value.reason


CAT = Board.empty().with_tiles(tiles(7, 7, "cat"))


def test_square_names_run_columns_a_to_o_and_rows_1_to_15():
    """(row, col) (7, 7) is named H8, (0, 0) A1 and (14, 14) O15."""
    assert cw.square_name(7, 7) == "H8"
    assert cw.square_name(0, 0) == "A1"
    assert cw.square_name(14, 14) == "O15"
    assert cw.square_name(2, 0) == "A3"
    assert cw.parse_square("h8") == (7, 7)


def test_first_word_on_the_star_is_doubled():
    """CAT on the star: (3 + 1 + 1) × 2 = 10."""
    play = evaluate(Board.empty(), tiles(7, 7, "cat"), WORD_GRID, LEX)
    assert play.score == 10
    assert play.words == (("cat", 10),)


def test_premium_pays_only_when_first_covered():
    """The star under C does not double CATS when S is added later."""
    play = evaluate(CAT, [(7, 10, "s", False)], WORD_GRID, LEX)
    assert play.score == 6
    assert play.words == (("cats", 6),)


def test_cross_word_counts_letter_premium_of_new_tile():
    """T on the 2L at I9 under A makes AT: 1 + 1 × 2 = 3."""
    play = evaluate(CAT, [(8, 8, "t", False)], WORD_GRID, LEX)
    assert play.score == 3
    assert play.words == (("at", 3),)


@pytest.mark.parametrize(
    "board, placement, variant, expected",
    [
        (CAT, [(8, 8, "t", False), (9, 9, "a", False)], WORD_GRID, "tiles are not in one line"),
        (CAT, [(6, 6, "a", False), (6, 8, "t", False)], WORD_GRID, "there is a gap at H7"),
        (Board.empty(), tiles(0, 0, "cat"), WORD_GRID, "the first word must cover the centre"),
        (Board.empty(), tiles(7, 7, "cat"), WORDGAME, "the first word must have at least 4 letters"),
        (CAT, tiles(0, 0, "at"), WORD_GRID, "does not touch any tile on the board"),
        (CAT, [(7, 7, "a", False)], WORD_GRID, "square taken"),
        (CAT, [(8, 8, "", True)], WORD_GRID, "blank has no letter"),
        (CAT, [(8, 8, "?", True)], WORD_GRID, "blank has no letter"),
    ],
)
def test_each_illegal_placement_has_its_reason(board, placement, variant, expected):
    """Every IllegalPlay reason of issue 4, worded for a player."""
    assert reason(board, placement, variant) == expected


def test_every_unknown_word_is_named():
    """QZX-style failures list every word not in the lexicon, main word first."""
    board = Board.empty().with_tiles(tiles(7, 7, "cat"))
    # F under C makes CF down, O under A makes AO down, main word FO across.
    assert reason(board, tiles(8, 7, "fo")) == "not in the word list: FO, CF, AO"
