"""The site socket: presence over the real Redis channel layer, origin checks, bad input."""

import json

import pytest
from asgiref.sync import sync_to_async

from accounts.models import OnlineConnection

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def receive_until(communicator, kind, timeout=5):
    while True:
        message = json.loads(await communicator.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message


async def test_a_signed_in_player_connects_and_is_counted(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    update = await receive_until(ws, "presence.update")
    assert update["count"] == 1
    assert [p["username"] for p in update["players"]] == ["ann"]


async def test_a_forged_origin_is_refused(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    assert await ws_connect("/ws/presence/", ann, origin="http://evil.example", expect_accept=False) is None
    assert not await sync_to_async(OnlineConnection.objects.exists)()


async def test_presence_updates_reach_two_connected_clients(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    bob = await sync_to_async(make_user)("bob")
    ws_ann = await ws_connect("/ws/presence/", ann)
    await receive_until(ws_ann, "presence.update")
    ws_bob = await ws_connect("/ws/presence/", bob)
    seen_by_ann = await receive_until(ws_ann, "presence.update")
    seen_by_bob = await receive_until(ws_bob, "presence.update")
    assert seen_by_ann["count"] == seen_by_bob["count"] == 2
    await ws_bob.disconnect()
    after = await receive_until(ws_ann, "presence.update")
    assert [p["username"] for p in after["players"]] == ["ann"]


async def test_an_anonymous_visitor_sees_the_count_without_being_counted(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    await ws_connect("/ws/presence/", ann)
    anonymous = await ws_connect("/ws/presence/")
    update = await receive_until(anonymous, "presence.update")
    assert update["count"] == 1


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("not json", "Messages must be JSON text."),
        ("[1, 2]", "A message is a JSON object with a type."),
        ('{"type": "become_admin"}', "Unknown message type: become_admin"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "Message too large."),
    ],
)
async def test_malformed_messages_are_refused_and_the_socket_stays_open(ws_connect, make_user, payload, reason):
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    await ws.send_to(text_data=payload)
    assert (await receive_until(ws, "error"))["reason"] == reason
    await ws.send_to(text_data='{"type": "ping"}')
    assert (await receive_until(ws, "pong"))["type"] == "pong"


async def test_a_flood_of_messages_is_rate_limited(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    for _ in range(30):
        await ws.send_to(text_data='{"type": "ping"}')
    replies = []
    for _ in range(30):
        message = json.loads(await ws.receive_from(timeout=5))
        if message["type"] != "presence.update":
            replies.append(message)
        if len(replies) == 30:
            break
    assert any(r.get("reason") == "Too many messages; slow down." for r in replies)


async def test_a_broadcast_from_another_process_reaches_the_page(ws_connect, make_user):
    """Any process sharing the channel layer (a Celery task, another daphne) can push presence."""
    from accounts.tasks import sweep_presence

    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    await receive_until(ws, "presence.update")
    await sync_to_async(sweep_presence.apply)()
    update = await receive_until(ws, "presence.update")
    assert update["count"] == 1


async def test_a_notification_reaches_every_open_tab_of_the_player(ws_connect, make_user):
    from accounts.services import notify

    ann = await sync_to_async(make_user)("ann")
    tab1 = await ws_connect("/ws/presence/", ann)
    tab2 = await ws_connect("/ws/presence/", ann)
    await sync_to_async(notify)(user=ann, kind="turn", text="Your move", url="/x/")
    for tab in (tab1, tab2):
        message = await receive_until(tab, "notification.new")
        assert message["text"] == "Your move"


async def test_the_badge_is_counted_off_the_shared_thread(ws_connect, make_user, monkeypatch):
    """games.changed reaches every open tab of every seated player; each counts the badge
    (one query per game app) in a worker thread, not the one thread every socket shares."""
    import threading

    from channels.layers import get_channel_layer

    from accounts import consumers
    from config.realtime import user_group

    counted_in = []

    def awaiting_count(user):
        counted_in.append(threading.current_thread())
        return real_count(user)

    real_count = consumers.awaiting_count
    monkeypatch.setattr(consumers, "awaiting_count", awaiting_count)
    shared = await sync_to_async(threading.current_thread, thread_sensitive=True)()
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    await receive_until(ws, "games.awaiting")
    counted_in.clear()
    await get_channel_layer().group_send(user_group(ann.pk), {"type": "games.changed", "kind": "tow", "game": 7})
    message = await receive_until(ws, "games.changed")
    assert (message["kind"], message["game"], message["awaiting"]) == ("tow", 7, 0)
    assert counted_in and shared not in counted_in
