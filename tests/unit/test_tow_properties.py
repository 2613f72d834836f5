"""Properties of the TOW engine (hypothesis): connectedness, paths, replay, the play finder."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import tow
from lexicon import wordlists


class EveryWord:
    """A lexicon holding every string, so only the table's shape rules can refuse a play."""

    def __contains__(self, word):
        return True


ANY = EveryWord()


@pytest.fixture(scope="module")
def common():
    return wordlists.compile_lexicon("common")


# A connected table of letters a/b (so paths have many rivals), laid in four plays.
BASE = tow.Table.empty().with_tiles(
    [
        (0, 0, "a", "letter", 0),
        (0, 1, "b", "letter", 0),
        (0, 2, "a", "letter", 0),
        (1, 2, "b", "corner", 1),
        (2, 2, "a", "letter", 1),
        (2, 1, "b", "letter", 1),
        (-1, 0, "b", "letter", 2),
        (-2, 0, "a", "pz", 2),
        (2, 3, "a", "letter", 3),
    ]
)

steps = st.sampled_from(tow.STEPS)


@st.composite
def walks(draw):
    """A self-avoiding walk near BASE, its new cells lettered a or b."""
    start = (draw(st.integers(-3, 4)), draw(st.integers(-2, 5)))
    cells = [start]
    for step in draw(st.lists(steps, min_size=1, max_size=6)):
        nxt = (cells[-1][0] + step[0], cells[-1][1] + step[1])
        if nxt in cells:
            break
        cells.append(nxt)
    letters = draw(st.lists(st.sampled_from("ab"), min_size=len(cells), max_size=len(cells)))
    kinds = draw(st.lists(st.sampled_from(tow.KINDS), min_size=len(cells), max_size=len(cells)))
    placement = [(r, c, letter, kind) for (r, c), letter, kind in zip(cells, letters, kinds) if (r, c) not in BASE][:7]
    return cells, placement


def spelled(table, placement, path):
    new = {(r, c): letter for r, c, letter, _ in placement}
    return "".join(new.get(cell) or table.letter(*cell) for cell in path)


@settings(max_examples=300, deadline=None)
@given(walks())
def test_every_legal_play_keeps_the_table_connected(walk):
    """Whatever a legal play lays, the table stays one connected structure."""
    path, placement = walk
    try:
        tow.evaluate(BASE, placement, path, ANY)
    except tow.IllegalPlay:
        return
    after = BASE.with_tiles((r, c, letter, kind, 4) for r, c, letter, kind in placement)
    assert after.is_connected()


@settings(max_examples=300, deadline=None)
@given(walks())
def test_paths_returns_exactly_the_paths_evaluate_accepts(walk):
    """Each path from ``paths`` is accepted (every word allowed) and spells the word; a
    path that is accepted is among them."""
    path, placement = walk
    if not placement or any((r, c) not in {tuple(p) for p in path} for r, c, *_ in placement):
        return
    word = spelled(BASE, placement, path)
    found = tow.paths(BASE, placement, word)
    for candidate in found:
        assert spelled(BASE, placement, candidate) == word
        tow.evaluate(BASE, placement, candidate, ANY)
    try:
        tow.evaluate(BASE, placement, path, ANY)
    except tow.IllegalPlay:
        assert path not in [list(map(tuple, p)) for p in found]
    else:
        assert path in found


def random_move(game, lexicon, rng):
    seat = game.to_move
    if game.pending is not None:
        voter = rng.choice(game.voters)
        return tow.Move.vote(voter, rng.random() < 0.5)
    roll = rng.random()
    if roll < 0.03:
        return tow.Move.resign(rng.choice([s for s in range(game.players) if game.in_play[s]]))
    if roll < 0.75:
        plays = tow.find_plays(game.table, game.racks[seat], lexicon, budget=1500)
        if plays:
            play = rng.choice(plays[:5])
            return tow.Move.place(seat, play.placement, play.path)
    if roll < 0.85 and len(game.bag) >= 2:
        return tow.Move.swap(seat, game.racks[seat][:2])
    return tow.Move.pass_(seat)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4), house_vote=st.booleans())
def test_replay_equals_the_original_game(common, seed, players, house_vote):
    """A game rebuilt from its seed and moves equals the original; the table stays
    connected after every move and the tiles are all accounted for."""
    rng = random.Random(seed)
    lexicon = common
    game = tow.new_game(players, seed, lexicon, house_vote=house_vote)
    for _ in range(25):
        if game.is_over:
            break
        game = game.apply(random_move(game, lexicon, rng))
        assert game.table.is_connected()
        on_racks = "".join(game.racks) + "".join(game.bag)
        assert len(on_racks) + len(game.table) == tow.TILE_COUNT
    assert tow.replay(players, seed, game.moves, lexicon, house_vote=house_vote) == game


def test_find_plays_returns_only_legal_plays_best_first(common):
    """Every play found is accepted by evaluate with the same score; best first."""
    game = tow.new_game(2, "finder", common)
    for _ in range(4):
        plays = tow.find_plays(game.table, game.racks[game.to_move], common, budget=4000)
        assert plays
        assert [p.score for p in plays] == sorted((p.score for p in plays), reverse=True)
        for play in plays[:30]:
            again = tow.evaluate(game.table, play.placement, play.path, common)
            assert again.score == play.score
            assert len(tow.directional_lines(play.path)) <= 2
        best = plays[0]
        game = game.apply(tow.Move.place(game.to_move, best.placement, best.path))
