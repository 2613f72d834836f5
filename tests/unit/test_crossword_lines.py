"""The engine's one scan for the line of tiles through a square (used by the site too)."""

from games.engine import crossword


def test_word_through_reads_the_whole_line_with_blanks_marked():
    """From any of its squares, the line runs from its first tile to its last, blanks flagged."""
    board = crossword.Board.empty().with_tiles(
        [(7, 6, "q", False), (7, 7, "u", False), (7, 8, "i", True), (7, 9, "z", False), (8, 8, "t", False)]
    )
    across = crossword.word_through(board, 7, 8, across=True)
    assert across == ((7, 6, "q", False), (7, 7, "u", False), (7, 8, "i", True), (7, 9, "z", False))
    assert crossword.word_through(board, 7, 6, across=True) == across
    assert crossword.word_through(board, 7, 8, across=False) == ((7, 8, "i", True), (8, 8, "t", False))
    assert crossword.word_through(board, 7, 7, across=False) == ((7, 7, "u", False),)
    assert crossword.word_through(board, 0, 0, across=True) == ()
