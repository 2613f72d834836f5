"""Rough edges found in play (issue 14, item 8) that a test without a browser can see."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.crosswords import selectors, services
from games.crosswords.models import Game
from games.engine import crossword, hunt, movegen
from games.hunts import services as hunt_services
from games.hunts.models import HuntRound

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
    result = selectors.preview(game=game, player=mover, placement=bingo.placement, move_count=0)
    assert result["legal"] and result["bonus"] == 50
    assert sum(points for _, points in result["words"]) + result["bonus"] == result["score"] == bingo.score
    short = next(p for p in plays if len(p.placement) < state.variant.rack_size)
    result = selectors.preview(game=game, player=mover, placement=short.placement, move_count=0)
    assert result["bonus"] == 0
    assert sum(points for _, points in result["words"]) == result["score"]


def test_the_engine_says_which_plays_earn_the_all_tiles_bonus():
    """Word Grid adds 50 for all seven tiles and nothing for six; Wordgame adds no points of its own."""
    grid, game = crossword.VARIANTS["wordgrid"], crossword.VARIANTS["wordgame"]
    assert crossword.all_tiles_points(grid, 7) == 50
    assert crossword.all_tiles_points(grid, 6) == 0
    assert crossword.all_tiles_points(game, game.rack_size) == game.all_tiles_bonus


CLASSIC_BOARD = hunt.Board([["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["qu", "e", "e", "n"]])


def test_classic_results_count_words_the_same_everywhere_and_name_one_comparison_once(client, make_user):
    """The breakdown's word count is the standings' (crossed-off words told apart); the points column is "By points"."""
    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="classic", size=4, seat_count=2)
    hunt_services.table_join(table_id=table.pk, user=bob)
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(board=CLASSIC_BOARD.to_text())
    game_round.refresh_from_db()
    now = game_round.starts_at + timedelta(seconds=1)
    for user, words in ((ann, ["cat", "queen", "rate"]), (bob, ["cat", "rate", "ding"])):
        for word in words:
            assert (
                hunt_services.round_submit(round_id=game_round.pk, user=user, word=word, now=now).outcome == "accepted"
            )
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline)
    client.force_login(ann)
    html = client.get(game_round.get_absolute_url()).content.decode()
    assert "ann — 2 points, 1 word (and 2 crossed off)" in html
    assert "bob — 1 point, 1 word (and 2 crossed off)" in html
    assert "By length" not in html and html.count("By points") == 2
