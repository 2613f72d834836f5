"""Rated crossword games: ranked seeks and invitations, rating ranges, results and changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.crosswords import services
from games.crosswords.models import Game, Status
from games.crosswords.services import Refused
from games.ratings import services as ratings
from games.ratings.models import RatedResult, Rating
from tests.integration.test_crossword_bots import human_move

pytestmark = pytest.mark.django_db
DAY = 86400


def ranked_duel(ann, bob, variant="wordgrid"):
    game = services.game_create(creator=ann, variant=variant, seconds_per_move=DAY, invitees=[bob], ranked=True)
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.ranked
    return game


def mover(game, ann, bob):
    game.refresh_from_db()
    first = game.seats.get(index=game.to_move).user
    return first, (bob if first == ann else ann)


def test_a_ranked_game_resigned_after_a_move_is_rated_with_the_resigner_last(make_user):
    """Two moves each, then a resignation: rated, the resigner loses rating, the other gains it."""
    ann, bob = make_user("ann"), make_user("bob")
    game = ranked_duel(ann, bob)
    first, second = mover(game, ann, bob)
    for _ in range(2):  # two moves each: a game both players began
        human_move(game, first)
        human_move(game, second)
    services.game_resign(game_id=game.pk, player=first)
    result = RatedResult.objects.get(kind="crossword", object_id=game.pk)
    assert result.pool == "wordgrid"
    assert {p.user_id: (p.place, p.left) for p in result.players.all()} == {first.pk: (2, True), second.pk: (1, False)}
    ratings.ratings_apply(pool="wordgrid")
    assert (
        Rating.objects.get(user=first, pool="wordgrid").rating
        < 1500
        < Rating.objects.get(user=second, pool="wordgrid").rating
    )


def test_a_ranked_game_abandoned_before_any_move_and_casual_games_are_not_rated(make_user):
    """Resigning before anyone moved is not rated; neither is a casual game."""
    ann, bob = make_user("ann"), make_user("bob")
    game = ranked_duel(ann, bob, "wordgame")
    services.game_resign(game_id=game.pk, player=ann)
    casual = services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    services.game_accept(game_id=casual.pk, player=bob)
    first, _ = mover(casual, ann, bob)
    services.game_pass(game_id=casual.pk, player=first, move_count=0)
    services.game_resign(game_id=casual.pk, player=first)
    assert Game.objects.filter(status=Status.FINISHED).count() == 2
    assert not RatedResult.objects.exists()


def test_a_ranked_game_with_a_bot_seat_is_not_rated(make_user):
    """A ranked game whose second seat is a bot (however it got there) finishes unrated."""
    from games.crosswords.models import Seat
    from games.crosswords.services import bots

    ann, bob = make_user("ann"), make_user("bob")
    game = ranked_duel(ann, bob)
    bot = bots.bot_user("wordgrid", "club")
    Seat.objects.filter(game=game, user=bob).update(user=bot)
    first, _ = mover(game, ann, bot)
    services.game_pass(game_id=game.pk, player=first, move_count=game.move_count)
    services.game_resign(game_id=game.pk, player=ann)
    game.refresh_from_db()
    assert game.status == Status.FINISHED and game.ranked
    assert not RatedResult.objects.exists()


def test_forfeiting_on_time_finishes_last(make_user):
    """A ranked player who runs out of time after the first move is rated last."""
    from datetime import timedelta

    from django.utils import timezone

    ann, bob = make_user("ann"), make_user("bob")
    game = ranked_duel(ann, bob)
    first, second = mover(game, ann, bob)
    services.game_pass(game_id=game.pk, player=first, move_count=0)
    services.game_forfeit(game_id=game.pk, now=timezone.now() + timedelta(days=2))
    places = dict(RatedResult.objects.get(object_id=game.pk).players.values_list("user_id", "place"))
    assert places == {second.pk: 2, first.pk: 1}


@pytest.mark.parametrize(
    "settings_, reason",
    [
        ({"invitees": "two", "ranked": True}, "A ranked Word Grid game is for two players."),
        ({"open_seats": 1, "rating_min": 1600}, "A rating range is for ranked open seeks only."),
        (
            {"open_seats": 1, "ranked": True, "rating_min": 1600},
            "Your Word Grid rating (1500) is outside the range 1600 or more.",
        ),
        (
            {"open_seats": 1, "ranked": True, "rating_min": 1600, "rating_max": 1400},
            "The lowest rating of the range is above its highest.",
        ),
        ({"open_seats": 1, "ranked": True, "rating_max": 9000}, "A rating range lies between 100 and 3500."),
    ],
)
def test_bad_ranked_settings_are_refused_and_create_nothing(make_user, settings_, reason):
    """A ranked game of three, a range on a casual seek or one excluding its creator: refused."""
    ann = make_user("ann")
    if settings_.get("invitees") == "two":
        settings_["invitees"] = [make_user("bob"), make_user("cy")]
    with pytest.raises(Refused) as refused:
        services.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, **settings_)
    assert refused.value.reason == reason
    assert not Game.objects.exists()


def test_a_rating_range_refuses_takers_outside_it_with_the_reason(make_user):
    """A taker rated outside the seek's range is refused and the seat stays open; one inside joins."""
    ann, low, ok = make_user("ann"), make_user("low"), make_user("ok")
    Rating.objects.create(user=low, pool="wordgrid", rating=1210, games=12)
    seek = services.game_create(
        creator=ann,
        variant="wordgrid",
        seconds_per_move=DAY,
        open_seats=1,
        ranked=True,
        rating_min=1300,
        rating_max=1700,
    )
    with pytest.raises(Refused) as refused:
        services.game_accept(game_id=seek.pk, player=low)
    assert refused.value.reason == "This seek is for players rated 1300–1700; your Word Grid rating is 1210."
    assert refused.value.status == 403
    assert seek.seats.filter(user__isnull=True).exists()
    services.game_accept(game_id=seek.pk, player=ok)
    seek.refresh_from_db()
    assert seek.status == Status.ACTIVE and seek.ranked


def test_the_lobby_shows_each_seekers_rating_and_the_range(client, make_user):
    """Open seeks in the lobby show the seeker's rating, ranked, and the range."""
    ann, bob = make_user("ann"), make_user("bob")
    Rating.objects.create(user=ann, pool="wordgame", rating=1633, games=20)
    services.game_create(
        creator=ann, variant="wordgame", seconds_per_move=DAY, open_seats=1, ranked=True, rating_min=1500
    )
    client.force_login(bob)
    page = client.get(reverse("my_games")).content.decode()
    assert 'data-rating="1633"' in page and "ranked" in page and "1500 or more" in page


def test_the_new_game_form_creates_a_ranked_seek(client, make_user):
    """The new-game form's Ranked box and range make a ranked seek."""
    ann = make_user("ann")
    client.force_login(ann)
    response = client.post(
        reverse("crosswords:new"),
        {
            "variant": "wordgrid",
            "seconds_per_move": 3 * DAY,
            "invitees": "",
            "open_seats": 1,
            "ranked": "on",
            "rating_min": "1400",
            "rating_max": "1600",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.ranked, game.rating_min, game.rating_max) == (True, 1400, 1600)
