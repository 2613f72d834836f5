"""The TOW bot sweep: a lost bot turn or vote is made within seconds, and only where a bot is due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.tow import services
from games.tow.models import Game, Move, MoveKind, Seat
from games.tow.services import bots

pytestmark = pytest.mark.django_db


LIVE = 120


def bot_game(make_user, django_capture_on_commit_callbacks, to_bot: bool):
    """A live game against the bot whose queued tasks never ran (they were lost)."""
    from tests.integration.test_tow_services import play_best

    ann = make_user("ann")
    with django_capture_on_commit_callbacks():
        game = services.game_create(creator=ann, seconds_per_move=LIVE, bots=1)
    bot_seat = Seat.objects.get(game=game, user__is_bot=True).index
    if (game.to_move == bot_seat) != to_bot:
        with django_capture_on_commit_callbacks():
            if to_bot:
                play_best(game)
            else:
                bots.bot_turn(game_id=game.pk)
    game.refresh_from_db()
    assert (game.to_move == bot_seat) == to_bot
    return game, bot_seat


def began(game):
    last = Move.objects.filter(game=game).order_by("-number").values_list("created_at", flat=True).first()
    return last or game.started_at


def test_a_lost_bot_turn_is_made_within_seconds(make_user, django_capture_on_commit_callbacks):
    """Ten seconds after the bot's turn began (longest live delay plus grace), the sweep moves it."""
    game, bot_seat = bot_game(make_user, django_capture_on_commit_callbacks, to_bot=True)
    assert bots.bots_sweep(now=began(game) + timedelta(seconds=2)) == 0  # its task may still come
    assert bots.bots_sweep(now=began(game) + timedelta(seconds=10)) == 1
    assert Move.objects.filter(game=game, seat=bot_seat).exists()


def test_the_sweep_leaves_games_where_a_person_is_to_move(make_user, django_capture_on_commit_callbacks, monkeypatch):
    """A game with a bot where the person is to move is not handed to the bot's turn at all."""
    game, _ = bot_game(make_user, django_capture_on_commit_callbacks, to_bot=False)
    called = []
    monkeypatch.setattr(bots, "bot_turn", lambda *, game_id: called.append(game_id) or 0)
    assert bots.bots_sweep(now=timezone.now() + timedelta(hours=1)) == 0
    assert called == []


def test_the_sweep_makes_a_lost_bot_vote(make_user, django_capture_on_commit_callbacks):
    """A house-vote play waiting for the bot's vote is voted on by the sweep once overdue."""
    from tests.integration.test_tow_services import nonsense, state_of

    ann = make_user("ann")
    with django_capture_on_commit_callbacks():
        game = services.game_create(creator=ann, seconds_per_move=LIVE, bots=1, words="house")
    bot_seat = Seat.objects.get(game=game, user__is_bot=True).index
    if game.to_move == bot_seat:
        with django_capture_on_commit_callbacks():
            bots.bot_turn(game_id=game.pk)
        game.refresh_from_db()
    placement, path = nonsense(game, state_of(game))
    with django_capture_on_commit_callbacks():
        services.game_play(game_id=game.pk, player=ann, placement=placement, path=path, move_count=game.move_count)
    game.refresh_from_db()
    assert game.voting
    assert bots.bots_sweep(now=timezone.now() + timedelta(seconds=10)) >= 1
    assert Move.objects.filter(game=game, seat=bot_seat, kind=MoveKind.VOTE).exists()


def test_tow_sweeps_run_every_ten_seconds_and_expire():
    """A beat tick of the TOW sweeps is useless once the next is due, so it expires."""
    for name in ("tow-bots", "tow-deadlines"):
        entry = settings.CELERY_BEAT_SCHEDULE[name]
        assert entry["schedule"] == 10.0 and entry["options"]["expires"] == 10


def test_the_bots_due_time_is_stored_and_the_sweep_goes_by_it(make_user, django_capture_on_commit_callbacks):
    """Handing the bot its turn stores when it is due, as every game's bots do; the sweep
    acts a grace period after that time, not after the last move."""
    from games import seating

    game, bot_seat = bot_game(make_user, django_capture_on_commit_callbacks, to_bot=True)
    stored = game.bot_due_at
    assert stored is not None and began(game) < stored <= began(game) + timedelta(seconds=bots.LIVE_DELAY[1] + 1)
    Move.objects.filter(game=game).update(created_at=stored - timedelta(days=3))
    Game.objects.filter(pk=game.pk).update(started_at=stored - timedelta(days=3))
    assert bots.bots_sweep(now=stored + seating.LIVE_SWEEP_GRACE - timedelta(seconds=1)) == 0
    assert bots.bots_sweep(now=stored + seating.LIVE_SWEEP_GRACE + timedelta(seconds=1)) == 1
    assert Move.objects.filter(game=game, seat=bot_seat).exists()
