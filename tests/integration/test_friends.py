"""Friends and challenges: follow, the friends list, challenges through accept, expiry, live My games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from accounts.models import OnlineConnection
from config.errors import Refused
from friends import selectors, services, tasks
from friends.models import Follow, HuntInvitation
from games.crosswords import services as crosswords
from games.crosswords.models import Game, Status
from games.hunts import services as hunts
from games.hunts.models import HuntSeat

DAY = 86400


@pytest.mark.django_db
def test_follow_and_unfollow_from_the_profile(make_user, client):
    """The profile offers Follow, then Unfollow; following twice is one follow; nobody follows themselves."""
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    page = client.get("/u/bob/").content.decode()
    assert "/friends/follow/bob/" in page and "/friends/challenge/bob/" in page
    assert client.post("/friends/follow/bob/").status_code == 302
    client.post("/friends/follow/bob/")
    assert Follow.objects.filter(follower=ann, followed=bob).count() == 1
    assert "/friends/unfollow/bob/" in client.get("/u/bob/").content.decode()
    assert "/friends/follow/" not in client.get("/u/ann/").content.decode()
    with pytest.raises(Refused):
        services.follow(user=ann, username="ann")
    with pytest.raises(Refused):
        services.follow(user=ann, username="nobody")
    client.post("/friends/unfollow/bob/")
    assert not Follow.objects.exists()
    assert client.get("/friends/follow/bob/").status_code == 405


@pytest.mark.django_db
def test_the_friends_list_shows_who_is_online_and_what_they_play(make_user, client):
    """Online friends come first with what they play; a stale connection counts as offline."""
    ann, cat, dan = make_user("ann"), make_user("cat"), make_user("dan")
    make_user("bob")
    for other in ("bob", "cat", "dan"):
        services.follow(user=ann, username=other)
    now = timezone.now()
    OnlineConnection.objects.create(channel_name="c1", user=cat, seen_at=now)
    OnlineConnection.objects.create(channel_name="c2", user=dan, seen_at=now - timedelta(minutes=10))
    game = crosswords.game_create(creator=cat, variant="wordgrid", seconds_per_move=DAY, invitees=[dan])
    crosswords.game_accept(game_id=game.pk, player=dan)
    table = hunts.table_create(host=cat, seat_count=2)
    listed = selectors.friends(ann)
    assert [(f.user.username, f.online) for f in listed] == [("cat", True), ("bob", False), ("dan", False)]
    assert listed[0].watch_url == table.get_absolute_url()
    assert listed[0].playing == f"at a {table.get_game_display()} table · 1 crossword game"
    client.force_login(ann)
    page = client.get("/friends/").content.decode()
    assert page.index("cat") < page.index("bob")
    assert table.get_absolute_url() in page and "/friends/challenge/dan/" in page


@pytest.mark.django_db
def test_a_crossword_challenge_is_an_invitation_the_friend_accepts(make_user, client):
    """Challenge → the friend is notified → accepting starts the game with both players."""
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    response = client.post(
        "/friends/challenge/bob/",
        {"game": "wordgrid", "seconds_per_move": 3 * DAY, "round_seconds": 120, "lexicon_code": "en", "size": 4},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.status == Status.WAITING and game.players == 2
    assert bob.notifications.filter(kind="crossword.invitation").exists()
    crosswords.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    assert (
        client.post(
            "/friends/challenge/ann/",
            {"game": "wordgrid", "seconds_per_move": DAY, "round_seconds": 120, "lexicon_code": "en", "size": 4},
        ).status_code
        == 200
    )
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_a_hunt_challenge_opens_a_table_and_the_friend_takes_the_seat(make_user, client):
    """Challenge to Rampage → a table hosted by the challenger; the invitee accepts and sits down."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    client.force_login(ann)
    form = client.get("/friends/challenge/bob/").content.decode()
    assert "Challenge bob" in form and "30 minutes" in form and "7 days" in form
    client.post(
        "/friends/challenge/bob/",
        {"game": "rampage", "seconds_per_move": DAY, "round_seconds": 120, "lexicon_code": "en", "size": 4},
    )
    invitation = HuntInvitation.objects.get()
    assert invitation.table.host == ann and invitation.invitee == bob
    note = bob.notifications.get(kind="hunt.invitation")
    assert note.url == f"/friends/invitations/{invitation.pk}/"
    client.force_login(cat)
    assert client.post(f"/friends/invitations/{invitation.pk}/accept/").status_code in (302, 404)
    assert not HuntSeat.objects.filter(user=cat).exists()
    client.force_login(ann)
    assert "You invited bob" in client.get("/friends/").content.decode()
    client.force_login(bob)
    assert "invites you to a" in client.get("/friends/").content.decode()
    assert "Accept and sit down" in client.get(note.url).content.decode()
    response = client.post(f"/friends/invitations/{invitation.pk}/accept/")
    assert response["Location"] == invitation.table.get_absolute_url()
    assert HuntSeat.objects.filter(table=invitation.table, user=bob, left_at__isnull=True).exists()
    invitation.refresh_from_db()
    assert invitation.status == "accepted"
    assert ann.notifications.filter(kind="hunt.accepted").exists()
    with pytest.raises(Refused):
        services.hunt_invitation_accept(invitation_id=invitation.pk, user=bob)


@pytest.mark.django_db
def test_the_expiry_sweep_cancels_old_invitations_and_seeks_once_and_tells_the_players(make_user):
    """Past their time, waiting crossword and TOW games and hunt invitations expire with a notification; a second sweep
    changes nothing; games still in time are left alone."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    old = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    live = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=300, invitees=[cat])
    seek = crosswords.game_create(creator=bob, variant="wordgrid", seconds_per_move=DAY, open_seats=1)
    fresh = crosswords.game_create(creator=cat, variant="wordgrid", seconds_per_move=DAY, invitees=[ann])
    Game.objects.filter(pk__in=[old.pk, seek.pk]).update(created_at=timezone.now() - timedelta(days=7, seconds=1))
    Game.objects.filter(pk=live.pk).update(created_at=timezone.now() - timedelta(minutes=31))
    Game.objects.filter(pk=fresh.pk).update(created_at=timezone.now() - timedelta(days=6))
    from games.tow import services as tow
    from games.tow.models import Game as TowGame

    tow_game = tow.game_create(creator=cat, seconds_per_move=DAY, invitees=[bob])
    TowGame.objects.filter(pk=tow_game.pk).update(created_at=timezone.now() - timedelta(days=8))
    dan = make_user("dan")
    invitation = services.challenge(by=dan, username="bob", game="rampage").invitation
    HuntInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    assert tasks.sweep_invitations() == {"games": 4, "hunt_invitations": 1}
    assert tasks.sweep_invitations() == {"games": 0, "hunt_invitations": 0}
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses == {old.pk: "cancelled", live.pk: "cancelled", seek.pk: "cancelled", fresh.pk: "waiting"}
    assert TowGame.objects.get().status == "cancelled"
    assert bob.notifications.filter(kind="game.expired").count() == 3  # invited to two, seeking in one
    assert ann.notifications.filter(kind="game.expired").count() == 2
    assert dan.notifications.filter(kind="hunt.expired").count() == 1
    invitation.refresh_from_db()
    assert invitation.status == "expired"
    with pytest.raises(Refused):
        services.hunt_invitation_accept(invitation_id=invitation.pk, user=bob)


def test_the_expiry_sweep_is_in_the_beat_schedule(settings):
    """Celery beat runs the invitations sweep."""
    assert "friends.tasks.sweep_invitations" in {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_my_games_hears_when_one_of_my_games_changes(ws_connect, make_user, client):
    """Accepting an invitation reaches the creator's presence socket as games.changed; the My games
    page carries the htmx trigger that refreshes its lists."""
    ann, bob = await sync_to_async(make_user)("ann"), await sync_to_async(make_user)("bob")
    ws = await ws_connect("/ws/presence/", ann)
    assert (await ws.receive_json_from(timeout=5))["type"] == "notification.count"
    await sync_to_async(services.challenge)(by=ann, username="bob", game="wordgrid", settings={"seconds_per_move": DAY})
    game = await sync_to_async(Game.objects.get)()
    await sync_to_async(crosswords.game_accept)(game_id=game.pk, player=bob)
    while True:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "games.changed":
            break
    # The badge count travels with the message: how many games await ann's move now.
    from accounts.my_games import awaiting_count

    assert message["game"] == game.pk
    assert message["awaiting"] == await sync_to_async(awaiting_count)(ann)

    def page():
        client.force_login(ann)
        return client.get("/games/").content.decode()

    html = await sync_to_async(page)()
    assert 'hx-trigger="wordfall:games-changed from:document, wordfall:notification from:document"' in html
    assert 'id="my-games-lists"' in html


@pytest.mark.django_db(transaction=True)
def test_overlapping_expiry_sweeps_expire_each_invitation_once(make_user):
    """Two sweeps running at once cancel an expired game once and notify once per player."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    ann, bob = make_user("ann"), make_user("bob")
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(days=8))

    def sweep(_):
        try:
            return services.invitations_sweep()["games"]
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        assert sum(pool.map(sweep, range(2))) == 1
    assert bob.notifications.filter(kind="game.expired").count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_open_challenge_per_pair_even_when_sent_twice_at_once(make_user):
    """Two challenges sent at the same moment make one invitation; the other is refused with a
    reason; once answered, a new challenge may follow."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    ann, bob = make_user("ann"), make_user("bob")

    def send(_):
        try:
            services.challenge(by=ann, username="bob", game="wordgrid", settings={"seconds_per_move": DAY})
            return "sent"
        except Refused as refused:
            return refused.reason
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = sorted(pool.map(send, range(2)))
    assert outcomes == ["You have an invitation waiting for bob already; wait for their answer.", "sent"]
    with pytest.raises(Refused, match="already"):
        services.challenge(by=ann, username="bob", game="rampage")
    crosswords.game_decline(game_id=Game.objects.get().pk, player=bob)
    invitation = services.challenge(by=ann, username="bob", game="rampage").invitation
    with pytest.raises(Refused, match="already"):
        services.challenge(by=ann, username="bob", game="wordgrid", settings={"seconds_per_move": DAY})
    services.hunt_invitation_decline(invitation_id=invitation.pk, user=bob)
    services.challenge(by=ann, username="bob", game="wordgrid", settings={"seconds_per_move": DAY})
    assert Game.objects.filter(status=Status.WAITING).count() == 1
