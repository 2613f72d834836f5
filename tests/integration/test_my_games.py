"""My games: one page for every kind of game, one badge for every turn, and live updates
that carry the badge count."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.my_games import awaiting_count
from friends import services as friends
from games.crosswords import services as crosswords
from games.crosswords.models import Game as CrosswordGame
from games.hunts import services as hunts
from games.tow import services as tow
from games.tow.models import Game as TowGame

DAY = 86400


def section(page: str, name: str) -> str:
    return page.split(f'data-my-games="{name}"')[1].split("</section>")[0]


def started_crossword(ann, bob) -> CrosswordGame:
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    return crosswords.game_accept(game_id=game.pk, player=bob)


def started_tow(ann, bob) -> TowGame:
    game = tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    return tow.game_accept(game_id=game.pk, player=bob)


def mover(game, ann, bob):
    """The player to move first (the first player is drawn)."""
    game.refresh_from_db()
    seat = game.seats.get(index=game.to_move)
    return (ann, bob) if seat.user_id == ann.pk else (bob, ann)


@pytest.mark.django_db
def test_the_badge_counts_turns_in_crossword_and_tow_games(make_user):
    """A crossword game and a TOW game where ann is to move count 2; none for bob."""
    ann, bob = make_user("ann"), make_user("bob")
    games = [started_crossword(ann, bob), started_tow(ann, bob)]
    to_move = [mover(game, ann, bob)[0] for game in games]
    assert awaiting_count(ann) == to_move.count(ann)
    assert awaiting_count(bob) == to_move.count(bob)
    assert awaiting_count(ann) + awaiting_count(bob) == 2


@pytest.mark.django_db
def test_my_games_lists_every_kind(client, make_user):
    """Crossword and TOW games sit under whose turn it is, hunt tables under Hunts, a hunt
    challenge under Invitations; the header badge counts both turns."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    crossword, towgame = started_crossword(ann, bob), started_tow(ann, bob)
    table = hunts.table_create(host=ann, game="classic", size=4, bots=("easy",))
    friends.challenge(by=cat, username="ann", game="rampage")
    client.force_login(ann)
    page = client.get("/games/").content.decode()
    for game, url in ((crossword, f"/games/{crossword.pk}/"), (towgame, f"/tow/{towgame.pk}/")):
        where = "my-turn" if mover(game, ann, bob)[0] == ann else "their-turn"
        assert f'href="{url}"' in section(page, where)
    assert f'href="/hunts/{table.pk}/"' in section(page, "hunts")
    assert "Easy bot" in section(page, "hunts")
    assert "cat keeps a seat for you" in section(page, "invitations")
    count = awaiting_count(ann)
    if count:
        assert f"data-games-awaiting>{count}<" in page
    else:
        assert "data-games-awaiting" not in page


@pytest.mark.django_db
def test_the_ranked_queue_shows_in_my_games(client, make_user):
    """Waiting in the ranked queue is shown with the pool's name."""
    ann = make_user("ann")
    hunts.queue_join(user=ann, pool="rampage")
    client.force_login(ann)
    hunts_section = section(client.get("/games/").content.decode(), "hunts")
    assert 'data-ranked-state="waiting"' in hunts_section and "Rampage" in hunts_section


@pytest.mark.django_db
def test_old_crossword_addresses_are_gone_or_unified(client, make_user):
    """/games/ is My games for every kind; the badge's separate request is gone."""
    client.force_login(make_user("ann"))
    assert client.get("/games/awaiting/").status_code == 404
    assert "Hunts" in client.get("/games/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_site_socket_carries_the_badge_count(ws_connect, make_user):
    """On connect the site socket sends the count; a crossword move, a hunt seat, a TOW
    start and a TOW move each reach the player as games.changed naming the game's kind and
    carrying the new count."""
    ann, bob = await sync_to_async(make_user)("ann"), await sync_to_async(make_user)("bob")
    game = await sync_to_async(started_crossword)(ann, bob)
    first, other = await sync_to_async(mover)(game, ann, bob)
    ws = await ws_connect("/ws/presence/", other)

    async def next_of(kind: str) -> dict:
        while True:
            message = await ws.receive_json_from(timeout=5)
            if message["type"] == kind:
                return message

    assert (await next_of("games.awaiting"))["count"] == 0
    await sync_to_async(crosswords.game_pass)(game_id=game.pk, player=first, move_count=0)
    message = await next_of("games.changed")
    assert message["kind"] == "crossword" and message["game"] == game.pk and message["awaiting"] == 1
    table = await sync_to_async(hunts.table_create)(host=first, game="rampage")
    await sync_to_async(hunts.table_join)(table_id=table.pk, user=other)
    message = await next_of("games.changed")
    assert message["kind"] == "hunt" and message["game"] == table.pk and message["awaiting"] == 1
    towgame = await sync_to_async(started_tow)(ann, bob)
    message = await next_of("games.changed")
    assert message["kind"] == "tow" and message["game"] == towgame.pk
    assert message["awaiting"] == await sync_to_async(awaiting_count)(other)
    tow_first, _ = await sync_to_async(mover)(towgame, ann, bob)
    await sync_to_async(tow.game_pass)(game_id=towgame.pk, player=tow_first, move_count=0)
    message = await next_of("games.changed")
    assert message["kind"] == "tow" and message["game"] == towgame.pk
    assert message["awaiting"] == await sync_to_async(awaiting_count)(other)
