"""TOW pages and socket: the lobby, the game page's JSON actions, the live socket."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from games.engine import tow as engine
from games.tow import selectors, services
from games.tow.models import Game, Move, Status

DAY = 86400


def duel(make_user, words="en"):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob], words=words)
    Game.objects.filter(pk=game.pk).update(seed="tow-views-1")
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    mover = ann if game.seats.get(index=game.to_move).user == ann else bob
    return game, mover, (bob if mover == ann else ann)


def best(game):
    state = selectors.engine_state(game)
    return engine.best_play(state.table, state.racks[state.to_move], state.lexicon, budget=4000)


@pytest.mark.django_db
def test_lobby_creates_a_game_and_lists_it(client, make_user):
    ann, _ = make_user("ann"), make_user("bob")
    client.force_login(ann)
    page = client.get("/tow/")
    assert page.status_code == 200 and b"New game" in page.content
    answer = client.post(
        "/tow/", {"words": "house", "seconds_per_move": DAY, "invitees": "bob", "open_seats": 0, "bots": 0}
    )
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tow/{game.pk}/"
    assert game.house_vote and game.lexicon_code == "en"
    assert f"TOW #{game.pk}".encode() in client.get("/tow/").content
    refused = client.post(
        "/tow/", {"words": "en", "seconds_per_move": DAY, "invitees": "nobody", "open_seats": 0, "bots": 0}
    )
    assert b"There is no player called nobody." in refused.content and Game.objects.count() == 1


@pytest.mark.django_db
def test_game_page_and_state(client, make_user):
    game, mover, other = duel(make_user)
    client.force_login(other)
    page = client.get(f"/tow/{game.pk}/")
    assert page.status_code == 200 and b'id="tow-view"' in page.content and b"tow/table.js" in page.content
    state = client.get(f"/tow/{game.pk}/state/").json()
    assert state["my_turn"] is False and len(state["rack"]) == 7 and state["bag"] == 90
    assert state["col_names"]["0"] == "A" and state["row_names"]["-1"] == "-1"


@pytest.mark.django_db
def test_preview_and_play_through_the_page(client, make_user):
    game, mover, _ = duel(make_user)
    play = best(game)
    client.force_login(mover)
    fields = {
        "placement": json.dumps([list(t) for t in play.placement]),
        "path": json.dumps([list(c) for c in play.path]),
    }
    preview = client.post(f"/tow/{game.pk}/preview/", fields).json()
    assert preview["legal"] and preview["play"]["score"] == play.score
    typed = client.post(f"/tow/{game.pk}/preview/", {**fields, "path": "", "word": play.main_word}).json()
    assert typed["legal"]
    done = client.post(f"/tow/{game.pk}/play/", {**fields, "move_count": 0}).json()
    assert done == {"ok": True, "move_count": 1, "score": play.score}
    again = client.post(f"/tow/{game.pk}/play/", {**fields, "move_count": 0})
    assert again.status_code == 409 and "moved on" in again.json()["reason"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields, reason",
    [
        ({"placement": "[[0, 0", "path": "[]"}, "The placement could not be read."),
        ({"placement": "{}", "path": "[]"}, "The placement could not be read."),
        ({"placement": "[" * 5000, "path": "[]"}, "The placement could not be read."),
        ({"placement": '[[0, 0, "a", "letter"]]', "path": "7"}, "The path could not be read."),
        (
            {"placement": '[[0, 0, "", "corner"], [0, 1, "a", "letter"]]', "path": "[[0, 0], [0, 1]]"},
            "The corner tile at A1 needs its letter.",
        ),
        (
            {"placement": '[[0, 0, "a", "letter"], [0, 0, "b", "letter"]]', "path": "[[0, 0]]"},
            "Two tiles placed on A1.",
        ),
        ({"placement": '[[0, 0, "a", "letter", 5]]', "path": "[[0, 0]]"}, "The move could not be read."),
        ({"placement": '[[0, 0, "a", "letter"]]', "path": "[[1e400, 0]]"}, "The path could not be read."),
        ({"placement": '[[Infinity, 0, "a", "letter"]]', "path": "[[0, 0]]"}, "The placement could not be read."),
        ({"placement": '[[0.5, 0, "a", "letter"]]', "path": "[[0, 0]]"}, "The placement could not be read."),
    ],
)
def test_malformed_moves_are_refused_with_a_reason(client, make_user, fields, reason):
    game, mover, _ = duel(make_user)
    client.force_login(mover)
    answer = client.post(f"/tow/{game.pk}/play/", {**fields, "move_count": 0})
    assert answer.status_code == 400 and answer.json()["reason"] == reason
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_vote_view_needs_yes_or_no(client, make_user):
    game, mover, other = duel(make_user, words="house")
    client.force_login(other)
    answer = client.post(f"/tow/{game.pk}/vote/", {"accept": "maybe", "move_count": 0})
    assert answer.status_code == 400 and answer.json()["reason"] == "Vote yes or no."
    answer = client.post(f"/tow/{game.pk}/vote/", {"accept": "yes", "move_count": 0})
    assert answer.json()["reason"] == "No play is waiting for votes."


@pytest.mark.django_db
def test_pages_need_a_login(client):
    assert client.get("/tow/").status_code == 302
    assert client.post("/tow/1/play/").status_code == 302


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_reaches_every_open_page(ws_connect, make_user):
    game, mover, other = await sync_to_async(duel)(make_user)
    sockets = [await ws_connect(f"/ws/tow/{game.pk}/", user) for user in (mover, other)]
    for ws in sockets:
        assert await ws.receive_json_from(timeout=5) == {"type": "hello", "move_count": 0, "status": Status.ACTIVE}
    play = await sync_to_async(best)(game)
    await sync_to_async(services.game_play)(
        game_id=game.pk, player=mover, placement=play.placement, path=play.path, move_count=0
    )
    for ws in sockets:
        assert await ws.receive_json_from(timeout=5) == {"type": "moved", "move_count": 1, "status": "active"}
    assert await ws_connect("/ws/tow/999999/", mover, expect_accept=False) is None


@pytest.mark.django_db
def test_lobby_lists_the_games_awaiting_me_first(make_user):
    game, mover, other = duel(make_user)
    assert selectors.my_games(user=mover)["my_move"] == [game]
    assert selectors.my_games(user=other)["my_move"] == []
    assert selectors.my_games(user=other)["active"] == [game]


@pytest.mark.django_db
def test_replay_frames_step_through_the_table(client, make_user):
    game, mover, other = duel(make_user)
    play = best(game)
    services.game_play(game_id=game.pk, player=mover, placement=play.placement, path=play.path, move_count=0)
    client.force_login(other)
    frames = client.get(f"/tow/{game.pk}/replay/").json()["frames"]
    assert len(frames) == 1 and len(frames[0]["tiles"]) == len(play.placement)
    assert sorted(frames[0]["scores"]) == [0, play.score]
