"""The move generator against the rules: same plays as brute force, same scores as evaluate."""

from dataclasses import replace as _replace
from itertools import permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import movegen
from games.engine.crossword import (
    SIZE,
    WORD_GRID,
    WORDGAME,
    Board,
    IllegalPlay,
    evaluate,
)
from lexicon.core import Lexicon
from tests.examples import examples

ALPHABET = "abcde"


def brute_force(board, rack, variant, lexicon, alphabet=ALPHABET):
    """Every legal placement, found by trying every tile order on every run of squares.

    A blank only stands for letters of ``alphabet``: with a lexicon spelled in those
    letters no other letter can make a word.
    """
    found = {}
    tiles = [(t, a) for t in set(permutations(rack)) for a in [t]]
    first_move = board.is_empty
    # A first play must cover the star, so only its row and column can hold one.
    lines = [SIZE // 2] if first_move else range(SIZE)
    for across in (True, False):
        for line in lines:
            for start in range(SIZE):
                for count in range(1, len(rack) + 1):
                    squares = _run(board, line, start, count, across)
                    if squares is None:
                        continue
                    if not first_move and not _touches(board, squares):
                        continue
                    for order, _ in tiles:
                        for placement in _assign(squares, order[:count], alphabet):
                            try:
                                play = evaluate(board, placement, variant, lexicon)
                            except IllegalPlay:
                                continue
                            found[play.key()] = play.score
    return found


def _run(board, line, start, count, across):
    """The first ``count`` empty squares from ``start`` along a line, or None."""
    squares = []
    i = start
    while len(squares) < count:
        if i >= SIZE:
            return None
        row, col = (line, i) if across else (i, line)
        if board.letter(row, col) is None:
            squares.append((row, col))
        elif not squares:
            return None
        i += 1
    return squares


def _touches(board, squares):
    for row, col in squares:
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < SIZE and 0 <= c < SIZE and board.letter(r, c) is not None:
                return True
    return False


def _assign(squares, letters, alphabet):
    """Placements of ``letters`` on ``squares``, each blank standing for each letter."""
    placements = [[]]
    for (row, col), letter in zip(squares, letters):
        if letter == "?":
            options = [(row, col, a, True) for a in alphabet]
        else:
            options = [(row, col, letter, False)]
        placements = [p + [o] for p in placements for o in options]
    return placements


def generated(board, rack, variant, lexicon):
    plays = movegen.generate(board, rack, variant, lexicon)
    result = {play.key(): play.score for play in plays}
    assert len(result) == len(plays), "a placement was generated twice"
    return result


words = st.text(alphabet=ALPHABET, min_size=2, max_size=5)
lexicons = st.lists(words, min_size=1, max_size=40).map(Lexicon.from_words)
racks = st.text(alphabet=ALPHABET + "?", min_size=1, max_size=4).filter(lambda r: r.count("?") <= 1)
board_tiles = st.lists(
    st.tuples(st.integers(5, 9), st.integers(5, 9), st.sampled_from(ALPHABET), st.booleans()), min_size=1, max_size=8
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon=lexicons, rack=racks, tiles=board_tiles, variant=st.sampled_from([WORD_GRID, WORDGAME]))
def test_generate_finds_exactly_the_brute_force_plays(lexicon, rack, tiles, variant):
    """On small boards and racks generate finds every legal play, once, with its score."""
    board = Board.empty().with_tiles(tiles)
    assert generated(board, rack, variant, lexicon) == brute_force(board, rack, variant, lexicon)


edge_lines = st.sampled_from([0, 1, 2, 6, 7, 8, 12, 13, 14])
edge_tiles = st.lists(
    st.tuples(edge_lines, edge_lines, st.sampled_from(ALPHABET), st.booleans()), min_size=1, max_size=12
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon=lexicons, rack=racks, tiles=edge_tiles, variant=st.sampled_from([WORD_GRID, WORDGAME]))
def test_generate_matches_brute_force_at_the_board_edges(lexicon, rack, tiles, variant):
    """Plays running into the edges and corners are found exactly as brute force finds them."""
    board = Board.empty().with_tiles(tiles)
    assert generated(board, rack, variant, lexicon) == brute_force(board, rack, variant, lexicon)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon=lexicons, rack=racks, variant=st.sampled_from([WORD_GRID, WORDGAME]))
def test_first_move_plays_match_brute_force(lexicon, rack, variant):
    """On the empty board every generated play covers the star and meets the minimum length."""
    board = Board.empty()
    assert generated(board, rack, variant, lexicon) == brute_force(board, rack, variant, lexicon)


def test_every_generated_play_is_accepted_by_evaluate_with_its_words():
    """Each play's score and words equal what evaluate says of its placement."""
    lexicon = Lexicon.from_words(["cat", "cats", "at", "ta", "act", "tact", "scat", "as", "sat"])
    board = Board.empty().with_tiles([(7, 6, "c", False), (7, 7, "a", False), (7, 8, "t", False)])
    plays = movegen.generate(board, "stca?", WORD_GRID, lexicon)
    assert plays
    for play in plays:
        checked = evaluate(board, play.placement, WORD_GRID, lexicon)
        assert (checked.score, checked.words) == (play.score, play.words)


def test_best_and_top_rank_by_score():
    """best is the top play; top(n) is sorted best first."""
    lexicon = Lexicon.from_words(["cat", "cats", "at", "ta", "act", "tact", "scat", "as", "sat"])
    board = Board.empty()
    plays = movegen.generate(board, "tacs", WORD_GRID, lexicon)
    ranked = movegen.top(board, "tacs", WORD_GRID, lexicon, 5)
    assert [p.score for p in ranked] == sorted((p.score for p in plays), reverse=True)[:5]
    assert movegen.best(board, "tacs", WORD_GRID, lexicon) == ranked[0]
    assert movegen.best(board, "xyz", WORD_GRID, lexicon) is None


def test_word_grid_never_generates_a_word_over_ten_letters():
    """Word Grid refuses words longer than 10 letters, so generate never offers one."""
    lexicon = Lexicon.from_words(["abcdefghijk", "abcdefghij"])
    board = Board.empty().with_tiles([(7, c, letter, False) for c, letter in zip(range(2, 10), "abcdefgh")])
    assert {p.main_word for p in movegen.generate(board, "ijk", WORD_GRID, lexicon)} == {"abcdefghij"}
    assert {p.main_word for p in movegen.generate(board, "ijk", WORDGAME, lexicon)} == {"abcdefghij", "abcdefghijk"}


def test_whole_rack_plays_carry_the_variant_bonus():
    """Word Grid adds 50 for all 7 tiles; Wordgame doubles the main word for all 8."""
    lexicon = Lexicon.from_words(["eatings", "stations", "at"])
    bingos = [p for p in movegen.generate(Board.empty(), "eatings", WORD_GRID, lexicon) if len(p.placement) == 7]
    assert bingos and all(p.score == p.words[0][1] + 50 for p in bingos)
    by_key = {p.key(): p.score for p in bingos}
    placed = evaluate(
        Board.empty(), [(7, 4 + i, letter, False) for i, letter in enumerate("eatings")], WORD_GRID, lexicon
    )
    assert by_key[placed.key()] == placed.score == 66
    board = Board.empty().with_tiles([(6, 1, "a", False)])
    eights = [p for p in movegen.generate(board, "stations", WORDGAME, lexicon) if len(p.placement) == 8]
    assert eights
    for play in eights:
        assert evaluate(board, play.placement, WORDGAME, lexicon).score == play.score
    assert max(p.score for p in eights) >= 56


def test_top_equals_the_head_of_all_plays_sorted():
    """top(n) drops low plays early but returns exactly the n best of generate, in order."""
    lexicon = Lexicon.from_words(["cat", "cats", "at", "ta", "act", "tact", "scat", "as", "sat", "tacts", "acts"])
    board = Board.empty().with_tiles([(7, 6, "c", False), (7, 7, "a", False), (7, 8, "t", False)])
    plays = movegen.generate(board, "stca??", WORD_GRID, lexicon)
    ordered = sorted(plays, key=lambda p: (-p.score, sorted(p.placement)))
    for n in (1, 3, 10, 50):
        assert [p.key() for p in movegen.top(board, "stca??", WORD_GRID, lexicon, n)] == [p.key() for p in ordered[:n]]


# Variants cut down so that small racks reach the whole-rack bonus and small lexicons
# reach the longest-word limit; movegen must follow the table, not the two real variants.
SHORT_WORD_GRID = _replace(WORD_GRID, name="short-wordgrid", rack_size=3, max_word_length=3)
SHORT_WORDGAME = _replace(WORDGAME, name="short-wordgame", rack_size=3, max_word_length=4, first_word_min_length=2)
two_blank_racks = st.text(alphabet="abc", max_size=1).map(lambda letters: letters + "??")  # made, not filtered
abc_lexicons = st.lists(st.text(alphabet="abc", min_size=2, max_size=4), min_size=1, max_size=30).map(
    Lexicon.from_words
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon=lexicons, rack=racks, tiles=board_tiles, variant=st.sampled_from([SHORT_WORD_GRID, SHORT_WORDGAME]))
def test_generate_follows_the_variant_table_for_rack_size_and_word_length(lexicon, rack, tiles, variant):
    """With a 3-tile rack and 3- or 4-letter words at most, generate still finds exactly
    the plays brute force finds: the whole-rack bonus and the length limit included."""
    board = Board.empty().with_tiles(tiles)
    assert generated(board, rack, variant, lexicon) == brute_force(board, rack, variant, lexicon)


def test_generate_refuses_cross_words_over_the_longest_word():
    """A tile that would stretch a 3-letter word to 4 letters is refused when words have
    at most 3 letters, as a main word and as a cross word."""
    lexicon = Lexicon.from_words(["abc", "abcd", "da", "ad", "dab"])
    board = Board.empty().with_tiles([(6, 7, "a", False), (7, 7, "b", False), (8, 7, "c", False)])
    plays = generated(board, "da", SHORT_WORD_GRID, lexicon)
    assert plays == brute_force(board, "da", SHORT_WORD_GRID, lexicon)
    assert plays and not any((9, 7) in {(r, c) for r, c, _ in key_squares(key)} for key in plays)
    longer = generated(board, "da", WORD_GRID, lexicon)
    assert any((9, 7) in {(r, c) for r, c, _ in key_squares(key)} for key in longer)


def key_squares(key):
    return [(row, col, letter) for row, col, letter, _ in key]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon=abc_lexicons, rack=two_blank_racks, tiles=board_tiles, variant=st.sampled_from([WORD_GRID, WORDGAME]))
def test_generate_with_two_blanks_matches_brute_force(lexicon, rack, tiles, variant):
    """Two blanks on the rack: every letter pair is tried, each placement found once."""
    board = Board.empty().with_tiles(tiles)
    assert generated(board, rack, variant, lexicon) == brute_force(board, rack, variant, lexicon, "abc")


def test_top_by_equity_ranks_score_plus_leave_value():
    """With a leave_value, top(n) is the n plays of highest score + leave value, each
    carrying its leave (kept tiles, sorted, "?" for a blank) and its equity."""
    lexicon = Lexicon.from_words(["cat", "cats", "at", "ta", "act", "tact", "scat", "as", "sat", "tacts", "acts"])
    board = Board.empty().with_tiles([(7, 6, "c", False), (7, 7, "a", False), (7, 8, "t", False)])
    rack = "stca?"

    def leave_value(leave):
        return 7.5 * leave.count("?") + 2.25 * leave.count("s") - len(leave)

    expected = []
    for play in movegen.generate(board, rack, WORD_GRID, lexicon):
        kept = list(rack)
        for _, _, letter, blank in play.placement:
            kept.remove("?" if blank else letter)
        leave = "".join(sorted(kept))
        expected.append((-(play.score + leave_value(leave)), sorted(play.placement), leave))
    expected.sort()
    for n in (1, 4, 30):
        ranked = movegen.top(board, rack, WORD_GRID, lexicon, n, leave_value=leave_value)
        assert [(-p.equity, sorted(p.placement), p.leave) for p in ranked] == expected[:n]
        assert all(p.equity == p.score + leave_value(p.leave) for p in ranked)
    play = movegen.best(board, rack, WORD_GRID, lexicon, leave_value=leave_value)
    assert (-play.equity, play.leave) == (expected[0][0], expected[0][2])
    plain = movegen.best(board, rack, WORD_GRID, lexicon)
    assert plain.equity == plain.score
