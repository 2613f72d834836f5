"""Waiting games (games/seating): who may cancel, and only an invitee who has not accepted may decline."""

from __future__ import annotations

import pytest

from config.errors import Refused
from games.crosswords import services as crosswords
from games.crosswords.models import Game as CrosswordGame
from games.tow import services as tow
from games.tow.models import Game as TowGame

pytestmark = pytest.mark.django_db
DAY = 86400


def create(app, creator, **kwargs):
    if app is crosswords:
        return crosswords.game_create(creator=creator, variant="wordgrid", seconds_per_move=DAY, **kwargs)
    return tow.game_create(creator=creator, seconds_per_move=DAY, **kwargs)


@pytest.mark.parametrize(("app", "model"), [(crosswords, CrosswordGame), (tow, TowGame)], ids=["wordgrid", "tow"])
def test_a_player_who_took_an_open_seat_cannot_cancel_the_game(make_user, app, model):
    """Declining a waiting game one already joined is refused with a reason; the game waits on."""
    ann, bob = make_user("ann"), make_user("bob")
    game = create(app, ann, open_seats=2)
    app.game_accept(game_id=game.pk, player=bob)
    with pytest.raises(Refused, match="already joined"):
        app.game_decline(game_id=game.pk, player=bob)
    with pytest.raises(Refused, match="withdraw it"):
        app.game_decline(game_id=game.pk, player=ann)
    assert model.objects.get(pk=game.pk).status == "waiting"


@pytest.mark.parametrize(("app", "model"), [(crosswords, CrosswordGame), (tow, TowGame)], ids=["wordgrid", "tow"])
def test_an_invitee_who_has_not_accepted_may_decline(make_user, app, model):
    """An invitee who has not answered declines, and the game is cancelled; one who accepted cannot."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    game = create(app, ann, invitees=[bob, cy])
    app.game_accept(game_id=game.pk, player=bob)
    with pytest.raises(Refused, match="already joined"):
        app.game_decline(game_id=game.pk, player=bob)
    assert model.objects.get(pk=game.pk).status == "waiting"
    app.game_decline(game_id=game.pk, player=cy)
    assert model.objects.get(pk=game.pk).status == "cancelled"
