"""Rated TOW games: ratings' one rule decides, from the game's outcome; a bot seat is never rated."""

from __future__ import annotations

import pytest

from games.tow import services
from tests.integration.test_tow_bot_sweep import bot_game

pytestmark = pytest.mark.django_db


def test_tow_rating_rule_is_the_ratings_apps(make_user):
    """A ranked TOW game is rated by ratings' one rule, from the game's outcome: a game
    resigned before any move is not rated; one resigned after a play is, in the tow pool."""
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


def test_a_tow_game_with_a_bot_seat_is_never_rated(make_user, django_capture_on_commit_callbacks):
    """The one rated-game rule: a game with a bot seat is not rated, even marked ranked and
    finished after a move; its outcome says a bot sat there."""
    from games.outcomes import outcome_of
    from games.ratings.models import RatedResult
    from games.ratings.services import outcome_record
    from tests.integration.test_tow_services import play_best

    game, _ = bot_game(make_user, django_capture_on_commit_callbacks, to_bot=False)
    type(game).objects.filter(pk=game.pk).update(ranked=True)
    ann = game.seats.get(user__is_bot=False).user
    with django_capture_on_commit_callbacks():
        play_best(game)
        services.game_resign(game_id=game.pk, player=ann)
    game.refresh_from_db()
    outcome = outcome_of(game)
    assert outcome.ranked and outcome.moves >= 1 and any(player.is_bot for player in outcome.players)
    assert outcome_record(outcome) is None
    assert not RatedResult.objects.filter(object_id=game.pk, kind="tow").exists()
