"""The all-tiles bonus: the engine says which plays earn it, and the preview shows it as its own item."""

from __future__ import annotations

import pytest

from games.crosswords import selectors, services
from games.crosswords.models import Game
from games.engine import crossword, movegen

DAY = 86400


pytestmark = pytest.mark.django_db


def test_word_grid_preview_itemises_the_all_tiles_bonus(make_user):
    """A play of all seven tiles shows +50 as its own item, and words plus bonus add up to the score."""
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    # Seeds tried in a fixed order until the opening rack holds a seven-tile play.
    for n in range(60):
        Game.objects.filter(pk=game.pk).update(seed=f"bingo-{n}")
        game.refresh_from_db()
        if n == 0:
            services.game_accept(game_id=game.pk, player=bob)
            game.refresh_from_db()
        state = selectors.engine_state(game)
        plays = movegen.generate(state.board, state.racks[state.to_move], state.variant, state.lexicon)
        bingo = next((p for p in plays if len(p.placement) == state.variant.rack_size), None)
        if bingo is not None:
            break
    else:
        pytest.fail("no seven-tile opening in 60 seeds")
    mover = game.seats.get(index=state.to_move).user
    result = selectors.preview(game=selectors.game_seen_by(game.pk, mover), placement=bingo.placement, move_count=0)
    assert result["legal"] and result["bonus"] == 50
    assert sum(points for _, points in result["words"]) + result["bonus"] == result["score"] == bingo.score
    short = next(p for p in plays if len(p.placement) < state.variant.rack_size)
    result = selectors.preview(game=selectors.game_seen_by(game.pk, mover), placement=short.placement, move_count=0)
    assert result["bonus"] == 0
    assert sum(points for _, points in result["words"]) == result["score"]


def test_the_engine_says_which_plays_earn_the_all_tiles_bonus():
    """Word Grid adds 50 for all seven tiles and nothing for six; Wordgame adds no points of its own."""
    grid, game = crossword.VARIANTS["wordgrid"], crossword.VARIANTS["wordgame"]
    assert crossword.all_tiles_points(grid, 7) == 50
    assert crossword.all_tiles_points(grid, 6) == 0
    assert crossword.all_tiles_points(game, game.rack_size) == game.all_tiles_bonus
