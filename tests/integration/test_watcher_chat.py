"""A hunt table's watchers' chat: the people watching talk among themselves; the players
never receive it and cannot write in it, and the table's own chat stays for everyone."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from chat import rooms, selectors, services
from config.errors import Refused
from games.hunts import services as hunts
from tests.integration.test_chat import hunt_table, receive_until


@pytest.mark.django_db
def test_only_people_not_seated_read_and_write_the_watchers_chat(make_user):
    """A watcher posts and reads there; a seated player is refused with the reason and gets
    no history; a player who stands up may read it."""
    table, ann, bob = hunt_table(make_user)
    watcher = make_user("watcher")
    room = rooms.Room("watchers", table.pk)
    services.message_post(room=room, user=watcher, text="who wins?")
    assert [m["text"] for m in selectors.opening(room, watcher)["messages"]] == ["who wins?"]
    assert selectors.opening(room, ann) is None
    with pytest.raises(Refused, match="watchers' chat is for the people watching") as refused:
        services.message_post(room=room, user=ann, text="me!")
    assert refused.value.status == 403
    # Standing up makes a player a watcher.
    hunts.table_leave(table_id=table.pk, user=bob)
    assert rooms.may_read(room, bob)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_watchers_chat_reaches_watchers_only(ws_connect, make_user):
    """A watcher's socket opens both rooms; a line to the watchers reaches the other watcher
    and no player; a line without a room goes to the table's chat, read by all."""
    table, ann, bob = await sync_to_async(hunt_table)(make_user)
    kim, lee = await sync_to_async(make_user)("kim"), await sync_to_async(make_user)("lee")
    sockets = {}
    for user in (ann, bob, kim, lee):
        ws = await ws_connect(f"/ws/hunts/{table.pk}/", user)
        await ws.send_json_to({"type": "chat.join"})
        first = await receive_until(ws, "chat.history")
        assert first["room"] == f"hunt.{table.pk}"
        if user in (kim, lee):
            assert (await receive_until(ws, "chat.history"))["room"] == f"watchers.{table.pk}"
        sockets[user.username] = ws
    await sockets["kim"].send_json_to({"type": "chat", "text": "close game", "room": f"watchers.{table.pk}"})
    heard = await receive_until(sockets["lee"], "chat.message")
    assert (heard["text"], heard["room"]) == ("close game", f"watchers.{table.pk}")
    await sockets["kim"].send_json_to({"type": "chat", "text": "good luck both"})
    # The first line the players hear is this one: the watchers' line never reached them.
    for name in ("ann", "bob", "lee"):
        heard = await receive_until(sockets[name], "chat.message")
        assert (heard["text"], heard["room"]) == ("good luck both", f"hunt.{table.pk}")
    # A player naming the watchers' room is refused: it is not open on their socket.
    await sockets["ann"].send_json_to({"type": "chat", "text": "hi", "room": f"watchers.{table.pk}"})
    assert "not in that chat" in (await receive_until(sockets["ann"], "chat.refused"))["reason"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_mute_made_while_the_chat_is_open_applies_at_once_without_a_read_per_line(
    ws_connect, make_user, monkeypatch
):
    """Each socket keeps its reader's mutes: muting (or unmuting) in another tab reaches the
    open chat at once, and the mutes are read once per socket and per change, not per line."""
    reads = []
    real = selectors.muted_usernames

    def counted(viewer_id):
        reads.append(viewer_id)
        return real(viewer_id)

    monkeypatch.setattr(selectors, "muted_usernames", counted)
    table, ann, bob = await sync_to_async(hunt_table)(make_user)
    kim = await sync_to_async(make_user)("kim")
    sockets = {}
    for user in (ann, bob, kim):
        ws = await ws_connect(f"/ws/hunts/{table.pk}/", user)
        await ws.send_json_to({"type": "chat.join"})
        await receive_until(ws, "chat.history")
        sockets[user.username] = ws
    await sync_to_async(services.mute)(user=bob, username="kim")
    await sockets["kim"].send_json_to({"type": "chat", "text": "one"})
    assert (await receive_until(sockets["ann"], "chat.message"))["text"] == "one"
    await sockets["ann"].send_json_to({"type": "chat", "text": "two"})
    assert (await receive_until(sockets["bob"], "chat.message"))["text"] == "two"  # not kim's "one"
    await sync_to_async(services.unmute)(user=bob, username="kim")
    await sockets["kim"].send_json_to({"type": "chat", "text": "three"})
    assert (await receive_until(sockets["bob"], "chat.message"))["text"] == "three"
    # One read per socket when its chat opened, and one for each of bob's two changes.
    assert sorted(reads) == sorted([ann.pk, bob.pk, kim.pk, bob.pk, bob.pk])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_watcher_who_sits_down_stops_receiving_the_watchers_chat(ws_connect, make_user):
    """A socket opened both rooms while its user watched; once the table shows them seated,
    a watchers' line no longer reaches it (another tab of theirs included)."""
    ann = await sync_to_async(make_user)("ann")
    table = await sync_to_async(hunts.table_create)(host=ann, seat_count=3)
    kim, lee = await sync_to_async(make_user)("kim"), await sync_to_async(make_user)("lee")
    sockets = {}
    for user in (kim, lee):
        ws = await ws_connect(f"/ws/hunts/{table.pk}/", user)
        await ws.send_json_to({"type": "chat.join"})
        await receive_until(ws, "chat.history")
        assert (await receive_until(ws, "chat.history"))["room"] == f"watchers.{table.pk}"
        sockets[user.username] = ws
    await sync_to_async(hunts.table_join)(table_id=table.pk, user=kim)
    while True:
        state = await receive_until(sockets["kim"], "state")
        if kim.pk in [seat["user_id"] for seat in state["seats"]]:
            break
    await sockets["lee"].send_json_to({"type": "chat", "text": "just us", "room": f"watchers.{table.pk}"})
    assert (await receive_until(sockets["lee"], "chat.message"))["text"] == "just us"
    await sockets["lee"].send_json_to({"type": "chat", "text": "welcome kim"})
    heard = await receive_until(sockets["kim"], "chat.message")
    assert (heard["text"], heard["room"]) == ("welcome kim", f"hunt.{table.pk}")
