"""The site socket: presence over the real Redis channel layer, origin checks, bad input."""

import asyncio
import json
import math
import time

import pytest
from asgiref.sync import sync_to_async

from accounts.consumers import CHANGES_EVERY_SECONDS
from accounts.models import OnlineConnection

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def receive_until(communicator, kind, timeout=5):
    while True:
        message = json.loads(await communicator.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message


async def test_a_signed_in_player_connects_and_is_counted(ws_connect, make_user):
    """The page's header is told how many players are online, this one included."""
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    assert (await receive_until(ws, "presence.count"))["count"] == 1
    assert await sync_to_async(OnlineConnection.objects.filter(user=ann).count)() == 1


async def test_a_forged_origin_is_refused(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    assert await ws_connect("/ws/presence/", ann, origin="http://evil.example", expect_accept=False) is None
    assert not await sync_to_async(OnlineConnection.objects.exists)()


async def test_a_watcher_hears_a_watched_player_come_and_go(ws_connect, make_user):
    """Ann's page watches Bob: it hears when Bob comes online and when his last tab goes."""
    ann = await sync_to_async(make_user)("ann")
    bob = await sync_to_async(make_user)("bob")
    ws_ann = await ws_connect("/ws/presence/", ann)
    await ws_ann.send_json_to({"type": "presence.watch", "players": [bob.pk]})
    await receive_until(ws_ann, "presence.changed")  # the answer to watching: catch up once
    ws_bob = await ws_connect("/ws/presence/", bob)
    await receive_until(ws_ann, "presence.changed")
    await ws_bob.disconnect()
    await receive_until(ws_ann, "presence.changed")
    assert not await sync_to_async(OnlineConnection.objects.filter(user=bob).exists)()


async def test_a_player_nobody_watches_coming_online_reaches_no_other_socket(ws_connect, make_user):
    """Other players' sockets, anonymous ones too, hear nothing of an arrival they do not watch."""
    ann, bob = await sync_to_async(make_user)("ann"), await sync_to_async(make_user)("bob")
    ws_ann = await ws_connect("/ws/presence/", ann)
    await receive_until(ws_ann, "presence.count")
    anonymous = await ws_connect("/ws/presence/")
    await ws_connect("/ws/presence/", bob)
    for ws in (ws_ann, anonymous):
        assert await ws.receive_nothing(timeout=0.5)


async def test_changes_reach_a_watcher_at_most_once_a_second(ws_connect, make_user):
    """Five friends coming online one after another make at most one message a second to
    the watcher, and the last change reaches it: a message at once, then at most one per
    second of the time the five took to connect, and one after the last (two when they
    connect within a second)."""
    ann = await sync_to_async(make_user)("ann")
    friends = [await sync_to_async(make_user)(f"friend{n}") for n in range(5)]
    watcher = await ws_connect("/ws/presence/", ann)
    await watcher.send_json_to({"type": "presence.watch", "players": [f.pk for f in friends]})
    await receive_until(watcher, "presence.changed")
    started = time.monotonic()
    for friend in friends:
        await ws_connect("/ws/presence/", friend)
    connecting = time.monotonic() - started
    told = 0
    while not await watcher.receive_nothing(timeout=1.5):
        told += json.loads(await watcher.receive_from())["type"] == "presence.changed"
    assert 1 <= told <= 2 + math.floor(connecting / CHANGES_EVERY_SECONDS)


async def test_an_anonymous_visitor_is_neither_counted_nor_told(ws_connect, make_user):
    """An anonymous socket records nothing, joins no group and is sent nothing on connect."""
    ann = await sync_to_async(make_user)("ann")
    await ws_connect("/ws/presence/", ann)
    anonymous = await ws_connect("/ws/presence/")
    assert await anonymous.receive_nothing(timeout=0.5)
    assert await sync_to_async(OnlineConnection.objects.count)() == 1
    await anonymous.send_to(text_data='{"type": "ping"}')
    assert (await receive_until(anonymous, "pong"))["type"] == "pong"


async def test_a_watch_of_too_many_or_malformed_players_is_refused(ws_connect, make_user):
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    for players in (list(range(1, 300)), ["bob"], "1 2", [True]):
        await ws.send_json_to({"type": "presence.watch", "players": players})
        assert "at most 200 player ids" in (await receive_until(ws, "error"))["reason"]


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
    await receive_until(ws, "presence.count")
    for _ in range(30):
        await ws.send_to(text_data='{"type": "ping"}')
    replies = [json.loads(await ws.receive_from(timeout=5)) for _ in range(30)]
    assert any(r.get("reason") == "Too many messages; slow down." for r in replies)


async def test_the_sweep_tells_the_watchers_of_a_player_whose_process_died(ws_connect, make_user):
    """A connection left by a dead process is swept; its player's watchers hear it, from
    the worker's process through the channel layer."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.tasks import sweep_presence

    ann, bob = await sync_to_async(make_user)("ann"), await sync_to_async(make_user)("bob")
    await sync_to_async(OnlineConnection.objects.create)(
        channel_name="gone", user=bob, seen_at=timezone.now() - timedelta(hours=1)
    )
    ws = await ws_connect("/ws/presence/", ann)
    await ws.send_json_to({"type": "presence.watch", "players": [bob.pk]})
    await receive_until(ws, "presence.changed")
    await asyncio.sleep(1.1)  # past the watcher's second
    await sync_to_async(sweep_presence.apply)()
    await receive_until(ws, "presence.changed")
    assert not await sync_to_async(OnlineConnection.objects.filter(user=bob).exists)()


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
    await receive_until(ws, "presence.count")
    counted_in.clear()
    await get_channel_layer().group_send(user_group(ann.pk), {"type": "games.changed", "kind": "tow", "game": 7})
    message = await receive_until(ws, "games.changed")
    assert (message["kind"], message["game"], message["awaiting"]) == ("tow", 7, 0)
    assert counted_in and shared not in counted_in
