"""The bounded best-move search against full generation: same best score, same best
equity, and top(n) the n best of every play, on random positions of both variants."""

from dataclasses import replace as _replace
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import movegen
from games.engine.crossword import WORD_GRID, WORDGAME, Board, Move, new_game
from lexicon.core import Lexicon
from tests.examples import examples

# Letters worth 1, 1, 1, 2, 4, 8 and 10 points, so the bounds' pairing of tile values
# with premium squares and cross words is put to work.
ALPHABET = "aesdhjq"
SETTINGS = settings(
    max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)

words = st.text(alphabet=ALPHABET, min_size=2, max_size=8)
lexicons = st.lists(words, min_size=3, max_size=60).map(Lexicon.from_words)
variants = st.sampled_from([WORD_GRID, WORDGAME])


def racks(variant):
    """Up to a full rack of the variant, with up to two blanks."""
    return st.text(alphabet=ALPHABET + "??", min_size=1, max_size=variant.rack_size).filter(
        lambda rack: rack.count("?") <= 2
    )


@st.composite
def positions(draw):
    """A board reached by a few legal plays (each picked among all generated ones),
    then a rack to move: first moves, mid-game boards and plays along the edges."""
    lexicon = draw(lexicons)
    variant = draw(variants)
    board = Board.empty()
    for _ in range(draw(st.integers(0, 6))):
        rack = draw(racks(variant))
        plays = movegen.generate(board, rack, variant, lexicon)
        if not plays:
            continue
        plays.sort(key=lambda play: sorted(play.placement))
        play = plays[draw(st.integers(0, len(plays) - 1))]
        board = board.with_tiles(play.placement)
    return lexicon, variant, board, draw(racks(variant))


@st.composite
def leave_values(draw):
    """A leave value: a weight per tile plus one per leave length, floats of either sign."""
    weights = {tile: draw(st.floats(-12, 25, allow_nan=False)) for tile in ALPHABET + "?"}
    per_length = draw(st.lists(st.floats(-10, 10, allow_nan=False), min_size=9, max_size=9))

    def leave_value(leave):
        return sum(weights[tile] for tile in leave) + per_length[len(leave)]

    return leave_value


def ranked(plays, rack, leave_value=None):
    """Every play as (equity, squares), best first, as top orders them."""
    rows = []
    for play in plays:
        value = 0 if leave_value is None else leave_value(movegen.leave_of(rack, play.placement))
        rows.append((-(play.score + value), sorted(play.placement)))
    rows.sort()
    return rows


@SETTINGS
@given(position=positions())
def test_best_scores_what_full_generation_scores_best(position):
    """best() returns a play scoring exactly the highest score among all plays."""
    lexicon, variant, board, rack = position
    plays = movegen.generate(board, rack, variant, lexicon)
    found = movegen.best(board, rack, variant, lexicon)
    if not plays:
        assert found is None
    else:
        assert found.score == max(play.score for play in plays)
        assert found.key() in {play.key() for play in plays}


@SETTINGS
@given(position=positions(), leave_value=leave_values(), slack=st.sampled_from([0.0, 0.5, 30.0]))
def test_best_equity_equals_full_generation(position, leave_value, slack):
    """With a leave value, best() has the highest score + leave value of all plays,
    with or without a leave bound."""
    lexicon, variant, board, rack = position
    plays = movegen.generate(board, rack, variant, lexicon)
    expected = ranked(plays, rack, leave_value)
    found = movegen.best(board, rack, variant, lexicon, leave_value=leave_value)
    bound = (
        max(leave_value("".join(kept)) for size in range(len(rack) + 1) for kept in combinations(sorted(rack), size))
        + slack
    )
    bounded = movegen.best(board, rack, variant, lexicon, leave_value=leave_value, leave_bound=bound)
    if not plays:
        assert found is None and bounded is None
    else:
        assert (-found.equity, sorted(found.placement)) == expected[0]
        assert found.equity == found.score + leave_value(found.leave)
        assert found.leave == movegen.leave_of(rack, found.placement)
        assert -bounded.equity == expected[0][0]


@SETTINGS
@given(position=positions(), n=st.integers(1, 12), by_equity=st.booleans(), leave_value=leave_values())
def test_top_n_equals_the_n_best_of_full_generation(position, n, by_equity, leave_value):
    """top(n) is exactly the head of all plays ranked by score (or equity), ties ordered
    by squares, on first moves (searched one way and mirrored) as on later ones."""
    lexicon, variant, board, rack = position
    if not by_equity:
        leave_value = None
    plays = movegen.generate(board, rack, variant, lexicon)
    expected = ranked(plays, rack, leave_value)[:n]
    found = movegen.top(board, rack, variant, lexicon, n, leave_value=leave_value)
    assert [(-play.equity, sorted(play.placement)) for play in found] == expected


SHORT_WORD_GRID = _replace(WORD_GRID, name="short-wordgrid", rack_size=4, max_word_length=5)
SHORT_WORDGAME = _replace(WORDGAME, name="short-wordgame", rack_size=4, max_word_length=6, first_word_min_length=3)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon=lexicons, variant=st.sampled_from([SHORT_WORD_GRID, SHORT_WORDGAME]), data=st.data())
def test_bounds_hold_with_whole_rack_bonuses_and_word_limits(lexicon, variant, data):
    """With 4-tile racks the whole-rack bonus (Word Grid's 50, Wordgame's doubling) is
    within reach of most plays, and short longest-word limits cut spans: best and top
    still equal full generation."""
    board = Board.empty()
    for _ in range(data.draw(st.integers(0, 5))):
        plays = movegen.generate(board, data.draw(racks(variant)), variant, lexicon)
        if plays:
            plays.sort(key=lambda play: sorted(play.placement))
            board = board.with_tiles(plays[data.draw(st.integers(0, len(plays) - 1))].placement)
    rack = data.draw(racks(variant))
    plays = movegen.generate(board, rack, variant, lexicon)
    expected = ranked(plays, rack)
    found = movegen.top(board, rack, variant, lexicon, 3)
    assert [(-play.equity, sorted(play.placement)) for play in found] == expected[:3]


def test_best_equals_full_generation_in_real_games_with_the_en_lexicon():
    """Along two real games (one per variant, the en lexicon, greedy play), every
    position's best play scores what full generation's best scores, and by equity too."""
    from lexicon import wordlists

    en = wordlists.compile_lexicon("en")

    def leave_value(leave):
        return 8.0 * leave.count("?") + 1.5 * leave.count("s") - 0.5 * len(leave)

    for variant in (WORD_GRID, WORDGAME):
        game = new_game(variant, 2, "bounds", en)
        for _ in range(12):
            if game.is_over:
                break
            rack = game.racks[game.to_move]
            plays = movegen.generate(game.board, rack, variant, en)
            play = movegen.best(game.board, rack, variant, en)
            assert (play is None) == (not plays)
            if play is None:
                game = game.apply(Move.pass_(game.to_move))
                continue
            assert play.score == max(p.score for p in plays)
            by_equity = movegen.best(game.board, rack, variant, en, leave_value=leave_value)
            assert by_equity.equity == -ranked(plays, rack, leave_value)[0][0]
            game = game.apply(Move.place(game.to_move, play.placement))


edge_lines = st.sampled_from([0, 1, 2, 6, 7, 8, 12, 13, 14])
edge_tiles = st.lists(
    st.tuples(edge_lines, edge_lines, st.sampled_from(ALPHABET), st.booleans()), min_size=1, max_size=14
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lexicon=lexicons,
    variant=variants,
    tiles=edge_tiles,
    data=st.data(),
    n=st.integers(1, 6),
    by_equity=st.booleans(),
    leave_value=leave_values(),
)
def test_bounded_search_at_the_board_edges(lexicon, variant, tiles, data, n, by_equity, leave_value):
    """Tiles along the edges and in the corners (premium squares at the ends of spans,
    spans cut by the edge): top(n) is still exactly the head of all plays."""
    board = Board.empty().with_tiles(tiles)
    rack = data.draw(racks(variant))
    if not by_equity:
        leave_value = None
    expected = ranked(movegen.generate(board, rack, variant, lexicon), rack, leave_value)
    found = movegen.top(board, rack, variant, lexicon, n, leave_value=leave_value)
    assert [(-play.equity, sorted(play.placement)) for play in found] == expected[:n]
