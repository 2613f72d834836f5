"""Fixes to TOW: the bot sweep recovers lost bot turns within seconds and only where a bot is due."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.tow import services
from games.tow.models import Move, MoveKind, Seat
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


def test_tow_rating_rule_is_the_ratings_apps(make_user):
    """A ranked TOW game is rated by ratings' ``tow_game_finished``: a game resigned before any
    move is not rated; one resigned after a play is, in the tow pool."""
    from games.ratings.models import RatedResult
    from tests.integration.test_tow_services import play_best, start

    ann, bob, cy, dee = make_user("ann"), make_user("bob"), make_user("cy"), make_user("dee")
    unplayed = start([ann, bob], ranked=True)
    services.game_resign(game_id=unplayed.pk, player=bob)
    assert not RatedResult.objects.filter(pool="tow", object_id=unplayed.pk).exists()
    played = start([cy, dee], ranked=True)
    play_best(played)
    services.game_resign(game_id=played.pk, player=dee)
    result = RatedResult.objects.get(pool="tow", object_id=played.pk)
    assert result.kind == "tow"


def test_tow_game_finished_refuses_bot_games_and_unranked_games(make_user, django_capture_on_commit_callbacks):
    """The one rated-game rule: a bot seat or an unranked game is never rated."""
    from games.ratings.services import tow_game_finished

    game, _ = bot_game(make_user, django_capture_on_commit_callbacks, to_bot=True)
    game.ranked = True
    assert tow_game_finished(game, list(game.seats.select_related("user"))) is None
