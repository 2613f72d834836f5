"""Placement legality and scoring of the crossword games (RULES §3, §4)."""

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.engine import crossword as cw
from games.engine.crossword import WORD_GRID, WORDGAME, Board, IllegalPlay, evaluate
from lexicon.core import Lexicon

LEX = Lexicon.from_words(
    ["cat", "cats", "at", "ta", "act", "scat", "as", "ax", "xi", "quiz", "zoo", "oo", "to", "ox", "jo", "tax"]
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
    """Every IllegalPlay reason is worded for a player."""
    assert reason(board, placement, variant) == expected


def test_every_unknown_word_is_named():
    """QZX-style failures list every word not in the lexicon, main word first."""
    board = Board.empty().with_tiles(tiles(7, 7, "cat"))
    # F under C makes CF down, O under A makes AO down, main word FO across.
    assert reason(board, tiles(8, 7, "fo")) == "not in the word list: FO, CF, AO"


SCORING_LEX = Lexicon.from_words(["aa", "ta", "at", "eatings", "notation", "stations", "abcdefghijk", "abcdefghij"])


def test_a_new_word_square_multiplies_every_word_through_it():
    """A lone A on the 2W at E5 doubles both AA across and TA down: 4 + 4."""
    board = Board.empty().with_tiles([(4, 3, "a", False), (3, 4, "t", False)])
    play = evaluate(board, [(4, 4, "a", False)], WORD_GRID, SCORING_LEX)
    assert play.words == (("aa", 4), ("ta", 4))
    assert play.score == 8


def test_a_blank_on_a_letter_square_scores_zero():
    """A blank T on the 2L at I9 under A makes AT worth 1 (the A only)."""
    play = evaluate(CAT, [(8, 8, "t", True)], WORD_GRID, LEX)
    assert play.words == (("at", 1),)
    assert play.score == 1


def test_word_grid_bingo_adds_fifty():
    """All 7 tiles on the first play: EATINGS is 8 × 2 = 16, the play scores 16 + 50."""
    play = evaluate(Board.empty(), tiles(7, 4, "eatings"), WORD_GRID, SCORING_LEX)
    assert play.words == (("eatings", 16),)
    assert play.score == 66


ROW_5_I = Board.empty().with_tiles([(4, 7, "i", False)])


def test_two_double_word_squares_quadruple_in_word_grid_but_double_in_wordgame():
    """EATINGS over the 2W squares E5 and K5: 8 × 4 = 32 in Word Grid, 8 × 2 = 16 in Wordgame."""
    placement = [t for t in tiles(4, 4, "eatings") if t[1] != 7]
    assert evaluate(ROW_5_I, placement, WORD_GRID, SCORING_LEX).score == 32
    assert evaluate(ROW_5_I, placement, WORDGAME, SCORING_LEX).score == 16


def test_triple_and_double_word_squares_make_triple_in_wordgame():
    """NOTATION from the 3W at A8 over the 2W at H8 (A on the 2L at D8: 9 points):
    Wordgame keeps the highest, ×3 = 27; Word Grid multiplies, ×6 = 54, plus 50 for 7 tiles."""
    board = Board.empty().with_tiles([(7, 5, "i", False)])
    placement = [t for t in tiles(7, 0, "notation") if t[1] != 5]
    assert evaluate(board, placement, WORDGAME, SCORING_LEX).score == 27
    assert evaluate(board, placement, WORD_GRID, SCORING_LEX).score == 104


def test_wordgame_all_eight_tiles_double_the_main_word_only():
    """STATIONS with all 8 tiles: 9 × 3 (3W, 2W: highest) = 27, doubled to 54; the cross
    word AT keeps its 2 and there is no +50."""
    board = Board.empty().with_tiles([(6, 1, "a", False)])
    play = evaluate(board, tiles(7, 0, "stations"), WORDGAME, SCORING_LEX)
    assert play.words == (("stations", 54), ("at", 2))
    assert play.score == 56


def test_word_grid_refuses_an_eleven_letter_word():
    """Words of Word Grid have at most 10 letters, even when the lexicon has a longer one."""
    board = Board.empty().with_tiles(tiles(7, 2, "abcdefghij"))
    placement = [(7, 12, "k", False)]
    assert reason(board, placement, WORD_GRID, SCORING_LEX) == ("words have at most 10 letters: ABCDEFGHIJK")
    assert evaluate(board, placement, WORDGAME, SCORING_LEX).words[0][0] == "abcdefghijk"


def test_main_word_comes_first_then_cross_words_in_board_order():
    """A play down column I: its own word first, then each cross word it makes."""
    board = Board.empty().with_tiles([(7, 7, "a", False), (8, 7, "a", False)])
    play = evaluate(board, [(7, 8, "t", False), (8, 8, "a", False)], WORD_GRID, SCORING_LEX)
    assert [w for w, _ in play.words] == ["ta", "at", "aa"]


def test_squares_offered_on_an_empty_board_are_the_star_row_and_column():
    """Before the first tile of the game only row 8 and column H are offered."""
    offered = cw.offered_squares(Board.empty(), [])
    assert len(offered) == 29
    assert all(r == 7 or c == 7 for r, c in offered)


def test_squares_offered_later_are_within_seven_of_a_tile():
    """With one tile on the board: empty squares up to 7 away along its row and column."""
    board = Board.empty().with_tiles([(7, 7, "a", False)])
    offered = cw.offered_squares(board, [])
    assert (7, 0) in offered and (0, 7) in offered and (7, 14) in offered
    assert (6, 6) not in offered and (7, 7) not in offered
    board = Board.empty().with_tiles([(2, 2, "a", False)])
    assert (2, 10) not in cw.offered_squares(board, []) and (2, 9) in cw.offered_squares(board, [])


@given(st.sets(st.integers(0, cw.SIZE * cw.SIZE - 1), min_size=1, max_size=80))
def test_squares_offered_first_are_the_empty_ones_up_to_seven_from_a_tile_along_a_line(indices):
    """On any board, the first tile may go on exactly the empty squares that have a tile
    at most 7 squares away in their row or their column."""
    squares = {divmod(index, cw.SIZE) for index in indices}
    board = Board.empty().with_tiles([(r, c, "a", False) for r, c in squares])
    expected = {
        (r, c)
        for r in range(cw.SIZE)
        for c in range(cw.SIZE)
        if (r, c) not in squares and any((r, c + d) in squares or (r + d, c) in squares for d in range(-7, 8) if d)
    }
    assert cw.offered_squares(board, []) == expected


def test_squares_offered_follow_the_tiles_down_this_turn():
    """One tile down: its row and column; two: only their line."""
    one = cw.offered_squares(CAT, [(8, 8, "t", False)])
    assert (8, 0) in one and (14, 8) in one and (9, 9) not in one and (8, 8) not in one
    two = cw.offered_squares(CAT, [(8, 8, "t", False), (9, 8, "a", False)])
    assert (14, 8) in two and (8, 0) not in two
    assert cw.offered_squares(CAT, [(8, 8, "t", False), (9, 9, "a", False)]) == frozenset()


def test_play_words_and_placement_compare_equal_to_lists():
    """play.words reads as the documented list of (word, points) and cannot be changed."""
    play = evaluate(Board.empty(), tiles(7, 7, "cat"), WORD_GRID, LEX)
    assert play.words == [("cat", 10)]
    assert play.placement == [(7, 7, "c", False), (7, 8, "a", False), (7, 9, "t", False)]
    with pytest.raises(AttributeError):
        play.score = 0


def test_board_reads_and_writes_rows():
    """A board round-trips through text rows; blanks show in upper case and score 0."""
    board = Board.from_rows(["", "", "", "", "", "", "", "       cat"])
    assert board.letter(7, 7) == "c" and board.letter(0, 0) is None
    blanked = board.with_tiles([(8, 8, "t", True)])
    assert blanked.is_blank(8, 8) and not blanked.is_blank(7, 7)
    assert blanked.rows()[8] == "........T......"
    assert Board.from_rows(board.rows()) == board
    assert max(blanked.tiles()) == (8, 8, "t", True)
    assert Board.empty().is_empty and not board.is_empty


def test_a_variant_survives_pickling_as_itself():
    """Variants compare by identity, so a pickled variant must come back as the same one."""
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(WORDGAME)) is WORDGAME
    assert copy.deepcopy(WORD_GRID) is WORD_GRID
    assert cw.variant_named("wordgrid") is WORD_GRID


# -- scoring edge cases (audit) ------------------------------------------------------


def test_a_letter_premium_pays_only_the_turn_it_is_covered():
    """T already on the 3L at F6 counts 1 when CAT is later completed through it."""
    lexicon = Lexicon.from_words(["cat"])
    board = Board.empty().with_tiles([(5, 5, "t", False)])
    play = evaluate(board, [(5, 3, "c", False), (5, 4, "a", False)], WORD_GRID, lexicon)
    assert play.words == (("cat", 5),)


def test_a_blank_on_a_triple_letter_square_scores_zero():
    """A blank T on the 3L at F6 adds nothing: AT is worth the A's 1."""
    board = Board.empty().with_tiles([(5, 4, "a", False)])
    assert evaluate(board, [(5, 5, "t", True)], WORD_GRID, LEX).words == (("at", 1),)
    assert evaluate(board, [(5, 5, "t", False)], WORD_GRID, LEX).words == (("at", 4),)


def test_a_blank_on_a_word_square_still_multiplies_the_word():
    """A blank A on the star: CAT is (3 + 0 + 1) × 2 = 8."""
    placement = [(7, 6, "c", False), (7, 7, "a", True), (7, 8, "t", False)]
    assert evaluate(Board.empty(), placement, WORD_GRID, LEX).score == 8


def test_a_new_word_square_multiplies_a_cross_word_by_its_own_kind_in_wordgame():
    """Wordgame: a lone tile on a 3W makes every word through it ×3 (its only word square)."""
    lexicon = Lexicon.from_words(["at", "ta"])
    board = Board.empty().with_tiles([(0, 1, "t", False), (1, 0, "t", False)])
    play = evaluate(board, [(0, 0, "a", False)], WORDGAME, lexicon)
    assert play.words == (("at", 6), ("at", 6))
    assert play.score == 12


def test_word_grid_refuses_an_eleven_letter_cross_word():
    """The 10-letter limit holds for cross words as well as for the main word."""
    lexicon = Lexicon.from_words(["abcdefghij", "abcdefghijk", "ka"])
    board = Board.empty().with_tiles(tiles(2, 7, "abcdefghij", across=False))
    placement = [(12, 7, "k", False), (12, 8, "a", False)]
    assert reason(board, placement, WORD_GRID, lexicon) == ("words have at most 10 letters: ABCDEFGHIJK")
    assert [w for w, _ in evaluate(board, placement, WORDGAME, lexicon).words] == ["ka", "abcdefghijk"]


def test_seven_of_eight_tiles_in_wordgame_are_not_doubled():
    """Wordgame doubles only a play of all 8 tiles: EATINGS (7 tiles) on the star is 8 × 2."""
    play = evaluate(Board.empty(), tiles(7, 4, "eatings"), WORDGAME, SCORING_LEX)
    assert play.score == 16


def test_a_lone_tile_between_tiles_across_and_down_makes_both_words():
    """A single tile joining a word on its left and one above: across is the main word."""
    lexicon = Lexicon.from_words(["at", "ta", "aa"])
    board = Board.empty().with_tiles([(7, 7, "a", False), (6, 8, "t", False)])
    play = evaluate(board, [(7, 8, "a", False)], WORD_GRID, lexicon)
    assert play.across and play.words == (("aa", 2), ("ta", 2))


def test_an_empty_placement_is_refused():
    """Submitting with no tiles down is not a play."""
    assert reason(CAT, []) == "no tiles placed"


def test_the_first_word_needs_two_letters_in_word_grid():
    """A lone tile on the star is not a first word."""
    assert reason(Board.empty(), [(7, 7, "a", False)]) == ("the first word must have at least 2 letters")


# -- legality against the rules written out plainly (audit) ---------------------------


def runs_formed(board, new):
    """Every maximal run of 2+ tiles, across or down, that holds a new tile."""

    def filled(r, c):
        return 0 <= r < 15 and 0 <= c < 15 and ((r, c) in new or board.letter(r, c))

    def letter(r, c):
        return new[(r, c)] if (r, c) in new else board.letter(r, c)

    runs = set()
    for row, col in new:
        for dr, dc in ((0, 1), (1, 0)):
            r, c = row, col
            while filled(r - dr, c - dc):
                r, c = r - dr, c - dc
            squares = []
            while filled(r, c):
                squares.append((r, c))
                r, c = r + dr, c + dc
            if len(squares) >= 2:
                runs.add(tuple(squares))
    return sorted("".join(letter(*s) for s in run) for run in runs)


def legal_by_the_rules(board, placement, variant, lexicon):
    """RULES §3/§4 placement legality, independent of the engine."""
    squares = [(r, c) for r, c, _, _ in placement]
    if not squares or len(set(squares)) < len(squares):
        return False
    if not all(0 <= r < 15 and 0 <= c < 15 for r, c in squares):
        return False
    if any(board.letter(r, c) for r, c in squares):
        return False
    rows, cols = {r for r, _ in squares}, {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        return False
    line = (
        [(next(iter(rows)), c) for c in range(min(cols), max(cols) + 1)]
        if len(rows) == 1
        else [(r, next(iter(cols))) for r in range(min(rows), max(rows) + 1)]
    )
    if any(s not in squares and not board.letter(*s) for s in line):
        return False
    if board.is_empty:
        if (7, 7) not in squares or len(squares) < variant.first_word_min_length:
            return False
    elif not any(
        0 <= r + dr < 15 and 0 <= c + dc < 15 and board.letter(r + dr, c + dc)
        for r, c in squares
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
    ):
        return False
    words = runs_formed(board, {(r, c): letter for r, c, letter, _ in placement})
    return all(w in lexicon and len(w) <= variant.max_word_length for w in words)


AUDIT_LEX = Lexicon.from_words(["ab", "ba", "aa", "aba", "bab", "abba", "baab", "abab", "aab"])
near_centre = st.integers(5, 9)


@settings(max_examples=1000, deadline=None)
@given(
    board_tiles=st.lists(st.tuples(near_centre, near_centre, st.sampled_from("ab"), st.booleans()), max_size=8),
    placement=st.one_of(
        st.lists(st.tuples(near_centre, near_centre, st.sampled_from("ab"), st.booleans()), min_size=1, max_size=4),
        st.builds(
            lambda row, col, across, step, word, blanks: [
                (row + (0 if across else i * step), col + (i * step if across else 0), letter, blank)
                for i, (letter, blank) in enumerate(zip(word, blanks))
            ],
            near_centre,
            near_centre,
            st.booleans(),
            st.sampled_from([1, 1, 2]),
            st.text("ab", min_size=1, max_size=4),
            st.lists(st.booleans(), min_size=4, max_size=4),
        ),
    ),
    variant=st.sampled_from([WORD_GRID, WORDGAME]),
)
def test_evaluate_accepts_exactly_the_placements_the_rules_allow(board_tiles, placement, variant):
    """On random boards, evaluate accepts a placement exactly when the rules written out
    plainly do, and then lists exactly the words formed."""
    board = Board.empty().with_tiles(board_tiles)
    legal = legal_by_the_rules(board, placement, variant, AUDIT_LEX)
    event("legal" if legal else "illegal")
    try:
        play = evaluate(board, placement, variant, AUDIT_LEX)
    except IllegalPlay:
        assert not legal
        return
    assert legal
    assert sorted(w for w, _ in play.words) == runs_formed(board, {(r, c): letter for r, c, letter, _ in placement})
