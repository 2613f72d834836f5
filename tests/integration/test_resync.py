"""Pages catch up after a lost connection, and a failed broadcast never fails its caller."""

from __future__ import annotations

import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from accounts import services as accounts
from config.realtime import user_group
from config.websocket import CloseCode
from games.hunts import services as hunts
from games.hunts.broadcasts import table_group

pytestmark = pytest.mark.django_db(transaction=True)


async def receive_until(communicator, kind, timeout=5):
    while True:
        message = json.loads(await communicator.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message


@pytest.mark.asyncio
async def test_the_site_socket_sends_the_unread_count_on_connect(ws_connect, make_user):
    """A (re)connecting page is told how many notifications are unread, those missed included."""
    ann = await sync_to_async(make_user)("ann")
    await sync_to_async(accounts.notify)(user=ann, kind="test", text="one")
    await sync_to_async(accounts.notify)(user=ann, kind="test", text="two")
    ws = await ws_connect("/ws/presence/", ann)
    assert (await receive_until(ws, "notification.count"))["count"] == 2


@pytest.mark.asyncio
async def test_after_a_channel_layer_outage_a_page_reconnects(ws_connect, make_user):
    """``layer.reconnected`` closes an ordinary socket with the site's resync code, so its page reconnects and resyncs."""
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    await receive_until(ws, "notification.count")
    await get_channel_layer().group_send(user_group(ann.pk), {"type": "layer.reconnected"})
    closed = await ws.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await ws.receive_output(timeout=5)
    assert closed["code"] == CloseCode.RESYNC


@pytest.mark.asyncio
async def test_after_a_channel_layer_outage_the_hunt_table_resends_its_state(ws_connect, make_user):
    """The hunt table answers ``layer.reconnected`` with its whole state on the open socket."""
    ann = await sync_to_async(make_user)("ann")
    table = await sync_to_async(hunts.table_create)(host=ann, bots=("easy",))
    ws = await ws_connect(f"/ws/hunts/{table.pk}/", ann)
    await receive_until(ws, "state")
    await get_channel_layer().group_send(table_group(table.pk), {"type": "layer.reconnected"})
    state = await receive_until(ws, "state")
    assert state["table"]["id"] == table.pk


def test_a_broadcast_failure_does_not_fail_the_use_case(make_user, monkeypatch, caplog):
    """With the channel layer broken, a use case that broadcasts still commits and returns."""
    import config.realtime

    def broken():
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(config.realtime, "get_channel_layer", broken)
    ann = make_user("ann")
    table = hunts.table_create(host=ann, bots=("easy",))  # broadcasts to the lobby after commit
    assert table.pk is not None
    assert "Broadcast to" in caplog.text


def test_broadcasts_outside_a_server_are_sent_by_one_loop_of_the_process():
    """Without a server loop (Celery, a shell) each broadcast is delivered before it
    returns, every one by the same sending thread, so no send makes a loop of its own."""
    import asyncio

    import config.realtime as realtime

    layer = get_channel_layer()
    senders = set()

    def send(n):
        realtime.broadcast("resync-test", {"type": "test.message", "n": n})
        senders.add(realtime._sender[1])

    async def main():
        channel = await layer.new_channel()
        await layer.group_add("resync-test", channel)
        for n in range(3):
            await asyncio.to_thread(send, n)
        return [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(3)]

    threads = threading.active_count()
    assert asyncio.run(main()) == [0, 1, 2]
    assert len(senders) == 1 and next(iter(senders)).is_alive()
    assert threading.active_count() <= threads + 1  # the sending thread, when this test started it
