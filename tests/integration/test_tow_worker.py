"""TOW tasks in a real Celery worker: the bot's turn and the deadline sweep."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import tow as engine
from games.tow import selectors, services, tasks
from games.tow.models import Game, Move, Seat, Status

pytestmark = pytest.mark.worker


def wait_for(condition, seconds=25):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_the_bot_moves_through_the_worker(celery_worker, make_user):
    """A live game against the bot: after the person's play, the queued task makes the bot's."""
    ann = make_user("ann")
    game = services.game_create(creator=ann, seconds_per_move=120, bots=1)
    bot_seat = Seat.objects.get(game=game, user__is_bot=True).index
    game.refresh_from_db()
    if game.to_move == bot_seat:
        assert wait_for(lambda: Move.objects.filter(game=game, seat=bot_seat).exists())
        game.refresh_from_db()
    state = selectors.engine_state(game)
    rack = state.racks[state.to_move]
    play = engine.best_play(state.table, rack, state.lexicon)
    if play is None:  # the seed is random: a rack may hold no word
        services.game_swap(game_id=game.pk, player=ann, tiles=rack, move_count=game.move_count)
    else:
        services.game_play(
            game_id=game.pk, player=ann, placement=play.placement, path=play.path, move_count=game.move_count
        )
    before = game.move_count + 1
    assert wait_for(lambda: Move.objects.filter(game=game, seat=bot_seat, number__gte=before).exists())
    game.refresh_from_db()
    assert game.to_move == 1 - bot_seat and game.status == Status.ACTIVE


def test_the_deadline_sweep_runs_in_the_worker(celery_worker, make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=86400, invitees=[bob])
    services.game_accept(game_id=game.pk, player=bob)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    tasks.sweep_deadlines.delay()
    assert wait_for(lambda: Game.objects.get(pk=game.pk).status == Status.FINISHED)
    assert Seat.objects.filter(game=game, left="forfeited").count() == 1
