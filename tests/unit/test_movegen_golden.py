"""Golden baselines: every play movegen finds on the two shared benchmark positions.

The baseline files in ``tests/unit/golden/`` hold one play per line, best first:
``score<TAB>squares`` with squares named as players see them (H8) and a blank's letter in
upper case. Regenerate them after a deliberate change with
``UPDATE_GOLDEN=1 pytest tests/unit/test_movegen_golden.py`` and review the diff.
"""

import os
from pathlib import Path

import pytest

from games.engine import movegen
from games.engine.crossword import WORD_GRID, WORDGAME, Board, evaluate, square_name

GOLDEN = Path(__file__).parent / "golden"
POSITIONS = Path(__file__).parent / "golden" / "positions"
CASES = [("vsmatt", "aabdelt"), ("vsjeremy", "ddesw??")]


@pytest.fixture(scope="module")
def en():
    from lexicon import wordlists

    return wordlists.compile_lexicon("en")


def board_of(name):
    return Board.from_rows((POSITIONS / f"{name}.rows").read_text().split("\n"))


def notation(play):
    return " ".join(
        f"{square_name(row, col)}{letter.upper() if blank else letter}"
        for row, col, letter, blank in sorted(play.placement)
    )


def baseline_lines(plays):
    rows = sorted((-play.score, notation(play)) for play in plays)
    return [f"{-negative}\t{text}" for negative, text in rows]


@pytest.mark.parametrize("name, rack", CASES)
def test_movegen_matches_its_golden_baseline(en, name, rack):
    """generate finds exactly the stored plays, with the stored scores."""
    plays = movegen.generate(board_of(name), rack, WORD_GRID, en)
    lines = baseline_lines(plays)
    path = GOLDEN / f"movegen_{name}_{rack.replace('?', 'blank')}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    expected = path.read_text().splitlines()
    assert lines == expected


@pytest.mark.parametrize("name, rack", CASES)
def test_golden_plays_are_accepted_by_evaluate(en, name, rack):
    """Every baseline play is legal by evaluate and scores what movegen says."""
    board = board_of(name)
    for play in movegen.generate(board, rack, WORD_GRID, en):
        checked = evaluate(board, play.placement, WORD_GRID, en)
        assert (checked.score, checked.words) == (play.score, play.words)


def test_best_play_on_vsmatt_worked_by_hand(en):
    """TAEL down column K from K9 scores 40: its 2W at K11 doubles TAEL (8) and
    RESPONDED (13 × 2 = 26); TA, AN and LO add 2 each."""
    play = movegen.best(board_of("vsmatt"), "aabdelt", WORD_GRID, en)
    assert notation(play) == "K9t K10a K11e K12l"
    assert play.score == 40
    assert play.words == (("tael", 8), ("ta", 2), ("an", 2), ("responded", 26), ("lo", 2))


def test_generate_equals_brute_force_on_vsmatt(en):
    """On a real mid-game board with the en lexicon, a five-tile rack: exactly the plays
    (and scores) a brute-force enumeration of every tile order on every run of squares finds.
    (The whole AABDELT rack agrees too: 412 plays, but brute force takes minutes.)"""
    from tests.unit.test_movegen import brute_force, generated

    board = board_of("vsmatt")
    assert generated(board, "aabde", WORD_GRID, en) == brute_force(
        board, "aabde", WORD_GRID, en, "abcdefghijklmnopqrstuvwxyz"
    )


@pytest.mark.parametrize(
    "name, rack, variant",
    [
        ("vsmatt", "aabdelt", WORD_GRID),
        ("vsmatt", "aabdelt", WORDGAME),
        ("vsjeremy", "desw??", WORD_GRID),
        ("vsjeremy", "desw??", WORDGAME),
        ("empty", "eatings", WORD_GRID),
        ("empty", "stations", WORDGAME),
    ],
)
def test_generated_scores_follow_the_rules_arithmetic(en, name, rack, variant):
    """Every play's score equals the rules' arithmetic done independently of the engine
    (blanks, premiums, each variant's word squares and whole-rack bonus)."""
    from tests.unit.test_crossword_game import reference_score

    board = Board.empty() if name == "empty" else board_of(name)
    plays = movegen.generate(board, rack, variant, en)
    assert plays
    if name == "empty":
        assert any(len(play.placement) == variant.rack_size for play in plays)
    for play in plays:
        assert play.score == reference_score(board, list(play.placement), variant), play


@pytest.mark.parametrize("name, rack", [("vsmatt", "aabdelt"), ("vsjeremy", "ddesw")])
def test_every_legal_play_can_be_laid_on_offered_squares(en, name, rack):
    """RULES §3 offers squares so that no legal play is out of reach: a tile touching the
    board first, then the others in either order, each lands on an offered square."""
    from games.engine.crossword import offered_squares

    board = board_of(name)

    def touches(tile):
        row, col = tile[0], tile[1]
        return any(
            0 <= r < 15 and 0 <= c < 15 and board.letter(r, c)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        )

    for play in movegen.generate(board, rack, WORD_GRID, en):
        first = next(tile for tile in sorted(play.placement) if touches(tile))
        rest = sorted(tile for tile in play.placement if tile != first)
        for order in ([first] + rest, [first] + rest[::-1]):
            for count, (row, col, _, _) in enumerate(order):
                assert (row, col) in offered_squares(board, order[:count]), play


def test_every_first_play_can_be_laid_on_offered_squares(en):
    """On the empty board: the star's row and column first, then the line of the tiles."""
    from games.engine.crossword import offered_squares

    for play in movegen.generate(Board.empty(), "eatings", WORD_GRID, en):
        for order in (sorted(play.placement), sorted(play.placement, reverse=True)):
            for count, (row, col, _, _) in enumerate(order):
                assert (row, col) in offered_squares(Board.empty(), order[:count]), play
