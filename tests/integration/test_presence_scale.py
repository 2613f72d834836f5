"""One player's connect costs the same however many players are online, and a player's
open sockets are capped (the oldest gives way with a code that tells its page why)."""

from __future__ import annotations

import asyncio
import json
import os
import time

import pytest
from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from accounts.models import OnlineConnection
from config.websocket import CloseCode

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def make_players(prefix: str, count: int) -> list:
    password = make_password("correct-horse-9")
    User = get_user_model()
    return User.objects.bulk_create(
        [User(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", password=password) for n in range(count)]
    )


class Meter:
    """Database statements from every thread, and messages sent to every socket."""

    def __init__(self, monkeypatch):
        self.statements = 0
        self.sent: dict[str, int] = {}
        real_execute, real_send = CursorWrapper.execute, AsyncWebsocketConsumer.send

        def execute(cursor, *args, **kwargs):
            self.statements += 1
            return real_execute(cursor, *args, **kwargs)

        async def send(consumer, *args, **kwargs):
            self.sent[consumer.channel_name] = self.sent.get(consumer.channel_name, 0) + 1
            return await real_send(consumer, *args, **kwargs)

        monkeypatch.setattr(CursorWrapper, "execute", execute)
        monkeypatch.setattr(AsyncWebsocketConsumer, "send", send)


# Of the players online, those with a socket in this process; the others' sockets are on
# other web processes (their connections are rows, as a process elsewhere writes them).
HERE = 20


def online_elsewhere(players) -> None:
    now = timezone.now()
    OnlineConnection.objects.bulk_create(
        [OnlineConnection(user=player, channel_name=f"elsewhere.{player.pk}", seen_at=now) for player in players]
    )


async def cost_of_a_connect(ws_connect, monkeypatch, online: int) -> tuple[int, int, float]:
    """With ``online`` players online, one more player connects: the statements run, the
    messages the other sockets get, and this process's CPU."""
    players = await sync_to_async(make_players)(f"on{online}x", online)
    for player in players[:HERE]:
        await ws_connect("/ws/presence/", player)
    await sync_to_async(online_elsewhere)(players[HERE:])
    await asyncio.sleep(1.5)  # everyone's connect messages are in
    newcomer = (await sync_to_async(make_players)(f"new{online}x", 1))[0]
    meter = Meter(monkeypatch)
    try:
        cpu = time.process_time()
        ws = await ws_connect("/ws/presence/", newcomer)  # noqa: F841 (closed by the fixture)
        while json.loads(await ws.receive_from(timeout=5))["type"] != "presence.count":
            pass
        cpu = time.process_time() - cpu
        await asyncio.sleep(1.5)  # anything it made others receive has arrived
    finally:
        monkeypatch.undo()
    own = await sync_to_async(OnlineConnection.objects.get)(user=newcomer)
    return meter.statements, sum(n for channel, n in meter.sent.items() if channel != own.channel_name), cpu


async def test_the_cost_of_a_connect_is_the_same_with_5_and_500_players_online(ws_connect, monkeypatch):
    """Statements and messages to other sockets are the same for one connect with 5 and
    with 500 players online (every connect once told every socket the whole online list)."""
    few = await cost_of_a_connect(ws_connect, monkeypatch, 5)
    many = await cost_of_a_connect(ws_connect, monkeypatch, 500)
    if os.environ.get("PRESENCE_COST_REPORT"):
        print(f"\nconnect with 5 online: {few}; with 500 online: {many} (statements, sent to others, CPU s)")
    assert few[:2] == many[:2]
    assert few[1] == 0


async def test_the_oldest_of_too_many_sockets_is_closed_with_the_sites_code(ws_connect, make_user, settings):
    """A player opening one socket past the cap: the oldest closes with 4429, the others stay."""
    settings.SOCKETS_PER_USER = 3
    ann = await sync_to_async(make_user)("ann")
    sockets = [await ws_connect("/ws/presence/", ann) for _ in range(3)]
    newest = await ws_connect("/ws/presence/", ann)
    closed = await sockets[0].receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await sockets[0].receive_output(timeout=5)
    assert closed["code"] == CloseCode.TOO_MANY_SOCKETS
    for ws in (*sockets[1:], newest):
        await ws.send_to(text_data='{"type": "ping"}')
        while json.loads(await ws.receive_from(timeout=5))["type"] != "pong":
            pass


async def test_a_closed_socket_makes_room_for_another(ws_connect, make_user, settings):
    """Sockets the player closed themselves no longer count against the cap."""
    settings.SOCKETS_PER_USER = 2
    ann = await sync_to_async(make_user)("ann")
    first, second = await ws_connect("/ws/presence/", ann), await ws_connect("/ws/presence/", ann)
    await second.disconnect()
    third = await ws_connect("/ws/presence/", ann)
    for ws in (first, third):
        await ws.send_to(text_data='{"type": "ping"}')
        while json.loads(await ws.receive_from(timeout=5))["type"] != "pong":
            pass
